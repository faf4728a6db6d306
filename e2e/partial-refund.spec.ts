import { encodeOrderId } from '../src/shared/order-id.js';
import { addRemark, expect, loginAs, makeOrder, staffToken, test } from './fixtures';

/**
 * A partial refund through Stripe: the confirmation names the provider and the amount, the
 * toast names the refund id, the order stays in Refunds showing what was refunded and what is left, and
 * refunding the rest closes it. The refunds go to the local server speaking Stripe's API.
 */
const stripeBase = () => `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3105) + 1000}`;

test('a partial refund keeps the order in Refunds; the rest closes it', async ({ page }) => {
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const charge = `ch_e2erefund${stamp}`;
  const { orderId } = await makeOrder(page.request, { transaction_id: charge, merchant_name: 'Stripe' });
  // Stripe's record of the payment names the order (the product refunds only the order's own payment).
  const known = await page.request.post(`${stripeBase()}/__double/payments`, {
    data: { id: charge, amount: 5900, metadata: { order_id: String(orderId) } },
  });
  expect(known.ok()).toBe(true);
  await addRemark(
    page.request,
    await staffToken(page.request, 'Manager'),
    orderId,
    'Customer asked for a refund',
    {
      statusRefund: 'Y',
    },
  );

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  await expect(page.getByTestId('process-status')).toHaveText('Refunds');
  await expect(page.getByTestId('payment-refunded-so-far')).toHaveText(
    'Refunded so far: 0.00 USD · Remaining: 59.00 USD',
  );

  await page.getByLabel('Amount to refund (empty: all that is left)').fill('20');
  await page.getByRole('button', { name: 'Refund through Stripe' }).click();
  await expect(page.getByText('Refund 20.00 USD through Stripe?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(
    page.getByText(
      /^Refunded 20\.00 USD through Stripe \(refund re_[0-9a-f]+\)\. 20\.00 USD refunded so far, 39\.00 USD left/,
    ),
  ).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('Refunds');
  await expect(page.getByTestId('payment-refunded-so-far')).toHaveText(
    'Refunded so far: 20.00 USD · Remaining: 39.00 USD',
  );

  // The rest, from the same form: the order closes.
  await page.getByRole('button', { name: 'Refund through Stripe' }).click();
  await expect(page.getByText('Refund 39.00 USD through Stripe?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(
    page.getByText(
      /^Refunded 39\.00 USD through Stripe \(refund re_[0-9a-f]+\)\. The order is in Completed Refunds\./,
    ),
  ).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText(/^(Refunded|Completed Refunds)$/);
});
