import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { listRow, mockApi, renderPage, signInAs } from '../test/fixtures';
import { FOLDER_COLUMNS } from './columns';
import { OrderQueue } from './order-queue';

/** The queue screen mirrors the shared order rules: what it offers is what the server would allow. */
const row = (id: number, over: Partial<OrderListRow> = {}): OrderListRow =>
  listRow(id, { process_status: 'Deleted', ...over });

function openQueue(folder: Folder, rows: OrderListRow[], extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    [`GET /api/admin/get-orders-list/${folder}`]: () => ({ body: { status: 1, message: 'ok', data: rows } }),
    ...extra,
  });
  renderPage(
    '/admin/q',
    '/admin/q',
    <OrderQueue folder={folder} title="Queue" columns={FOLDER_COLUMNS} folderTotal={rows.length} />,
  );
  return sent;
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('queue actions follow the order rules', () => {
  it('Deleted Orders offers Restore to a Manager, per row and in bulk, and sends it', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    const sent = openQueue('deletedOrder', [row(5), row(6)], {
      'PUT /api/admin/restore-order': () => ({
        body: { status: 1, message: '2 orders have been restored.', data: { orderId: [5, 6], restored: [] } },
      }),
    });
    await screen.findByText('Doe5', { exact: false });
    expect(screen.getAllByRole('button', { name: 'Restore' })).toHaveLength(3);
    await user.click(screen.getByRole('checkbox', { name: /select all/i }));
    const bulk = screen.getAllByRole('button', { name: 'Restore' })[0]!;
    await user.click(bulk);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('2 orders have been restored.')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/restore-order')?.body).toEqual({ orderId: [5, 6] });
  });

  it('Deleted Orders offers no Restore to Team, Telecaller or Night Staff', async () => {
    for (const role of ['Team', 'Telecaller', 'Night Staff']) {
      signInAs(role);
      openQueue('deletedOrder', [row(7)]);
      await screen.findByText('Doe7', { exact: false });
      expect(screen.queryByRole('button', { name: 'Restore' }), role).not.toBeInTheDocument();
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('per-row Delete in Refunds is shown only where the rules let this role delete', async () => {
    signInAs('Manager');
    openQueue('refundOrder', [
      row(8, { process_status: 'Refunds' }),
      row(9, { process_status: 'Refunds', assign_to: 'Demo Team' }),
    ]);
    const free = (await screen.findByText('Doe8', { exact: false })).closest('tr')!;
    const held = screen.getByText('Doe9', { exact: false }).closest('tr')!;
    expect(within(free).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    // Someone holds order 9: only an Admin may delete it.
    expect(within(held).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(held).getByRole('button', { name: 'Refund' })).toBeInTheDocument());
  });
});
