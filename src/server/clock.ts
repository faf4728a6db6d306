/**
 * The server's clock: the time sign-in decisions (throttle windows, session idle and absolute ends,
 * TOTP steps), the due times and the submission windows use. Tests move it to check expiries without
 * waiting; the server never does. A floor module: it imports nothing.
 */
let current: () => Date = () => new Date();

export function now(): Date {
  return current();
}

/** Test hook: a fixed or shifted clock; `null` restores the real one. */
export function setClockForTests(clock: (() => Date) | null): void {
  current = clock ?? (() => new Date());
}
