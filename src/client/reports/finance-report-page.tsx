import { lazy, Suspense, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { FinanceRow } from '../../shared/contracts/finance';
import { serviceToday } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import { errorMessage } from '../transport/api';
import { useGetFinanceReportQuery } from './reports-api';

const ReportChart = lazy(() => import('./report-chart'));

const money = (cents: number | null) => (cents === null ? '–' : `$${(cents / 100).toFixed(2)}`);

const COLUMNS: { label: string; value: (r: FinanceRow) => string | number }[] = [
  { label: 'Period', value: (r) => r.period },
  { label: 'Paid orders', value: (r) => r.paidOrders },
  { label: 'Gross', value: (r) => money(r.gross) },
  { label: 'Provider fees', value: (r) => money(r.providerFees) },
  { label: 'Government fees', value: (r) => money(r.governmentFees) },
  { label: 'Refunds', value: (r) => money(r.refunds) },
  { label: 'Disputes', value: (r) => `${r.disputes.count} (${money(r.disputes.amount)})` },
  { label: 'Dispute fees', value: (r) => money(r.disputes.fees) },
  { label: 'Won back', value: (r) => money(r.disputes.wonBack) },
  { label: 'Net', value: (r) => money(r.net) },
  { label: 'Net per order', value: (r) => money(r.netPerOrder) },
];

/** The finance report (/admin/finance-report): Admin and Manager (the server enforces it too). */
export function Component() {
  const user = useSessionUser();
  const today = serviceToday();
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const [group, setGroup] = useState<'day' | 'month'>('day');
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
      <Form className="d-flex flex-wrap gap-2 align-items-end mb-3" onSubmit={(e) => e.preventDefault()}>
        <Form.Group controlId="finance-from">
          <Form.Label className="small mb-0">From</Form.Label>
          <Form.Control type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </Form.Group>
        <Form.Group controlId="finance-to">
          <Form.Label className="small mb-0">To</Form.Label>
          <Form.Control type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </Form.Group>
        <Form.Group controlId="finance-group">
          <Form.Label className="small mb-0">Per</Form.Label>
          <Form.Select value={group} onChange={(e) => setGroup(e.target.value as 'day' | 'month')}>
            <option value="day">Day</option>
            <option value="month">Month</option>
          </Form.Select>
        </Form.Group>
      </Form>
      {error ? (
        <p className="text-danger" role="alert">
          {errorMessage(error)}
        </p>
      ) : null}
      {isFetching && !data ? <p className="small text-body-secondary">Loading…</p> : null}
      {data ? (
        <>
          <Suspense fallback={null}>
            <ReportChart
              spec={{
                title: 'Gross, fees and net per period (USD)',
                labels: data.periods.map((p) => p.period),
                datasets: [
                  { label: 'Gross', data: data.periods.map((p) => p.gross / 100), color: '#1a56db' },
                  {
                    label: 'Fees and refunds',
                    data: data.periods.map(
                      (p) =>
                        (p.providerFees +
                          p.governmentFees +
                          p.refunds +
                          p.disputes.amount -
                          p.disputes.wonBack) /
                        100,
                    ),
                    color: '#dc2626',
                  },
                  { label: 'Net', data: data.periods.map((p) => p.net / 100), color: '#198754' },
                ],
              }}
            />
          </Suspense>
          <Table size="sm" responsive className="mt-3" data-testid="finance-table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c.label} className={c.label === 'Period' ? undefined : 'text-end'}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.period} className={r.period === 'total' ? 'fw-semibold' : undefined}>
                  {COLUMNS.map((c) => (
                    <td key={c.label} className={c.label === 'Period' ? undefined : 'text-end'}>
                      {c.value(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
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
        </>
      ) : null}
    </section>
  );
}
