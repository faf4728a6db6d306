import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { listRow, mockApi, renderPage, signInAs } from '../test/fixtures';
import { FOLDER_COLUMNS } from './columns';
import { OrderQueue } from './order-queue';

/** The Assignee filter lists the staff by name, so a Manager can see one person's load. */
function openList() {
  const sent = mockApi({
    'GET /api/admin/get-orders-list/allOrder': () => ({
      body: { status: 1, message: 'ok', data: [listRow(1)], total: 1 },
    }),
    'GET /api/admin/get-team-member-list': () => ({
      body: {
        status: 1,
        message: 'ok',
        data: [
          { id: 7, name: 'Rosa Team', email: 'rosa@demo.test', type: 'Team' },
          { id: 9, name: 'Nico Night', email: 'nico@demo.test', type: 'Night Staff' },
        ],
      },
    }),
  });
  renderPage(
    '/admin/q',
    '/admin/q',
    <OrderQueue folder="allOrder" title="Order History" columns={FOLDER_COLUMNS} folderTotal={1} />,
  );
  return sent;
}

afterEach(() => localStorage.clear());

describe('Assignee filter', () => {
  it('Manager: Anyone, Me, Unassigned and every member; choosing one asks for their orders', async () => {
    signInAs('Manager');
    const sent = openList();
    await userEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    const select = await screen.findByLabelText('Assignee');
    await waitFor(() =>
      expect(within(select).getByRole('option', { name: 'Rosa Team' })).toBeInTheDocument(),
    );
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Anyone', 'Me', 'Unassigned', 'Rosa Team', 'Nico Night']);
    await userEvent.selectOptions(select, '7');
    await waitFor(() =>
      expect(sent.some((r) => r.path.endsWith('/get-orders-list/allOrder') && r.query.assignee === '7')).toBe(
        true,
      ),
    );
  });

  it('Night Staff (no team access) keeps Anyone, Me and Unassigned and never asks for the team', async () => {
    signInAs('Night Staff');
    const sent = openList();
    await userEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    const select = await screen.findByLabelText('Assignee');
    expect(within(select).getAllByRole('option')).toHaveLength(3);
    expect(sent.some((r) => r.path.endsWith('/get-team-member-list'))).toBe(false);
  });
});
