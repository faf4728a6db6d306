import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import type { PageSize } from '../pagination-bar';

export type ListUpdate = (changes: Record<string, string | null>) => void;

/**
 * The state of a list, all in the URL (a list is a link; Back works): page, page size, the committed
 * search, and the sort and filter parameters the caller names (`queryKeys`). The search box's text is
 * kept here too and goes to the URL `SEARCH_DEBOUNCE_MS` after the last keystroke, back to page 1; a
 * search arriving through the URL (Back, a shared link) shows in the box. `update` sets or clears (null
 * or empty) any parameter.
 */
export function useListState(queryKeys: readonly string[] = []) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const rawSize = params.get('size');
  const size: PageSize =
    rawSize === 'All'
      ? 'All'
      : (PAGE_SIZES as readonly number[]).includes(Number(rawSize))
        ? Number(rawSize)
        : 10;
  const search = params.get('search') ?? '';
  const update: ListUpdate = useCallback(
    (changes) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        return next;
      }),
    [setParams],
  );

  // Sort and filters: only the ones set, as the server takes them.
  const queryText = queryKeys.map((k) => `${k}=${params.get(k) ?? ''}`).join('&');
  // biome-ignore lint/correctness/useExhaustiveDependencies: queryText is the value of params' query keys.
  const query = useMemo(() => {
    const out: Record<string, string> = {};
    for (const k of queryKeys) {
      const v = params.get(k);
      if (v) out[k] = v;
    }
    return out;
  }, [queryText]);

  const [typed, setTyped] = useState(search);
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => update({ search: typed.trim(), page: null }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, update]);
  useEffect(() => setTyped((t) => (t.trim() === search ? t : search)), [search]);

  const setPage = useCallback((p: number) => update({ page: p > 1 ? String(p) : null }), [update]);
  const setSize = useCallback(
    (s: PageSize) => update({ size: s === 10 ? null : String(s), page: null }),
    [update],
  );

  return { params, page, size, search, typed, setTyped, query, update, setPage, setSize };
}
