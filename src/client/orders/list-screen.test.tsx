import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { listRow, mockApi, renderPage, signInAs } from '../test/fixtures';
import { ALL_FOLDER_COLUMNS, CONTACT_CUSTOMER_DEFAULT_KEYS, FOLDER_COLUMNS } from './columns';
import { OrderQueue } from './order-queue';

/** The list screen: sortable headers, due and status badges, the column chooser and density per member. */
const HOUR = 3_600_000;
const row = (id: number, over: Partial<OrderListRow> = {}): OrderListRow =>
  listRow(id, {
    process_status: 'Awaiting',
    arrival_date: '2031-03-14',
    due_at: new Date(Date.now() + 5 * HOUR + 60_000).toISOString(),
    due_state: 'at_risk',
    ...over,
  });

function openList(
  rows: OrderListRow[],
  contact = false,
  folder: Folder = contact ? 'contactCustomerOrder' : 'awaitingOrder',
) {
  const sent = mockApi({
    [`GET /api/admin/get-orders-list/${folder}`]: () => ({
      body: { status: 1, message: 'ok', data: rows, total: rows.length },
    }),
  });
  renderPage(
    '/admin/q',
    '/admin/q',
    <OrderQueue
      folder={folder}
      title="Queue"
      columns={FOLDER_COLUMNS}
      folderTotal={rows.length}
      choosable={ALL_FOLDER_COLUMNS}
      {...(contact ? { defaultColumns: CONTACT_CUSTOMER_DEFAULT_KEYS, prefsScope: folder } : {})}
    />,
  );
  return sent;
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('order list screen', () => {
  it('sorts by a header click, with the arrow and aria-sort, and asks the server again', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openList([row(1), row(2)]);
    await screen.findByText('Doe1', { exact: false });
    const before = sent.filter((r) => r.path.endsWith('/awaitingOrder')).length;
    const header = screen.getByRole('columnheader', { name: /Arrival Date/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    const arrival = () => screen.getByRole('columnheader', { name: /Arrival Date/ });
    await user.click(within(header).getByRole('button'));
    await waitFor(() => expect(arrival()).toHaveAttribute('aria-sort', 'ascending'));
    expect(arrival()).toHaveTextContent('▲');
    await user.click(within(arrival()).getByRole('button'));
    await waitFor(() => expect(arrival()).toHaveAttribute('aria-sort', 'descending'));
    expect(arrival()).toHaveTextContent('▼');
    expect(sent.filter((r) => r.path.endsWith('/awaitingOrder')).length).toBeGreaterThan(before);
  });

  it('shows the due-time sort as active in a working queue until another column is chosen', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openList([row(1), row(2)], false, 'newOrder');
    await screen.findByText('Doe1', { exact: false });
    const due = () => screen.getByRole('columnheader', { name: /^Due/ });
    expect(due()).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Arrival Date/ })).toHaveAttribute('aria-sort', 'none');
    // The default is the server's: the plain list asks for no sort.
    expect(sent.find((r) => r.path.endsWith('/newOrder'))?.query.sort).toBeUndefined();
    // A click on Due turns it round; another column takes over.
    await user.click(within(due()).getByRole('button'));
    await waitFor(() => expect(due()).toHaveAttribute('aria-sort', 'descending'));
    await user.click(within(screen.getByRole('columnheader', { name: /Arrival Date/ })).getByRole('button'));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Arrival Date/ })).toHaveAttribute(
        'aria-sort',
        'ascending',
      ),
    );
    expect(due()).toHaveAttribute('aria-sort', 'none');
  });

  it('shows due badges coloured by state and status badges', async () => {
    signInAs('Team');
    openList([
      row(3),
      row(4, { due_at: new Date(Date.now() - 2 * HOUR).toISOString(), due_state: 'breached' }),
    ]);
    const soon = (await screen.findByText('Doe3', { exact: false })).closest('tr')!;
    const late = screen.getByText('Doe4', { exact: false }).closest('tr')!;
    expect(within(soon).getByTestId('due-badge')).toHaveTextContent('in 5 h');
    expect(within(soon).getByTestId('due-badge')).toHaveClass('text-bg-warning');
    expect(within(late).getByTestId('due-badge')).toHaveTextContent('2 h late');
    expect(within(late).getByTestId('due-badge')).toHaveClass('text-bg-danger');
    expect(within(soon).getByText('Awaiting')).toHaveClass('badge');
  });

  it('marks the rows whose customer answered with a Customer replied badge, and offers that filter', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openList([row(5, { customer_replied: true }), row(6, { customer_replied: false })]);
    const replied = (await screen.findByText('Doe5', { exact: false })).closest('tr')!;
    const quiet = screen.getByText('Doe6', { exact: false }).closest('tr')!;
    expect(within(replied).getByTestId('replied-badge')).toHaveTextContent('Customer replied');
    expect(within(quiet).queryByTestId('replied-badge')).toBeNull();
    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    await user.click(screen.getByLabelText('Customer replied'));
    await waitFor(() =>
      expect(sent.some((r) => r.path.endsWith('/awaitingOrder') && r.query.customerReplied === 'true')).toBe(
        true,
      ),
    );
  });

  it('offers the Submission failed filter: the list is asked for submissionFailed=true', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openList([row(5)]);
    await screen.findByText('Doe5', { exact: false });
    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    await user.click(screen.getByLabelText('Submission failed'));
    await waitFor(() =>
      expect(sent.some((r) => r.path.endsWith('/awaitingOrder') && r.query.submissionFailed === 'true')).toBe(
        true,
      ),
    );
  });

  it('remembers the chosen columns and the compact density per member', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    openList([row(5)]);
    await screen.findByText('Doe5', { exact: false });
    expect(screen.getByRole('columnheader', { name: 'Email' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Telephone' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByLabelText('Email'));
    await user.click(screen.getByLabelText('Process Month'));
    await user.click(screen.getByLabelText('Compact rows'));
    expect(screen.queryByRole('columnheader', { name: 'Email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: /^Process Month/ })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Telephone' })).toBeInTheDocument();
    expect(screen.getByTestId('order-table')).toHaveClass('table-sm');
    const saved = JSON.parse(localStorage.getItem('edcard.list-prefs.1') ?? '{}');
    expect(saved.compact).toBe(true);
    expect(saved.columns).toContain('telephone');
    expect(saved.columns).not.toContain('email');
  });

  it('shows every folder column by default (Telephone and Date & Time included)', async () => {
    signInAs('Team');
    openList([row(6)]);
    await screen.findByText('Doe6', { exact: false });
    for (const name of [
      'Order ID',
      'Status',
      'Name',
      'Arrival Date',
      'Email',
      'Telephone',
      'Date & Time',
      'Refund Date',
      'Process Date',
      'Process Month',
      'Assign To',
    ]) {
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toBeInTheDocument();
    }
  });

  it('hides Telephone on Contact Customer by default, and a Telecaller adds it back there', async () => {
    const user = userEvent.setup();
    signInAs('Telecaller');
    openList([row(7, { process_status: 'Contact Customer' })], true);
    await screen.findByText('Doe7', { exact: false });
    expect(screen.getByRole('columnheader', { name: /^Date & Time/ })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Telephone' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByLabelText('Telephone'));
    expect(screen.getByRole('columnheader', { name: 'Telephone' })).toBeInTheDocument();
    // The choice is Contact Customer's own.
    expect(
      JSON.parse(localStorage.getItem('edcard.list-prefs.1.contactCustomerOrder') ?? '{}').columns,
    ).toContain('telephone');
  });
});
