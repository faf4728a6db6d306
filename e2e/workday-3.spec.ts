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
