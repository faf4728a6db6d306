import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cardCheckAnswer, passportScanAnswer } from '../../shared/contracts/card-check';
import { envelope } from '../../shared/contracts/common';
import { type OrderDetails, orderDetailsResponse } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { answer, mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { Component } from './order-detail-page';

const ROUTE = '/admin/view-order/:orderId';

const BLOCKED = {
  documentId: 9,
  checkedAt: '2026-11-29T02:00:00.000Z',
  result: 'mismatch' as const,
  fields: [
    { field: 'surname' as const, expected: 'Perez', found: 'PEREZ', status: 'match' as const },
    {
      field: 'passport_number' as const,
      expected: 'X1023456',
      found: 'X1023457',
      status: 'mismatch' as const,
    },
    { field: 'date_of_birth' as const, expected: '1985-04-12', found: null, status: 'absent' as const },
  ],
  duplicateOf: null,
  qr: [],
  blocked: true,
  running: false,
  release: null,
};

function open(order: OrderDetails, extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
    [`GET /api/admin/orders/${order.order_id}/card-check`]: () =>
      answer(envelope(cardCheckAnswer), { status: 1, message: 'ok', data: { cardCheck: BLOCKED } }),
    [`GET /api/admin/orders/${order.order_id}/passport-scan`]: () =>
      answer(envelope(passportScanAnswer), {
        status: 1,
        message: 'ok',
        data: {
          passportScan: {
            id: 1,
            source: 'customer',
            createdAt: '2026-11-29T02:00:00.000Z',
            status: 'read',
            reason: null,
            fields: [
              { field: 'passport_number', scan: 'X1023457', order: 'X1023456', differs: true },
              { field: 'last_name', scan: 'PEREZ', order: 'Perez', differs: false },
            ],
          },
        },
      }),
    ...extra,
  });
  renderPage(ROUTE, `/admin/view-order/${encodeOrderId(order.order_id)}`, <Component />);
  return sent;
}

const withCard = () =>
  orderFixture({
    version: 4,
    uploadDoc: [
      {
        id: 9,
        order_id: 100123,
        current: true,
        withdrawn_at: null,
        withdraw_reason: null,
        file1: 'card.pdf',
        mail_service_provider: 'AWS',
        mime_type: 'application/pdf',
        size_bytes: 1000,
        create_ts: '2026-11-29T02:00:00.000Z',
        uploaded_by: 'Demo Team',
        download_url: '/api/admin/documents/9',
      },
    ] as OrderDetails['uploadDoc'],
  });

afterEach(() => localStorage.clear());

describe('the card check and the passport scan on the detail', () => {
  it('shows each field green, red or grey; a Manager releases the card with a reason', async () => {
    signInAs('Manager');
    const user = userEvent.setup();
    const order = withCard();
    const sent = open(order, {
      [`POST /api/admin/orders/${order.order_id}/card-check/release`]: () => ({
        body: { status: 1, message: 'The card is released: it can be sent now.', data: { cardCheck: null } },
      }),
    });
    const panel = await screen.findByTestId('card-check');
    expect(panel).toHaveTextContent('blocked — the card is not sent');
    const row = (field: string) => panel.querySelector(`tr[data-field="${field}"]`)!;
    expect(row('passport_number').querySelector('td:nth-child(2)')).toHaveClass('text-danger');
    expect(row('surname').querySelector('td:nth-child(2)')).toHaveClass('text-success');
    expect(row('date_of_birth').querySelector('td:nth-child(2)')).toHaveClass('text-secondary');
    await user.type(within(panel).getByLabelText(/reason/), 'Government typo, confirmed');
    await user.click(within(panel).getByRole('button', { name: 'Release the card' }));
    await waitFor(() => expect(sent.some((r) => r.path.includes('/release'))).toBe(true));
    expect(sent.find((r) => r.path.includes('/release'))!.body).toEqual({
      reason: 'Government typo, confirmed',
    });
  });

  it('Team sees the check but no release; one click takes the scan value with the version', async () => {
    signInAs('Team');
    const user = userEvent.setup();
    const order = withCard();
    const sent = open(order, {
      [`POST /api/admin/orders/${order.order_id}/passport-scan/take`]: () => ({
        body: { status: 1, message: 'Taken from the passport scan.', data: { passportScan: null } },
      }),
    });
    const panel = await screen.findByTestId('card-check');
    expect(within(panel).queryByRole('button', { name: 'Release the card' })).toBeNull();
    const scan = await screen.findByTestId('passport-scan');
    await user.click(within(scan).getByRole('button', { name: "Use the scan's value" }));
    await waitFor(() => expect(sent.some((r) => r.path.includes('/take'))).toBe(true));
    expect(sent.find((r) => r.path.includes('/take'))!.body).toEqual({
      field: 'passport_number',
      expectedVersion: 4,
    });
  });

  it('a card the government mailed and nobody sent: one click sends it with the version', async () => {
    signInAs('Team');
    const user = userEvent.setup();
    const order = {
      ...withCard(),
      checks: [
        {
          code: 'card_arrived_unsent' as const,
          severity: 'warn' as const,
          message: 'The government sent the approved card: check it and send it to the customer.',
          fields: [],
        },
      ],
    };
    const sent = open(order, {
      [`GET /api/admin/orders/${order.order_id}/card-check`]: () =>
        answer(envelope(cardCheckAnswer), {
          status: 1,
          message: 'ok',
          data: { cardCheck: { ...BLOCKED, result: 'pass', blocked: false, fields: [] } },
        }),
      [`POST /api/admin/orders/${order.order_id}/send-arrived-card`]: () => ({
        body: {
          status: 1,
          message: 'The card is on its way to a@example.com and the order is completed.',
          data: { mailId: 1, documentId: 9, status: 'queued' },
        },
      }),
    });
    const panel = await screen.findByTestId('card-check');
    await user.click(await within(panel).findByRole('button', { name: 'Send the card and complete' }));
    await waitFor(() => expect(sent.some((r) => r.path.includes('/send-arrived-card'))).toBe(true));
    expect(sent.find((r) => r.path.includes('/send-arrived-card'))!.body).toEqual({ expectedVersion: 4 });
  });

  it('a blocked card the government mailed: no send button until it is released', async () => {
    signInAs('Team');
    const order = {
      ...withCard(),
      checks: [{ code: 'card_arrived_unsent' as const, severity: 'warn' as const, message: 'x', fields: [] }],
    };
    open(order);
    const panel = await screen.findByTestId('card-check');
    expect(panel).toHaveTextContent('blocked — the card is not sent');
    expect(within(panel).queryByRole('button', { name: 'Send the card and complete' })).toBeNull();
  });
});
