import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, ok, orderFixture, refused, renderPage, signInAs } from '../test/fixtures';
import { ConversationSection } from './conversation-section';

const order = orderFixture({ order_id: 100123, process_status: 'New' });
const conversation = {
  orderId: 100123,
  failingAddress: false,
  items: [
    {
      direction: 'out',
      id: 7,
      at: '2026-11-25T10:00:00.000Z',
      kind: 'macro',
      to: order.email,
      status: 'sent',
      provider: 'AWS',
      bouncedAt: null,
      bounceReason: null,
      text: 'We are on it.\nThanks',
    },
  ],
};

afterEach(() => localStorage.clear());

describe('conversation section: the reply box', () => {
  it('shows a written reply, sends free text, then a template, and shows a refusal', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    let refuse = false;
    const sent = mockApi({
      'GET /api/admin/orders/100123/conversation': () => ok(conversation),
      'GET /api/admin/mail-templates': () =>
        ok([
          { id: 1, key: 'awaiting-customer', name: 'Awaiting customer', language: 'en' },
          { id: 2, key: 'awaiting-customer', name: 'Awaiting customer', language: 'es' },
        ]),
      'POST /api/admin/orders/100123/messages': () =>
        refuse
          ? refused(429, 'Too many mails to this order')
          : ok({ mailId: 9, processStatus: 'New' }, 'Sent'),
    });
    renderPage('/admin/x', '/admin/x', <ConversationSection order={order} />);
    const out = await screen.findByTestId('conversation-out');
    expect(out).toHaveTextContent('We are on it.');

    const form = screen.getByRole('form', { name: 'Reply to the customer' });
    const send = within(form).getByRole('button', { name: 'Send reply' });
    expect(send).toBeDisabled();
    await user.type(within(form).getByLabelText('Reply'), 'Your card comes today.');
    await user.selectOptions(within(form).getByLabelText('Send via'), 'Sendgrid');
    await user.click(send);
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
        body: 'Your card comes today.',
        provider: 'Sendgrid',
      }),
    );
    await waitFor(() => expect(within(form).getByLabelText('Reply')).toHaveValue(''));

    await user.click(within(form).getByLabelText('Send a template'));
    const select = await within(form).findByLabelText('Template');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, 'awaiting-customer');
    refuse = true;
    await user.click(within(form).getByRole('button', { name: 'Send reply' }));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === 'POST').at(-1)?.body).toEqual({
        templateId: 'awaiting-customer',
        provider: 'Sendgrid',
      }),
    );
    expect(await screen.findByText('Too many mails to this order')).toBeInTheDocument();
  });
});
