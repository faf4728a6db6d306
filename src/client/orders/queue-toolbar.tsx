import type { Folder, Role } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import type { ListUpdate } from '../components/list-kit/use-list-state';
import { ListToolbar } from '../components/list-kit/list-toolbar';
import { useServerExport } from '../components/use-audited-export';
import { BulkExtras } from './bulk-extras';
import type { Column, ColumnKey } from './columns';
import { FilterBar } from './filter-bar';
import type { ListQuery } from './list-api';
import { ColumnChooser, LIST_PARAMS, type useListPrefs } from './list-controls';
import { SaveViewButton } from './save-view-button';
import type { useBulkActions } from './use-bulk-actions';

interface Props {
  folder: Folder;
  role: Role | null;
  month: string | undefined;
  /** The search box's text, the committed search, the list's sort and filters, and how to change them. */
  typed: string;
  setTyped: (text: string) => void;
  search: string;
  query: ListQuery;
  update: ListUpdate;
  rows: OrderListRow[];
  limit: number;
  bulk: ReturnType<typeof useBulkActions>;
  /** The columns shown (what a saved view keeps). */
  columns: Column[];
  /** Folder lists: the columns the chooser offers, those shown, and whether a view's link named them. */
  choosable: Column[] | undefined;
  shownKeys: ColumnKey[];
  fromView: ColumnKey[] | undefined;
  prefs: ReturnType<typeof useListPrefs>;
}

/** The queue's toolbar: search, bulk actions, CSV export, the column chooser, Save view and the filters. */
export function QueueToolbar({
  folder,
  role,
  month,
  typed,
  setTyped,
  search,
  query,
  update,
  rows,
  limit,
  bulk,
  ...shown
}: Props) {
  const { busy, ask } = bulk;
  // The whole filtered view (every page), streamed by the server, which records the export in the
  // audit log before the first byte (personal data).
  const { exportFile, exporting } = useServerExport();
  const exportCsv = () =>
    exportFile(
      `admin/export-orders/${folder}`,
      { ...query, ...(month ? { month } : {}), ...(search !== '' ? { search } : {}) },
      `orders-${folder}.csv`,
    );
  const { columns, choosable, shownKeys, fromView, prefs } = shown;
  return (
    <ListToolbar
      search={{
        value: typed,
        onChange: setTyped,
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
  );
}
