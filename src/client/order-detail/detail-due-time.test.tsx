import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { Component } from './order-detail-page';
import { mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';

const HOUR = 3_600_000;

function openOrder(order: OrderDetails) {
  mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () => ({
      body: { status: 1, message: 'ok', data: order },
    }),
  });
  renderPage(
    '/admin/view-order/:orderId',
    `/admin/view-order/${encodeOrderId(order.order_id)}`,
    <Component />,
  );
}

beforeEach(() => signInAs('Telecaller'));
afterEach(() => localStorage.clear());

describe('order detail: due time', () => {
  it.each([
    ['on_track', 30 * HOUR + 60_000, 'in 30 h', 'text-bg-success', 'On track'],
    ['at_risk', 5 * HOUR + 60_000, 'in 5 h', 'text-bg-warning', 'At risk'],
    ['breached', -2 * HOUR - 60_000, '2 h late', 'text-bg-danger', 'Late'],
  ] as const)('shows a %s order with the badge of the list', async (state, offset, text, colour, label) => {
    openOrder(orderFixture({ due_at: new Date(Date.now() + offset).toISOString(), due_state: state }));
    const due = await screen.findByTestId('detail-due');
    const badge = within(due).getByTestId('due-badge');
    expect(badge).toHaveTextContent(text);
    expect(badge).toHaveClass(colour);
    expect(badge.title).toMatch(
      new RegExp(`^${label}: due \\d{1,2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2} E[SD]T$`),
    );
    expect(due).toHaveTextContent(`Due ${text} (${label})`);
  });

  it('shows no due time for an order that has none (completed, refunded, deleted)', async () => {
    openOrder(orderFixture({ process_status: 'Completed', due_at: null, due_state: null }));
    await screen.findByText(/Order 100123/);
    expect(screen.queryByTestId('detail-due')).toBeNull();
  });
});
