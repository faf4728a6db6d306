import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FinanceAnswer,
  financeAnswer,
  financeOrdersAnswer,
  type FinanceRow,
} from '../../shared/contracts/finance';
import { encodeOrderId } from '../../shared/order-id';
import { mockApi, ok, renderPage, signInAs } from '../test/fixtures';
import type { ChartSpec } from './report-chart';
import { Component as FinanceReport } from './finance-report-page';

// jsdom has no canvas for chart.js: the chart stands as a labelled figure carrying its data.
vi.mock('./report-chart', () => ({
  default: ({ spec }: { spec: ChartSpec }) => (
    <figure aria-label={spec.title} data-testid="chart" data-spec={JSON.stringify(spec)} />
  ),
}));

afterEach(() => localStorage.clear());

const row = (period: string, scale: number): FinanceRow => ({
  period,
  paidOrders: 10 * scale,
  gross: 59_000 * scale,
  providerFees: 2_010 * scale,
  submittedOrders: 5 * scale,
  governmentFees: 10_000 * scale,
  refunds: 5_900 * scale,
  refundsByReason: { customer_request: 5_900 * scale },
  disputes: { count: scale, amount: 5_900 * scale, fees: 1_500 * scale, wonBack: 0 },
  other: 0,
  providerNet: 43_690 * scale,
  net: 33_690 * scale,
  netPerOrder: 3_369,
});

const ANSWER: FinanceAnswer = financeAnswer.parse({
  currency: 'USD',
  group: 'day',
  from: '2026-03-01',
  to: '2026-03-02',
  govFeeCents: 2000,
  periods: [row('2026-03-01', 1), row('2026-03-02', 2)],
  totals: row('total', 3),
  otherCurrencies: [{ currency: 'EUR', transactions: 3, amount: 12_000, fees: 450, net: 11_550 }],
  unmatched: 2,
});

describe('finance report page', () => {
  it('shows a Manager the periods, the totals and a chart of gross, fees and net', async () => {
    signInAs('Manager');
    const sent = mockApi({ 'GET /api/admin/reports/finance': () => ok(ANSWER, 'Finance report') });
    renderPage('/admin/finance-report', '/admin/finance-report', <FinanceReport />);
    const table = await screen.findByTestId('finance-table');
    expect(sent[0]?.query).toMatchObject({ group: 'day' });
    expect(sent[0]?.query.from).toMatch(/^\d{4}-\d{2}-01$/);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[3]!).getByText('total')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('$1010.70')).toBeInTheDocument();
    const chart = await screen.findByTestId('chart');
    const spec = JSON.parse(chart.getAttribute('data-spec') ?? '{}') as ChartSpec;
    expect(spec.labels).toEqual(['2026-03-01', '2026-03-02']);
    expect(spec.datasets.find((d) => d.label === 'Net')?.data).toEqual([336.9, 673.8]);
    expect(screen.getByTestId('finance-other-currencies')).toHaveTextContent('EUR 115.50');
  });

  it("every figure links to the orders behind it: a day's gross, a refund reason of the totals, net per order", async () => {
    signInAs('Manager');
    const sent = mockApi({
      'GET /api/admin/reports/finance': () => ok(ANSWER, 'Finance report'),
      'GET /api/admin/reports/finance/orders': (req) =>
        ok(
          financeOrdersAnswer.parse({
            figure: req.query.figure,
            reason: req.query.reason ?? null,
            from: req.query.from,
            to: req.query.to,
            orders: [
              { orderId: 4101, name: 'Jane Doe', status: 'Completed', entries: 1, amount: 5_900 },
              { orderId: 4102, name: 'John Roe', status: 'New', entries: 2, amount: 3_000 },
            ],
            orderCount: 2,
            orderTotal: 8_900,
            unmatched: { entries: 1, amount: 3_000 },
            figureTotal: 11_900,
          }),
          'Orders behind the figure',
        ),
    });
    renderPage(
      '/admin/finance-report',
      '/admin/finance-report?from=2026-03-01&to=2026-03-02&group=day',
      <FinanceReport />,
    );
    await screen.findByTestId('finance-table');
    expect(screen.getByText('Choose a figure to list the orders behind it.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Gross 2026-03-02: the orders' }));
    const panel = await screen.findByTestId('finance-orders');
    expect(within(panel).getByRole('heading')).toHaveTextContent('Orders behind Gross, 2026-03-02');
    expect(await within(panel).findByRole('link', { name: '#4101' })).toHaveAttribute(
      'href',
      `/admin/view-order/${encodeOrderId(4101)}`,
    );
    expect(within(panel).getByTestId('finance-orders-summary')).toHaveTextContent(
      '2 orders, $89.00; $30.00 in 1 transactions not matched to an order; the figure $119.00.',
    );
    const asked = () => sent.filter((r) => r.path === '/api/admin/reports/finance/orders').at(-1)?.query;
    expect(asked()).toEqual({ figure: 'gross', from: '2026-03-02', to: '2026-03-02' });
    // The totals' refunds for one reason: the whole range, with the reason.
    await userEvent.click(screen.getByRole('link', { name: 'Refunds Customer request total: the orders' }));
    await screen.findByText(/Orders behind Refunds \(Customer request\), 2026-03-01 to 2026-03-02/);
    expect(asked()).toEqual({
      figure: 'refunds',
      reason: 'customer_request',
      from: '2026-03-01',
      to: '2026-03-02',
    });
    // Net per order lists the orders of the net.
    await userEvent.click(screen.getByRole('link', { name: 'Net per order 2026-03-01: the orders' }));
    await screen.findByText('Orders behind Net, 2026-03-01');
    expect(asked()).toEqual({ figure: 'net', from: '2026-03-01', to: '2026-03-01' });
  });

  it("a month's figure asks for the month within the chosen range", async () => {
    signInAs('Admin');
    const sent = mockApi({
      'GET /api/admin/reports/finance': () =>
        ok(
          {
            ...ANSWER,
            group: 'month',
            from: '2026-03-10',
            to: '2026-04-05',
            periods: [row('2026-03-01', 1), row('2026-04-01', 1)],
          },
          'Finance report',
        ),
      'GET /api/admin/reports/finance/orders': () =>
        ok(
          financeOrdersAnswer.parse({
            figure: 'governmentFees',
            reason: null,
            from: '2026-03-10',
            to: '2026-03-31',
            orders: [],
            orderCount: 0,
            orderTotal: 0,
            unmatched: { entries: 0, amount: 0 },
            figureTotal: 0,
          }),
          'No records found',
        ),
    });
    renderPage(
      '/admin/finance-report',
      '/admin/finance-report?from=2026-03-10&to=2026-04-05&group=month',
      <FinanceReport />,
    );
    await screen.findByTestId('finance-table');
    await userEvent.click(screen.getByRole('link', { name: 'Government fees 2026-03-01: the orders' }));
    await screen.findByTestId('finance-orders-summary');
    expect(sent.filter((r) => r.path === '/api/admin/reports/finance/orders').at(-1)?.query).toEqual({
      figure: 'governmentFees',
      from: '2026-03-10',
      to: '2026-03-31',
    });
    await userEvent.click(screen.getByRole('link', { name: 'Government fees 2026-04-01: the orders' }));
    await screen.findByText('Orders behind Government fees, 2026-04-01 to 2026-04-05');
  });

  it('refuses Team without asking the server', async () => {
    signInAs('Team');
    const sent = mockApi({});
    renderPage('/admin/finance-report', '/admin/finance-report', <FinanceReport />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission');
    expect(sent).toHaveLength(0);
  });
});
