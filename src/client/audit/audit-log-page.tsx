import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSearchParams } from 'react-router';
import { AUDIT_ACTIONS, type AuditEntry, auditLogQuery } from '../../shared/contracts/audit';
import { can } from '../../shared/permissions';
import { errorMessage } from '../app/api';
import { requestBlob } from '../app/api-client';
import { useSessionUser } from '../auth/use-session-user';
import { useGetAuditLogQuery } from './audit-api';
import { DateTime } from '../components/date-time';
import { DateField } from '../components/form-kit/date-field';
import { SelectField, TextField } from '../components/form-kit/form-field';
import { downloadBlob } from '../components/download';

const FILTERS = ['actor', 'action', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const actionLabel = (a: string) => (AUDIT_ACTIONS as Record<string, string>)[a] ?? a;
const short = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

const COLUMNS: { label: string; value: (e: AuditEntry) => ReactNode }[] = [
  // Eastern time with its zone; the full ISO instant on hover.
  { label: 'When', value: (e) => <DateTime value={e.createdAt} /> },
  { label: 'Actor', value: (e) => [e.actorName, e.actorEmail].filter(Boolean).join(' · ') },
  { label: 'Action', value: (e) => actionLabel(e.action) },
  { label: 'Target', value: (e) => e.target ?? '' },
  { label: 'From', value: (e) => short(e.from) },
  { label: 'To', value: (e) => short(e.to) },
  { label: 'IP', value: (e) => e.ip ?? '' },
];

/** /admin/audit-log: the audit trail with filters in the URL, paging and CSV export (Admin, Manager). */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'audit.read');
  const [params, setParams] = useSearchParams();
  const applied: Filters = { actor: '', action: '', from: '', to: '' };
  for (const k of FILTERS) applied[k] = params.get(k) ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const [error, setError] = useState<string | null>(null);
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL is the source of the filters
  useEffect(() => setDraft(applied), [key]);

  const args = { ...applied, action: applied.action || undefined, page } as Parameters<
    typeof useGetAuditLogQuery
  >[0];
  const { currentData, isFetching, error: loadError } = useGetAuditLogQuery(args, { skip: !allowed });
  // The whole filtered log (every page), streamed by the server, which records the export first.
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    const params = Object.fromEntries(Object.entries(applied).filter(([, v]) => v));
    const res = await requestBlob('admin/audit-log/export', { params });
    setExporting(false);
    // A 401 has signed out in the transport, with its own toast.
    if (res.ok) downloadBlob(res.fileName ?? 'audit-log.csv', res.blob);
    else if (res.error.status !== 401) toast.error(res.error.data.message);
  };

  if (!allowed) return <Alert variant="warning">You do not have permission to view the audit log.</Alert>;

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = auditLogQuery.safeParse(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return;
    }
    setError(null);
    setParams(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
  };
  const goTo = (p: number) => setParams({ ...Object.fromEntries(params), page: String(p) });
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
        <form className="row g-2 align-items-end mb-3" onSubmit={apply} aria-label="Audit filters" noValidate>
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
            <Button variant="outline-secondary" onClick={() => setParams({})}>
              Reset
            </Button>
          </div>
        </form>
        {error ? <Alert variant="danger">{error}</Alert> : null}
        {loadError ? <Alert variant="danger">{errorMessage(loadError)}</Alert> : null}
        {isFetching && !currentData ? (
          <Spinner animation="border" role="status" aria-label="Loading" />
        ) : null}
        <div className="table-responsive">
          <Table size="sm" striped hover aria-label="Audit entries">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.length === 0 && !isFetching ? (
                <tr>
                  <td colSpan={COLUMNS.length} className="text-center text-body-secondary">
                    No records found
                  </td>
                </tr>
              ) : (
                entries.map((e) => (
                  <tr key={e.id} data-testid="audit-row">
                    {COLUMNS.map((c) => (
                      <td key={c.label} className="text-break" style={{ maxWidth: 260 }}>
                        {c.value(e)}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </Table>
        </div>
        <div className="d-flex align-items-center gap-2">
          <Button size="sm" variant="outline-primary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
            Previous
          </Button>
          <span className="small">
            Page {page} of {pages} · {currentData?.total ?? 0} entries
          </span>
          <Button size="sm" variant="outline-primary" disabled={page >= pages} onClick={() => goTo(page + 1)}>
            Next
          </Button>
        </div>
      </Card.Body>
    </Card>
  );
}
