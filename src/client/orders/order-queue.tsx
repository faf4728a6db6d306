import Button from 'react-bootstrap/Button';
import { type Folder, MAX_PAGE_SIZE } from '../../shared/constants';
import { can, readPermissionFor } from '../../shared/permissions';
import { api, errorMessage } from '../transport/api';
import { useAppDispatch } from '../state/store';
import { sessionUser } from '../transport/session';
import { ConfirmDialog } from '../components/confirm-dialog';
import { RefundReasonFields } from '../components/refund-reason-fields';
import { LoadError } from '../components/load-error';
import { PaginationBar } from '../components/pagination-bar';
import { type ListUpdate, useListState } from '../components/list-kit/use-list-state';
import { NewOrdersBar } from '../live/new-orders-bar';
import { DEFAULT_LIST_SORT } from '../../shared/list-sort';
import { type Column, type ColumnKey, DEFAULT_FOLDER_COLUMN_KEYS, VIEW_COLUMN } from './columns';
import { LIST_FILTERS, useListPrefs } from './list-controls';
import { OrderTable } from './order-table';
import { queueRowActions } from './queue-row-actions';
import { QueueToolbar } from './queue-toolbar';
import { useBulkActions } from './use-bulk-actions';
import { useQueueRows } from './use-queue-rows';

/** Shown instead of the table when the role may not read the folder (the server would answer 403). */
export const NO_ACCESS = 'You do not have permission to view this list.';

interface Props {
  folder: Folder;
  title: string;
  columns: Column[];
  /** Rows in the folder (from the counts) — the pagination total when not searching. */
  folderTotal: number | undefined;
  /** Future orders: the process month tile that was opened. */
  month?: string | undefined;
  onBack?: (() => void) | undefined;
  /** Folder lists: the columns the chooser offers (`columns` is then ignored). */
  choosable?: Column[] | undefined;
  /** The columns shown until a member chooses (default: the folder columns of docs/product.md and Due). */
  defaultColumns?: ColumnKey[] | undefined;
  /** A folder that remembers its own column choice apart from the other lists. */
  prefsScope?: string | undefined;
}

/** The columns a view's link names (`?columns=`), else the member's choice, else the list's default. */
function shownColumnKeys(params: URLSearchParams, chosen: ColumnKey[] | undefined, defaults: ColumnKey[]) {
  const fromView = params
    .get('columns')
    ?.split(',')
    .map((name) => (Object.keys(VIEW_COLUMN) as ColumnKey[]).find((k) => VIEW_COLUMN[k] === name))
    .filter((k): k is ColumnKey => !!k);
  const shownKeys = fromView?.length ? fromView : (chosen ?? defaults);
  return { fromView, shownKeys };
}

/** What the table shows instead of rows: why the list is not there, or that this page has none left. */
function queueEmptyContent({
  allowed,
  failed,
  total,
  page,
  retry,
  update,
}: {
  allowed: boolean;
  failed: unknown;
  total: number;
  page: number;
  retry: () => void;
  update: ListUpdate;
}) {
  if (!allowed) return <div role="alert">{NO_ACCESS}</div>;
  if (failed)
    return (
      <LoadError
        message={errorMessage(failed)}
        onRetry={(failed as { status?: unknown }).status === 403 ? undefined : retry}
      />
    );
  if (total <= 0) return undefined;
  // The folder has orders but none on this page (some moved away since): never "No records found".
  return (
    <div role="status">
      <div className="mb-2">No orders on this page.</div>
      {page > 1 ? (
        <Button size="sm" variant="outline-primary" onClick={() => update({ page: null })}>
          Go to the first page
        </Button>
      ) : (
        <Button size="sm" variant="outline-primary" onClick={retry}>
          Retry
        </Button>
      )}
    </div>
  );
}

/** The title (with the month of a future-orders tile), Back where there is one, and Refresh. */
function QueueHeader({
  title,
  month,
  onBack,
  onRefresh,
}: {
  title: string;
  month: string | undefined;
  onBack: (() => void) | undefined;
  onRefresh: () => void;
}) {
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 id="queue-title" className="h4 mb-0">
        {title}
        {month ? ` — ${month}` : ''}
      </h1>
      <div className="d-flex gap-2">
        {onBack ? (
          <Button variant="outline-secondary" size="sm" onClick={onBack}>
            Back
          </Button>
        ) : null}
        <Button variant="outline-primary" size="sm" onClick={onRefresh}>
          Refresh
        </Button>
      </div>
    </div>
  );
}

/** One queue screen: title bar, search, bulk actions, the order table, pagination and CSV export. */
export function OrderQueue({
  folder,
  title,
  columns: fixedColumns,
  folderTotal,
  month,
  onBack,
  choosable,
  defaultColumns = DEFAULT_FOLDER_COLUMN_KEYS,
  prefsScope,
}: Props) {
  const role = sessionUser()?.type ?? null;
  // Page, size, search, sort and filters live in the URL; with sort or filters the server answers the
  // page and its total.
  const list = useListState(LIST_FILTERS);
  const { params, page, size, search, filters, query, update } = list;
  const prefs = useListPrefs(sessionUser()?.id, prefsScope);
  const { fromView, shownKeys } = shownColumnKeys(params, prefs.columns, defaultColumns);
  const columns = choosable ? choosable.filter((c) => shownKeys.includes(c.key)) : fixedColumns;
  // A list the role may not read (a link typed or shared) is not asked for: the screen says why.
  const allowed = can(role, readPermissionFor(folder));
  const read = useQueueRows({ folder, month, page, size, search, query, folderTotal, allowed });
  const { rows, total, loading, error: failed, retry, limit } = read;
  const bulk = useBulkActions({ folder, role, rows, dataKey: read.dataKey });
  const { busy } = bulk;

  // Refresh asks again for the list on screen and the counts (nothing else on the page reloads).
  const dispatch = useAppDispatch();
  const refresh = () => {
    retry();
    dispatch(api.util.invalidateTags(['Counts']));
  };

  return (
    <section className="p-3" aria-labelledby="queue-title">
      <QueueHeader title={title} month={month} onBack={onBack} onRefresh={refresh} />
      <QueueToolbar
        folder={folder}
        role={role}
        month={month}
        typed={list.typed}
        setTyped={list.setTyped}
        search={search}
        query={query}
        update={update}
        rows={rows}
        limit={limit}
        bulk={bulk}
        columns={columns}
        choosable={choosable}
        shownKeys={shownKeys}
        fromView={fromView}
        prefs={prefs}
      />
      <NewOrdersBar
        folder={folder}
        // The plain folder list only: a search, a filter or 'All' is not what the folder count counts.
        loadedAt={read.loadedAt}
        onShow={retry}
      />
      <OrderTable
        rows={rows}
        columns={columns}
        loading={loading}
        selectable={bulk.buttons.length > 0}
        selected={bulk.selected}
        onToggle={bulk.toggle}
        onToggleAll={bulk.toggleAll}
        rowActions={queueRowActions({ folder, role, bulk })}
        emptyContent={queueEmptyContent({ allowed, failed, total, page, retry, update })}
        // The default columns show those that fit; columns a member chose (or a view names) all show.
        fit={!choosable || !(fromView?.length || prefs.columns)}
        // Without a sort the server reads the folder's default (due time in the working queues).
        sort={
          filters.sort
            ? { key: filters.sort, dir: filters.dir ?? 'asc' }
            : { key: DEFAULT_LIST_SORT[folder]?.sort, dir: DEFAULT_LIST_SORT[folder]?.dir ?? 'asc' }
        }
        onSort={(sort, dir) => list.setFilters({ sort, dir })}
        compact={prefs.compact}
      />
      {read.totalCapped ? (
        <p className="small text-muted mt-2 mb-0" role="status">
          More than 1,000 orders match: showing the first 1,000. Type more of the name, e-mail or phone to
          narrow the search.
        </p>
      ) : null}
      <PaginationBar
        page={page}
        pageSize={size}
        total={total}
        allowAll={total <= MAX_PAGE_SIZE}
        onPage={list.setPage}
        onPageSize={list.setSize}
      />
      <ConfirmDialog {...bulk.confirm} busy={busy}>
        {bulk.refundReason ? <RefundReasonFields id="bulk-refund-reason" {...bulk.refundReason} /> : null}
      </ConfirmDialog>
    </section>
  );
}
