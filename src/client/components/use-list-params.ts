import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES } from '../../shared/constants';
import type { PageSize } from './pagination-bar';

/**
 * Page, size and search of a table live in the URL (shareable links, the back button works).
 * `update` sets or clears (null / empty) any URL parameter.
 */
export function useListParams() {
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
  const update = useCallback(
    (changes: Record<string, string | null>) =>
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
  return { params, page, size, search, update };
}
