import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InsightsData, insightsData } from '../../shared/contracts/insights';
import { serviceToday } from '../../shared/dates';
import { mockApi, ok, renderPage, type SentRequest, signInAs } from '../test/fixtures';
import type { InsightsChartSpec } from './insights-chart';
import { Component } from './insights-page';

// jsdom has no canvas for chart.js: a chart stands as a labelled figure (e2e/insights.spec.ts draws the
// real ones in Chromium).
vi.mock('./insights-chart', () => ({
  default: ({ spec }: { spec: InsightsChartSpec }) => <figure aria-label={spec.title} data-testid="chart" />,
}));

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const zero = { lt24h: 0, d1to3: 0, d3to7: 0, gt7d: 0, total: 0 };

/** An answer for the period asked, checked against the shared contract; `scale` tells the periods apart. */
function answer(from: string, to: string, scale: number): InsightsData {
  return insightsData.parse({
    from,
    to,
    timeZone: 'America/New_York',
    asOf: new Date().toISOString(),
    backlog: {
      total: { lt24h: 3, d1to3: 2, d3to7: 1, gt7d: 4, total: 10 },
      folders: [{ ...zero, lt24h: 3, total: 3, folder: 'newOrder', label: 'New Orders' }],
    },
    throughput: [{ day: to, received: 40 * scale, completed: 30 * scale, refunded: 2, deleted: 1 }],
    timeToComplete: {
      overall: { completed: 30 * scale, medianHours: 20 + scale, p90Hours: 60 },
      days: [{ day: to, completed: 30 * scale, medianHours: 20 + scale, p90Hours: 60 }],
    },
    perStaff: [
      {
        staffId: 4,
        name: `Tess Team ${scale}`,
        completed: 12,
        statusMoves: 30,
        remarks: 9,
        handled: 12,
        medianHandlingHours: 5,
        assigned: 14,
        medianFirstActionMinutes: 7,
        completedWithDue: 10,
        onTimeShare: 0.9,
      },
    ],
    onTime: {
      overall: { completed: 30, withinTarget: 27, withoutDue: 2, share: 0.9 },
      days: [{ day: to, completed: 30, withinTarget: 27, withoutDue: 2, share: 0.9 }],
    },
    chargebacks: {
      overall: { chargebacks: 1, completed: 30, share: 1 / 30 },
      days: [{ day: to, chargebacks: 1, completed: 30, share: 1 / 30 }],
    },
    mail: [{ day: to, provider: 'AWS', sent: 50, failed: 2 * scale, pending: 1, bounced: 0 }],
  });
}

function open(path = '/admin/insights') {
  let calls = 0;
  const sent = mockApi({
    'GET /api/admin/insights': (req) => ok(answer(req.query.from!, req.query.to!, ++calls === 1 ? 2 : 1)),
    'POST /api/admin/audit/export-event': () => ok(undefined, 'Export recorded'),
  });
  renderPage('/admin/insights', path, <Component />);
  return sent;
}
const periodsAsked = (sent: SentRequest[]) =>
  sent.filter((r) => r.path === '/api/admin/insights').map((r) => `${r.query.from}..${r.query.to}`);

describe('Insights screen', () => {
  it('opens on the last 30 days, compared with the 30 before, with figures, tables and day-first dates', async () => {
    signInAs('Manager');
    const sent = open();
    const today = serviceToday();
    const from = dayjs(today).subtract(29, 'day');
    const prevTo = from.subtract(1, 'day');
    const prevFrom = prevTo.subtract(29, 'day');
    await waitFor(() =>
      expect(periodsAsked(sent).sort()).toEqual(
        [
          `${from.format('YYYY-MM-DD')}..${today}`,
          `${prevFrom.format('YYYY-MM-DD')}..${prevTo.format('YYYY-MM-DD')}`,
        ].sort(),
      ),
    );
    expect(screen.getByRole('button', { name: '30 d' })).toHaveAttribute('aria-pressed', 'true');
    const line = await screen.findByTestId('insights-period');
    expect(line).toHaveTextContent(
      `${from.format('D MMM YYYY')} – ${dayjs(today).format('D MMM YYYY')} (service time zone), compared with ${prevFrom.format('D MMM YYYY')} – ${prevTo.format('D MMM YYYY')}`,
    );
    for (const title of [
      'Backlog now',
      'Throughput',
      'Time to complete',
      'Staff',
      'On time',
      'Chargebacks',
      'Mail',
    ]) {
      expect(await screen.findByRole('table', { name: title })).toBeInTheDocument();
    }
    expect(within(screen.getByRole('table', { name: 'Staff' })).getByText(/^Tess Team/)).toBeInTheDocument();
    expect(within(screen.getByTestId('kpi-Received')).getByText(/previous period:/)).toBeInTheDocument();
    expect(await screen.findByRole('figure', { name: 'Completed per staff member' })).toBeInTheDocument();
  });

  it('asks for a custom period typed day first, and refuses one that ends before it starts', async () => {
    signInAs('Admin');
    const user = userEvent.setup();
    const sent = open();
    await screen.findByTestId('insights-period');
    await user.click(screen.getByRole('button', { name: 'Custom' }));
    const fromField = await screen.findByLabelText('From');
    const toField = screen.getByLabelText('To');
    await user.clear(fromField);
    await user.type(fromField, '1/10/2026');
    await user.clear(toField);
    await user.type(toField, '31 Oct 2026');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(periodsAsked(sent)).toEqual(
        expect.arrayContaining(['2026-10-01..2026-10-31', '2026-08-31..2026-09-30']),
      ),
    );
    expect(await screen.findByTestId('insights-period')).toHaveTextContent(
      '1 Oct 2026 – 31 Oct 2026 (service time zone), compared with 31 Aug 2026 – 30 Sep 2026',
    );
    const asked = periodsAsked(sent).length;
    await user.clear(toField);
    await user.type(toField, '30 Sep 2026');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/Choose a From and a To date/)).toBeInTheDocument();
    expect(periodsAsked(sent)).toHaveLength(asked);
  });

  it('exports a table as CSV after recording the export in the audit log', async () => {
    signInAs('Manager');
    const user = userEvent.setup();
    const created = vi.fn((_blob: Blob) => 'blob:staff');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const sent = open('/admin/insights?preset=custom&from=2026-10-01&to=2026-10-31');
    const staff = await screen.findByRole('region', { name: 'Staff' });
    await user.click(within(staff).getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    const recorded = sent.filter((r) => r.path === '/api/admin/audit/export-event');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.body).toMatchObject({ screen: 'insights', rows: 1 });
    const csv = await created.mock.calls[0]![0].text();
    expect(csv).toMatch(
      /^Staff member,Completed,Status moves,Remarks,Median handling \(h\),Assigned,Median to first action \(min\),Within due time\r\nTess Team \d,12,30,9,5,14,7,90\.0 %$/,
    );
  });

  it.each(['Team', 'Telecaller', 'Night Staff'])('%s may not see it and asks nothing', async (role) => {
    signInAs(role);
    const sent = open();
    expect(await screen.findByText('You do not have permission to view the insights.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});
