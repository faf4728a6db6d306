import { useState } from 'react';
import { type Folder, MAX_PAGE_SIZE } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import type { PageSize } from '../components/pagination-bar';
import { type ListQuery, useGetListPageQuery, useSearchListQuery } from './list-api';
import { useAllRows } from './use-all-rows';

/**
 * What a queue screen is showing: the folder's page as it is (its total from the live counts), a page
 * under a sort, filters or a saved view, a search, or 'All' of the folder streamed in chunks.
 */
export type QueuePurpose = 'folder' | 'filtered' | 'search' | 'all';

export interface QueueArgs {
  folder: Folder;
  month?: string | undefined;
  page: number;
  size: PageSize;
  search: string;
  query: ListQuery;
  /** Rows in the folder (the live counts): the plain folder list's total and the 'All' request size. */
  folderTotal: number | undefined;
  /** The role may read the folder: nothing is asked for otherwise. */
  allowed: boolean;
}

export interface QueueRows {
  purpose: QueuePurpose;
  rows: OrderListRow[];
  total: number;
  /** A search stopped counting at its cap. */
  totalCapped: boolean;
  /** Rows asked for per page (the 'All' size is the folder's count, capped). */
  limit: number;
  loading: boolean;
  error: unknown;
  /** Asks again for what is on screen. */
  retry: () => void;
  /** When the plain folder list on screen was loaded (new orders are counted from then); else undefined. */
  loadedAt: number | undefined;
  /** Changes whenever a new page, size, search or data set arrives (the selection starts again). */
  dataKey: unknown;
}

export function queuePurpose(size: PageSize, search: string, query: ListQuery): QueuePurpose {
  if (search !== '') return 'search';
  if (size === 'All') return 'all';
  return Object.keys(query).length > 0 ? 'filtered' : 'folder';
}

/** The one read of a queue screen: rows, total, state and retry for whichever purpose the URL asks. */
export function useQueueRows({
  folder,
  month,
  page,
  size,
  search,
  query,
  folderTotal,
  allowed,
}: QueueArgs): QueueRows {
  const purpose = queuePurpose(size, search, query);
  const limit =
    size !== 'All'
      ? size
      : purpose === 'search'
        ? MAX_PAGE_SIZE
        : Math.min(Math.max(folderTotal ?? 0, 1), MAX_PAGE_SIZE);
  const paged = purpose === 'folder' || purpose === 'filtered';
  const options = { refetchOnMountOrArgChange: true } as const;
  // The plain folder page sends no sort or filter: the same request (and cache entry) as before any.
  const listPage = useGetListPageQuery(
    { folder, page, limit, month, query: purpose === 'folder' ? {} : query },
    { ...options, skip: !allowed || !paged },
  );
  const searchPage = useSearchListQuery(
    { folderName: folder, searchVal: search, start: (page - 1) * limit, end: page * limit, month, query },
    { ...options, skip: !allowed || purpose !== 'search' },
  );
  const [reloadAll, setReloadAll] = useState(0);
  const all = useAllRows(allowed && purpose === 'all', { folder, month, query }, reloadAll);

  if (!allowed) {
    const nothing = () => undefined;
    return {
      purpose,
      rows: [],
      total: 0,
      totalCapped: false,
      limit,
      loading: false,
      error: undefined,
      retry: nothing,
      loadedAt: undefined,
      dataKey: undefined,
    };
  }
  if (purpose === 'all')
    return {
      purpose,
      rows: all.rows,
      total: all.total ?? (Object.keys(query).length > 0 ? 0 : (folderTotal ?? 0)),
      totalCapped: false,
      limit,
      loading: all.loading,
      error: all.error ?? undefined,
      retry: () => setReloadAll((n) => n + 1),
      loadedAt: undefined,
      dataKey: all.total,
    };
  const read = paged ? listPage : searchPage;
  const data = read.currentData;
  return {
    purpose,
    rows: data?.rows ?? [],
    // The plain folder list counts as the tiles do (live); anything narrower counts on the server.
    total: purpose === 'folder' ? (folderTotal ?? 0) : (data?.total ?? 0),
    totalCapped: data?.totalCapped ?? false,
    limit,
    loading: read.isFetching,
    error: read.error,
    retry: () => void read.refetch(),
    loadedAt: purpose === 'folder' ? read.fulfilledTimeStamp : undefined,
    dataKey: data,
  };
}
