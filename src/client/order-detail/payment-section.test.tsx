import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { orderDetailsResponse } from '../../shared/contracts/order-detail';
import type { OrderPayment } from '../../shared/contracts/payments';
import { orderPaymentResponse } from '../../shared/contracts/payments';
import { encodeOrderId } from '../../shared/order-id';
import { CHARGEBACK_COLUMNS } from '../orders/columns';
import { OrderQueue } from '../orders/order-queue';
import { answer, listRow, mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { Component } from './order-detail-page';

const disputed: OrderPayment = {
  gateway: 'Stripe',
  integrated: true,
  manual_reason: null,
  disputes: [
    {
      dispute_id: 'dp_123',
      status: 'needs_response',
      reason: 'product_not_received',
      amount: '59.00 USD',
      due_by: '2026-12-02T21:48:00.000Z',
      evidence_saved_at: null,
      evidence_submitted_at: null,
      evidence_by: null,
      closed_at: null,
      created_at: '2026-11-25T12:00:00.000Z',
      takes_evidence: true,
    },
  ],
  refunds: [],
  refunded_so_far: '0.00 USD',
  remaining: '59.00 USD',
  pending_refund: null,
};

function openOrder(payment: OrderPayment, extra: Parameters<typeof mockApi>[0] = {}) {
  const order = orderFixture({ process_status: 'ChargeBack' });
  const sent = mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
    [`GET /api/admin/orders/${order.order_id}/payment`]: () =>
      answer(orderPaymentResponse, { status: 1, message: 'Payment', data: payment }),
    ...extra,
  });
  renderPage(
    '/admin/view-order/:orderId',
    `/admin/view-order/${encodeOrderId(order.order_id)}`,
    <Component />,
  );
  return { sent, order };
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the Payment section of the order detail', () => {
  it('shows the dispute with its deadline and lets a Manager submit the evidence after confirming', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    const order = orderFixture();
    const { sent } = openOrder(disputed, {
      [`POST /api/admin/orders/${order.order_id}/submit-evidence`]: () => ({
        body: { status: 1, message: 'The evidence was submitted to the bank.', data: {} },
      }),
    });
    const dispute = await screen.findByTestId('payment-dispute');
    expect(dispute).toHaveTextContent('needs response');
    expect(dispute).toHaveTextContent('product not received');
    expect(dispute).toHaveTextContent('2 Dec 2026 16:48 EST');
    expect(dispute).toHaveTextContent('Not sent yet');
    await user.click(within(dispute).getByRole('button', { name: 'Submit evidence' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The evidence was submitted to the bank.')).toBeInTheDocument();
    expect(sent.find((r) => r.path.endsWith('/submit-evidence'))?.body).toEqual({ submit: true });
  });

  it('offers no evidence buttons to Team, and says who submitted and when', async () => {
    signInAs('Team');
    openOrder({
      ...disputed,
      disputes: [
        {
          ...disputed.disputes[0]!,
          status: 'under_review',
          takes_evidence: false,
          evidence_saved_at: '2026-11-26T15:00:00.000Z',
          evidence_submitted_at: '2026-11-26T15:00:00.000Z',
          evidence_by: 'Demo Manager',
        },
      ],
    });
    const dispute = await screen.findByTestId('payment-dispute');
    expect(dispute).toHaveTextContent('Submitted 26 Nov 2026 10:00 EST by Demo Manager');
    expect(within(dispute).queryByRole('button')).not.toBeInTheDocument();
  });

  it('a partial refund asks "Refund 20.00 USD through Stripe?", shows what is left and toasts the refund id', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    const order = orderFixture({ process_status: 'Refunds', amount: '59.00', currency: 'USD' });
    const sent = mockApi({
      [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
        answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
      [`GET /api/admin/orders/${order.order_id}/payment`]: () =>
        answer(orderPaymentResponse, {
          status: 1,
          message: 'Payment',
          data: { ...disputed, disputes: [], refunded_so_far: '0.00 USD', remaining: '59.00 USD' },
        }),
      'PUT /api/admin/move-to-complete-refund': () => ({
        body: {
          status: 1,
          message:
            'Refunded 20.00 USD through Stripe (refund re_abc123). 20.00 USD refunded so far, 39.00 USD left: the order stays in Refunds.',
          data: { orderId: [], failed: [], throughProvider: [] },
        },
      }),
    });
    renderPage(
      '/admin/view-order/:orderId',
      `/admin/view-order/${encodeOrderId(order.order_id)}`,
      <Component />,
    );
    expect(await screen.findByTestId('payment-refunded-so-far')).toHaveTextContent(
      'Refunded so far: 0.00 USD · Remaining: 59.00 USD',
    );
    await user.type(screen.getByLabelText('Amount to refund (empty: all that is left)'), '20');
    await user.click(screen.getByRole('button', { name: 'Refund through Stripe' }));
    expect(await screen.findByText('Refund 20.00 USD through Stripe?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/refund re_abc123/)).toBeInTheDocument();
    expect(sent.find((r) => r.path.endsWith('/move-to-complete-refund'))?.body).toEqual({
      orderId: [order.order_id],
      amount: '20',
    });
    await user.click(screen.getByLabelText('Refund and close (Completed Refunds even if part is left)'));
    await user.click(screen.getByRole('button', { name: 'Refund through Stripe' }));
    expect(
      await screen.findByText('Refund 59.00 USD through Stripe and close the order (Completed Refunds)?'),
    ).toBeInTheDocument();
  });

  it('says when a gateway has no integration and the flow stays manual', async () => {
    signInAs('Admin');
    openOrder({
      gateway: 'PayPal',
      integrated: false,
      manual_reason: "PayPal has no integration: refund and answer chargebacks in PayPal's dashboard.",
      disputes: [],
      refunds: [],
      refunded_so_far: '0.00 USD',
      remaining: '59.00 USD',
      pending_refund: null,
    });
    expect(await screen.findByTestId('payment-manual')).toHaveTextContent(
      "Handled by hand: PayPal has no integration: refund and answer chargebacks in PayPal's dashboard.",
    );
  });
});

describe('the Chargeback list', () => {
  const rows = [
    listRow(41, {
      process_status: 'ChargeBack',
      amount: '59.00',
      currency: 'USD',
      dispute_reason: 'fraudulent',
      due_at: '2030-01-01T00:00:00.000Z',
      due_state: 'on_track',
    }),
  ];
  const open = () => {
    mockApi({
      'GET /api/admin/get-orders-list/chargeBack': () => ({ body: { status: 1, message: 'ok', data: rows } }),
    });
    renderPage(
      '/admin/q',
      '/admin/q',
      <OrderQueue folder="chargeBack" title="New Orders" columns={CHARGEBACK_COLUMNS} folderTotal={1} />,
    );
  };

  it('shows the amount, the reason and the response deadline, with Delete in the row menu', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    open();
    const row = (await screen.findByText('41')).closest('tr')!;
    expect(row).toHaveTextContent('59.00 USD');
    expect(row).toHaveTextContent('fraudulent');
    expect(within(row).getByTestId('due-badge')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'More actions for order 41' }));
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('offers no row menu to Team', async () => {
    signInAs('Team');
    open();
    const row = (await screen.findByText('41')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: /More actions/ })).not.toBeInTheDocument();
    cleanup();
  });
});
