import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import type { CorrectableField, DuplicateCandidate } from '../../shared/contracts/checks';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { useCorrectOrderMutation, useDecideDuplicateMutation } from './order-checks-api';
import { RiskActions } from './risk-actions';
import { TextField } from '../components/form-kit/form-field';
import { DateField } from '../components/form-kit/date-field';
import { DATE_FIELDS, fieldLabel as label } from './field-labels';
import { column, DataTable } from '../components/list-kit/data-table';

/** Badge colours with their readable text colour (WCAG AA contrast: dark text on yellow and cyan). */
const SEVERITY = {
  block: { bg: 'danger', fg: 'white', text: 'Must fix' },
  warn: { bg: 'warning', fg: 'dark', text: 'Check' },
  info: { bg: 'info', fg: 'dark', text: 'Note' },
} as const;

/** The fields the editor always offers: the traveller and the trip. */
const DEFAULT_FIELDS: CorrectableField[] = [
  'first_name',
  'last_name',
  'date_of_birth',
  'nationality',
  'passport_number',
  'passport_expiration',
  'email',
  're_enter_email',
  'arrival_date',
  'departure_date',
  'flight_number',
  'phone_code',
  'telephone_number',
];
/** Further correctable fields a check may name (CORRECTABLE_FIELDS of the contract). */
const EXTRA_FIELDS = new Set(['country_of_birth', 'country_of_departure', 'country_of_residence']);
const CLOSED = new Set(['Completed', 'Refunded', 'Deleted']);

/** The top of the detail page: each failing check with its fields, possible duplicates, corrections. */
export function OrderChecksSection({ order }: { order: OrderDetails }) {
  const [editing, setEditing] = useState(false);
  // Values the editor opens with instead of the order's (the e-mail typo's "apply").
  const [preset, setPreset] = useState<Partial<Record<CorrectableField, string>>>({});
  const panel = useRef<HTMLDivElement>(null);
  const open = (values: Partial<Record<CorrectableField, string>> = {}) => {
    setPreset(values);
    setEditing(true);
  };
  // After saving or cancelling the checks panel stays in view (the form's height goes away under it).
  const close = () => {
    setEditing(false);
    setPreset({});
    requestAnimationFrame(() => panel.current?.scrollIntoView?.({ block: 'nearest' }));
  };
  const checks = order.checks ?? [];
  const duplicates = order.duplicates ?? [];
  const mayCorrect = can(sessionUser()?.type ?? null, 'orders.correct') && !CLOSED.has(order.process_status);
  // The fields the checks name that staff may correct (the editor's own list; the server checks again).
  const named = checks
    .flatMap((c) => c.fields)
    .filter((f): f is CorrectableField => EXTRA_FIELDS.has(f) || (DEFAULT_FIELDS as string[]).includes(f));
  const fields = [...new Set([...named, ...DEFAULT_FIELDS])];
  // An answer without checks (an older server) shows no panel.
  if (!order.checks) return null;

  return (
    <Card ref={panel} className={`mb-3 ${checks.length ? 'border-warning' : ''}`} data-testid="order-checks">
      <Card.Header className="d-flex align-items-center gap-2">
        <h2 className="h6 mb-0">Checks</h2>
        {checks.length ? (
          <Badge bg="warning" text="dark">
            {checks.length} problem{checks.length === 1 ? '' : 's'}
          </Badge>
        ) : (
          <span className="small text-body-secondary">No problems found</span>
        )}
        {mayCorrect && !editing && (
          <Button size="sm" variant="outline-primary" className="ms-auto" onClick={() => open()}>
            Correct data
          </Button>
        )}
      </Card.Header>
      {(checks.length > 0 || editing || duplicates.length > 0) && (
        <Card.Body>
          {checks.length > 0 && (
            <ul className="list-unstyled mb-2">
              {checks.map((c) => (
                <li key={c.code} data-testid={`check-${c.code}`} className="mb-1">
                  <Badge bg={SEVERITY[c.severity].bg} text={SEVERITY[c.severity].fg} className="me-2">
                    {SEVERITY[c.severity].text}
                  </Badge>
                  {c.message}
                  {c.fields.length > 0 && (
                    <span className="small text-body-secondary"> — {c.fields.map(label).join(', ')}</span>
                  )}
                  {c.code === 'email_typo' && c.suggestion && mayCorrect && (
                    <Button
                      size="sm"
                      variant="link"
                      className="py-0"
                      onClick={() => open({ email: c.suggestion, re_enter_email: c.suggestion })}
                    >
                      Apply {c.suggestion}
                    </Button>
                  )}
                  {(c.code === 'fraud_warning' || c.code === 'risk_hold') && (
                    <RiskActions order={order} code={c.code} />
                  )}
                </li>
              ))}
            </ul>
          )}
          {editing && (
            <CorrectionForm
              key={JSON.stringify(preset)}
              order={order}
              fields={fields}
              named={new Set(named)}
              preset={preset}
              onDone={close}
            />
          )}
          {duplicates.map((d) => (
            <DuplicateCompare key={d.order_id} order={order} other={d} mayDecide={mayCorrect} />
          ))}
        </Card.Body>
      )}
    </Card>
  );
}

function CorrectionForm({
  order,
  fields,
  named,
  preset,
  onDone,
}: {
  order: OrderDetails;
  fields: CorrectableField[];
  /** The fields the checks name: highlighted. */
  named: Set<CorrectableField>;
  preset: Partial<Record<CorrectableField, string>>;
  onDone: () => void;
}) {
  const current = (f: CorrectableField) => ((order as Record<string, unknown>)[f] as string | null) ?? '';
  const [values, setValues] = useState(() =>
    Object.fromEntries(fields.map((f) => [f, preset[f] ?? current(f)])),
  );
  const [correct, { isLoading, error }] = useCorrectOrderMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changed = Object.fromEntries(
      fields.filter((f) => values[f] !== current(f)).map((f) => [f, values[f] === '' ? null : values[f]]),
    );
    if (!Object.keys(changed).length) return onDone();
    const res = await correct({
      orderId: order.order_id,
      body: { ...changed, expectedVersion: order.version } as never,
    });
    if (!('error' in res)) {
      toast.success('Order corrected.');
      onDone();
    }
  };

  return (
    <form onSubmit={submit} className="border rounded p-2 mb-2" aria-label="Correct order data">
      {error && (
        <Alert variant="danger" className="py-2">
          {errorMessage(error)}
        </Alert>
      )}
      <div className="row g-2">
        {fields.map((f) => {
          const frame = {
            id: `correct-${f}`,
            className: `col-md-4${named.has(f) ? ' correction-named' : ''}`,
            label: label(f),
            labelClassName: `small mb-0${named.has(f) ? ' fw-semibold text-warning-emphasis' : ''}`,
            help: named.has(f) ? 'Named by the checks' : undefined,
          };
          return DATE_FIELDS.has(f) ? (
            <DateField
              key={f}
              {...frame}
              validOnly
              size="sm"
              controlClassName={named.has(f) ? 'border-warning border-2' : undefined}
              value={values[f] ?? ''}
              onChange={(v) => setValues((old) => ({ ...old, [f]: v }))}
            />
          ) : (
            <TextField
              key={f}
              {...frame}
              size="sm"
              controlClassName={named.has(f) ? 'border-warning border-2' : undefined}
              value={values[f] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
            />
          );
        })}
      </div>
      <div className="d-flex gap-2 mt-2">
        <Button type="submit" size="sm" disabled={isLoading}>
          Save corrections
        </Button>
        <Button size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

const COMPARED = [
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'passport_number',
  'nationality',
  'arrival_date',
  'departure_date',
] as const;

/** One compared line: the field's label and what each order holds. */
interface CompareRow {
  key: string;
  label: string;
  mine: ReactNode;
  theirs: ReactNode;
}
const payment = (o: { amount: string; currency: string; transaction_id: string | null }) =>
  `${o.amount} ${o.currency} ${o.transaction_id ?? ''}`;
const compareRows = (order: OrderDetails, other: DuplicateCandidate): CompareRow[] => [
  ...COMPARED.map((f) => ({
    key: f,
    label: label(f),
    mine: (order as Record<string, unknown>)[f] as string,
    theirs: other[f],
  })),
  { key: 'status', label: 'Status', mine: order.process_status, theirs: other.process_status },
  { key: 'payment', label: 'Payment', mine: payment(order), theirs: payment(other) },
];
const compareColumns = (order: OrderDetails, other: DuplicateCandidate) => [
  column<CompareRow>('Field', (r) => r.label, { meta: { rowHeader: true } }),
  column<CompareRow>(`Order ${order.order_id}`, (r) => r.mine, { id: 'mine' }),
  column<CompareRow>(`Order ${other.order_id}`, (r) => r.theirs, { id: 'theirs' }),
];
const compareId = (r: CompareRow) => r.key;

function DuplicateCompare({
  order,
  other,
  mayDecide,
}: {
  order: OrderDetails;
  other: DuplicateCandidate;
  mayDecide: boolean;
}) {
  const [decide, { isLoading, error }] = useDecideDuplicateMutation();
  const [asking, setAsking] = useState(false);
  const send = (decision: 'duplicate' | 'not_duplicate') =>
    decide({ orderId: order.order_id, body: { otherOrderId: other.order_id, decision } });
  // The newer of the two goes to Refunds: the question names it and its money.
  const otherNewer =
    other.created_at > order.created_at ||
    (other.created_at === order.created_at && other.order_id > order.order_id);
  const newer = otherNewer
    ? { id: other.order_id, amount: other.amount, currency: other.currency }
    : { id: order.order_id, amount: order.amount, currency: order.currency };
  const older = otherNewer ? order.order_id : other.order_id;
  const match = new Set(other.matching_fields);
  return (
    <div className="mb-2" data-testid={`duplicate-${other.order_id}`}>
      <h3 className="h6">
        Possible duplicate:{' '}
        <a href={`/admin/view-order/${encodeOrderId(other.order_id)}`}>order {other.order_id}</a>{' '}
        {other.decision === 'duplicate' && <Badge bg="secondary">Linked as duplicate</Badge>}
      </h3>
      {error && <Alert variant="danger">{errorMessage(error)}</Alert>}
      <DataTable
        rows={compareRows(order, other)}
        columns={compareColumns(order, other)}
        rowId={compareId}
        rowProps={(r) => (match.has(r.key) ? { className: 'table-warning' } : {})}
        className="table table-sm table-bordered mb-1"
        empty={null}
      />
      {mayDecide && other.decision === null && (
        <div className="d-flex gap-2">
          <Button size="sm" variant="danger" disabled={isLoading || asking} onClick={() => setAsking(true)}>
            Duplicate…
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={isLoading}
            onClick={() => send('not_duplicate')}
          >
            Not a duplicate
          </Button>
        </div>
      )}
      {asking && (
        <Alert
          variant="warning"
          className="py-2 small mt-2"
          role="alertdialog"
          aria-label="Link as duplicate?"
        >
          Link the two orders as duplicates? The newer order, {newer.id}, moves to Refunds with the remark
          "Duplicate of order {older}"; its payment of {newer.amount} {newer.currency} is not refunded yet:
          refund it from Refunds. Order {older} stays as it is.
          <div className="d-flex gap-2 mt-1">
            <Button
              size="sm"
              variant="danger"
              disabled={isLoading}
              onClick={async () => {
                setAsking(false);
                await send('duplicate');
              }}
            >
              Link as duplicate
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </Alert>
      )}
    </div>
  );
}
