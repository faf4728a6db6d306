import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { orderDetailsResponse } from '../../shared/contracts/order-detail';
import type { PaymentDispute } from '../../shared/contracts/payments';
import { encodeOrderId } from '../../shared/order-id';
import { answer, mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { AFTER_EVIDENCE } from './dispute-banner';
import { Component } from './order-detail-page';

const open: PaymentDispute = {
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
};
const submitted: PaymentDispute = {
  ...open,
  status: 'under_review',
  takes_evidence: false,
  evidence_saved_at: '2026-11-26T15:00:00.000Z',
  evidence_submitted_at: '2026-11-26T15:00:00.000Z',
  evidence_by: 'Demo Manager',
};

/** The order page of a ChargeBack order whose dispute is `first`, then `after` once evidence is sent. */
function openOrder(first: PaymentDispute | null, after: PaymentDispute | null = first) {
  let current = first;
  const order = orderFixture({ process_status: 'ChargeBack' });
  const sent = mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: { ...order, dispute: current } }),
    [`POST /api/admin/orders/${order.order_id}/submit-evidence`]: () => {
      current = after;
      return { body: { status: 1, message: 'The evidence was submitted to the bank.', data: {} } };
    },
  });
  renderPage(
    '/admin/view-order/:orderId',
    `/admin/view-order/${encodeOrderId(order.order_id)}`,
    <Component />,
  );
  return sent;
}

afterEach(() => localStorage.clear());

describe('the dispute banner at the top of the order page', () => {
  it('shows the reason, amount and deadline; Submit evidence asks, sends, and then says what happens next', async () => {
    const user = userEvent.setup();
    signInAs('Manager');
    const sent = openOrder(open, submitted);
    const banner = await screen.findByRole('region', { name: 'Dispute' });
    // Above the checks and every section: the first thing under the header.
    expect(banner.previousElementSibling?.tagName).toBe('HEADER');
    expect(within(banner).getByTestId('dispute-reason')).toHaveTextContent('product not received');
    expect(within(banner).getByTestId('dispute-amount')).toHaveTextContent('59.00 USD');
    expect(within(banner).getByTestId('dispute-deadline')).toHaveTextContent('2 Dec 2026 16:48 EST');

    await user.click(within(banner).getByRole('button', { name: 'Submit evidence' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The evidence was submitted to the bank.')).toBeInTheDocument();
    expect(sent.filter((r) => r.path.endsWith('/submit-evidence')).map((r) => r.body)).toEqual([
      { submit: true },
    ]);
    const next = await within(banner).findByTestId('dispute-next');
    expect(next).toHaveTextContent('Evidence submitted 26 Nov 2026 10:00 EST by Demo Manager.');
    expect(next).toHaveTextContent(AFTER_EVIDENCE);
    expect(within(banner).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
  });

  it('offers no Submit evidence to a role that may not submit it', async () => {
    signInAs('Team');
    openOrder(open);
    const banner = await screen.findByRole('region', { name: 'Dispute' });
    expect(within(banner).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
    expect(banner).toHaveTextContent('A Manager or an Admin submits the evidence.');
  });

  it('shows nothing for an order whose dispute is closed', async () => {
    signInAs('Manager');
    openOrder({ ...submitted, status: 'won', closed_at: '2026-12-20T10:00:00.000Z' });
    expect(await screen.findByTestId('process-status')).toHaveTextContent('ChargeBack');
    expect(screen.queryByRole('region', { name: 'Dispute' })).toBeNull();
  });
});
