import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import { type Folder, MAX_PAGE_SIZE } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { can, readPermissionFor } from '../../shared/permissions';
import { api, errorMessage } from '../transport/api';
import { useAppDispatch } from '../state/store';
import { sessionUser } from '../transport/session';
import { ConfirmDialog } from '../components/confirm-dialog';
import { RefundReasonFields } from '../components/refund-reason-fields';
import { LoadError } from '../components/load-error';
import { PaginationBar } from '../components/pagination-bar';
import { ListToolbar } from '../components/list-kit/list-toolbar';
import { useListState } from '../components/list-kit/use-list-state';
import { NewOrdersBar } from '../live/new-orders-bar';
import { useServerExport } from '../components/use-audited-export';
import { DEFAULT_LIST_SORT } from '../../shared/list-sort';
import { type Column, type ColumnKey, DEFAULT_FOLDER_COLUMN_KEYS, VIEW_COLUMN } from './columns';
import { BulkExtras } from './bulk-extras';
import {
  ColumnChooser,
  FilterBar,
  LIST_FILTERS,
  LIST_PARAMS,
  SaveViewButton,
  useListPrefs,
} from './list-controls';
import { OrderTable } from './order-table';
import { rowDecision, useBulkActions } from './use-bulk-actions';
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
  const fromView = params
    .get('columns')
    ?.split(',')
    .map((name) => (Object.keys(VIEW_COLUMN) as ColumnKey[]).find((k) => VIEW_COLUMN[k] === name))
    .filter((k): k is ColumnKey => !!k);
  const shownKeys = fromView?.length ? fromView : (prefs.columns ?? defaultColumns);
  const columns = choosable ? choosable.filter((c) => shownKeys.includes(c.key)) : fixedColumns;
  const searching = search !== '';
  // A list the role may not read (a link typed or shared) is not asked for: the screen says why.
  const allowed = can(role, readPermissionFor(folder));
  const read = useQueueRows({ folder, month, page, size, search, query, folderTotal, allowed });
  const { rows, total, loading, error: failed, retry, limit } = read;
  const emptyContent = !allowed ? (
    <div role="alert">{NO_ACCESS}</div>
  ) : failed ? (
    <LoadError
      message={errorMessage(failed)}
      onRetry={(failed as { status?: unknown }).status === 403 ? undefined : retry}
    />
  ) : total > 0 ? (
    // The folder has orders but none on this page (some moved away since): never "No records found".
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
  ) : undefined;
  const bulk = useBulkActions({ folder, role, rows, dataKey: read.dataKey });
  const { busy, ask } = bulk;

  // The whole filtered view (every page), streamed by the server, which records the export in the
  // audit log before the first byte (personal data).
  const { exportFile, exporting } = useServerExport();
  const exportCsv = () =>
    exportFile(
      `admin/export-orders/${folder}`,
      { ...query, ...(month ? { month } : {}), ...(searching ? { search } : {}) },
      `orders-${folder}.csv`,
    );

  const canRestore = bulk.rowActions.includes('restore');
  const showRowDelete = bulk.rowActions.includes('delete');
  const showRefund = bulk.rowActions.includes('refund');
  const rowActions =
    showRowDelete || showRefund || canRestore
      ? (row: OrderListRow) => (
          <>
            {canRestore ? (
              <Button
                size="sm"
                variant="primary"
                disabled={busy}
                onClick={() => ask('restore', [row.order_id])}
              >
                Restore
              </Button>
            ) : null}
            {showRefund ? (
              <Button
                size="sm"
                variant="success"
                disabled={busy}
                onClick={() => ask('refund', [row.order_id])}
              >
                Refund
              </Button>
            ) : null}
            {showRowDelete &&
            rowDecision(row, { kind: 'delete' }, role).allowed &&
            folder === 'chargeBack' ? (
              // Chargebacks are worked, rarely deleted: Delete waits in the row menu, not beside View.
              <Dropdown align="end">
                <Dropdown.Toggle
                  size="sm"
                  variant="outline-secondary"
                  disabled={busy}
                  aria-label={`More actions for order ${row.order_id}`}
                >
                  More
                </Dropdown.Toggle>
                <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
                  <Dropdown.Item
                    as="button"
                    className="text-danger"
                    onClick={() => ask('delete', [row.order_id])}
                  >
                    Delete
                  </Dropdown.Item>
                </Dropdown.Menu>
              </Dropdown>
            ) : showRowDelete && rowDecision(row, { kind: 'delete' }, role).allowed ? (
              <Button
                size="sm"
                variant="danger"
                disabled={busy}
                onClick={() => ask('delete', [row.order_id])}
              >
                Delete
              </Button>
            ) : null}
          </>
        )
      : undefined;

  // Refresh asks again for the list on screen and the counts (nothing else on the page reloads).
  const dispatch = useAppDispatch();
  const refresh = () => {
    retry();
    dispatch(api.util.invalidateTags(['Counts']));
  };

  return (
    <section className="p-3" aria-labelledby="queue-title">
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
          <Button variant="outline-primary" size="sm" onClick={refresh}>
            Refresh
          </Button>
        </div>
      </div>
      <ListToolbar
        search={{
          value: list.typed,
          onChange: list.setTyped,
          placeholder: 'Search by order id, name, e-mail or phone',
        }}
        actions={bulk.buttons.map((b) => ({
          key: b.action,
          label: b.label,
          variant: b.variant,
          disabled: busy || bulk.selected.size === 0,
          onClick: () => ask(b.action, [...bulk.selected]),
        }))}
        // Further bulk actions (they read the selection themselves) go in BulkExtras, after these.
        extraActions={
          <BulkExtras
            folder={folder}
            role={role}
            selected={[...bulk.selected]}
            rows={rows}
            busy={busy}
            onDone={bulk.clear}
          />
        }
        onExport={() => void exportCsv()}
        exportDisabled={!rows.length || exporting}
        filters={<FilterBar query={query} onChange={update} folder={folder} />}
        filtersActive={LIST_PARAMS.some((k) => k !== 'sort' && k !== 'dir' && !!query[k])}
      >
        {choosable ? (
          <ColumnChooser
            all={choosable}
            visible={shownKeys}
            onVisible={(keys) => {
              prefs.setColumns(keys);
              if (fromView) update({ columns: null });
            }}
            compact={prefs.compact}
            onCompact={prefs.setCompact}
          />
        ) : null}
        <SaveViewButton
          folder={folder}
          query={query}
          month={month}
          limit={limit}
          columns={columns.map((c) => c.key)}
          role={role}
        />
      </ListToolbar>
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
        rowActions={rowActions}
        emptyContent={emptyContent}
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
