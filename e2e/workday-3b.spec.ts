import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, staffToken, test } from './fixtures.js';

/** A member's own words to the customer (optionally moving the order); answers the mail's id. */
async function staffMessage(api: APIRequestContext, orderId: number, body: string, moveTo?: string) {
  const admin = await staffToken(api, 'Admin');
  const res = await api.post(`/api/admin/orders/${orderId}/messages`, {
    headers: { authorization: admin },
    data: { body, provider: 'AWS', ...(moveTo ? { moveTo } : {}) },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).data.mailId as number;
}

const serviceDay = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/New_York' });

test('the track page shows what the team asked, its reply form looks like the page, and the answer is acknowledged', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Asked' });
  const asked = 'Please send a photo of the passport page with your photo, without glare.';
  await staffMessage(api, order.orderId, asked, 'Awaiting');

  await page.goto(`/track-order/${order.orderId}`);
  await page.getByLabel('Email ID').fill(order.email);
  await page.getByRole('button', { name: 'TRACK ORDER' }).click();
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
  const stage = page.getByRole('region', { name: 'Order progress' });
  await expect(stage.locator('[aria-current=step]')).toHaveText('Action needed');
  await expect(stage.locator('blockquote')).toHaveText(asked);

  // The reply form uses the page's own fields and button (not the staff screens' styles).
  const form = page.getByRole('region', { name: 'Send us your answer' });
  await expect(form.locator('.c-field textarea')).toBeVisible();
  await expect(form.getByRole('button', { name: 'SEND ANSWER' })).toHaveClass(/c-button/);
  await form.getByLabel('Your message').fill('Here is a better photo.');
  await form.getByRole('button', { name: 'SEND ANSWER' }).click();
  await expect(page.getByTestId('reply-received')).toBeVisible();
  // The stage says the answer arrived, not "Action needed" above the thank-you; also after a reload.
  await expect(stage.locator('[aria-current=step]')).toHaveText('Answer received');
  await expect(stage.getByText('Action needed')).toHaveCount(0);
  await page.reload();
  await expect(stage.locator('[aria-current=step]')).toHaveText('Answer received');
});

test("a bounced mail: the order's header shows the failing address; Insights counts it as failed", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Bounce' });
  const mailId = await staffMessage(api, order.orderId, 'Please confirm your flight number.');
  const manager = await staffToken(api, 'Manager');
  // The mail goes out (its Message-ID is set on delivery).
  let messageId = '';
  await expect
    .poll(
      async () => {
        const conv = await api.get(`/api/admin/orders/${order.orderId}/conversation`, {
          headers: { authorization: manager },
        });
        const item = (
          (await conv.json()).data.items as { id: number; status?: string; messageId?: string }[]
        ).find((i) => i.id === mailId);
        messageId = item?.messageId ?? '';
        return item?.status === 'sent' && messageId !== '';
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const before = await api.get(`/api/admin/insights?from=${serviceDay()}&to=${serviceDay()}`, {
    headers: { authorization: manager },
  });
  const bouncedOf = async (res: typeof before) =>
    ((await res.json()).data.mail as { bounced: number }[]).reduce((s, r) => s + r.bounced, 0);
  const bouncedBefore = await bouncedOf(before);

  const report = `From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.net>
To: no-reply@ed-card.test
Subject: Delivery Status Notification (Failure)
Message-ID: <dsn.${Date.now()}@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B3B"
Auto-Submitted: auto-replied

--B3B
Content-Type: text/plain; charset=us-ascii

Your message could not be delivered.

--B3B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Action: failed
Final-Recipient: rfc822; ${order.email}
Diagnostic-Code: smtp; 550 5.1.1 user unknown
Status: 5.1.1

--B3B
Content-Type: text/rfc822-headers

Message-ID: ${messageId.startsWith('<') ? messageId : `<${messageId}>`}
To: ${order.email}
Subject: ED-Card #${order.orderId}

--B3B--
`.replace(/\n/g, '\r\n');
  const inbound = await api.post('/api/inbound/mail', {
    headers: { authorization: 'Bearer e2e-inbound-token-0123456789', 'content-type': 'message/rfc822' },
    data: report,
  });
  expect(inbound.ok(), await inbound.text()).toBeTruthy();

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const badge = page.getByTestId('detail-failing-address');
  await expect(badge).toContainText(order.email);
  await expect(badge).toHaveAttribute('title', /5\.1\.1/);
  await expect(badge).toBeInViewport();

  const after = await api.get(`/api/admin/insights?from=${serviceDay()}&to=${serviceDay()}`, {
    headers: { authorization: manager },
  });
  expect(await bouncedOf(after)).toBe(bouncedBefore + 1);
});
