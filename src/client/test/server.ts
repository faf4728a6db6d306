import { setupServer } from 'msw/node';

/**
 * The API of the client tests: Mock Service Worker answers the requests the screens really send (fetch
 * and XMLHttpRequest), so the transport, the base query and the 401 handling run as in the browser.
 * Each test adds its answers with `mockApi` (fixtures.tsx); they are reset after every test.
 */
export const server = setupServer();
