import { PDFParse } from 'pdf-parse';
import { signedStripeEvent, stripeDispute, stripeEvent } from '../src/server/test/stripe-events.js';
import { expect, loginAs, makeOrder, test } from './fixtures';

/**
 * Stripe end to end: a dispute event arrives (signed as Stripe signs it) while the Chargeback list is
 * open, the order appears with its response deadline, and the evidence is submitted from the order's
 * page to the local server that speaks Stripe's API (playwright.config.ts), where the Defence Pack is
 * read back.
 */
/** As playwright.config.ts gives the app. */
const WEBHOOK_SECRET = 'whsec_e2e_webhook_signing_secret';
const stripeBase = () => `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3105) + 1000}`;

test('a dispute arrives while the Chargeback list is open; evidence is submitted from the order', async ({
  page,
}) => {
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const charge = `ch_e2e${stamp}`;
  const { orderId, email } = await makeOrder(page.request, {
    transaction_id: charge,
    merchant_name: 'Stripe',
    passport_number: 'STR123456',
    last_name: 'Dispute',
    first_name: 'Dana',
  });
  const disputeId = `dp_e2e${stamp}`;
  expect(
    (await page.request.post(`${stripeBase()}/__double/disputes`, { data: { id: disputeId } })).ok(),
  ).toBe(true);

  await loginAs(page, 'Manager');
  // The event must arrive while the list listens: wait for its live stream to be open.
  const streamOpen = page.waitForResponse((r) => r.url().includes('/api/admin/events'));
  await page.goto('/admin/chargeback');
  await expect(page.getByRole('heading', { name: 'Chargeback' })).toBeVisible();
  await expect(page.getByTestId('order-table')).toBeVisible();
  await streamOpen;

  const { payload, signature } = signedStripeEvent(
    stripeEvent(
      'charge.dispute.created',
      stripeDispute(charge, { id: disputeId, dueInSeconds: 6 * 86_400 + 3600 }),
      { id: `evt_e2e${stamp}` },
    ),
    WEBHOOK_SECRET,
  );
  const hook = await page.request.post('/api/webhooks/stripe', {
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature,
    },
    data: payload,
  });
  expect(hook.status(), await hook.text()).toBe(200);

  // The live counts announce it; the list loads it when asked.
  const bar = page.locator('.live-new-orders');
  await expect(bar).toContainText('1 new order');
  await bar.getByRole('button', { name: 'show' }).click();
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('59.00 USD');
  await expect(row).toContainText('fraudulent');
  await expect(row.getByTestId('due-badge')).toHaveText('in 6 d');
  // Delete is in the row menu, not beside View.
  await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  await row.getByRole('link', { name: 'View' }).click();
  await expect(page.getByTestId('process-status')).toHaveText('ChargeBack');
  const dispute = page.getByTestId('payment-dispute');
  await expect(dispute).toContainText('needs response');
  await expect(dispute).toContainText('Not sent yet');
  await dispute.getByRole('button', { name: 'Submit evidence' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('The evidence was submitted to the bank.')).toBeVisible();
  await expect(dispute).toContainText('under review');
  await expect(dispute).toContainText(/Submitted \d{1,2} \w{3} \d{4} \d{2}:\d{2} E[SD]T by Demo Manager/);
  await expect(dispute.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);

  // What Stripe received: the Defence Pack as a dispute-evidence file, and the evidence submitted.
  const sent = (await (await page.request.get(`${stripeBase()}/__double/requests`)).json()) as {
    path: string;
    form: Record<string, unknown>;
    file: { name: string; purpose: string; base64: string } | null;
  }[];
  const pack = sent.find((r) => r.path === '/v1/files' && r.file?.name === `defence-pack-${orderId}.pdf`);
  expect(pack?.file?.purpose).toBe('dispute_evidence');
  const parser = new PDFParse({ data: new Uint8Array(Buffer.from(pack!.file!.base64, 'base64')) });
  try {
    expect((await parser.getText()).text).toContain(String(orderId));
  } finally {
    await parser.destroy();
  }
  const update = sent.find((r) => r.path === `/v1/disputes/${disputeId}`);
  expect(update?.form).toMatchObject({ submit: 'true', evidence: { customer_email_address: email } });
});
