/**
 * Screens whose code waits behind the login (the router's stand-ins, docs/decisions/284). The router
 * registers them and the sign-in form starts them: the login knows no screen, the router no form.
 */
const waitingForSignIn = new Set<() => Promise<unknown>>();

export function waitUntilSignIn(load: () => Promise<unknown>): void {
  waitingForSignIn.add(load);
}

/**
 * Starts loading the screens the login stands in front of: the sign-in form calls it when it sends the
 * credentials, so a screen's code arrives while the server checks them, not after.
 */
export function preloadScreensAfterSignIn(): void {
  for (const load of waitingForSignIn) load().catch(() => undefined);
  waitingForSignIn.clear();
}
