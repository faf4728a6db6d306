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
