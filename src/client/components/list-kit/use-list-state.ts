import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PAGE_SIZES, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import type { PageSize } from '../pagination-bar';

export type ListUpdate = (changes: Record<string, string | null>) => void;

/**
 * One URL parameter of a list, declared once: how its text reads as a typed value, and how a value is
 * written back (null leaves the parameter out of the URL).
 */
export interface UrlParam<T> {
  parse(raw: string | null): T;
  serialize(value: T): string | null;
}

/** The parameters a list declares, by URL name. */
export type UrlParams = Record<string, UrlParam<unknown>>;
/** Their typed values. */
export type ParamValues<F extends UrlParams> = { [K in keyof F]: ReturnType<F[K]['parse']> };

/** Free text ('' when absent; '' is left out). */
export const textParam: UrlParam<string> = {
  parse: (raw) => raw ?? '',
  serialize: (v) => (v === '' ? null : v),
};

/** A value the shared contract accepts (checked by its zod schema), else none. */
export function schemaParam<T extends string>(schema: z.ZodType<T | undefined>): UrlParam<T | undefined> {
  return {
    parse: (raw) => (raw === null ? undefined : schema.safeParse(raw).data),
    serialize: (v) => v ?? null,
  };
}

/** The page number: 1 and anything not a positive number is the first page (left out of the URL). */
export const pageParam: UrlParam<number> = {
  parse: (raw) => Math.max(1, Number.parseInt(raw ?? '1', 10) || 1),
  serialize: (p) => (p > 1 ? String(p) : null),
};

/** Rows per page: one of PAGE_SIZES or 'All'; 10 (the default) is left out. */
export const sizeParam: UrlParam<PageSize> = {
  parse: (raw) =>
    raw === 'All' ? 'All' : (PAGE_SIZES as readonly number[]).includes(Number(raw)) ? Number(raw) : 10,
  serialize: (s) => (s === 10 ? null : String(s)),
};

/** Writes typed values as URL text through their parameters' serializers. */
export function serializeParams<F extends UrlParams>(
  declared: F,
  values: Partial<ParamValues<F>>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of Object.keys(values)) {
    const p = declared[key];
    if (p) out[key] = p.serialize(values[key]);
  }
  return out;
}

/**
 * The state of a list, all in the URL (a list is a link; Back works): page, page size, the committed
 * search, and the list's own sort and filter parameters (`declared`, each read and written by its own
 * serializer). `filters` holds their typed values, `query` the ones set as the server takes them. The
 * search box's text is kept here too and goes to the URL `SEARCH_DEBOUNCE_MS` after the last keystroke,
 * back to page 1; a search arriving through the URL (Back, a shared link) shows in the box. `update`
 * sets or clears (null or empty) any parameter by its text; `setFilters` sets typed values and goes
 * back to page 1.
 */
export function useListState<F extends UrlParams = Record<never, never>>(declared: F = {} as F) {
  const [params, setParams] = useSearchParams();
  const page = pageParam.parse(params.get('page'));
  const size = sizeParam.parse(params.get('size'));
  const search = textParam.parse(params.get('search'));
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

  const keys = Object.keys(declared);
  const queryText = keys.map((k) => `${k}=${params.get(k) ?? ''}`).join('&');
  // biome-ignore lint/correctness/useExhaustiveDependencies: queryText is the value of the declared parameters.
  const { filters, query } = useMemo(() => {
    const values: Record<string, unknown> = {};
    const set: Record<string, string> = {};
    for (const k of keys) {
      const p = declared[k]!;
      values[k] = p.parse(params.get(k));
      const text = p.serialize(values[k]);
      if (text) set[k] = text;
    }
    return { filters: values as ParamValues<F>, query: set };
  }, [queryText]);
  const setFilters = useCallback(
    (values: Partial<ParamValues<F>>) => update({ ...serializeParams(declared, values), page: null }),
    [declared, update],
  );

  const [typed, setTyped] = useState(search);
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => update({ search: typed.trim(), page: null }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, update]);
  useEffect(() => setTyped((t) => (t.trim() === search ? t : search)), [search]);

  const setPage = useCallback((p: number) => update({ page: pageParam.serialize(p) }), [update]);
  const setSize = useCallback(
    (s: PageSize) => update({ size: sizeParam.serialize(s), page: null }),
    [update],
  );

  return {
    params,
    page,
    size,
    search,
    typed,
    setTyped,
    filters,
    setFilters,
    query,
    update,
    setPage,
    setSize,
  };
}
