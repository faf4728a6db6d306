import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { MSG } from '../../shared/messages';
import { ConfirmDialog } from '../components/confirm-dialog';
import { listRow, mockApi, renderPage, signInAs } from '../test/fixtures';
import { sessionUser } from '../transport/session';
import { useBulkActions } from './use-bulk-actions';

/** The hook alone, laid out as plainly as possible: what a queue screen gets from it. */
function Harness({ folder, rows }: { folder: Folder; rows: OrderListRow[] }) {
  const [dataKey, setDataKey] = useState(1);
  const bulk = useBulkActions({ folder, role: sessionUser()?.type ?? null, rows, dataKey });
  return (
    <div>
      <output aria-label="selected">{[...bulk.selected].join(',')}</output>
      <output aria-label="busy">{String(bulk.busy)}</output>
      {rows.map((r) => (
        <button key={r.order_id} type="button" onClick={() => bulk.toggle(r.order_id)}>
          {`pick ${r.order_id}`}
        </button>
      ))}
      <button type="button" onClick={() => bulk.toggleAll(true)}>
        pick all
      </button>
      <button type="button" onClick={() => setDataKey((k) => k + 1)}>
        next page
      </button>
      {bulk.buttons.map((b) => (
        <button key={b.action} type="button" onClick={() => bulk.ask(b.action, [...bulk.selected])}>
          {b.label}
        </button>
      ))}
      <output aria-label="row actions">{bulk.rowActions.join(',')}</output>
      <ConfirmDialog {...bulk.confirm} busy={bulk.busy} />
    </div>
  );
}

function open(folder: Folder, rows: OrderListRow[], handlers: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi(handlers);
  renderPage('/admin/q', '/admin/q', <Harness folder={folder} rows={rows} />);
  return sent;
}

const selection = () => screen.getByRole('status', { name: 'selected' }).textContent;

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('useBulkActions', () => {
  it('offers the folder policy to the role, asks to confirm, sends the action, toasts and clears the selection', async () => {
    const user = userEvent.setup();
    signInAs('Team', 'Tess');
    const sent = open('newOrder', [listRow(1), listRow(2), listRow(3)], {
      'PUT /api/admin/assign-order-status': () => ({
        body: { status: 1, message: 'ok', data: { orderId: [1, 3] } },
      }),
    });
    expect(screen.getByRole('button', { name: 'Assign to me' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'pick 1' }));
    await user.click(screen.getByRole('button', { name: 'pick 3' }));
    expect(selection()).toBe('1,3');
    await user.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByText(MSG.confirmAssign)).toBeInTheDocument();
    expect(sent.filter((r) => r.path.includes('assign'))).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(MSG.assigned)).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/assign-order-status')?.body).toEqual({
      orderId: [1, 3],
      assignto: 'Tess',
    });
    await waitFor(() => expect(selection()).toBe(''));
    await waitFor(() => expect(screen.queryByText(MSG.confirmAssign)).not.toBeInTheDocument());
  });

  it('says which order the rules refuse before asking, and sends nothing', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    const sent = open('refundOrder', [
      listRow(8, { process_status: 'Refunds' }),
      listRow(9, { process_status: 'Refunds', assign_to: 'Demo Team' }),
    ]);
    expect(screen.getByRole('status', { name: 'row actions' })).toHaveTextContent('refund,delete');
    await user.click(screen.getByRole('button', { name: 'pick all' }));
    expect(selection()).toBe('8,9');
    await user.click(screen.getByRole('button', { name: 'Delete Order' }));
    expect(await screen.findByText(/^Order 9: /)).toBeInTheDocument();
    expect(screen.queryByText(MSG.confirmDelete)).not.toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(selection()).toBe('8,9');
  });

  it('a refused request toasts the server message and keeps the selection', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    open('newOrder', [listRow(4), listRow(5)], {
      'PUT /api/admin/change-order-status': () => ({
        status: 409,
        body: { status: 0, message: 'Order 5 was changed by someone else.' },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'pick all' }));
    await user.click(screen.getByRole('button', { name: 'Delete Order' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Order 5 was changed by someone else.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(MSG.confirmDelete)).not.toBeInTheDocument());
    expect(selection()).toBe('4,5');
    expect(screen.getByRole('status', { name: 'busy' })).toHaveTextContent('false');
  });

  it('a new page or data set starts with nothing selected', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    open('newOrder', [listRow(6), listRow(7)]);
    await user.click(screen.getByRole('button', { name: 'pick 6' }));
    expect(selection()).toBe('6');
    await user.click(screen.getByRole('button', { name: 'pick 6' }));
    expect(selection()).toBe('');
    await user.click(screen.getByRole('button', { name: 'pick 7' }));
    await user.click(screen.getByRole('button', { name: 'next page' }));
    expect(selection()).toBe('');
  });
});
