import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MailTemplate } from '../../shared/contracts/communication';
import { mockApi, ok, orderFixture, refused, renderPage, signInAs } from '../test/fixtures';
import { ContactLinks, dialNumber } from './contact-links';

const template = (over: Partial<MailTemplate> = {}): MailTemplate => ({
  id: 21,
  key: 'awaiting-customer',
  name: 'We need something from you',
  language: 'en',
  purpose: 'customer',
  version: 2,
  subject: 'We need something for order {{order_id}}',
  body: 'Dear {{full_name}}, please check {{track_url}}.',
  updatedAt: '2026-11-22T20:00:00.000Z',
  ...over,
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('contact links on the detail screen', () => {
  it('offers tel:, a WhatsApp chat with the approval text or the chosen template text, and copy buttons', async () => {
    signInAs('Team');
    const order = orderFixture({
      phone_code: '+297',
      telephone_number: '555 1234',
      email: 'Traveller@Example.com',
    });
    const url = 'https://wa.me/2975551234?text=Your%20card%20%3Cb%3E';
    const rendered = 'Dear Jane & <Doe>, please check https://x.test/t?a=1#b.\n\nThanks';
    const sent = mockApi({
      [`GET /api/admin/get-email-content/${order.order_id}`]: () =>
        ok({
          subject: 's',
          html: '<p>x</p>',
          text: 'Your card <b>',
          whatsappText: 'Your card <b>',
          whatsappUrl: url,
        }),
      'GET /api/admin/mail-templates': () =>
        ok([
          template(),
          template({ id: 22, name: 'Le necesitamos', language: 'es', body: 'Querido {{full_name}}' }),
        ]),
      'POST /api/admin/mail-templates/preview': (req) =>
        ok({
          subject: 'We need something',
          html: '<p>x</p>',
          text: (req.body as { body: string }).body.startsWith('Dear') ? rendered : 'Querido',
        }),
    });
    const writeText = vi.fn(async () => {});
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage('/o', '/o', <ContactLinks order={order} />);

    expect(screen.getByRole('link', { name: 'Call +297 555 1234' })).toHaveAttribute(
      'href',
      'tel:+2975551234',
    );
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute('href', url),
    );
    expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(sent.map((r) => r.path).sort()).toEqual([
      `/api/admin/get-email-content/${order.order_id}`,
      '/api/admin/mail-templates',
    ]);

    // Another template: its text rendered for this order by the preview call, only URI-encoded.
    const chooser = screen.getByRole('combobox', { name: 'WhatsApp message' });
    expect(chooser).toHaveDisplayValue("Suggested for Awaiting Customer (order's language)");
    await waitFor(() =>
      expect(screen.getByRole('option', { name: 'Le necesitamos (Spanish)' })).toBeInTheDocument(),
    );
    await user.selectOptions(chooser, 'We need something from you (English)');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute(
        'href',
        `https://wa.me/2975551234?text=${encodeURIComponent(rendered)}`,
      ),
    );
    const previewed = sent.find((r) => r.path === '/api/admin/mail-templates/preview');
    expect(previewed?.body).toEqual({
      orderId: order.order_id,
      subject: template().subject,
      body: template().body,
    });
    await user.selectOptions(chooser, 'Le necesitamos (Spanish)');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute(
        'href',
        'https://wa.me/2975551234?text=Querido',
      ),
    );
    // Back to the default: the approval text again, without another call.
    const calls = sent.length;
    await user.selectOptions(chooser, "Suggested for Awaiting Customer (order's language)");
    expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute('href', url);
    expect(sent).toHaveLength(calls);

    await user.click(screen.getByRole('button', { name: 'Copy email' }));
    expect(writeText).toHaveBeenLastCalledWith('Traveller@Example.com');
    await user.click(screen.getByRole('button', { name: 'Copy phone' }));
    expect(writeText).toHaveBeenLastCalledWith('+297 555 1234');
    expect(await screen.findAllByRole('button', { name: 'Copied' })).not.toHaveLength(0);
  });

  it('says why when the chosen template cannot be rendered, and offers no link built from it', async () => {
    signInAs('Team');
    const order = orderFixture({ phone_code: '+297', telephone_number: '555 1234' });
    mockApi({
      [`GET /api/admin/get-email-content/${order.order_id}`]: () =>
        ok({ subject: 's', html: '<p>x</p>', text: 'Approve', whatsappText: 'Approve', whatsappUrl: null }),
      'GET /api/admin/mail-templates': () => ok([template()]),
      'POST /api/admin/mail-templates/preview': () => refused(404, 'Order not found'),
    });
    const user = userEvent.setup();
    renderPage('/o', '/o', <ContactLinks order={order} />);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'WhatsApp chat' })).toHaveAttribute(
        'href',
        'https://wa.me/2975551234?text=Approve',
      ),
    );
    const chooser = screen.getByRole('combobox', { name: 'WhatsApp message' });
    await screen.findByRole('option', { name: 'We need something from you (English)' });
    await user.selectOptions(chooser, 'We need something from you (English)');
    expect(await screen.findByRole('alert')).toHaveTextContent('Order not found');
    expect(screen.queryByRole('link', { name: 'WhatsApp chat' })).toBeNull();
  });

  it('offers only the e-mail copy without a telephone number, and asks nothing of the server', async () => {
    signInAs('Team');
    const sent = mockApi({});
    const order = orderFixture({ phone_code: null, telephone_number: null });
    renderPage('/o', '/o', <ContactLinks order={order} />);
    expect(screen.getByRole('button', { name: 'Copy email' })).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
    expect(sent).toEqual([]);
    expect(dialNumber({ phone_code: '+1', telephone_number: 'call me' })).toBeNull();
    expect(dialNumber({ phone_code: '1', telephone_number: '(555) 010-9999' })).toBe('+15550109999');
  });
});
