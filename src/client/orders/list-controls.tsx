import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import type { OrderStatus } from '../../shared/constants';
import { listFilterFields, type OrderListRow } from '../../shared/contracts/orders';
import { schemaParam } from '../components/list-kit/use-list-state';
import type { Column, ColumnKey } from './columns';
import { CheckboxField } from '../components/form-kit/form-field';

/**
 * URL parameters that sort and filter a list (the same names the server takes), each read as a value
 * the shared list contract accepts (a link with an unknown value shows the list without it).
 */
export const LIST_FILTERS = {
  sort: schemaParam(listFilterFields.sort),
  dir: schemaParam(listFilterFields.dir),
  nationality: schemaParam(listFilterFields.nationality),
  processingMode: schemaParam(listFilterFields.processingMode),
  assignee: schemaParam(listFilterFields.assignee),
  arrivalFrom: schemaParam(listFilterFields.arrivalFrom),
  arrivalTo: schemaParam(listFilterFields.arrivalTo),
  dueState: schemaParam(listFilterFields.dueState),
  needsAttention: schemaParam(listFilterFields.needsAttention),
  customerReplied: schemaParam(listFilterFields.customerReplied),
  refundReason: schemaParam(listFilterFields.refundReason),
  riskReview: schemaParam(listFilterFields.riskReview),
  submissionFailed: schemaParam(listFilterFields.submissionFailed),
};
export const LIST_PARAMS = Object.keys(LIST_FILTERS) as (keyof typeof LIST_FILTERS)[];

export { DueBadge } from '../components/due-badge';

/** Status colours by meaning: new work, waiting on others, needs the customer, done, money back, lost. */
const STATUS_CLASS: Record<string, string> = {
  New: 'text-bg-primary',
  Awaiting: 'text-bg-info',
  AwaitingGovt: 'text-bg-info',
  'Customer Called': 'text-bg-warning',
  'Contact Customer': 'text-bg-warning',
  Completed: 'text-bg-success',
  Refunds: 'text-bg-secondary',
  Refunded: 'text-bg-secondary',
  ChargeBack: 'text-bg-danger',
  Deleted: 'text-bg-dark',
};

const CHECK_BADGE = { 2: ['text-bg-danger', 'Must fix'], 1: ['text-bg-warning', 'Check'] } as const;

/** The row's failing checks at a glance: red with a blocking one, yellow with a warning; codes on hover. */
export function CheckBadge({ row }: { row: Pick<OrderListRow, 'check_level' | 'check_codes'> }) {
  const badge = CHECK_BADGE[row.check_level as 1 | 2];
  if (!badge) return null;
  return (
    <span className={`badge ${badge[0]} ms-1`} title={row.check_codes.join(', ')} data-testid="check-badge">
      {badge[1]}
    </span>
  );
}

/** The customer answered and no one has read it yet. */
export function RepliedBadge({ row }: { row: { customer_replied?: boolean | undefined } }) {
  if (!row.customer_replied) return null;
  return (
    <span className="badge text-bg-warning ms-1" data-testid="replied-badge">
      Customer replied
    </span>
  );
}

/** The customer corrected their details on the track page and no one has opened the order since. */
export function EditedBadge({ row }: { row: { customer_edited?: boolean | undefined } }) {
  if (!row.customer_edited) return null;
  return (
    <span className="badge text-bg-info ms-1" data-testid="edited-badge">
      Customer edited
    </span>
  );
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`badge ${STATUS_CLASS[status] ?? 'text-bg-light'}`}>{status}</span>;
}

interface ChooserProps {
  all: Column[];
  visible: ColumnKey[];
  onVisible: (keys: ColumnKey[]) => void;
  compact: boolean;
  onCompact: (compact: boolean) => void;
}

/** Which columns show, and the compact density; both remembered per member. */
export function ColumnChooser({ all, visible, onVisible, compact, onCompact }: ChooserProps) {
  return (
    <Dropdown autoClose="outside">
      <Dropdown.Toggle size="sm" variant="outline-secondary" id="column-chooser">
        Columns
      </Dropdown.Toggle>
      <Dropdown.Menu className="p-2" style={{ minWidth: 220 }}>
        {all.map((c) => (
          <CheckboxField
            key={c.key}
            id={`column-${c.key}`}
            label={c.label}
            checked={visible.includes(c.key)}
            disabled={c.key === 'id'}
            onChange={(e) =>
              onVisible(
                e.target.checked
                  ? all.map((x) => x.key).filter((k) => k === c.key || visible.includes(k))
                  : visible.filter((k) => k !== c.key),
              )
            }
          />
        ))}
        <Dropdown.Divider />
        <CheckboxField
          asSwitch
          id="density-compact"
          label="Compact rows"
          checked={compact}
          onChange={(e) => onCompact(e.target.checked)}
        />
      </Dropdown.Menu>
    </Dropdown>
  );
}

/** Per-member display preferences of the lists, in this browser. */
export function useListPrefs(userId: number | undefined, scope?: string) {
  const key = `edcard.list-prefs.${userId ?? 0}${scope ? `.${scope}` : ''}`;
  const read = (): { columns?: ColumnKey[]; compact?: boolean } => {
    try {
      return JSON.parse(localStorage.getItem(key) ?? '{}');
    } catch {
      return {};
    }
  };
  const [prefs, setPrefs] = useState(read);
  const save = (next: { columns?: ColumnKey[]; compact?: boolean }) => {
    const merged = { ...prefs, ...next };
    setPrefs(merged);
    localStorage.setItem(key, JSON.stringify(merged));
  };
  return {
    columns: prefs.columns,
    compact: prefs.compact ?? false,
    setColumns: (columns: ColumnKey[]) => save({ columns }),
    setCompact: (compact: boolean) => save({ compact }),
  };
}
