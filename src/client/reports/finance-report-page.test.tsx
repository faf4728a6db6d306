import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FinanceAnswer, financeAnswer, type FinanceRow } from '../../shared/contracts/finance';
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

  it('refuses Team without asking the server', async () => {
    signInAs('Team');
    const sent = mockApi({});
    renderPage('/admin/finance-report', '/admin/finance-report', <FinanceReport />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission');
    expect(sent).toHaveLength(0);
  });
});
