/**
 * The time sign-in decisions use (throttle windows, session idle and absolute ends, TOTP steps).
 * Tests move it to check expiries without waiting; the server never does.
 */
let current: () => Date = () => new Date();

export function now(): Date {
  return current();
}

/** Test hook: a fixed or shifted clock; `null` restores the real one. */
export function setClockForTests(clock: (() => Date) | null): void {
  current = clock ?? (() => new Date());
}
