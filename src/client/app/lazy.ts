import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';

/**
 * Wraps a route module import: a chunk that fails to load, or takes longer than 120 s, is reported as
 * 'Loading chunk <name> failed' (docs/product.md, "Texts, toasts and errors").
 */
export function lazyChunk<T>(name: string, importer: () => Promise<T>): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Loading chunk ${name} failed`)),
        CHUNK_LOAD_TIMEOUT_MS,
      );
      importer().then(
        (mod) => {
          clearTimeout(timer);
          resolve(mod);
        },
        () => {
          clearTimeout(timer);
          reject(new Error(`Loading chunk ${name} failed`));
        },
      );
    });
}

/** Screens whose code waits behind the login (the router's stand-ins, docs/decisions/284). */
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
