import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, expectCanvasDrawn, loginAs, makeOrder, staffToken, test } from './fixtures';

/**
 * The finance page as a Manager: a payout synced from the local server speaking Stripe's API gives the
 * day's figures and a chart; a figure links to the orders behind it, and each of those to its order.
 * Its own payout and orders (fresh charge ids) make it independent of the rest of the run.
 */
const stripeBase = () => `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3105) + 1000}`;

/** The service day (New York) of a moment, YYYY-MM-DD. */
const serviceDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

test('finance page: a chart, a figure lists its orders, an order opens from it', async ({ page }) => {
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const charges = [`ch_e2efin${stamp}a`, `ch_e2efin${stamp}b`];
  const paid = [];
  for (const [i, charge] of charges.entries()) {
    paid.push(
      await makeOrder(page.request, {
        transaction_id: charge,
        merchant_name: 'Stripe',
        first_name: 'Fiona',
        last_name: `Ledger${stamp}${i}`,
      }),
    );
  }
  const at = new Date(Date.now() - 60_000);
  const created = Math.floor(at.getTime() / 1000);
  const txn = (id: string, amount: number, fee: number, source: Record<string, unknown>) => ({
    id,
    object: 'balance_transaction',
    amount,
    fee,
    net: amount - fee,
    currency: 'usd',
    type: 'charge',
    reporting_category: 'charge',
    created,
    available_on: created + 2 * 86_400,
    status: 'available',
    source,
  });
  const transactions = charges.map((charge, i) =>
    txn(`txn_e2efin${stamp}${i}`, 5900, 201, { id: charge, object: 'charge', payment_intent: null }),
  );
  const payoutId = `po_e2efin${stamp}`;
  const registered = await page.request.post(`${stripeBase()}/__double/payouts`, {
    data: {
      payout: {
        id: payoutId,
        object: 'payout',
        amount: 2 * 5699,
        currency: 'usd',
        status: 'paid',
        arrival_date: created + 3 * 86_400,
        created,
      },
      transactions,
    },
  });
  expect(registered.ok()).toBe(true);
  const admin = await staffToken(page.request, 'Admin');
  const synced = await page.request.post('/api/admin/payouts/sync', { headers: { authorization: admin } });
  expect(synced.ok(), await synced.text()).toBe(true);

  const day = serviceDay(at);
  await loginAs(page, 'Manager');
  await page.goto(`/admin/finance-report?from=${day}&to=${day}&group=day`);
  await expect(page.getByRole('heading', { name: 'Finance' })).toBeVisible();
  await expectCanvasDrawn(page.getByTestId('report-chart'), 300);
  const table = page.getByTestId('finance-table');
  await expect(table.getByRole('row')).toHaveCount(3);

  // The day's gross: at least this spec's two charges, and both its orders behind it.
  await table.getByRole('link', { name: `Gross ${day}: the orders` }).click();
  const panel = page.getByTestId('finance-orders');
  await expect(panel.getByRole('heading')).toHaveText(`Orders behind Gross, ${day}`);
  for (const [i, order] of paid.entries()) {
    const row = panel.getByRole('row').filter({ hasText: `Ledger${stamp}${i}` });
    await expect(row).toContainText(`#${order.orderId}`);
    await expect(row).toContainText('$59.00');
  }
  expect(page.url()).toContain('figure=gross');

  // The totals' provider fees list them too; an order opens from the list.
  await table.getByRole('link', { name: 'Provider fees total: the orders' }).click();
  await expect(panel.getByRole('heading')).toHaveText(`Orders behind Provider fees, ${day}`);
  const first = panel.getByRole('row').filter({ hasText: `Ledger${stamp}0` });
  await expect(first).toContainText('$2.01');
  await first.getByRole('link', { name: `#${paid[0]!.orderId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/view-order/${encodeOrderId(paid[0]!.orderId)}$`));
  await expect(page.getByTestId('process-status')).toBeVisible();
});
