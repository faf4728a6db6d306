import { signedStripeEvent, stripeEvent } from '../src/server/test/stripe-events.js';
import { expect, loginAs, makeOrder, test } from './fixtures';

/**
 * An early fraud warning arrives (signed as Stripe signs it) while New Orders is open: the order is
 * refunded at the local Stripe double, leaves New, and shows in Completed Refunds with its reason
 * (docs/product.md, "Fraud warnings and risk"); the dispute ratios chart as a Manager.
 */
const WEBHOOK_SECRET = 'whsec_e2e_webhook_signing_secret';

test('a warning for a New order refunds it: it leaves New and shows in Completed Refunds with its reason', async ({
  page,
}) => {
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const charge = `ch_e2efw${stamp}`;
  const { orderId } = await makeOrder(page.request, {
    transaction_id: charge,
    merchant_name: 'Stripe',
    last_name: 'Warning',
    first_name: 'Wanda',
  });

  await loginAs(page, 'Manager');
  const streamOpen = page.waitForResponse((r) => r.url().includes('/api/admin/events'));
  // Newest first, so the new order is on the first page.
  await page.goto('/admin?sort=created_at&dir=desc');
  await expect(page.getByTestId('order-table')).toBeVisible();
  await streamOpen;
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await expect(row).toBeVisible();

  const { payload, signature } = signedStripeEvent(
    stripeEvent(
      'radar.early_fraud_warning.created',
      {
        id: `issfr_e2e${stamp}`,
        object: 'radar.early_fraud_warning',
        actionable: true,
        charge,
        fraud_type: 'made_with_stolen_card',
        payment_intent: null,
      },
      { id: `evt_e2efw${stamp}` },
    ),
    WEBHOOK_SECRET,
  );
  const hook = await page.request.post('/api/webhooks/stripe', {
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    data: payload,
  });
  expect(hook.status(), await hook.text()).toBe(200);
  expect((await hook.json()).outcome).toBe('early fraud warning: order refunded');

  // It leaves New live: the row now says where it went.
  await expect(row).toContainText('Refunded');
  await page.goto('/admin/completed-refunds');
  const refunded = page.locator(`tr[data-order-id="${orderId}"]`);
  await expect(refunded).toBeVisible();
  await expect(refunded).toContainText('Early fraud warning');
});

test('the dispute ratios chart with its bands, as a Manager', async ({ page }) => {
  await loginAs(page, 'Manager');
  await page.goto('/admin/insights');
  const section = page.getByRole('region', { name: /Dispute ratios/ });
  await expect(section).toBeVisible();
  await expect(section.getByTestId('insights-chart')).toBeVisible();
  await expect(section.getByRole('img', { name: /Watch/ })).toBeVisible();
  await expect(section.getByTestId('disputes-visa')).toBeVisible();
  await expect(section.getByTestId('dispute-band').first()).toHaveText(/ok|watch|excessive/);
  await page.goto('/admin');
  await expect(page.getByTestId('dashboard-dispute-band')).toBeVisible();
});
