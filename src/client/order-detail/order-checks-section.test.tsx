import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderChecksAnswer } from '../../shared/contracts/checks';
import { type OrderDetails, orderDetailsResponse } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { answer, mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';
import { Component } from './order-detail-page';

const ROUTE = '/admin/view-order/:orderId';

const CHECKS: OrderChecksAnswer = {
  checks: [
    {
      code: 'passport_expires_during_trip',
      severity: 'block',
      message: 'The passport expires on 2030-01-20, before the departure on 2030-01-22.',
      fields: ['passport_expiration', 'departure_date'],
    },
    {
      code: 'flight_number_shape',
      severity: 'warn',
      message: 'The flight number is wrong.',
      fields: ['flight_number'],
    },
  ],
  duplicates: [
    {
      order_id: 100200,
      rule: 'passport',
      decision: null,
      matching_fields: ['passport_number', 'nationality'],
      process_status: 'Awaiting',
      amount: '59.00',
      currency: 'USD',
      transaction_id: 'ch_2',
      merchant_name: 'Stripe',
      created_at: '2026-11-20T10:00:00.000Z',
      email: 'other@example.com',
      passport_number: 'NWK92R3F1',
      nationality: 'Netherlands',
      first_name: 'Edith',
      last_name: 'Other',
      date_of_birth: '1980-01-01',
      arrival_date: '2030-01-16',
      departure_date: '2030-01-20',
    },
  ],
};

function open(order: OrderDetails, extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
    ...extra,
  });
  renderPage(ROUTE, `/admin/view-order/${encodeOrderId(order.order_id)}`, <Component />);
  return sent;
}

beforeEach(() => signInAs('Team'));
afterEach(() => localStorage.clear());

describe('the checks panel of the order detail', () => {
  it('names each problem and its fields, shows a duplicate side by side, and sends a correction with the version', async () => {
    const user = userEvent.setup();
    const order = orderFixture({ ...CHECKS, flight_number: 'KLM', version: 7 });
    const sent = open(order, {
      [`PATCH /api/admin/orders/${order.order_id}`]: () => ({
        body: {
          status: 1,
          message: 'Order corrected.',
          data: { checks: [], duplicates: [], version: 8, changes: [] },
        },
      }),
      [`POST /api/admin/orders/${order.order_id}/duplicate-decision`]: () => ({
        body: {
          status: 1,
          message: 'Decision saved.',
          data: { checks: [], duplicates: [], movedOrderId: null },
        },
      }),
    });
    const panel = await screen.findByTestId('order-checks');
    expect(within(panel).getByTestId('check-passport_expires_during_trip')).toHaveTextContent(
      'Must fixThe passport expires on 2030-01-20, before the departure on 2030-01-22. — Passport Expiration, Departure Date',
    );
    expect(within(panel).getByTestId('check-flight_number_shape')).toHaveTextContent('Check');
    const duplicate = within(panel).getByTestId('duplicate-100200');
    expect(within(duplicate).getByRole('row', { name: /Passport Number/ })).toHaveClass('table-warning');
    expect(within(duplicate).getByRole('row', { name: /Status/ })).toHaveTextContent('Awaiting');

    await user.click(within(panel).getByRole('button', { name: 'Correct data' }));
    const flight = within(panel).getByLabelText('Flight Number');
    await user.clear(flight);
    await user.type(flight, 'KL 765');
    await user.click(within(panel).getByRole('button', { name: 'Save corrections' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PATCH')).toBe(true));
    expect(sent.find((r) => r.method === 'PATCH')!.body).toEqual({
      flight_number: 'KL 765',
      expectedVersion: 7,
    });

    // "Duplicate…" asks first: which order goes to Refunds and what happens to its money.
    await user.click(within(duplicate).getByRole('button', { name: 'Duplicate…' }));
    const ask = within(duplicate).getByRole('alertdialog', { name: 'Link as duplicate?' });
    expect(ask).toHaveTextContent('its payment of');
    expect(ask).toHaveTextContent('moves to Refunds');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(duplicate).getByRole('button', { name: 'Not a duplicate' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({
      otherOrderId: 100200,
      decision: 'not_duplicate',
    });
  });

  it('a Telecaller sees the problems but no way to change the order', async () => {
    signInAs('Telecaller');
    open(orderFixture({ ...CHECKS }));
    const panel = await screen.findByTestId('order-checks');
    expect(within(panel).getByTestId('check-flight_number_shape')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Correct data' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Duplicate…' })).toBeNull();
  });

  it('a Completed order offers no correction', async () => {
    open(orderFixture({ ...CHECKS, process_status: 'Completed' }));
    const panel = await screen.findByTestId('order-checks');
    expect(within(panel).queryByRole('button', { name: 'Correct data' })).toBeNull();
  });
});
