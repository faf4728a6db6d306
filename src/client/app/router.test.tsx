import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../shared/constants';
import { routes } from './router';

/** The staff screens under /admin, as the router calls them: each route's lazy function. */
function adminScreen(path: string | undefined) {
  const admin = routes.find((r) => r.path === '/admin');
  const route = admin?.children?.find((r) => (path === undefined ? r.index : r.path === path));
  return route?.lazy as unknown as () => Promise<{ Component: { name: string } }>;
}

describe('staff screens and the first load (docs/decisions/284)', () => {
  afterEach(() => localStorage.clear());

  it('signed out, a screen under the login is a stand-in: its code waits for the sign-in', async () => {
    const first = await adminScreen(undefined)();
    expect(first.Component.name).toBe('DeferredScreen');
    // One stand-in per route: after the sign-in the router keeps it, and it loads the screen once.
    expect((await adminScreen(undefined)()).Component).toBe(first.Component);
    expect((await adminScreen('view-order/:orderId')()).Component.name).toBe('DeferredScreen');
  });

  it('signed in, the router loads the screen itself before it shows', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken: 'a.b.c' }));
    const screen = await adminScreen('future-order')();
    expect(screen.Component.name).not.toBe('DeferredScreen');
    expect(typeof screen.Component).toBe('function');
  });
});
