import type { Database } from './client.js';

/**
 * One NOTIFY channel for the in-memory caches of an instance (folder counts, the due-time policy, the
 * staff lookup). Statement triggers of the migration "cache_notify" publish on it when the folder
 * counters, app_settings, staff_users or staff_sessions change, in the transaction that changed them, so
 * every instance on one database hears every change once it is committed. Payloads: `counts`,
 * `settings`, `staff:<id>`.
 */
export const CACHE_CHANNEL = 'edcard_cache';

type Handler = (payload: string) => void;

interface Listener {
  handlers: Set<Handler>;
  ready: Promise<() => Promise<void>>;
}

const listeners = new WeakMap<Database, Listener>();

/** Subscribes to the cache channel of a database (one LISTEN per database and process, shared). */
export async function onCacheEvent(database: Database, handler: Handler): Promise<() => Promise<void>> {
  let listener = listeners.get(database);
  if (!listener) {
    const handlers = new Set<Handler>();
    const ready = database.listen(CACHE_CHANNEL, (payload) => {
      for (const h of handlers) h(payload);
    });
    listener = { handlers, ready };
    listeners.set(database, listener);
  }
  const l = listener;
  l.handlers.add(handler);
  await l.ready;
  return async () => {
    l.handlers.delete(handler);
    if (l.handlers.size || listeners.get(database) !== l) return;
    listeners.delete(database);
    const stop = await l.ready;
    await stop().catch(() => {});
  };
}
