import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { ContactLinks, dialNumber } from './contact-links';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('contact links on the detail screen', () => {
  it('offers tel:, a WhatsApp chat with the approval text and copy buttons', async () => {
    signInAs('Team');
    const order = orderFixture({
      phone_code: '+297',
      telephone_number: '555 1234',
      email: 'Traveller@Example.com',
    });
    const url = 'https://wa.me/2975551234?text=Your%20card%20%3Cb%3E';
    const sent = mockApi({
      [`GET /api/admin/get-email-content/${order.order_id}`]: () =>
        ok({
          subject: 's',
          html: '<p>x</p>',
          text: 'Your card <b>',
          whatsappText: 'Your card <b>',
          whatsappUrl: url,
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
    expect(sent.map((r) => r.path)).toEqual([`/api/admin/get-email-content/${order.order_id}`]);

    await user.click(screen.getByRole('button', { name: 'Copy email' }));
    expect(writeText).toHaveBeenLastCalledWith('Traveller@Example.com');
    await user.click(screen.getByRole('button', { name: 'Copy phone' }));
    expect(writeText).toHaveBeenLastCalledWith('+297 555 1234');
    expect(await screen.findAllByRole('button', { name: 'Copied' })).not.toHaveLength(0);
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
