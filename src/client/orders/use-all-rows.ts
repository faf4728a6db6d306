import { useEffect, useState } from 'react';
import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { useAppDispatch } from '../app/store';
import { type ListQuery, listApi } from './list-api';

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
 */
export function useAllRows(
  enabled: boolean,
  args: { folder: Folder; month?: string | undefined; query: ListQuery },
  reload = 0,
): AllRows {
  const dispatch = useAppDispatch();
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
    const get = async (page: number, limit: number) => {
      const sub = dispatch(
        listApi.endpoints.getOrdersPage.initiate(
          { folder, page, limit, month, query },
          { forceRefetch: true },
        ),
      );
      try {
        return await sub.unwrap();
      } finally {
        sub.unsubscribe();
      }
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
          setState({ rows, total, loading: false, done: false, error: null });
        }
        setState({ rows, total, loading: false, done: true, error: null });
      } catch (error) {
        if (!cancelled) setState((s) => ({ ...s, loading: false, error }));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [enabled, key, reload, dispatch]);
  return enabled ? state : { rows: [], total: undefined, loading: false, done: false, error: null };
}
