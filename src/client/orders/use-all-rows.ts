import { startTransition, useEffect, useState } from 'react';
import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { requestJson } from '../transport/api-client';
import { type ListQuery, listPageRequest } from './list-api';

/** Rows of the first request: they show at once. */
export const ALL_FIRST = 500;
/** Rows per later request while the rest of 'All' streams in. */
export const ALL_CHUNK = 5000;

interface AllRows {
  rows: OrderListRow[];
  total: number | undefined;
  loading: boolean;
  done: boolean;
  error: unknown;
}

/**
 * 'All' of a folder in chunks: the first 500 rows show at once, the rest arrive 5,000 at a time and
 * are appended (the table renders only the visible rows). A change of folder, sort or filter, or
 * `reload`, starts again.
 *
 * The chunks go through the app's transport, not the RTK Query cache: nothing reads them from the
 * cache, and storing each 5,000-row answer there froze it (immer) and kept it for a minute. Each later
 * chunk is appended in a transition, so scrolling and clicks go first; the table keeps the rows it has
 * already made (list-kit's incremental row model), so an append costs the new rows only.
 */
export function useAllRows(
  enabled: boolean,
  args: { folder: Folder; month?: string | undefined; query: ListQuery },
  reload = 0,
): AllRows {
  const [state, setState] = useState<AllRows>({
    rows: [],
    total: undefined,
    loading: false,
    done: false,
    error: null,
  });
  const key = JSON.stringify(args);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` only restarts the stream.
  useEffect(() => {
    if (!enabled) return;
    const { folder, month, query } = JSON.parse(key) as typeof args;
    let cancelled = false;
    const abort = new AbortController();
    // The same request (and answer) as list-api's getListPage.
    const get = async (page: number, limit: number) => {
      const { url, params } = listPageRequest({ folder, month, query, page, limit });
      const res = await requestJson<OrderListRow[]>(url, { params, signal: abort.signal });
      if (!res.ok) throw res.error;
      return { rows: res.body.data ?? [], total: res.body.total ?? 0 };
    };
    setState({ rows: [], total: undefined, loading: true, done: false, error: null });
    void (async () => {
      try {
        const first = await get(1, ALL_FIRST);
        if (cancelled) return;
        let rows = first.rows;
        const total = first.total;
        setState({ rows, total, loading: false, done: rows.length >= total, error: null });
        for (let page = 1; rows.length < total && (page - 1) * ALL_CHUNK < total; page++) {
          const part = await get(page, ALL_CHUNK);
          if (cancelled) return;
          if (!part.rows.length) break;
          rows = rows.concat(page === 1 ? part.rows.slice(ALL_FIRST) : part.rows);
          const next = { rows, total, loading: false, done: false, error: null };
          startTransition(() => setState(next));
        }
        const last = rows;
        startTransition(() => setState({ rows: last, total, loading: false, done: true, error: null }));
      } catch (error) {
        if (!cancelled) setState((s) => ({ ...s, loading: false, error }));
      }
    })();
    return () => {
      cancelled = true;
      abort.abort();
    };
  }, [enabled, key, reload]);
  return enabled ? state : { rows: [], total: undefined, loading: false, done: false, error: null };
}
