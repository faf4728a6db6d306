import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { mockApi } from '../test/fixtures';
import { loadToken } from './customer-api';
import { CustomerLayout } from './layout';
import { Component as TrackPage, TRACK_TITLE } from './track-page';

/** The server's answer to track-order; every request the page sends is recorded. */
function serve(status: number, body: unknown) {
  return mockApi({ 'POST /api/front/track-order': () => ({ status, body }) });
}

/** The details page's part here: the "order found" words it was handed. */
function DetailsStub() {
  const found = (useLocation().state as { found?: string } | null)?.found;
  return (
    <>
      <p>details page</p>
      {found ? <p data-testid="found">{found}</p> : null}
    </>
  );
}

function open(path: string) {
  const router = createMemoryRouter(
    [
      {
        // As in the customer entry: one layout around both pages, so a toast survives the navigation.
        element: (
          <CustomerLayout>
            <Outlet />
          </CustomerLayout>
        ),
        children: [
          { path: '/track-order/:orderId?', element: <TrackPage /> },
          { path: '/get-new-order-details/:orderId', element: <DetailsStub /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** The toasts on screen, leaving out those on their way out (jsdom never ends the exit animation). */
const shownToasts = () =>
  [...document.querySelectorAll('.Toastify__toast')]
    .filter((t) => !/exit/.test(t.className))
    .map((t) => t.textContent?.trim());

afterEach(() => sessionStorage.clear());

describe('track page', () => {
  it('shows the title, prefills the order id from the URL and asks for both fields', async () => {
    const user = userEvent.setup();
    const sent = serve(200, { status: 1, message: 'unused' });
    open('/track-order/100123');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(TRACK_TITLE);
    expect(screen.getByLabelText('Order ID')).toHaveValue('100123');
    await user.clear(screen.getByLabelText('Order ID'));
    await user.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText(MSG.trackOrderIdRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.trackEmailRequired)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('accepts the encoded order id of staff links', () => {
    serve(200, {});
    open('/track-order/MjAwMjQ2');
    expect(screen.getByLabelText('Order ID')).toHaveValue('100123');
  });

  it('toasts the server message when nothing matches and stays', async () => {
    const user = userEvent.setup();
    const message = 'No order matches this Order ID and e-mail address.';
    serve(404, { status: 0, message });
    const router = open('/track-order/100123');
    await user.type(screen.getByLabelText('Email ID'), 'someone@example.com');
    await user.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/track-order/100123');
    expect(loadToken('100123')).toBeNull();
  });

  it('shows one error toast however often tracking fails; a success closes it and toasts nothing', async () => {
    const user = userEvent.setup();
    serve(404, { status: 0, message: 'No order matches this Order ID and e-mail address.' });
    open('/track-order/100123');
    await user.type(screen.getByLabelText('Email ID'), 'someone@example.com');
    for (let i = 0; i < 3; i++) {
      await user.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
      await screen.findAllByText(/No order matches/);
    }
    await waitFor(() =>
      expect(shownToasts()).toEqual(['No order matches this Order ID and e-mail address.']),
    );
    serve(200, { status: 1, message: 'Your order has been found.', data: { token: 'tok', expiresIn: 1800 } });
    await user.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByTestId('found')).toHaveTextContent('Your order has been found.');
    // The details page says it in its flow; no toast covers its download history.
    await waitFor(() => expect(shownToasts()).toEqual([]));
  });

  it('keeps the token, resets the form and goes to the details page on success', async () => {
    const user = userEvent.setup();
    const sent = serve(200, {
      status: 1,
      message: 'Your order has been found.',
      data: { token: 'tok', expiresIn: 1800 },
    });
    const router = open('/track-order');
    await user.type(screen.getByLabelText('Order ID'), ' 100123 ');
    await user.type(screen.getByLabelText('Email ID'), 'Someone@Example.com');
    await user.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText('details page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/get-new-order-details/100123');
    expect(sent.map((r) => ({ url: r.path, body: r.body }))).toEqual([
      {
        url: '/api/front/track-order',
        body: { orderId: '100123', email: 'Someone@Example.com', lang: 'en' },
      },
    ]);
    expect(loadToken('100123')).toBe('tok');
    expect(await screen.findByTestId('found')).toHaveTextContent('Your order has been found.');
  });
});
