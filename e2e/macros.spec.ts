import type { Page } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, test } from './fixtures.js';

/** A macro from a list's bulk bar: each selected order is moved and mailed, and leaves the list. */

const rows = (page: Page) => page.locator('tbody tr[data-order-id]');

async function rowIds(page: Page): Promise<number[]> {
  await expect(rows(page).first()).toBeVisible();
  const ids = await rows(page).evaluateAll((trs) =>
    trs.map((tr) => Number(tr.getAttribute('data-order-id'))),
  );
  return ids.filter((n) => Number.isFinite(n) && n > 0);
}

test('Team applies "Sent to government" to two orders from the New Orders bulk bar', async ({ page }) => {
  const token = await loginAs(page, 'Team');
  // The newest two (New Orders lists by due time by default): they are on page 1 of Awaiting Govt after.
  await page.goto('/admin/recent-order?sort=created_at&dir=desc');
  const [first, second] = await rowIds(page);
  expect(first && second).toBeTruthy();

  await page.getByLabel(`Select order ${first}`).check();
  await page.getByLabel(`Select order ${second}`).check();
  page.once('dialog', (dialog) => {
    // The question names the mail each customer gets (decision 298).
    expect(dialog.message()).toMatch(
      /^Apply "Sent to government" to 2 orders\? Each customer gets the mail ".+" in their language\.$/,
    );
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Apply macro' }).click();
  await page.getByRole('button', { name: 'Sent to government' }).click();
  await expect(page.getByText('The macro was applied to 2 orders.')).toBeVisible();
  await expect(page.locator(`tr[data-order-id="${first}"]`)).toHaveCount(0);
  await expect(page.locator(`tr[data-order-id="${second}"]`)).toHaveCount(0);

  for (const id of [first, second]) {
    const res = await page.request.get(`/api/admin/get-orders-details/${id}`, {
      headers: { authorization: token },
    });
    expect(res.ok()).toBeTruthy();
    const detail = (await res.json()).data;
    expect(detail.process_status).toBe('AwaitingGovt');
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['status', 'mail']),
    );
  }

  // The order shows up in Awaiting Govt, where the same macro is refused (already there) with the reason.
  await page.goto('/admin/awaiting-govt');
  await expect(page.locator(`tr[data-order-id="${first}"]`)).toBeVisible();
  await page.goto(`/admin/view-order/${encodeOrderId(first!)}`);
  await page.getByRole('button', { name: 'Macros' }).click();
  await page.getByRole('button', { name: 'Sent to government' }).click();
  // One order: the mail it would send, with a preview, before it acts.
  const ask = page.getByRole('dialog');
  await expect(ask).toContainText(/The customer (will get|got) the mail/);
  await ask.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('The order is already in Awaiting Govt.')).toBeVisible();
});
