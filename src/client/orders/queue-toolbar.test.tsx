import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countsFixture, file, listRow, mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { FOLDER_COLUMNS } from './columns';
import { OrderQueue } from './order-queue';

/** The queue's toolbar and title bar: Refresh, Export CSV, the debounced search. */
function openQueue(extra: Parameters<typeof mockApi>[0] = {}, path = '/admin/q') {
  const sent = mockApi({
    'GET /api/admin/get-orders-list/newOrder': () => ok([listRow(1), listRow(2)], 'Orders'),
    'GET /api/admin/get-folder-count': () => ok(countsFixture({ newOrdersCount: 2 })),
    ...extra,
  });
  renderPage(
    '/admin/q',
    path,
    <OrderQueue folder="newOrder" title="New Orders" columns={FOLDER_COLUMNS} folderTotal={2} />,
  );
  return sent;
}

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('queue toolbar', () => {
  it('Refresh asks again for the list and the counts, without reloading the page', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openQueue();
    await screen.findByText('Doe1', { exact: false });
    const lists = () => sent.filter((r) => r.path === '/api/admin/get-orders-list/newOrder').length;
    const before = lists();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(lists()).toBe(before + 1));
    expect(sent.some((r) => r.path === '/api/admin/get-folder-count')).toBe(true);
  });

  it('Export CSV downloads the whole view through the transport, with the search and sort of the URL', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL: () => {} });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const sent = openQueue(
      {
        'POST /api/admin/search-order': () => ok([listRow(1)], 'Orders', { total: 1, totalCapped: false }),
        'GET /api/admin/export-orders/newOrder': () => file('Order Id\n1\n', 'text/csv', 'new-orders.csv'),
      },
      '/admin/q?search=jane&sort=arrival_date&dir=desc',
    );
    await screen.findByText('Doe1', { exact: false });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['new-orders.csv']));
    expect(sent.find((r) => r.path === '/api/admin/export-orders/newOrder')?.query).toEqual({
      search: 'jane',
      sort: 'arrival_date',
      dir: 'desc',
    });
  });

  it('a refused export shows the server message', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    openQueue({ 'GET /api/admin/export-orders/newOrder': () => refused(429, 'Too many exports') });
    await screen.findByText('Doe1', { exact: false });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Too many exports')).toBeInTheDocument();
  });

  it('typing in the search asks the server once the typing stops, from page 1', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const sent = openQueue({
      'POST /api/admin/search-order': () => ok([listRow(2)], 'Orders', { total: 1, totalCapped: false }),
    });
    await screen.findByText('Doe1', { exact: false });
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'doe2');
    await waitFor(() => expect(sent.filter((r) => r.path === '/api/admin/search-order')).toHaveLength(1));
    expect(sent.find((r) => r.path === '/api/admin/search-order')?.body).toMatchObject({
      folderName: 'newOrder',
      searchVal: 'doe2',
      start: 0,
    });
  });
});
