import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { type Folder, type OrderStatus, PROCESSING_MODES, type Role } from '../../shared/constants';
import { listFilterFields, type OrderListRow } from '../../shared/contracts/orders';
import { DUE_STATES } from '../../shared/contracts/due-time';
import type { ListColumn, ViewQuery } from '../../shared/contracts/views';
import { allCountries } from '../../shared/countries';
import { can } from '../../shared/permissions';
import { REFUND_REASON_LABELS, STORED_REFUND_REASONS } from '../../shared/refund-reasons';
import { errorMessage } from '../transport/api';
import { DUE_STATE_LABEL } from '../components/due-badge';
import { schemaParam } from '../components/list-kit/use-list-state';
import { DateField } from '../components/form-kit/date-field';
import { useSessionUser } from '../auth/use-session-user';
import { useGetTeamMembersQuery } from '../team/team-api';
import { type Column, type ColumnKey, VIEW_COLUMN } from './columns';
import { type ListQuery, useSaveViewMutation } from './list-api';
import { CheckboxField, SelectField, TextField } from '../components/form-kit/form-field';

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

interface FilterBarProps {
  query: ListQuery;
  onChange: (changes: Record<string, string | null>) => void;
  /** Refunds and Completed Refunds add the refund reason filter. */
  folder?: Folder;
}

/** Nationality, mode, assignee, arrival range and due state; every change goes to the URL (page 1). */
export function FilterBar({ query, onChange, folder }: FilterBarProps) {
  const countries = useMemo(() => allCountries(), []);
  const set = (k: string) => (e: { target: { value: string } }) =>
    onChange({ [k]: e.target.value || null, page: null });
  const active = LIST_PARAMS.some((k) => k !== 'sort' && k !== 'dir' && query[k]);
  // Each member by name, so a Manager sees one person's load (roles that may read the team).
  const role = useSessionUser()?.type ?? null;
  const { data: staff } = useGetTeamMembersQuery(undefined, { skip: !can(role, 'team.read') });
  return (
    <fieldset className="d-flex flex-wrap align-items-end gap-2 mb-2" aria-label="Filters">
      <SelectField
        id="filter-nationality"
        label="Nationality"
        labelClassName="small mb-0"
        size="sm"
        value={query.nationality ?? ''}
        onChange={set('nationality')}
        style={{ maxWidth: 200 }}
      >
        <option value="">Any</option>
        {countries.map((c) => (
          <option key={c.alpha3} value={c.alpha3}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="filter-mode"
        label="Mode"
        labelClassName="small mb-0"
        size="sm"
        value={query.processingMode ?? ''}
        onChange={set('processingMode')}
      >
        <option value="">Any</option>
        {PROCESSING_MODES.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="filter-assignee"
        label="Assignee"
        labelClassName="small mb-0"
        size="sm"
        value={query.assignee ?? ''}
        onChange={set('assignee')}
      >
        <option value="">Anyone</option>
        <option value="me">Me</option>
        <option value="none">Unassigned</option>
        {staff?.map((m) => (
          <option key={m.id} value={String(m.id)}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <DateField
        id="filter-arrival-from"
        label="Arrival from"
        labelClassName="small mb-0"
        validOnly
        size="sm"
        style={{ maxWidth: 140 }}
        value={query.arrivalFrom ?? ''}
        onChange={(v) => onChange({ arrivalFrom: v || null, page: null })}
      />
      <DateField
        id="filter-arrival-to"
        label="Arrival to"
        labelClassName="small mb-0"
        validOnly
        size="sm"
        style={{ maxWidth: 140 }}
        value={query.arrivalTo ?? ''}
        onChange={(v) => onChange({ arrivalTo: v || null, page: null })}
      />
      <SelectField
        id="filter-due"
        label="Due"
        labelClassName="small mb-0"
        size="sm"
        value={query.dueState ?? ''}
        onChange={set('dueState')}
      >
        <option value="">Any</option>
        {DUE_STATES.map((s) => (
          <option key={s} value={s}>
            {DUE_STATE_LABEL[s]}
          </option>
        ))}
      </SelectField>
      {folder === 'refundOrder' || folder === 'refundedOrder' ? (
        <SelectField
          id="filter-refund-reason"
          label="Refund reason"
          labelClassName="small mb-0"
          size="sm"
          value={query.refundReason ?? ''}
          onChange={set('refundReason')}
        >
          <option value="">Any</option>
          {STORED_REFUND_REASONS.map((r) => (
            <option key={r} value={r}>
              {REFUND_REASON_LABELS[r]}
            </option>
          ))}
        </SelectField>
      ) : null}
      <CheckboxField
        id="filter-risk-review"
        className="align-self-end small"
        label="Risk review"
        checked={query.riskReview === 'true'}
        onChange={(e) => onChange({ riskReview: e.target.checked ? 'true' : null, page: null })}
      />
      <CheckboxField
        id="filter-submission-failed"
        className="align-self-end small"
        label="Submission failed"
        checked={query.submissionFailed === 'true'}
        onChange={(e) => onChange({ submissionFailed: e.target.checked ? 'true' : null, page: null })}
      />
      <CheckboxField
        id="filter-needs-attention"
        className="align-self-end small"
        label="Needs attention"
        checked={query.needsAttention === 'true'}
        onChange={(e) => onChange({ needsAttention: e.target.checked ? 'true' : null, page: null })}
      />
      <CheckboxField
        id="filter-customer-replied"
        className="align-self-end small"
        label="Customer replied"
        checked={query.customerReplied === 'true'}
        onChange={(e) => onChange({ customerReplied: e.target.checked ? 'true' : null, page: null })}
      />
      {active ? (
        <Button
          size="sm"
          variant="link"
          onClick={() =>
            onChange(
              Object.fromEntries(
                [...LIST_PARAMS.filter((k) => k !== 'sort' && k !== 'dir'), 'page'].map((k) => [k, null]),
              ),
            )
          }
        >
          Clear filters
        </Button>
      ) : null}
      <Link to="/admin/due-time-policy" className="small ms-auto align-self-center">
        Due-time policy
      </Link>
    </fieldset>
  );
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

interface SaveViewProps {
  folder: Folder;
  query: ListQuery;
  month?: string | undefined;
  limit: number;
  columns: ColumnKey[];
  role: Role | null;
}

/** Saves the list as it is (folder, sort, filters, page size, columns) under a name. */
export function SaveViewButton({ folder, query, month, limit, columns, role }: SaveViewProps) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [save, { isLoading }] = useSaveViewMutation();
  const submit = async () => {
    const viewQuery: ViewQuery = {
      ...(query as ViewQuery),
      ...(month ? { month: month as ViewQuery['month'] } : {}),
      limit,
      columns: columns.map((k) => VIEW_COLUMN[k]).filter((c): c is ListColumn => !!c),
    };
    try {
      const res = await save({ name: name.trim(), folder, query: viewQuery, shared }).unwrap();
      toast.success(res.message);
      setOpen(false);
      setName('');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <>
      <Button size="sm" variant="outline-primary" onClick={() => setOpen(true)}>
        Save view
      </Button>
      <Modal show={open} onHide={() => setOpen(false)}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Modal.Header closeButton>
            <Modal.Title className="h5">Save this view</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <TextField
              id="view-name"
              className="mb-2"
              label="Name"
              value={name}
              maxLength={80}
              required
              onChange={(e) => setName(e.target.value)}
            />
            {can(role, 'views.share') ? (
              <CheckboxField
                id="view-shared"
                label="Share with everyone"
                checked={shared}
                onChange={(e) => setShared(e.target.checked)}
              />
            ) : null}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isLoading || !name.trim()}>
              Save
            </Button>
          </Modal.Footer>
        </form>
      </Modal>
    </>
  );
}
