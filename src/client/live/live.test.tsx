import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FolderCounts, OrderStatus } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { encodeOrderId } from '../../shared/order-id';
import { makeStore } from '../state/store';
import { Component as OrderDetailPage } from '../order-detail/order-detail-page';
import { countsFixture, listRow, mockApi, orderFixture, signInAs } from '../test/fixtures';
import { FOLDER_COLUMNS } from '../orders/columns';
import { OrderQueue } from '../orders/order-queue';
import { applyLiveEvent } from './live-cache';
import { backoffDelay, openEventStream, SseParser, type StreamState } from './sse';
import { undoable } from './undo';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

const counts = (overrides: Partial<FolderCounts> = {}): FolderCounts => countsFixture(overrides);

const row = (id: number, status: OrderStatus = 'New'): OrderListRow =>
  listRow(id, { process_status: status });

function renderWithStore(path: string, routePath: string, element: React.ReactElement) {
  const store = makeStore();
  const router = createMemoryRouter([{ path: routePath, element }], { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
  return store;
}

const sse = (event: string, data: unknown) => ({ event, data: JSON.stringify(data) });

describe('event stream reader', () => {
  it('parses events split anywhere across chunks, with CRLF, comments and several data lines', () => {
    const parser = new SseParser();
    expect(parser.feed('retry: 3000\n\n: heartbeat\n\nevent: cou')).toEqual([]);
    expect(parser.feed('nts\r\ndata: {"a":')).toEqual([]);
    expect(parser.feed('1}\r\n\r\nevent: order\ndata: line1\ndata:line2\n')).toEqual([
      { event: 'counts', data: '{"a":1}' },
    ]);
    expect(parser.feed('\n')).toEqual([{ event: 'order', data: 'line1\nline2' }]);
  });

  it('backs off by doubling up to the cap', () => {
    const b = { firstMs: 1000, maxMs: 30_000, jitter: 0 };
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((a) => backoffDelay(a, b))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(0, { ...b, jitter: 0.5 }, () => 1)).toBe(1500);
  });

  it('sends the token in the Authorization header, reconnects after a drop, and stops on 401', async () => {
    const states: StreamState[] = [];
    const events: string[] = [];
    const calls: { url: string; auth: string | null }[] = [];
    const answers = [
      () => new Response('event: counts\ndata: {"n":1}\n\n', { status: 200 }),
      () => {
        throw new TypeError('network down');
      },
      () => new Response('event: counts\ndata: {"n":2}\n\n', { status: 200 }),
      () => new Response('{}', { status: 401 }),
    ];
    let unauthorized = false;
    const close = openEventStream({
      url: '/api/admin/events',
      token: () => 'tok.en.sig',
      onEvent: (e) => events.push(e.data),
      onState: (s) => states.push(s),
      onUnauthorized: () => {
        unauthorized = true;
      },
      backoff: { firstMs: 5, maxMs: 20, jitter: 0 },
      fetchImpl: async (url, init) => {
        calls.push({ url: String(url), auth: new Headers(init?.headers).get('authorization') });
        return answers[calls.length - 1]!();
      },
    });
    await waitFor(() => expect(unauthorized).toBe(true));
    close();
    expect(calls).toHaveLength(4);
    expect(calls.every((c) => c.url === '/api/admin/events' && c.auth === 'tok.en.sig')).toBe(true);
    expect(events).toEqual(['{"n":1}', '{"n":2}']);
    expect(states.slice(0, 4)).toEqual(['connecting', 'open', 'offline', 'connecting']);
    expect(states).toContain('offline');
  });
});

describe('the server ending the stream', () => {
  it('reconnects at once after its lifetime, hears 401 once the session ended, and stays off when newer streams took its place', async () => {
    const states: StreamState[] = [];
    const calls: number[] = [];
    const answers = [
      () => new Response('event: counts\ndata: {"n":1}\n\nevent: end\ndata: {"reason":"lifetime"}\n\n'),
      () => new Response('event: end\ndata: {"reason":"session-ended"}\n\n'),
      () => new Response('{}', { status: 401 }),
    ];
    let unauthorized = false;
    const close = openEventStream({
      url: '/api/admin/events',
      token: () => 'tok.en.sig',
      onEvent: () => {},
      onState: (s) => states.push(s),
      onUnauthorized: () => {
        unauthorized = true;
      },
      // A backoff this long would time the test out: the reconnects must not wait for it.
      backoff: { firstMs: 60_000, maxMs: 60_000, jitter: 0 },
      fetchImpl: async () => {
        calls.push(calls.length);
        return answers[calls.length - 1]!();
      },
    });
    await waitFor(() => expect(unauthorized).toBe(true));
    close();
    expect(calls).toHaveLength(3);
    expect(states).not.toContain('offline');

    const evicted: StreamState[] = [];
    let fetched = 0;
    openEventStream({
      url: '/api/admin/events',
      token: () => 'tok.en.sig',
      onEvent: () => {},
      onState: (s) => evicted.push(s),
      backoff: { firstMs: 1, maxMs: 1, jitter: 0 },
      fetchImpl: async () => {
        fetched++;
        return new Response('event: end\ndata: {"reason":"too-many-streams"}\n\n');
      },
    });
    await waitFor(() => expect(evicted.at(-1)).toBe('offline'));
    await new Promise((r) => setTimeout(r, 30));
    expect(fetched).toBe(1);
  });
});

describe('live queues', () => {
  it('counts and row changes arrive from the stream in place; new orders wait behind a bar', async () => {
    signInAs('Team', 'Tess');
    let listCalls = 0;
    let rows = [row(100001), row(100002)];
    mockApi({
      'GET /api/admin/get-orders-list/newOrder': () => {
        listCalls++;
        return { body: { status: 1, message: 'ok', data: rows } };
      },
      'GET /api/admin/get-folder-count': () => ({
        body: { status: 1, message: 'ok', data: counts({ newOrdersCount: 2 }) },
      }),
    });
    const store = renderWithStore(
      '/admin/recent-order',
      '/admin/recent-order',
      <OrderQueue folder="newOrder" title="New Orders" columns={FOLDER_COLUMNS} folderTotal={2} />,
    );
    // The bar reads the counts query as the sidebar does.
    await screen.findByText('jane100002@example.com');
    await waitFor(() => expect(store.getState().api.queries['getFolderCount(undefined)']).toBeDefined());
    expect(listCalls).toBe(1);

    // Demo Team takes order 100002: its row shows the new holder without a reload.
    act(() =>
      applyLiveEvent(
        store,
        sse('order', {
          orderId: 100002,
          processStatus: 'New',
          assignTo: 'Demo Team',
          version: 3,
          by: 'Demo Team',
          action: 'assign',
        }),
      ),
    );
    const taken = screen.getByText('jane100002@example.com').closest('tr')!;
    await waitFor(() =>
      expect(within(taken).getByRole('link', { name: 'View' })).toHaveAttribute(
        'title',
        'Assigned to Demo Team',
      ),
    );
    expect(listCalls).toBe(1);

    // Two orders arrive: the counts tick and the list waits behind "2 new orders — show".
    act(() => applyLiveEvent(store, sse('counts', counts({ newOrdersCount: 4 }))));
    expect(await screen.findByText('2 new orders')).toBeInTheDocument();
    expect(store.getState().api.queries['getFolderCount(undefined)']?.data).toMatchObject({
      newOrdersCount: 4,
    });
    expect(listCalls).toBe(1);
    rows = [row(100001), row(100002), row(100003), row(100004)];
    await userEvent.setup().click(screen.getByRole('button', { name: 'show' }));
    await screen.findByText('jane100004@example.com');
    expect(listCalls).toBe(2);
    await waitFor(() => expect(screen.queryByText(/new orders?$/)).not.toBeInTheDocument());
  });

  it("shows a machine's claim and failure as they happen: the claim passes, the failure stays", async () => {
    const store = makeStore();
    render(<ToastContainer />);
    const notice = (kind: string, text: string) =>
      act(() => applyLiveEvent(store, sse('notice', { kind, text, orderId: 100002 })));
    notice('submission_claimed', 'Portal robot (machine) claimed order 100002 to submit it.');
    expect(
      await screen.findByText('Portal robot (machine) claimed order 100002 to submit it.'),
    ).toBeVisible();
    notice('submission_failed', 'Portal robot (machine) could not submit order 100002: Captcha');
    const failed = await screen.findByText('Portal robot (machine) could not submit order 100002: Captcha');
    expect(failed.closest('.Toastify__toast')).toHaveClass('Toastify__toast--warning');
    expect(
      screen
        .getByText('Portal robot (machine) claimed order 100002 to submit it.')
        .closest('.Toastify__toast'),
    ).toHaveClass('Toastify__toast--info');
    // An unknown kind is not a notice.
    notice('submission_exploded', 'Nothing to show');
    expect(screen.queryByText('Nothing to show')).not.toBeInTheDocument();
  });

  it('ignores malformed events', () => {
    const store = makeStore();
    applyLiveEvent(store, { event: 'order', data: '{"orderId":"x"}' });
    applyLiveEvent(store, { event: 'counts', data: 'not json' });
    expect(store.getState().api.queries).toEqual({});
  });
});

describe('detail page, live', () => {
  const ROUTE = '/admin/view-order/:orderId';

  function openOrder(order = orderFixture(), extra: Parameters<typeof mockApi>[0] = {}) {
    const sent = mockApi({
      [`GET /api/admin/get-orders-details/${order.order_id}`]: () => ({
        body: { status: 1, message: 'ok', data: order },
      }),
      'PUT /api/admin/presence': (req) => ({
        body: {
          status: 1,
          message: 'Presence noted',
          data: {
            orderId: order.order_id,
            viewers: [{ staffId: 1, name: 'Me', editing: !!(req.body as { editing: boolean }).editing }],
          },
        },
      }),
      'DELETE /api/admin/presence/100123': () => ({
        body: { status: 1, message: 'ok', data: { orderId: 100123, viewers: [] } },
      }),
      ...extra,
    });
    const store = renderWithStore(
      `/admin/view-order/${encodeOrderId(order.order_id)}`,
      ROUTE,
      <OrderDetailPage />,
    );
    return { sent, store };
  }

  it('heartbeats presence, shows who else is editing, and updates itself with a notice of the change', async () => {
    localStorage.clear();
    const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
    localStorage.setItem(
      'user',
      JSON.stringify({
        accessToken: `${enc({ alg: 'HS256' })}.${enc({ user: { id: 1, name: 'Me', type: 'Telecaller' }, exp: Date.now() / 1000 + 3600 })}.sig`,
      }),
    );
    let order = orderFixture({ version: 4 });
    const { sent, store } = openOrder(order, {
      'GET /api/admin/get-orders-details/100123': () => ({ body: { status: 1, message: 'ok', data: order } }),
    });
    await screen.findByText(/Order 100123/);
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'PUT' && r.path === '/api/admin/presence')?.body).toEqual({
        orderId: 100123,
        editing: false,
      }),
    );
    act(() =>
      applyLiveEvent(
        store,
        sse('presence', {
          orderId: 100123,
          viewers: [
            { staffId: 1, name: 'Me', editing: false },
            { staffId: 7, name: 'Demo Team', editing: true },
          ],
        }),
      ),
    );
    expect(await screen.findByTestId('presence')).toHaveTextContent('Demo Team is editing');
    expect(screen.getByTestId('presence')).not.toHaveTextContent('Me is');

    // Typing a remark makes this viewer an editor for the others.
    await userEvent.setup().type(screen.getByLabelText(/remark/i, { selector: 'textarea' }), 'Calling');
    await waitFor(() =>
      expect(
        sent.some((r) => r.path === '/api/admin/presence' && (r.body as { editing: boolean }).editing),
      ).toBe(true),
    );

    // Demo Team moves it elsewhere: the page reloads the order and says what changed.
    order = orderFixture({ version: 5, process_status: 'AwaitingGovt' });
    act(() =>
      applyLiveEvent(
        store,
        sse('order', {
          orderId: 100123,
          processStatus: 'AwaitingGovt',
          assignTo: '',
          version: 5,
          by: 'Demo Team',
          action: 'status',
        }),
      ),
    );
    expect(await screen.findByTestId('change-notice')).toHaveTextContent(
      'Demo Team moved it to Awaiting Govt',
    );
    await waitFor(() => expect(screen.getByTestId('process-status')).toHaveTextContent('AwaitingGovt'));
  });

  it('sends expectedVersion, turns a 409 into a message with Reload, and offers Admin a takeover', async () => {
    signInAs('Admin', 'Ada');
    const order = orderFixture({ version: 9, process_status: 'Awaiting', assign_to: 'Demo Team' });
    const { sent } = openOrder(order, {
      'PUT /api/admin/move-order-status': (req) =>
        (req.body as { takeOver?: boolean }).takeOver
          ? { body: { status: 1, message: 'Order moved to Awaiting Govt' } }
          : {
              status: 409,
              body: {
                status: 0,
                message: 'Demo Team is working on this order. Take it over to change it.',
              },
            },
    });
    const user = userEvent.setup();
    await screen.findByText(/Order 100123/);
    await user.click(screen.getByRole('button', { name: 'Move to Awaiting Govt' }));
    const alert = await screen.findByTestId('conflict');
    expect(alert).toHaveTextContent('Demo Team is working on this order');
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    const moves = () => sent.filter((r) => r.path === '/api/admin/move-order-status');
    expect(moves()[0]?.body).toEqual({ orderId: 100123, updatingStatus: 'AwaitingGovt', expectedVersion: 9 });
    await user.click(within(alert).getByRole('button', { name: 'Take over and move it to Awaiting Govt' }));
    await waitFor(() => expect(moves()).toHaveLength(2));
    expect(moves()[1]?.body).toEqual({
      orderId: 100123,
      updatingStatus: 'AwaitingGovt',
      expectedVersion: 9,
      takeOver: true,
    });
    await waitFor(() => expect(screen.queryByTestId('conflict')).not.toBeInTheDocument());
  });

  it('the likely next step is the primary button, Delete stays red; a move offers Undo, which moves back', async () => {
    signInAs('Manager');
    const order = orderFixture({ version: 2, process_status: 'Awaiting' });
    const { sent } = openOrder(order, {
      'PUT /api/admin/move-order-status': () => ({ body: { status: 1, message: 'Order moved' } }),
    });
    const user = userEvent.setup();
    await screen.findByText(/Order 100123/);
    expect(screen.getByRole('button', { name: 'Move to Awaiting Govt' })).toHaveClass('btn-primary');
    expect(screen.getByRole('button', { name: 'Move to Delete' })).toHaveClass('btn-outline-danger');
    expect(screen.getByRole('button', { name: 'Move to Completed Orders' })).toHaveClass('btn-outline-dark');
    await user.click(screen.getByRole('button', { name: 'Move to Awaiting Govt' }));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    const moves = () => sent.filter((r) => r.path === '/api/admin/move-order-status');
    await waitFor(() => expect(moves()).toHaveLength(2));
    expect(moves()[1]?.body).toMatchObject({ updatingStatus: 'Awaiting' });
  });
});

describe('undo', () => {
  const move = (from: string, to: string, assigned = false) => ({
    from,
    to,
    assigned,
    processingDate: '2020-01-01',
  });
  it('is offered only where the order rules allow the way back for the role', () => {
    expect(undoable(move('Awaiting', 'AwaitingGovt'), 'Team')).toBe(true);
    // A delete is undone by a restore: Admin and Manager only.
    expect(undoable(move('Awaiting', 'Deleted'), 'Manager')).toBe(true);
    expect(undoable(move('Awaiting', 'Deleted'), 'Team')).toBe(false);
    // New cannot be chosen again; a refund has mailed the customer.
    expect(undoable(move('New', 'AwaitingGovt'), 'Admin')).toBe(false);
    expect(undoable(move('Refunds', 'Refunded'), 'Admin')).toBe(false);
  });
});
