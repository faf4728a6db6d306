import { serviceZoneInstant } from '../../shared/dates';
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

describe('conversation section: logged calls', () => {
  it('shows a logged contact, logs a call, asks for the call-back time, and shows a refusal', async () => {
    const user = userEvent.setup();
    signInAs('Telecaller');
    let refuse = false;
    const callBackAt = '2026-11-26T15:00:00.000Z';
    const sent = mockApi({
      'GET /api/admin/orders/100123/conversation': () =>
        ok({
          ...conversation,
          items: [
            ...conversation.items,
            {
              direction: 'contact',
              id: 3,
              at: '2026-11-25T11:00:00.000Z',
              kind: 'whatsapp',
              outcome: 'call_back',
              callBackAt,
              staffName: 'Tara Telecaller',
              note: 'Asked to be called\nafter lunch',
            },
          ],
        }),
      'POST /api/admin/orders/100123/contacts': () =>
        refuse
          ? refused(400, 'callBackAt: must be in the future')
          : ok({ contactId: 4, assignedTo: 5, callBackAt: null }, 'The contact has been logged.'),
    });
    renderPage('/admin/x', '/admin/x', <ConversationSection order={order} />);
    const contact = await screen.findByTestId('conversation-contact');
    expect(contact).toHaveTextContent('WhatsApp');
    expect(contact).toHaveTextContent('Call back');
    expect(contact).toHaveTextContent('Tara Telecaller');
    expect(contact).toHaveTextContent('after lunch');

    const form = screen.getByRole('form', { name: 'Log a call' });
    const submit = within(form).getByRole('button', { name: 'Log contact' });
    await user.selectOptions(within(form).getByLabelText('Outcome'), 'no_answer');
    await user.type(within(form).getByLabelText('Note'), 'Rang twice');
    expect(within(form).queryByLabelText(/^Call back at/)).not.toBeInTheDocument();
    await user.click(submit);
    await waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
        channel: 'call',
        outcome: 'no_answer',
        note: 'Rang twice',
      }),
    );
    await waitFor(() => expect(within(form).getByLabelText('Note')).toHaveValue(''));

    // A call-back needs its time before it can be logged.
    await user.selectOptions(within(form).getByLabelText('Channel'), 'whatsapp');
    await user.selectOptions(within(form).getByLabelText('Outcome'), 'call_back');
    expect(submit).toBeDisabled();
    // The service time zone is named; the date is typed day first, the time on a 24-hour clock.
    const when = within(form).getByLabelText(/^Call back at \(America\/New_York, E[SD]T\)/);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    const dd = String(tomorrow.getUTCDate()).padStart(2, '0');
    const mm = String(tomorrow.getUTCMonth() + 1).padStart(2, '0');
    const day = `${tomorrow.getUTCFullYear()}-${mm}-${dd}`;
    await user.type(when, `${dd}/${mm}/${tomorrow.getUTCFullYear()}`);
    expect(submit).toBeDisabled();
    await user.type(within(form).getByLabelText(/^Time \(E[SD]T\)/), '10:30');
    expect(submit).toBeEnabled();
    refuse = true;
    await user.click(submit);
    await waitFor(() =>
      expect(sent.filter((r) => r.method === 'POST').at(-1)?.body).toEqual({
        channel: 'whatsapp',
        outcome: 'call_back',
        callBackAt: serviceZoneInstant(day, '10:30'),
      }),
    );
    expect(await screen.findByText('callBackAt: must be in the future')).toBeInTheDocument();
  });
});

describe('conversation section: what a reader needs to judge a message', () => {
  it('shows a sent mail’s subject (its Message-ID on hover) and bounce, and marks an unverified sender and the government’s mail', async () => {
    signInAs('Team');
    mockApi({
      'GET /api/admin/orders/100123/conversation': () =>
        ok({
          ...conversation,
          items: [
            {
              ...conversation.items[0],
              subject: 'ED-Card #100123',
              messageId: '<edc.7.abc@ed-card.test>',
              bouncedAt: '2026-11-25T10:05:00.000Z',
              bounceReason: '5.1.1 user unknown',
            },
            {
              direction: 'in',
              id: 3,
              at: '2026-11-25T11:00:00.000Z',
              source: 'mail',
              disposition: 'attached',
              from: order.email,
              fromName: null,
              subject: 'Re: my order',
              text: 'Here it is',
              quoted: '',
              unread: false,
              attachments: [],
              refused: [],
              senderVerified: false,
              government: false,
            },
            {
              direction: 'in',
              id: 4,
              at: '2026-11-25T12:00:00.000Z',
              source: 'mail',
              disposition: 'attached',
              from: 'edcard@gov.aw',
              fromName: 'Immigration',
              subject: 'ED card application 100123',
              text: 'The passport photo is unreadable.',
              quoted: '',
              unread: true,
              attachments: [],
              refused: [],
              senderVerified: true,
              government: true,
            },
          ],
        }),
      'GET /api/admin/mail-templates': () => ok([]),
    });
    renderPage('/admin/x', '/admin/x', <ConversationSection order={order} />);
    const out = await screen.findByTestId('conversation-out');
    expect(out).toHaveTextContent('ED-Card #100123');
    expect(out).toHaveTextContent('bounced');
    expect(within(out).getByText('ED-Card #100123')).toHaveAttribute('title', '<edc.7.abc@ed-card.test>');
    const [customerMail, governmentMail] = screen.getAllByTestId('conversation-in');
    expect(customerMail).toHaveTextContent('sender not verified');
    expect(customerMail).not.toHaveTextContent('Government wrote');
    expect(governmentMail).toHaveTextContent('Government wrote');
    expect(governmentMail).not.toHaveTextContent('Customer replied');
    expect(governmentMail).not.toHaveTextContent('sender not verified');
  });
});
