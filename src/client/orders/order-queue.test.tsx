import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderListRow } from '../../shared/contracts/orders';
import { MSG } from '../../shared/messages';
import { makeStore } from '../state/store';
import { listRow, mockApi, renderPage, signInAs } from '../test/fixtures';
import { FOLDER_COLUMNS } from './columns';
import { NO_ACCESS, OrderQueue } from './order-queue';

const storeSession = (type: string) => signInAs(type, 'Tess');

const row = (id: number): OrderListRow => listRow(id);

const queue = (folder: 'allOrder' | 'newOrder', folderTotal: number) => (
  <OrderQueue folder={folder} title="Queue" columns={FOLDER_COLUMNS} folderTotal={folderTotal} />
);

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('order queue', () => {
  it('a list the role may not read (Telecaller on Order History by URL) says so and asks nothing', async () => {
    storeSession('Telecaller');
    const sent = mockApi({});
    renderPage('/admin/order-history', '/admin/order-history', queue('allOrder', 3000));
    expect(await screen.findByRole('alert')).toHaveTextContent(NO_ACCESS);
    expect(screen.queryByText(MSG.noRecords)).not.toBeInTheDocument();
    expect(sent.filter((r) => r.path.includes('order'))).toEqual([]);
  });

  it('a failed list shows the error with Retry, never "No records found", and Retry loads the rows', async () => {
    storeSession('Team');
    let fail = true;
    const sent = mockApi({
      'GET /api/admin/get-orders-list/newOrder': () =>
        fail
          ? { status: 500, body: { status: 0, message: 'Internal server error' } }
          : { body: { status: 1, message: 'ok', data: [row(100001), row(100002)] } },
    });
    renderPage('/admin/recent-order', '/admin/recent-order', queue('newOrder', 120));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Internal server error');
    expect(screen.queryByText(MSG.noRecords)).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('jane100001@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(sent.filter((r) => r.path === '/api/admin/get-orders-list/newOrder')).toHaveLength(2);
  });

  it('an empty page of a folder with orders offers the first page instead of "No records found"', async () => {
    storeSession('Team');
    mockApi({
      'GET /api/admin/get-orders-list/newOrder': () => ({ body: { status: 1, message: 'ok', data: [] } }),
    });
    renderPage('/admin/recent-order', '/admin/recent-order?page=9', queue('newOrder', 20));
    expect(await screen.findByText('No orders on this page.')).toBeInTheDocument();
    expect(screen.queryByText(MSG.noRecords)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to the first page' })).toBeInTheDocument();
  });

  it('an empty folder still says "No records found"', async () => {
    storeSession('Team');
    mockApi({
      'GET /api/admin/get-orders-list/newOrder': () => ({ body: { status: 1, message: 'ok', data: [] } }),
    });
    renderPage('/admin/recent-order', '/admin/recent-order', queue('newOrder', 0));
    expect(await screen.findByText(MSG.noRecords)).toBeInTheDocument();
  });
});

describe("'All'", () => {
  it('streams the folder: the first 500 rows at once, then 5,000 a request, in order, through the transport', async () => {
    storeSession('Admin');
    // jsdom lays nothing out: the list's scroll box gets its size (550 px) so the visible rows render.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(550);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
    const total = 12_345;
    const all = Array.from({ length: total }, (_, i) => row(200000 + i));
    const sent = mockApi({
      'GET /api/admin/get-orders-list/allOrder': ({ query }) => {
        const page = Number(query.page);
        const limit = Number(query.limit);
        const data = all.slice((page - 1) * limit, page * limit);
        return { body: { status: 1, message: 'ok', data, total } };
      },
    });
    const store = makeStore();
    renderPage('/admin/order-history', '/admin/order-history?size=All', queue('allOrder', total), store);
    // The first rows show (virtual: only those in view are in the page).
    expect(await screen.findByText('jane200000@example.com')).toBeInTheDocument();
    const table = screen.getByTestId('order-table');
    await waitFor(() => {
      const asked = sent.filter((r) => r.path === '/api/admin/get-orders-list/allOrder');
      expect(asked.map((r) => `${r.query.page}/${r.query.limit}`)).toEqual([
        '1/500',
        '1/5000',
        '2/5000',
        '3/5000',
      ]);
    });
    // Every row is there once the stream ends: the body is as high as all the rows (37 px each).
    const bodyHeight = () =>
      [...table.querySelectorAll('tbody tr')].reduce(
        (sum, tr) => sum + (Number.parseFloat((tr as HTMLElement).style.height) || 0),
        0,
      );
    await waitFor(() => expect(bodyHeight()).toBe(total * 37));
    const shown = within(table)
      .getAllByRole('checkbox', { name: /^Select order / })
      .map((box) => box.getAttribute('aria-label'));
    expect(shown.slice(0, 3)).toEqual(['Select order 200000', 'Select order 200001', 'Select order 200002']);
    // Nothing of the stream is kept in the RTK Query cache.
    expect(
      Object.keys(store.getState().api.queries).filter((k) => /^(getListPage|searchList)/.test(k)),
    ).toEqual([]);
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select all rows' }));
    await waitFor(() =>
      expect(within(table).getByRole('checkbox', { name: 'Select all rows' })).toBeChecked(),
    );
    const firstRow = within(table).getByRole('checkbox', { name: 'Select order 200000' });
    expect(firstRow).toBeChecked();
    await userEvent.click(firstRow);
    expect(within(table).getByRole('checkbox', { name: 'Select all rows' })).not.toBeChecked();
    expect(within(table).getByRole('checkbox', { name: 'Select order 200000' })).not.toBeChecked();
    expect(within(table).getByRole('checkbox', { name: 'Select order 200001' })).toBeChecked();
  });
});
