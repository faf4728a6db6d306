import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, moveOrder, staffToken, test } from './fixtures.js';

/** A 1×1 PNG: the "passport photo" a customer sends. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An order held by the Team member, waiting on the customer, who answers on the track page with a photo. */
async function answeredWithPhoto(api: APIRequestContext): Promise<{ orderId: number; email: string }> {
  const order = await makeOrder(api, { last_name: 'Photo' });
  const team = await staffToken(api, 'Team');
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: team },
    data: { orderId: [order.orderId], assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();
  await moveOrder(api, team, order.orderId, 'Awaiting');
  const track = await api.post('/api/front/track-order', {
    data: { orderId: String(order.orderId), email: order.email },
  });
  expect(track.ok(), await track.text()).toBeTruthy();
  const token = (await track.json()).data.token as string;
  const reply = await api.post(`/api/customer/orders/${order.orderId}/replies`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      message: 'Here is my passport photo',
      files: { name: 'passport.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(reply.ok(), await reply.text()).toBeTruthy();
  return order;
}

test('"Use as approved card" asks first with a preview and an image warning; Undo cancels the held mail; "Save as document" keeps the file without mail', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await answeredWithPhoto(api);

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation.getByRole('button', { name: 'passport.png' })).toBeVisible();

  // One click only asks: the file, and the warning that it is the customer's image.
  await conversation.getByRole('button', { name: 'Use as approved card…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Use passport.png as the approved card?' });
  await expect(dialog.getByRole('img', { name: 'Preview of passport.png' })).toBeVisible();
  await expect(dialog.getByTestId('use-card-warning')).toContainText(
    'This file came from the customer: it is an image, often a photo of the passport, not the approved card',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(conversation.getByTestId('conversation-out').filter({ hasText: 'approval' })).toHaveCount(0);

  // Used as the card: the toast offers Undo while the mail is held; Undo cancels it.
  await conversation.getByRole('button', { name: 'Use as approved card…' }).click();
  await dialog.getByRole('button', { name: 'Use as approved card and mail it' }).click();
  const toast = page.locator('.Toastify__toast').filter({ hasText: 'The file is now the approved card' });
  await expect(toast).toContainText('Undo cancels it');
  const undo = toast.getByRole('button', { name: 'Undo' });
  const box = await undo.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(30);
  await undo.click();
  await expect(page.locator('.Toastify__toast').filter({ hasText: 'Undone' })).toBeVisible();
  await expect(conversation.getByTestId('conversation-out').filter({ hasText: 'approval' })).toContainText(
    'cancelled',
  );

  // Save as document: kept with the order, marked, and no mail.
  await conversation.getByRole('button', { name: 'Use as approved card…' }).click();
  await dialog.getByRole('button', { name: 'Save as document' }).click();
  await expect(page.locator('.Toastify__toast').filter({ hasText: 'is saved as a document' })).toBeVisible();
  await expect(conversation.getByText('Saved as document')).toBeVisible();
  await expect(conversation.getByTestId('conversation-out').filter({ hasText: 'approval' })).toHaveCount(1);
  await api.dispose();
});

test('the reply box says who gets the reply; a stray mail from another address offers "Reply to the sender" and asks before mailing the customer; "Send and move to" sends one mail', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Owner' });
  const team = await staffToken(api, 'Team');
  const manager = await staffToken(api, 'Manager');
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: team },
    data: { orderId: [order.orderId], assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();
  // A mail from someone else lands in Unmatched Mail and is attached to this order by hand.
  const stamp = Date.now();
  const raw = `From: Someone Else <stray.${stamp}@example.com>\r\nTo: help@example.com\r\nSubject: About my trip\r\nMessage-ID: <stray.${stamp}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nWhere is my card?\r\n`;
  const inbound = await api.post('/api/inbound/mail', {
    headers: { authorization: 'Bearer e2e-inbound-token-0123456789', 'content-type': 'message/rfc822' },
    data: Buffer.from(raw),
  });
  expect(inbound.ok(), await inbound.text()).toBeTruthy();
  const unmatched = await api.get('/api/admin/inbound/unmatched', { headers: { authorization: manager } });
  const stray = (await unmatched.json()).data.items.find(
    (m: { from: string | null }) => m.from === `stray.${stamp}@example.com`,
  );
  const attach = await api.post(`/api/admin/inbound/${stray.id}/attach`, {
    headers: { authorization: manager },
    data: { orderId: order.orderId },
  });
  expect(attach.ok(), await attach.text()).toBeTruthy();

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const reply = page.getByRole('form', { name: 'Reply to the customer' });
  await expect(reply.getByTestId('reply-to')).toHaveText(`To: ${order.email} (the order's customer)`);
  await expect(reply.getByTestId('reply-other-sender')).toContainText(
    `The message you answer came from stray.${stamp}@example.com`,
  );

  // Mailing the order's customer about the stranger's message: asked first; Cancel sends nothing.
  await reply.getByLabel('Reply', { exact: true }).fill('Your card is on its way.');
  await reply.getByRole('button', { name: 'Send reply' }).click();
  const ask = reply.getByRole('alertdialog', { name: "Mail the order's customer?" });
  await expect(ask).toContainText(`This mails ${order.email}`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();

  // Reply to the sender instead: "To:" follows, and the reply goes there.
  await reply.getByLabel(`Reply to the sender (stray.${stamp}@example.com)`).check();
  await expect(reply.getByTestId('reply-to')).toHaveText(`To: stray.${stamp}@example.com`);
  await reply
    .getByLabel('Reply', { exact: true })
    .fill('This order is not yours; please write from your own.');
  await reply.getByLabel('Then').selectOption('Awaiting');
  await reply.getByRole('button', { name: 'Send and move to Awaiting Customer' }).click();
  await expect(
    page
      .locator('.Toastify__toast')
      .filter({ hasText: `The reply to stray.${stamp}@example.com is on its way` }),
  ).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('Awaiting');
  const conversation = page.getByRole('region', { name: 'Conversation' });
  // One mail: the reply; the move sent no status mail besides.
  await expect(conversation.getByTestId('conversation-out')).toHaveCount(1);
  await expect(conversation.getByTestId('conversation-out')).toContainText(`stray.${stamp}@example.com`);
  await api.dispose();
});

test('an unread answer: the conversation comes first, the badge links to it, each entry says who wrote it, and the flag clears once the conversation has been on screen', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await answeredWithPhoto(api);
  await api.dispose();

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  const passport = page.getByRole('region', { name: 'Passport details' });
  await expect(conversation).toBeVisible();
  const [c, p] = [await conversation.boundingBox(), await passport.boundingBox()];
  expect(c!.y).toBeLessThan(p!.y);
  // The status mail of the move to Awaiting is the Team member's; the answer is the customer's.
  const out = conversation.getByTestId('conversation-out').first();
  await expect(out.getByTestId('conversation-author')).toHaveText('Demo Team');
  await expect(out).toContainText('Sent notification mail');
  const incoming = conversation.getByTestId('conversation-in');
  await expect(incoming).toContainText('customer');
  await expect(incoming).toContainText('Here is my passport photo');

  // The header badge points at the conversation; the flag goes only after it has been on screen.
  const badge = page.getByTestId('detail-replied');
  await expect(badge).toHaveAttribute('href', '#section-conversation-block');
  await badge.click();
  await expect(conversation.getByTestId('conversation-unread')).toBeVisible();
  await expect(badge).toBeHidden({ timeout: 10_000 });
  await expect(conversation.getByTestId('conversation-unread')).toBeHidden();
});

test('Unmatched Mail finds the order by name or e-mail and shows a file count only when there are files', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const letters = Array.from({ length: 8 }, () =>
    String.fromCharCode(97 + Math.floor(Math.random() * 26)),
  ).join('');
  const lastName = `Zed${letters}`;
  const order = await makeOrder(api, { last_name: lastName });
  const stamp = Date.now();
  const raw = `From: Lost Traveller <lost.${stamp}@example.com>\r\nTo: help@example.com\r\nSubject: Lost ${stamp}\r\nMessage-ID: <lost.${stamp}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nI wrote from my other address.\r\n`;
  const inbound = await api.post('/api/inbound/mail', {
    headers: { authorization: 'Bearer e2e-inbound-token-0123456789', 'content-type': 'message/rfc822' },
    data: Buffer.from(raw),
  });
  expect(inbound.ok(), await inbound.text()).toBeTruthy();
  await api.dispose();

  await loginAs(page, 'Manager');
  await page.goto('/admin/unmatched-mail');
  const item = page.getByTestId('unmatched-item').filter({ hasText: `Lost ${stamp}` });
  await expect(item).toBeVisible();
  await expect(item).not.toContainText('file');
  const find = item.getByRole('form', { name: /^Find the order of message/ });
  await expect(find.getByLabel('Find the order by name or e-mail')).toHaveValue(`lost.${stamp}@example.com`);
  await find.getByLabel('Find the order by name or e-mail').fill(lastName);
  await find.getByRole('button', { name: 'Find' }).click();
  await find.getByRole('button', { name: new RegExp(`^Order ${order.orderId} — `) }).click();
  await expect(item.getByLabel('Order ID')).toHaveValue(String(order.orderId));
  await item.getByRole('button', { name: 'Attach to order' }).click();
  await expect(page.locator('.Toastify__toast').filter({ hasText: `order ${order.orderId}` })).toBeVisible();
});

test('logging a call as "Reached" offers the move to Customer Called in the same step', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Reached' });
  const manager = await staffToken(api, 'Manager');
  await moveOrder(api, manager, order.orderId, 'Contact Customer');
  await api.dispose();

  await loginAs(page, 'Telecaller');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  await expect(page.getByTestId('process-status')).toHaveText('Contact Customer');
  const form = page.getByRole('form', { name: 'Log a call' });
  await form.getByLabel('Outcome').selectOption('reached');
  await form.getByLabel('and move the order to Customer Called').check();
  await form.getByRole('button', { name: 'Log contact' }).click();
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'the order moved to Customer Called' }),
  ).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('Customer Called');
  await expect(form.getByLabel('and move the order to Customer Called')).toBeHidden();
});
