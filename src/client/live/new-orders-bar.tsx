import { useEffect, useState } from 'react';
import { FOLDER_COUNT_KEYS, type Folder } from '../../shared/constants';
import { useGetFolderCountQuery } from '../orders/counts-api';

/** Orders that arrived since this many. */
export function newOrdersText(n: number): string {
  return `${n} new order${n === 1 ? '' : 's'}`;
}

interface Props {
  folder: Folder;
  /** When the shown list was loaded (the list query's fulfilledTimeStamp); undefined while searching. */
  loadedAt: number | undefined;
  onShow: () => void;
}

/**
 * "3 new orders — show": the live counts say the folder has grown since the list on screen was loaded.
 * The list does not reload under the cursor; the user chooses when.
 */
export function NewOrdersBar({ folder, loadedAt, onShow }: Props) {
  // Every folder list counts its whole folder; a Future Orders table shows one month of it, so none there.
  const countKey = folder === 'futureOrder' ? undefined : FOLDER_COUNT_KEYS[folder];
  const { data: counts } = useGetFolderCountQuery();
  const count = countKey && counts ? counts[countKey] : undefined;
  const [baseline, setBaseline] = useState<{ at: number | undefined; count: number | undefined }>({
    at: loadedAt,
    count,
  });
  // A fresh list is the new baseline.
  if (baseline.at !== loadedAt) setBaseline({ at: loadedAt, count });
  // Orders leaving the folder lower the baseline, so one leaving and one arriving still shows one new.
  useEffect(() => {
    if (count === undefined) return;
    setBaseline((b) => (b.count === undefined || count < b.count ? { ...b, count } : b));
  }, [count]);
  const added = count !== undefined && baseline.count !== undefined ? count - baseline.count : 0;
  if (loadedAt === undefined || added <= 0) return null;
  return (
    <div
      className="live-new-orders alert alert-info d-flex align-items-center gap-2 py-1 px-2 mb-2"
      role="status"
    >
      <span>{newOrdersText(added)}</span>
      <span aria-hidden>—</span>
      <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={onShow}>
        show
      </button>
    </div>
  );
}
