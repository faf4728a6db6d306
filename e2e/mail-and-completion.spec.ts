import type { Page } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, test, todayIso } from './fixtures.js';

/** A fresh order of our own, so that a test does not depend on the demo set's state. */
const newOrder = async (page: Page, tag: string) =>
  (
    await makeOrder(page.request, {
      email: `e2e.${tag}@example.com`,
      passport_number: 'E2E7654321',
      last_name: 'Mailer',
      first_name: 'Mia',
      telephone_number: '612345670',
      processing_date: todayIso(),
    })
  ).orderId;

test('a move says which mail goes out, and Undo cancels the pending mail', async ({ page }) => {
  // Awaiting mails the customer by default (Mail settings).
  const token = await loginAs(page, 'Admin');
  const orderId = await newOrder(page, 'undo');
  // Undo needs a status to go back to: New is not one a move can choose.
  const first = await page.request.put('/api/admin/move-order-status', {
    headers: { Authorization: `Bearer ${token}` },
    data: { orderId, updatingStatus: 'Customer Called' },
  });
  expect(first.ok(), await first.text()).toBeTruthy();
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);

  await page.getByRole('button', { name: 'Move to Awaiting Response' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('The customer will get the mail');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.locator('iframe[title="Mail preview"]')).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue' }).click();

  const toast = page.locator('.Toastify__toast').filter({ hasText: 'is pending' });
  await expect(toast).toContainText('goes to the customer in 12 seconds');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'The customer mail was cancelled' }),
  ).toBeVisible();

  const detail = await page.request.get(`/api/admin/get-orders-details/${orderId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const data = (await detail.json()).data;
  expect(data.process_status).toBe('Customer Called');
  expect(data.mailHistory.map((m: { status: string }) => m.status)).toEqual(['cancelled']);
});

test('Completed is refused without a card, with the reason on screen', async ({ page }) => {
  const token = await loginAs(page, 'Team');
  const orderId = await newOrder(page, 'nocard');
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  await page.getByRole('button', { name: 'Move to Completed Orders' }).click();
  // Said at once, before any mail is announced.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('.Toastify__toast')).toContainText(
    'This order has no approved card yet: upload the card before completing the order.',
  );
  const detail = await page.request.get(`/api/admin/get-orders-details/${orderId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await detail.json()).data.process_status).toBe('New');
});
