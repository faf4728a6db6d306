import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLDER_COUNT_KEYS, type FolderCounts } from '../../shared/constants';
import { savedView } from '../../shared/contracts/views';
import { makeStore } from '../state/store';
import { countsFixture, mockApi, ok, refused, renderRoutes, signInAs } from '../test/fixtures';
import { StaffLayout } from './staff-layout';

const storeSession = (name: string, type: string) => signInAs(type, name);

const COUNTS: FolderCounts = countsFixture({}, 100, 1);

/** The counts call answers `status` with the counts (or an error body); other calls an empty success. */
function answerCounts(status: number, extra: Record<string, number> = {}) {
  mockApi({
    'GET /api/admin/get-folder-count': () =>
      status === 200 ? ok({ ...COUNTS, ...extra }, 'Success') : refused(status, 'Not found'),
    'GET /api/admin/views': () => ok([], 'Success'),
    'GET /api/admin/insights/my-day': () => ok(undefined, 'Success'),
    'GET /api/admin/inbound/unmatched': () => ok({ total: 4, items: [] }, 'Success'),
  });
}

function renderLayout(path = '/admin') {
  return renderRoutes(
    [
      {
        path: '/admin',
        element: <StaffLayout />,
        children: [
          { index: true, element: <p>page</p> },
          { path: 'pending-order', element: <p>queue</p> },
          { path: 'view-order/:orderId', element: <p>order</p> },
        ],
      },
    ],
    path,
  );
}

afterEach(() => localStorage.clear());

describe('staff layout', () => {
  it('greets the user and shows the tiles without numbers while the counts call fails', async () => {
    storeSession('Tina Tester', 'Team');
    answerCounts(500);
    renderLayout();
    expect(await screen.findByText('Welcome Tina Tester')).toBeInTheDocument();
    const tiles = screen.getByRole('region', { name: 'Dashboard' });
    expect(within(tiles).getByRole('link', { name: 'New Orders' })).toHaveAttribute(
      'href',
      '/admin/recent-order',
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(within(tiles).queryByText(/\d/)).toBeNull();
  });

  it('offers a skip link to the main content first, and shows the tiles on the dashboard and queues only', async () => {
    storeSession('Tina Tester', 'Team');
    answerCounts(200);
    const view = renderLayout('/admin/view-order/MjAwMjQ2');
    expect(await screen.findByText('order')).toBeInTheDocument();
    const links = screen.getAllByRole('link');
    expect(links[0]).toHaveTextContent('Skip to main content');
    expect(links[0]).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(screen.queryByRole('region', { name: 'Dashboard' })).toBeNull();
    // The account button is named by its visible text.
    expect(screen.getByRole('button', { name: 'Welcome Tina Tester' })).toBeInTheDocument();
    view.unmount();

    renderLayout('/admin/pending-order');
    expect(await screen.findByText('queue')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('shows the counts on tiles and sidebar links once they arrive', async () => {
    storeSession('Tina Tester', 'Admin');
    answerCounts(200);
    renderLayout();
    const tiles = screen.getByRole('region', { name: 'Dashboard' });
    expect(await within(tiles).findByText(String(COUNTS.newOrdersCount))).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav).getByRole('link', { name: new RegExp(`^Refunds\\s*${COUNTS.refundOrdersCount}$`) }),
    ).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Manage Invoices' })).toBeInTheDocument();
  });

  it('shows the call-backs whose time has come as a tile that opens their list (own and, for a Telecaller, low ratings)', async () => {
    storeSession('Tara Telecaller', 'Telecaller');
    answerCounts(200, { callBackDueCount: 2 });
    renderLayout();
    const tile = await screen.findByTestId('tile-count-callBackDue');
    expect(tile).toHaveTextContent('2');
    expect(tile.closest('a')).toHaveAttribute('href', '/admin/call-backs-due');
    expect(tile.closest('a')).toHaveTextContent(/^Call-backs due/);
  });

  it.each([
    [
      'Telecaller',
      ['Order History', 'Order Processed'],
      ['Manage Team', 'Gateway Setting', 'Change Password'],
    ],
    [
      'Night Staff',
      ['Manage Team', 'Order Processed', 'Gateway Setting', 'Change Password'],
      ['Order History'],
    ],
    ['Manager', [], ['Order History', 'Order Processed', 'Manage Team', 'Gateway Setting']],
  ])('sidebar for %s hides %j and shows %j', async (role, hidden, shown) => {
    storeSession('Someone', role);
    answerCounts(500);
    renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const label of hidden)
      expect(within(nav).queryByRole('link', { name: new RegExp(`^${label}`) })).toBeNull();
    for (const label of [...shown, 'Chargeback', 'Logout']) {
      expect(within(nav).getByRole('link', { name: new RegExp(`^${label}`) })).toBeInTheDocument();
    }
  });

  it('links the Customer replied count to that list for roles that may open it, plain text otherwise', async () => {
    storeSession('Tina Tester', 'Team');
    answerCounts(200, { repliedCount: 3 });
    const view = renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const link = await within(nav).findByRole('link', { name: /^Customer replied\s*3$/ });
    expect(link).toHaveAttribute('href', '/admin/order-history?customerReplied=true');
    view.unmount();

    storeSession('Someone', 'Telecaller');
    answerCounts(200, { repliedCount: 2 });
    renderLayout();
    const nav2 = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav2).findByTestId('count-customerReplied')).toHaveTextContent('2');
    expect(within(nav2).queryByRole('link', { name: /^Customer replied/ })).toBeNull();
  });

  it('links Unmatched Mail with its count for roles that read every order, not for the Telecaller', async () => {
    storeSession('Tina Tester', 'Team');
    answerCounts(200);
    const view = renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const link = await within(nav).findByRole('link', { name: /^Unmatched Mail\s*4$/ });
    expect(link).toHaveAttribute('href', '/admin/unmatched-mail');
    view.unmount();

    storeSession('Someone', 'Telecaller');
    answerCounts(200);
    renderLayout();
    const nav2 = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav2).queryByRole('link', { name: /^Unmatched Mail/ })).toBeNull();
  });

  it('lists the saved views right under the queues, before the customer screens and the settings', async () => {
    storeSession('Mia Manager', 'Manager');
    mockApi({
      'GET /api/admin/get-folder-count': () => ok(COUNTS, 'Success'),
      'GET /api/admin/views': () =>
        ok(
          [
            savedView.parse({
              id: 7,
              name: 'Arriving soon',
              folder: 'pendingOrder',
              query: {},
              shared: true,
              ownerName: 'Mia Manager',
              mine: true,
              count: 12,
            }),
          ],
          'Success',
        ),
      'GET /api/admin/inbound/unmatched': () => ok({ total: 0, items: [] }, 'Success'),
    });
    renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const views = await within(nav).findByRole('list', { name: 'Views' });
    const lists = within(nav).getAllByRole('list');
    const names = lists.map((l) => l.getAttribute('aria-label') ?? l.getAttribute('aria-labelledby'));
    expect(names.slice(0, 3)).toEqual(['Queues', 'views-heading', 'Customers']);
    expect(within(views).getByRole('link', { name: /Arriving soon/ })).toBeInTheDocument();
  });
});

describe('folder counts', () => {
  it('a failed counts request says so above the tiles, and Retry fills tiles and sidebar', async () => {
    signInAs('Admin', 'Tess');
    const counts = Object.fromEntries(
      Object.values(FOLDER_COUNT_KEYS).map((k, i) => [k, 200 + i]),
    ) as FolderCounts;
    let fail = true;
    mockApi({
      'GET /api/admin/get-folder-count': () =>
        fail
          ? {
              status: 503,
              body: { status: 0, message: 'Service temporarily unavailable. Please try again.' },
            }
          : { body: { status: 1, message: 'ok', data: counts } },
    });
    const router = createMemoryRouter(
      [{ path: '/admin', element: <StaffLayout />, children: [{ index: true, element: <p>page</p> }] }],
      { initialEntries: ['/admin'] },
    );
    render(
      <Provider store={makeStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'The order counts could not be loaded: Service temporarily unavailable. Please try again.',
    );
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    const tiles = screen.getByRole('region', { name: 'Dashboard' });
    expect(await within(tiles).findByText(String(counts.newOrdersCount))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });
});
