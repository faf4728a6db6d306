import { type Dispatch, type FormEvent, type SetStateAction, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { AUDIT_ACTIONS, type AuditEntry, auditLogQuery } from '../../shared/contracts/audit';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { useSessionUser } from '../auth/use-session-user';
import { useGetAuditLogQuery } from './audit-api';
import { DateTime } from '../components/date-time';
import { useServerExport } from '../components/use-audited-export';
import { column, DataTable } from '../components/list-kit/data-table';
import { textParam, useListState } from '../components/list-kit/use-list-state';
import { DateField } from '../components/form-kit/date-field';
import { SelectField, TextField } from '../components/form-kit/form-field';

const FILTERS = { actor: textParam, action: textParam, from: textParam, to: textParam };
type Filters = Record<keyof typeof FILTERS, string>;
const NO_FILTERS: Filters = { actor: '', action: '', from: '', to: '' };

const actionLabel = (a: string) => (AUDIT_ACTIONS as Record<string, string>)[a] ?? a;
const short = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

const cell = { meta: { className: 'text-break', cellStyle: { maxWidth: 260 } } };
const COLUMNS = [
  // Eastern time with its zone; the full ISO instant on hover.
  column<AuditEntry>('When', (e) => <DateTime value={e.createdAt} />, cell),
  column<AuditEntry>('Actor', (e) => [e.actorName, e.actorEmail].filter(Boolean).join(' · '), cell),
  column<AuditEntry>('Action', (e) => actionLabel(e.action), cell),
  column<AuditEntry>('Target', (e) => e.target ?? '', cell),
  column<AuditEntry>('From', (e) => short(e.from), cell),
  column<AuditEntry>('To', (e) => short(e.to), cell),
  column<AuditEntry>('IP', (e) => e.ip ?? '', cell),
];
const entryId = (e: AuditEntry) => String(e.id);
const entryRow = () => ({ 'data-testid': 'audit-row' });

/** Actor, action and date range; Filter puts them in the URL, Reset clears them. */
function AuditFilters({
  draft,
  setDraft,
  onApply,
  onReset,
}: {
  draft: Filters;
  setDraft: Dispatch<SetStateAction<Filters>>;
  onApply: (e: FormEvent) => void;
  onReset: () => void;
}) {
  return (
    <form className="row g-2 align-items-end mb-3" onSubmit={onApply} aria-label="Audit filters" noValidate>
      <TextField
        className="col-12 col-md-3"
        id="audit-actor"
        label="Actor (e-mail or staff id)"
        labelClassName="small mb-0"
        value={draft.actor}
        onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
      />
      <SelectField
        className="col-12 col-md-3"
        id="audit-action"
        label="Action"
        labelClassName="small mb-0"
        value={draft.action}
        onChange={(e) => setDraft({ ...draft, action: e.target.value })}
      >
        <option value="">All actions</option>
        {Object.entries(AUDIT_ACTIONS).map(([name, label]) => (
          <option key={name} value={name}>
            {label}
          </option>
        ))}
      </SelectField>
      <DateField
        className="col-6 col-md-2"
        id="audit-from"
        label="From"
        labelClassName="small mb-0"
        value={draft.from}
        onChange={(v) => setDraft((d) => ({ ...d, from: v }))}
      />
      <DateField
        className="col-6 col-md-2"
        id="audit-to"
        label="To"
        labelClassName="small mb-0"
        value={draft.to}
        onChange={(v) => setDraft((d) => ({ ...d, to: v }))}
      />
      <div className="col-12 col-md-2 d-flex gap-2">
        <Button type="submit">Filter</Button>
        <Button variant="outline-secondary" onClick={onReset}>
          Reset
        </Button>
      </div>
    </form>
  );
}

/** Previous, the page of how many and the entry count, Next. */
function AuditPager({
  page,
  pages,
  total,
  goTo,
}: {
  page: number;
  pages: number;
  total: number;
  goTo: (page: number) => void;
}) {
  return (
    <div className="d-flex align-items-center gap-2">
      <Button size="sm" variant="outline-primary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
        Previous
      </Button>
      <span className="small">
        Page {page} of {pages} · {total} entries
      </span>
      <Button size="sm" variant="outline-primary" disabled={page >= pages} onClick={() => goTo(page + 1)}>
        Next
      </Button>
    </div>
  );
}

/** /admin/audit-log: the audit trail with filters in the URL, paging and CSV export (Admin, Manager). */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'audit.read');
  const { filters: applied, query, setFilters, page, setPage } = useListState(FILTERS);
  const [draft, setDraft] = useState<Filters>(applied);
  const [error, setError] = useState<string | null>(null);
  // The URL is the source of the filters: Back, a link or Reset shows them in the form.
  useEffect(() => setDraft(applied), [applied]);

  const args = { ...applied, action: applied.action || undefined, page } as Parameters<
    typeof useGetAuditLogQuery
  >[0];
  const { currentData, isFetching, error: loadError } = useGetAuditLogQuery(args, { skip: !allowed });
  // The whole filtered log (every page), streamed by the server, which records the export first.
  const { exportFile, exporting } = useServerExport();
  const exportCsv = () => exportFile('admin/audit-log/export', query, 'audit-log.csv');

  if (!allowed) return <Alert variant="warning">You do not have permission to view the audit log.</Alert>;

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const parsed = auditLogQuery.safeParse(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return;
    }
    setError(null);
    setFilters(draft);
  };
  const pages = currentData ? Math.max(1, Math.ceil(currentData.total / currentData.pageSize)) : 1;
  const entries = currentData?.entries ?? [];

  return (
    <Card className="shadow-sm">
      <Card.Header className="d-flex align-items-center">
        <h1 className="h5 mb-0 me-auto">Audit Log</h1>
        <span id="audit-export-note" className="visually-hidden">
          Exports every entry under the filters, not only this page
        </span>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={exporting || !currentData?.total}
          aria-describedby="audit-export-note"
          onClick={() => void exportCsv()}
        >
          {exporting ? <Spinner size="sm" animation="border" className="me-1" aria-hidden /> : null}
          Export CSV
        </Button>
      </Card.Header>
      <Card.Body>
        <AuditFilters
          draft={draft}
          setDraft={setDraft}
          onApply={apply}
          onReset={() => setFilters(NO_FILTERS)}
        />
        {error ? <Alert variant="danger">{error}</Alert> : null}
        {loadError ? <Alert variant="danger">{errorMessage(loadError)}</Alert> : null}
        {isFetching && !currentData ? (
          <Spinner animation="border" role="status" aria-label="Loading" />
        ) : null}
        <DataTable
          rows={entries}
          columns={COLUMNS}
          rowId={entryId}
          rowProps={entryRow}
          label="Audit entries"
          className="table table-sm table-striped table-hover"
          wrapClassName="table-responsive"
          empty={isFetching ? null : 'No records found'}
        />
        <AuditPager page={page} pages={pages} total={currentData?.total ?? 0} goTo={setPage} />
      </Card.Body>
    </Card>
  );
}
