import dayjs from 'dayjs';
import { lazy, Suspense } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import {
  FINANCE_FIGURES,
  FINANCE_REFUND_REASONS,
  type FinanceFigure,
  type FinanceRow,
} from '../../shared/contracts/finance';
import { serviceToday } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { REFUND_REASON_LABELS } from '../../shared/refund-reasons';
import { useSessionUser } from '../auth/use-session-user';
import { errorMessage } from '../transport/api';
import { FinanceOrders, type FinanceSelection, money } from './finance-orders';
import { useGetFinanceReportQuery } from './reports-api';

const ReportChart = lazy(() => import('./report-chart'));

const reasonLabel = (reason: string) =>
  reason === 'unmatched'
    ? 'No order found'
    : (REFUND_REASON_LABELS[reason as keyof typeof REFUND_REASON_LABELS] ?? reason);

/** Each column's text and the figure whose orders it links to (the period has none). */
const COLUMNS: { label: string; figure?: FinanceFigure; value: (r: FinanceRow) => string | number }[] = [
  { label: 'Period', value: (r) => r.period },
  { label: 'Paid orders', figure: 'gross', value: (r) => r.paidOrders },
  { label: 'Gross', figure: 'gross', value: (r) => money(r.gross) },
  { label: 'Provider fees', figure: 'providerFees', value: (r) => money(r.providerFees) },
  { label: 'Government fees', figure: 'governmentFees', value: (r) => money(r.governmentFees) },
  { label: 'Refunds', figure: 'refunds', value: (r) => money(r.refunds) },
  {
    label: 'Disputes',
    figure: 'disputes',
    value: (r) => `${r.disputes.count} (${money(r.disputes.amount)})`,
  },
  { label: 'Dispute fees', figure: 'disputeFees', value: (r) => money(r.disputes.fees) },
  { label: 'Won back', figure: 'wonBack', value: (r) => money(r.disputes.wonBack) },
  { label: 'Other', figure: 'other', value: (r) => money(r.other) },
  { label: 'Net', figure: 'net', value: (r) => money(r.net) },
  { label: 'Net per order', figure: 'net', value: (r) => money(r.netPerOrder) },
];

const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The days of a row: one day, a month within the range, or the whole range for the totals. */
function daysOf(period: string, group: 'day' | 'month', from: string, to: string): [string, string] {
  if (period === 'total') return [from, to];
  if (group === 'day') return [period, period];
  const last = dayjs(period).endOf('month').format('YYYY-MM-DD');
  return [period < from ? from : period, last > to ? to : last];
}

type Group = 'day' | 'month';

/** The range, the grouping and the figure whose orders are listed, all read from and kept in the address. */
function useFinanceParams() {
  const today = serviceToday();
  const [params, setParams] = useSearchParams();
  const from = isDay(params.get('from')) ? params.get('from')! : `${today.slice(0, 7)}-01`;
  const to = isDay(params.get('to')) ? params.get('to')! : today;
  const group: Group = params.get('group') === 'month' ? 'month' : 'day';
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams({ from, to, group });
    next.set(key, value);
    setParams(next, { replace: true });
  };
  const figure = FINANCE_FIGURES.find((f) => f === params.get('figure'));
  const reason = FINANCE_REFUND_REASONS.find((r) => r === params.get('reason'));
  const pfrom = params.get('pfrom');
  const pto = params.get('pto');
  const selection: FinanceSelection | null =
    figure && isDay(pfrom) && isDay(pto)
      ? { figure, from: pfrom, to: pto, ...(figure === 'refunds' && reason ? { reason } : {}) }
      : null;
  const linkTo = (r: FinanceRow, f: FinanceFigure, why?: string) => {
    const [a, b] = daysOf(r.period, group, from, to);
    const next = new URLSearchParams({ from, to, group, figure: f, pfrom: a, pto: b });
    if (why) next.set('reason', why);
    return `?${next.toString()}`;
  };
  return { from, to, group, setParam, selection, linkTo };
}

/** The range and the grouping: each change goes to the address at once. */
function FinanceRangeForm({
  from,
  to,
  group,
  setParam,
}: Pick<ReturnType<typeof useFinanceParams>, 'from' | 'to' | 'group' | 'setParam'>) {
  return (
    <Form className="d-flex flex-wrap gap-2 align-items-end mb-3" onSubmit={(e) => e.preventDefault()}>
      <Form.Group controlId="finance-from">
        <Form.Label className="small mb-0">From</Form.Label>
        <Form.Control type="date" value={from} onChange={(e) => setParam('from', e.target.value)} />
      </Form.Group>
      <Form.Group controlId="finance-to">
        <Form.Label className="small mb-0">To</Form.Label>
        <Form.Control type="date" value={to} onChange={(e) => setParam('to', e.target.value)} />
      </Form.Group>
      <Form.Group controlId="finance-group">
        <Form.Label className="small mb-0">Per</Form.Label>
        <Form.Select value={group} onChange={(e) => setParam('group', e.target.value as Group)}>
          <option value="day">Day</option>
          <option value="month">Month</option>
        </Form.Select>
      </Form.Group>
    </Form>
  );
}

/** Gross, the fees and refunds together, and net, per period. */
function FinanceChart({ periods }: { periods: FinanceRow[] }) {
  return (
    <Suspense fallback={null}>
      <ReportChart
        spec={{
          title: 'Gross, fees and net per period (USD)',
          labels: periods.map((p) => p.period),
          datasets: [
            { label: 'Gross', data: periods.map((p) => p.gross / 100), color: '#1a56db' },
            {
              label: 'Fees and refunds',
              data: periods.map(
                (p) =>
                  (p.providerFees + p.governmentFees + p.refunds + p.disputes.amount - p.disputes.wonBack) /
                  100,
              ),
              color: '#dc2626',
            },
            { label: 'Net', data: periods.map((p) => p.net / 100), color: '#198754' },
          ],
        }}
      />
    </Suspense>
  );
}

/** Every period and the totals; each figure links to its orders, the refunds also per reason. */
function FinanceTable({
  rows,
  linkTo,
}: {
  rows: FinanceRow[];
  linkTo: (r: FinanceRow, f: FinanceFigure, why?: string) => string;
}) {
  return (
    <Table size="sm" responsive className="mt-3" data-testid="finance-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c.label} className={c.figure ? 'text-end' : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.period} className={r.period === 'total' ? 'fw-semibold' : undefined}>
            {COLUMNS.map((c) => (
              <td key={c.label} className={c.figure ? 'text-end' : undefined}>
                {c.figure ? (
                  <Link
                    to={linkTo(r, c.figure)}
                    aria-label={`${c.label} ${r.period}: the orders`}
                    replace
                    preventScrollReset
                  >
                    {c.value(r)}
                  </Link>
                ) : (
                  c.value(r)
                )}
                {c.figure === 'refunds'
                  ? Object.entries(r.refundsByReason)
                      .filter(([, cents]) => cents !== 0)
                      .map(([why, cents]) => (
                        <div key={why} className="small">
                          <Link
                            to={linkTo(r, 'refunds', why)}
                            aria-label={`Refunds ${reasonLabel(why)} ${r.period}: the orders`}
                            replace
                            preventScrollReset
                          >
                            {reasonLabel(why)} {money(cents)}
                          </Link>
                        </div>
                      ))
                  : null}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The finance report (/admin/finance-report): Admin and Manager (the server enforces it too). The range,
 * the grouping and the figure whose orders are listed are in the address, so every figure is a link.
 */
export function Component() {
  const user = useSessionUser();
  const { from, to, group, setParam, selection, linkTo } = useFinanceParams();
  const allowed = can(user?.type, 'reports.finance');
  const { data, error, isFetching } = useGetFinanceReportQuery({ from, to, group }, { skip: !allowed });
  if (!allowed) {
    return (
      <section className="p-3">
        <h1 className="h4">Finance</h1>
        <p className="text-muted mb-0" role="alert">
          You do not have permission to do this.
        </p>
      </section>
    );
  }
  const rows = data ? [...data.periods, data.totals] : [];
  return (
    <section className="p-3" aria-labelledby="finance-title">
      <h1 className="h4" id="finance-title">
        Finance
      </h1>
      <FinanceRangeForm from={from} to={to} group={group} setParam={setParam} />
      {error ? (
        <p className="text-danger" role="alert">
          {errorMessage(error)}
        </p>
      ) : null}
      {isFetching && !data ? <p className="small text-body-secondary">Loading…</p> : null}
      {data ? (
        <>
          <FinanceChart periods={data.periods} />
          <FinanceTable rows={rows} linkTo={linkTo} />
          {data.otherCurrencies.length ? (
            <p className="small" data-testid="finance-other-currencies">
              Other currencies (not summed):{' '}
              {data.otherCurrencies
                .map((c) => `${c.currency} ${(c.net / 100).toFixed(2)} net of ${c.transactions}`)
                .join('; ')}
            </p>
          ) : null}
          {data.unmatched ? (
            <p className="small text-warning-emphasis">
              {data.unmatched} synced transactions are not matched to an order.
            </p>
          ) : null}
          {selection ? (
            <FinanceOrders
              selection={selection}
              reasonLabel={selection.reason ? reasonLabel(selection.reason) : undefined}
            />
          ) : (
            <p className="small text-body-secondary">Choose a figure to list the orders behind it.</p>
          )}
        </>
      ) : null}
    </section>
  );
}
