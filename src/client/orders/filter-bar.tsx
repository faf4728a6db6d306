import { useMemo } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { type Folder, PROCESSING_MODES } from '../../shared/constants';
import { DUE_STATES } from '../../shared/contracts/due-time';
import { allCountries } from '../../shared/countries';
import { can } from '../../shared/permissions';
import { REFUND_REASON_LABELS, STORED_REFUND_REASONS } from '../../shared/refund-reasons';
import { DUE_STATE_LABEL } from '../components/due-badge';
import { DateField } from '../components/form-kit/date-field';
import { CheckboxField, SelectField } from '../components/form-kit/form-field';
import { useSessionUser } from '../auth/use-session-user';
import { useGetTeamMembersQuery } from '../team/team-api';
import type { ListQuery } from './list-api';
import { LIST_PARAMS } from './list-controls';

type Changes = Record<string, string | null>;

interface FilterBarProps {
  query: ListQuery;
  onChange: (changes: Changes) => void;
  /** Refunds and Completed Refunds add the refund reason filter. */
  folder?: Folder;
}

/** A select's change as a filter change: the value (none when empty), back to page 1. */
type SetFilter = (k: string) => (e: { target: { value: string } }) => void;

/** Nationality, mode, assignee, arrival range and due state; every change goes to the URL (page 1). */
export function FilterBar({ query, onChange, folder }: FilterBarProps) {
  const countries = useMemo(() => allCountries(), []);
  const set: SetFilter = (k) => (e) => onChange({ [k]: e.target.value || null, page: null });
  const active = LIST_PARAMS.some((k) => k !== 'sort' && k !== 'dir' && query[k]);
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
      <AssigneeFilter value={query.assignee ?? ''} onChange={set('assignee')} />
      <ArrivalAndDueFilters query={query} onChange={onChange} set={set} folder={folder} />
      <FlagFilters query={query} onChange={onChange} />
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

/** Anyone, me, unassigned, or each member by name, so a Manager sees one person's load (roles that may read the team). */
function AssigneeFilter({
  value,
  onChange,
}: {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
}) {
  const role = useSessionUser()?.type ?? null;
  const { data: staff } = useGetTeamMembersQuery(undefined, { skip: !can(role, 'team.read') });
  return (
    <SelectField
      id="filter-assignee"
      label="Assignee"
      labelClassName="small mb-0"
      size="sm"
      value={value}
      onChange={onChange}
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
  );
}

/** The arrival range, the due state and, in the refund folders, the refund reason. */
function ArrivalAndDueFilters({ query, onChange, set, folder }: FilterBarProps & { set: SetFilter }) {
  return (
    <>
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
    </>
  );
}

/** The yes-only filters: ticked narrows the list to the orders flagged so, unticked drops the filter. */
const FLAGS = [
  { key: 'riskReview', id: 'filter-risk-review', label: 'Risk review' },
  { key: 'submissionFailed', id: 'filter-submission-failed', label: 'Submission failed' },
  { key: 'needsAttention', id: 'filter-needs-attention', label: 'Needs attention' },
  { key: 'customerReplied', id: 'filter-customer-replied', label: 'Customer replied' },
] as const;

function FlagFilters({ query, onChange }: Pick<FilterBarProps, 'query' | 'onChange'>) {
  return (
    <>
      {FLAGS.map((f) => (
        <CheckboxField
          key={f.key}
          id={f.id}
          className="align-self-end small"
          label={f.label}
          checked={query[f.key] === 'true'}
          onChange={(e) => onChange({ [f.key]: e.target.checked ? 'true' : null, page: null })}
        />
      ))}
    </>
  );
}
