import type { APIRequestContext, Page } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { encodeOrderId } from '../src/shared/order-id.js';
import {
  addRemark,
  expect,
  loginAs,
  makeOrder,
  moveOrder,
  test,
  todayIso,
  uploadApprovedCard,
} from './fixtures.js';

/** The working day: chargebacks that can be defended, and a due clock that pauses. */

const stamp = `${Date.now()}`;
let counter = 0;

/** A fresh order of our own, arriving well ahead. */
function newOrder(api: APIRequestContext) {
  counter += 1;
  return makeOrder(api, {
    arrival_date: '2031-03-15',
    passport_number: `WD2${stamp.slice(-6)}${counter}`,
    last_name: 'Dispute',
    first_name: `Dana${counter}`,
    processing_date: todayIso(),
  });
}

async function mailCount(page: Page, token: string, orderId: number): Promise<number> {
  const res = await page.request.get(`/api/admin/get-orders-details/${orderId}`, {
    headers: { Authorization: token },
  });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()).data.mailHistory as unknown[]).length;
}

test.use({ viewport: { width: 1440, height: 900 } });

test('an order in ChargeBack offers both Defence Packs; Pack 2 has facts in words, and completing it mails nobody', async ({
  page,
}) => {
  const token = await loginAs(page, 'Manager');
  const { orderId, email } = await newOrder(page.request);
  await addRemark(page.request, token, orderId, 'Internal: customer sounded annoyed');
  // The card was delivered before the dispute (Completed needs a current document).
  await uploadApprovedCard(page.request, token, { orderId, email });
  await moveOrder(page.request, token, orderId, 'ChargeBack');
  const mailsBefore = await mailCount(page, token, orderId);

  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  await expect(page.getByTestId('process-status')).toHaveText('ChargeBack');
  await expect(page.getByRole('button', { name: 'Defence Pack 1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enter Transaction Details' })).toBeVisible();
  // "Upload, mail and complete" would mail the disputing customer: not offered here.
  await expect(page.getByRole('button', { name: 'Upload, mail and complete' })).toHaveCount(0);

  const packs: Buffer[] = [];
  await page.route('**/api/admin/get-defence-pack-pdf', async (route) => {
    const response = await route.fetch();
    packs.push(await response.body());
    await route.fulfill({ response });
  });
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Defence Pack 2' }).click(),
  ]);
  await popup.waitForURL(/^blob:/);
  const { text } = await new PDFParse({ data: new Uint8Array(packs[0]!) }).getText();
  expect(text).toContain('Defence Pack 2');
  expect(text).toContain('Status history');
  expect(text).toContain('Moved from New to ChargeBack');
  expect(text).not.toContain('customer sounded annoyed');
  expect(text).not.toContain('Remark history');
  await popup.close();

  // Closing the dispute as Completed: the order completes and no mail is queued for the customer.
  await page
    .getByRole('navigation', { name: 'Move order' })
    .getByRole('button', { name: 'Move to Completed Orders' })
    .click();
  await expect(page.getByTestId('process-status')).toHaveText('Completed');
  expect(await mailCount(page, token, orderId)).toBe(mailsBefore);
});

test('the due clock shows Paused while the order waits on the customer, and runs again when it is back', async ({
  page,
}) => {
  const token = await loginAs(page, 'Team');
  const { orderId } = await newOrder(page.request);
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const due = page.getByTestId('detail-due');
  await expect(due.getByTestId('due-badge')).not.toHaveText('Paused');

  await moveOrder(page.request, token, orderId, 'Awaiting');
  await page.reload();
  await expect(page.getByTestId('process-status')).toHaveText('Awaiting');
  await expect(due.getByTestId('due-badge')).toHaveText('Paused');
  await expect(due).toContainText('the due clock stands still');

  await moveOrder(page.request, token, orderId, 'Customer Called');
  await page.reload();
  await expect(page.getByTestId('process-status')).toHaveText('Customer Called');
  await expect(due.getByTestId('due-badge')).not.toHaveText('Paused');
  await expect(due.getByTestId('due-badge')).toHaveText(/^in |late/);
});

test('"Live updates are offline" sits in the page flow and covers no button or link', async ({ page }) => {
  const token = await loginAs(page, 'Team');
  const { orderId } = await newOrder(page.request);
  expect(token).toBeTruthy();
  await page.route('**/api/admin/events', (route) => route.abort());
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const banner = page.getByText('Live updates are offline');
  await expect(banner).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('New');
  const box = (await banner.boundingBox())!;
  // No visible control anywhere on the screen overlaps the banner.
  const overlapping = await page.evaluate((b) => {
    const hits: string[] = [];
    for (const el of Array.from(document.querySelectorAll('button, a[href], select, input, textarea'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const overlaps = r.left < b.x + b.width && r.right > b.x && r.top < b.y + b.height && r.bottom > b.y;
      if (overlaps) hits.push((el.textContent ?? el.getAttribute('aria-label') ?? el.tagName).trim());
    }
    return hits;
  }, box);
  expect(overlapping).toEqual([]);
  // The action bar's buttons are all clickable (the topmost element at their centre is the button).
  const moves = page.getByRole('navigation', { name: 'Move order' }).getByRole('button');
  for (const button of await moves.all()) {
    if (!(await button.isVisible())) continue;
    const r = (await button.boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
      [r.x + r.width / 2, r.y + r.height / 2],
    );
    if (r.x + r.width / 2 < 1440) expect(onTop).toBe(await button.textContent());
  }
});

test.describe('at 1,280 x 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('a list shows at least 12 rows without scrolling', async ({ page }) => {
    await loginAs(page, 'Manager');
    // 25 a page (the default of 10 is the product's): the question is how many fit on the screen.
    await page.goto('/admin/order-history?size=25');
    const rows = page.locator('[data-testid="order-table"] tbody tr[data-order-id]');
    await expect(rows.nth(12)).toBeAttached();
    const inView = await rows.evaluateAll(
      (trs) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    expect(inView).toBeGreaterThanOrEqual(12);
  });
});

test.describe('at 1,280 x 900', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test('the Manager reaches the account menu and Logout, and every sidebar group', async ({ page }) => {
    await loginAs(page, 'Manager');
    await page.goto('/admin');
    const account = page.getByRole('button', { name: /^Welcome / });
    await expect(account).toBeInViewport();
    await account.click();
    await expect(page.locator('.dropdown-menu.show').getByText('Logout')).toBeInViewport();
    await page.keyboard.press('Escape');
    // The sidebar is grouped; its Logout is reached by scrolling the sidebar itself.
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    for (const group of ['Queues', 'Customers', 'Settings']) {
      await expect(sidebar.getByRole('list', { name: group })).toBeAttached();
    }
    const logout = sidebar.getByRole('link', { name: 'Logout' });
    await logout.scrollIntoViewIfNeeded();
    await expect(logout).toBeInViewport();
  });
});

test('at 1,440 px every status button of the action bar is whole, none clipped', async ({ page }) => {
  await loginAs(page, 'Manager');
  const { orderId } = await newOrder(page.request);
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const moves = page.getByRole('navigation', { name: 'Move order' });
  const chargeBack = moves.getByRole('button', { name: 'Move to ChargeBack' });
  await expect(chargeBack).toBeInViewport({ ratio: 1 });
  const clipped = await moves.evaluate((nav) => {
    const box = nav.parentElement!.getBoundingClientRect();
    return Array.from(nav.querySelectorAll('button'))
      .filter((b) => {
        const r = b.getBoundingClientRect();
        return r.right > box.right + 0.5 || r.left < box.left - 0.5;
      })
      .map((b) => b.textContent);
  });
  expect(clipped).toEqual([]);
});
