import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLDER_COUNT_KEYS, type FolderCounts } from '../../shared/constants';
import { makeStore } from '../app/store';
import { StaffLayout } from './staff-layout';

/** A stored session as the SPA keeps it; the layout only decodes the payload (the server verifies). */
function storeSession(name: string, type: string) {
  const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const token = `${enc({ alg: 'HS256' })}.${enc({ user: { id: 1, name, type }, exp: Date.now() / 1000 + 3600 })}.sig`;
  localStorage.setItem('user', JSON.stringify({ accessToken: token }));
}

const COUNTS = Object.fromEntries(
  Object.values(FOLDER_COUNT_KEYS).map((k, i) => [k, 100 + i]),
) as FolderCounts;

/** jsdom has no server: the counts call answers `status` with the counts (or an error body). */
function answerCounts(status: number) {
  const NodeRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
      }
    },
  );
  vi.stubGlobal('fetch', async (request: Request) => {
    // Other calls of the layout (saved views, the My day card) answer an empty success.
    if (!request.url.includes('get-folder-count')) {
      return new Response(JSON.stringify({ status: 1, message: 'Success', data: [] }), { status: 200 });
    }
    return status === 200
      ? new Response(JSON.stringify({ status: 1, message: 'Success', data: COUNTS }), { status })
      : new Response(JSON.stringify({ status: 0, message: 'Not found' }), { status });
  });
}

function renderLayout(path = '/admin') {
  const router = createMemoryRouter(
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
    { initialEntries: [path] },
  );
  return render(
    <Provider store={makeStore()}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

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
});
