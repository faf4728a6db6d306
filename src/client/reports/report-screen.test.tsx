import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CountryReportRow } from '../../shared/contracts/reports';
import { MSG } from '../../shared/messages';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component as CountryReport } from './country-report-page';

const row = (nationality: string, count: number): CountryReportRow => ({
  nationality,
  count,
  standard_count: count - 1,
  priority_count: 1,
  future_count: 0,
});
const ROWS = [row('Netherlands', 12), row('Germany', 7), row('Canada', 3)];

function openReport(search: string, answer = () => ok(ROWS, 'Country order count')) {
  const sent = mockApi({ 'POST /api/admin/get-country-order-count': answer });
  renderPage('/admin/country-order-list', `/admin/country-order-list${search}`, <CountryReport />);
  return sent;
}

afterEach(() => localStorage.clear());

describe('report screen (Country Order List)', () => {
  it('asks for the range in the URL, toasts the message, shows numbered rows and searches them', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openReport('?from=2026-03-01&to=2026-03-31');
    expect(await screen.findByText('Country order count')).toBeInTheDocument();
    expect(sent[0]?.body).toEqual({ fromDate: '2026-03-01', toDate: '2026-03-31' });
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByRole('cell', { name: 'Netherlands' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Order Count' })).toHaveClass('text-end');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'germ');
    await waitFor(() => {
      expect(within(table).getAllByRole('row')).toHaveLength(2);
      expect(within(table).getByRole('cell', { name: 'Germany' })).toBeInTheDocument();
    });
    // The first column counts the rows shown.
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/^1Germany/);
  });

  it('without a range it asks nothing and says what to do; a refusal shows the server message', async () => {
    signInAs('Team');
    const sent = openReport('');
    expect(await screen.findByText('Choose a range and press Submit.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('an answer without rows shows "No records found"; a failed call its message', async () => {
    signInAs('Team');
    openReport('?from=2026-03-01&to=2026-03-02', () => refused(400, 'The range is too long'));
    expect(await screen.findByText('The range is too long')).toBeInTheDocument();
    expect(screen.getByText(MSG.noRecords)).toBeInTheDocument();
  });
});
