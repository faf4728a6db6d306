import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ratingInsights } from '../../shared/contracts/self-service';
import { envelope } from '../../shared/contracts/common';
import { answer, mockApi, renderPage, signInAs } from '../test/fixtures';
import type { InsightsChartSpec } from './insights-chart';
import { Component } from './insights-page';
import { RatingsCard } from './ratings-card';
import { encodeOrderId } from '../../shared/order-id';

// jsdom has no canvas for chart.js: a chart stands as a labelled figure with its figures.
vi.mock('./insights-chart', () => ({
  default: ({ spec }: { spec: InsightsChartSpec }) => (
    <figure aria-label={spec.title} data-testid="chart">
      {spec.datasets.map((d) => `${d.label}:${d.data.join(',')}`).join(';')}
    </figure>
  ),
}));

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const figures = {
  weeks: [
    { week: '2026-11-16', count: 0, goodShare: null, responseRate: null },
    { week: '2026-11-23', count: 4, goodShare: 0.75, responseRate: 0.5 },
  ],
  comments: [{ orderId: 5123, score: 2, comment: 'Slow answer', at: '2026-11-24T15:00:00Z' }],
  staff: [{ staffId: 7, name: 'Tess Team', count: 4, average: 3.75, goodShare: 0.75 }],
};

describe('the customer ratings of the insights', () => {
  it('shows ratings per week with a chart, the latest comments linked to their orders, and per staff member', async () => {
    signInAs('Manager');
    const sent = mockApi({
      'GET /api/admin/insights/ratings': () =>
        answer(envelope(ratingInsights), { status: 1, message: 'Ratings', data: figures }),
    });
    renderPage('/admin/insights', '/admin/insights', <RatingsCard />);
    const card = await screen.findByTestId('insights-ratings');
    expect(within(card).getByRole('heading', { name: 'Customer ratings' })).toBeInTheDocument();
    const perWeek = await within(card).findByRole('table', { name: 'Ratings per week' });
    expect(
      within(perWeek)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Week ofRatingsShare of 4–5Response rate', '16 Nov 20260––', '23 Nov 2026475 %50 %']);
    expect(await within(card).findByRole('figure', { name: 'Ratings per week' })).toHaveTextContent(
      'Ratings:0,4',
    );
    expect(
      within(card).getByRole('figure', { name: 'Share of 4–5 and response rate per week' }),
    ).toHaveTextContent('Share of 4–5:,0.75;Response rate:,0.5');
    const comments = within(card).getByRole('table', { name: 'Latest comments' });
    expect(within(comments).getByRole('link', { name: '#5123' })).toHaveAttribute(
      'href',
      `/admin/view-order/${encodeOrderId(5123)}`,
    );
    expect(comments).toHaveTextContent('Slow answer');
    const staff = within(card).getByRole('table', { name: 'Ratings per staff member' });
    expect(staff).toHaveTextContent('Tess Team43.7575 %');
    expect(sent.find((r) => r.path === '/api/admin/insights/ratings')?.query.weeks).toBe('12');
  });

  it('is part of the Insights page for a Manager, and not asked for by a Telecaller', async () => {
    signInAs('Manager');
    mockApi({
      'GET /api/admin/insights': () => ({ status: 500, body: { status: 0, message: 'skip' } }),
      'GET /api/admin/insights/ratings': () =>
        answer(envelope(ratingInsights), { status: 1, message: 'Ratings', data: figures }),
    });
    const view = renderPage('/admin/insights', '/admin/insights', <Component />);
    expect(await screen.findByRole('heading', { name: 'Customer ratings' })).toBeInTheDocument();
    view.unmount();
    localStorage.clear();
    signInAs('Telecaller');
    const sent = mockApi({});
    renderPage('/admin/insights', '/admin/insights', <Component />);
    expect(await screen.findByText(/You do not have permission/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Customer ratings' })).toBeNull();
    expect(sent.some((r) => r.path === '/api/admin/insights/ratings')).toBe(false);
  });
});
