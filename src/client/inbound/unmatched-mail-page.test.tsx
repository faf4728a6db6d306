import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, ok, refused, renderPage, signInAs } from '../test/fixtures';
import { Component } from './unmatched-mail-page';

afterEach(() => localStorage.clear());

const items = [
  {
    id: 41,
    at: '2026-11-25T09:00:00.000Z',
    from: 'stranger@example.com',
    fromName: 'A Stranger',
    subject: 'About my trip',
    text: 'I paid but got no mail.',
    attachments: 1,
  },
];

describe('unmatched mail screen', () => {
  it('lists the messages with the count, attaches one to an order id, and shows a refusal', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    let refuse = false;
    const sent = mockApi({
      'GET /api/admin/inbound/unmatched': () => ok({ total: 1, items }),
      'POST /api/admin/inbound/41/attach': () =>
        refuse ? refused(404, 'Order not found') : ok({ orderId: 100123, processStatus: 'New' }, 'Attached'),
    });
    renderPage('/admin/unmatched-mail', '/admin/unmatched-mail', <Component />);
    const item = await screen.findByTestId('unmatched-item');
    expect(screen.getByTestId('unmatched-total')).toHaveTextContent('1');
    expect(item).toHaveTextContent('A Stranger <stranger@example.com>');
    expect(item).toHaveTextContent('About my trip');
    expect(item).toHaveTextContent('I paid but got no mail.');

    const button = within(item).getByRole('button', { name: 'Attach to order' });
    await user.type(within(item).getByLabelText('Order ID'), 'abc');
    expect(button).toBeDisabled();
    await user.clear(within(item).getByLabelText('Order ID'));
    await user.type(within(item).getByLabelText('Order ID'), '100123');
    await user.click(button);
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')).toMatchObject({
        path: '/api/admin/inbound/41/attach',
        body: { orderId: 100123 },
      }),
    );
    refuse = true;
    await user.click(button);
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
  });

  it('says so when there is no unmatched mail', async () => {
    signInAs('Manager');
    mockApi({ 'GET /api/admin/inbound/unmatched': () => ok({ total: 0, items: [] }) });
    renderPage('/admin/unmatched-mail', '/admin/unmatched-mail', <Component />);
    expect(await screen.findByText('No unmatched mail.')).toBeInTheDocument();
  });
});
