import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server';

// A request no test answers fails loudly instead of reaching the network.
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom runs on Node's fetch, which has no page to resolve '/api/…' against; the browser does.
  const intercepted = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    intercepted(typeof input === 'string' ? new URL(input, window.location.href).href : input, init);
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
