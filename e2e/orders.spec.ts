import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { FOLDER_ROUTES } from '../src/client/orders/nav';
import { expect, loginAs, test } from './fixtures.js';

const rows = (page: Page) => page.locator('[data-testid=order-table] tbody tr[data-order-id]');
const rowIds = async (page: Page) =>
  (await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-order-id')))).map(Number);

async function counts(page: Page, token: string) {
  const res = await page.request.get('/api/admin/get-folder-count', { headers: { authorization: token } });
  return (await res.json()).data as Record<string, number>;
}

/** Waits until the table shows rows (or its empty text) for the current URL. */
async function tableSettled(page: Page) {
  await expect(rows(page).first().or(page.getByText('No data available in table'))).toBeVisible();
}

test('every folder route shows its title and as many rows as its count says', async ({ page }) => {
  const token = await loginAs(page, 'Admin');
  const c = await counts(page, token);
  for (const route of FOLDER_ROUTES) {
    await page.goto(`/admin/${route.path}`);
    await expect(page.locator('#queue-title')).toHaveText(route.title);
    await tableSettled(page);
    const total = c[route.countKey]!;
    await expect(rows(page)).toHaveCount(Math.min(total, 10));
    await expect(page.getByText(`of ${total}`, { exact: false }).first()).toBeVisible();
  }
  // Every folder list offers its product columns by default: those whole in the width at once, the rest
  // behind "+N"; Contact Customer hides Telephone until a member adds it back there.
  await page.goto('/admin/recent-order');
  await tableSettled(page);
  for (const name of ['Order ID', 'Status', 'Name', 'Arrival Date', 'Email']) {
    await expect(page.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await page.getByTestId('more-columns').click();
  for (const name of [
    'Telephone',
    'Date & Time',
    'Refund Date',
    'Process Date',
    'Process Month',
    'Assign To',
  ]) {
    await expect(page.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toHaveCount(1);
  }
  await page.goto('/admin/contact-customer');
  await tableSettled(page);
  await expect(page.getByRole('columnheader', { name: 'Telephone' })).toHaveCount(0);
  await page.getByTestId('more-columns').click();
  await expect(page.getByRole('columnheader', { name: /^Date & Time/ })).toBeVisible();
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await page.getByLabel('Telephone', { exact: true }).check();
  await expect(page.getByRole('columnheader', { name: 'Telephone' })).toBeVisible();
  await page.getByLabel('Telephone', { exact: true }).uncheck();
  await expect(page.getByRole('columnheader', { name: 'Telephone' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.locator('#queue-title')).toHaveText('New Orders');
  await page.goto('/admin/chargeback');
  // The Chargeback list carries its own title (it said "New Orders").
  await expect(page.locator('#queue-title')).toHaveText('Chargeback');
  await tableSettled(page);
  await expect(rows(page)).toHaveCount(Math.min(c.chargeBackCount!, 10));
  await expect(page.getByRole('columnheader', { name: 'Order Id' })).toBeVisible();
});

test('pages through, changes the size, searches — all kept in the URL', async ({ page }) => {
  await loginAs(page, 'Admin');
  await page.goto('/admin/order-history');
  await tableSettled(page);
  const first = await rowIds(page);
  expect(first).toHaveLength(10);
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect.poll(async () => (await rowIds(page))[0]).not.toBe(first[0]);
  const second = await rowIds(page);
  expect(second.some((id) => first.includes(id))).toBe(false);

  await page.getByLabel('Show').selectOption('25');
  await expect(page).toHaveURL(/size=25/);
  await expect(page).not.toHaveURL(/page=2/);
  await expect(rows(page)).toHaveCount(25);

  // The back button returns to the previous list state.
  await page.goBack();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows(page)).toHaveCount(10);

  // The Email column, wherever the column set puts it (every column shown: the table as wide as it needs).
  await page.getByTestId('more-columns').click();
  const headers = await page.getByRole('columnheader').allTextContents();
  const col = headers.findIndex((h) => h.trim().startsWith('Email'));
  expect(col).toBeGreaterThan(0);
  const email = (await rows(page).first().locator('td').nth(col).textContent())!.trim();
  const fragment = email.split('@')[0]!.slice(0, 6);
  await page.getByLabel('Search').fill(fragment.toUpperCase());
  await expect(page).toHaveURL(new RegExp(`search=${fragment.toUpperCase()}`));
  await tableSettled(page);
  const emails = await rows(page)
    .locator(`td:nth-child(${col + 1})`)
    .allTextContents();
  expect(emails.length).toBeGreaterThan(0);
  for (const e of emails) expect(e.toLowerCase()).toContain(fragment.toLowerCase());

  // Empty text reloads the folder.
  await page.getByLabel('Search').fill('');
  await expect(page).not.toHaveURL(/search=/);
  await expect(rows(page)).toHaveCount(10);
});

test('assign to me -> My Orders -> move back to the original folder', async ({ page }) => {
  await loginAs(page, 'Team');
  await page.goto('/admin/recent-order');
  await tableSettled(page);
  const id = (await rowIds(page))[0]!;
  await page.getByLabel(`Select order ${id}`).check();
  await page.getByRole('button', { name: 'Assign to me' }).click();
  await expect(page.getByText('Are you sure want to assigned orders.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Order has been assigned successfully')).toBeVisible();
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toHaveCount(0);

  await page.goto('/admin/my-order');
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toBeVisible();
  // Assigned rows show a grey outline View.
  await expect(page.locator(`tr[data-order-id="${id}"]`).getByRole('link', { name: 'View' })).toHaveClass(
    /btn-outline-secondary/,
  );
  await page.getByLabel(`Select order ${id}`).check();
  await page.getByRole('button', { name: 'Move to Original Folder' }).click();
  await expect(page.getByText('Are you sure want to move orders to new orders.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toHaveCount(0);
  await page.goto('/admin/recent-order');
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toBeVisible();
});

test('Team sees no Delete; a Manager deletes and the counts follow without a reload', async ({ page }) => {
  await loginAs(page, 'Team');
  await page.goto('/admin/recent-order');
  await tableSettled(page);
  await expect(page.getByRole('button', { name: 'Delete Order' })).toHaveCount(0);

  const token = await loginAs(page, 'Manager');
  await page.goto('/admin/recent-order');
  await tableSettled(page);
  const before = await counts(page, token);
  const id = (await rowIds(page))[0]!;
  await page.getByLabel(`Select order ${id}`).check();
  await page.getByRole('button', { name: 'Delete Order' }).click();
  await expect(page.getByText('Are you sure you want to delete?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Order has been deleted successfully')).toBeVisible();
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toHaveCount(0);
  await expect(page.getByText(`of ${before.newOrdersCount! - 1}`).first()).toBeVisible();

  await page.goto(`/admin/deleted-order?search=${id}`);
  const deleted = page.locator(`tr[data-order-id="${id}"]`);
  await expect(deleted).toBeVisible();
  // Restore puts it back where it was before deletion.
  await deleted.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Order has been restored to New.')).toBeVisible();
  await expect(deleted).toHaveCount(0);
  await page.goto(`/admin/recent-order?search=${id}`);
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toBeVisible();
});

test('Future Orders: month tiles -> month table -> Back', async ({ page }) => {
  await loginAs(page, 'Night Staff');
  await page.goto('/admin/future-order');
  // The counts have arrived when every tile shows a number.
  for (const m of ['Jan', 'Jun', 'Dec'])
    await expect(page.getByTestId(`month-count-${m}`)).toHaveText(/^\d+$/);
  const tile = page.locator('[data-testid^=month-count-]').filter({ hasNotText: /^0$/ }).first();
  await expect(tile).toBeVisible();
  const count = Number(await tile.textContent());
  const month = (await tile.getAttribute('data-testid'))!.replace('month-count-', '');
  await tile.click();
  await expect(page).toHaveURL(new RegExp(`month=${month}`));
  await expect(page.locator('#queue-title')).toContainText(month);
  await expect(rows(page)).toHaveCount(Math.min(count, 10));
  // The columns beyond the width are one click away.
  await page.getByTestId('more-columns').click();
  await expect(page.getByRole('columnheader', { name: 'Processing Date' })).toBeVisible();
  const months = await rows(page).locator('td:nth-child(7)').allTextContents();
  for (const m of months) expect(m).toBe(month);
  // Everyone may delete on the future list.
  await expect(rows(page).first().getByRole('button', { name: 'Delete' })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.locator('[data-testid=month-count-Jan]')).toBeVisible();
});

test('exports the whole view as CSV', async ({ page }) => {
  await loginAs(page, 'Admin');
  await page.goto('/admin/completed-order');
  await tableSettled(page);
  const ids = await rowIds(page);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^orders-completedOrder.*\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((l) => l !== '');
  expect(lines[0]).toMatch(
    /^Order ID,Status,Name,.*Email,Telephone,.*Assign To,Refund Reason,Government Reference$/,
  );
  // The whole folder, in the order of the screen: the page shown is its beginning.
  expect(lines.slice(1, 1 + ids.length).map((l) => Number(l.split(',')[0]))).toEqual(ids);
  expect(lines.length - 1).toBeGreaterThanOrEqual(ids.length);
});
