import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { expect, loginAs, makeOrder, test } from './fixtures.js';

/** Work by urgency: sort by arrival, filter by nationality, save a view, open it, export it; at 1,280 px. */

const stamp = `${Date.now()}`;
const lastName = `Urgency${stamp}`;

/** One of our orders, arriving on `arrival`, of a nationality of its own (the filter finds only ours). */
const newOrder = async (api: APIRequestContext, arrival: string, i: number) =>
  (
    await makeOrder(api, {
      arrival_date: arrival,
      passport_number: `URG${stamp.slice(-6)}${i}`,
      last_name: lastName,
      first_name: `Tala${i}`,
      nationality: 'Tuvalu',
      country_of_residence: 'TUV',
      phone_code: '688',
      telephone_number: `90${i}123`,
    })
  ).orderId;

/** The order ids of the table rows, in screen order, restricted to ours. */
async function shownIds(page: Page, ours: number[]): Promise<number[]> {
  const ids = await page
    .locator('[data-testid="order-table"] tbody tr[data-order-id]')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-order-id'))));
  return ids.filter((id) => ours.includes(id));
}

let ids: number[] = [];
test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  const api = await playwrightRequest.newContext({ baseURL });
  // The server answers health while it still migrates: wait until it is ready for work.
  await expect.poll(async () => (await api.get('/api/health/ready')).status(), { timeout: 90_000 }).toBe(200);
  // Created out of arrival order: newest first is not arrival order.
  ids = [
    await newOrder(api, '2031-05-20', 1),
    await newOrder(api, '2031-05-02', 2),
    await newOrder(api, '2031-05-11', 3),
  ];
  await api.dispose();
});

test.use({ viewport: { width: 1280, height: 800 } });

test('sort by arrival, filter by nationality, save a shared view, open it from the sidebar, export it', async ({
  page,
}) => {
  await loginAs(page, 'Manager');
  await page.goto('/admin/order-history');
  await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();

  // The filters fold behind their button until one is on.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Nationality').selectOption({ label: 'Tuvalu' });
  await expect(page).toHaveURL(/nationality=TUV/);
  await expect.poll(() => shownIds(page, ids)).toEqual([...ids].reverse()); // newest first

  await page.getByRole('button', { name: /^Arrival Date/ }).click();
  await expect(page).toHaveURL(/sort=arrival_date&dir=asc/);
  const byArrival = [ids[1]!, ids[2]!, ids[0]!];
  await expect.poll(() => shownIds(page, ids)).toEqual(byArrival);
  await expect(page.getByRole('columnheader', { name: /Arrival Date/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  // Each row shows its due time as a badge.
  await expect(page.locator(`tr[data-order-id="${ids[1]}"] [data-testid="due-badge"]`)).toBeVisible();

  const viewName = `Tuvalu ${stamp}`;
  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(viewName);
  await page.getByLabel('Share with everyone').check();
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  const link = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(viewName) });
  await expect(link).toBeVisible();
  await expect(link).toContainText(/\d+/);

  await page.goto('/admin/recent-order');
  await expect(page.getByRole('heading', { name: 'New Orders' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(viewName) })
    .click();
  await expect(page).toHaveURL(/\/admin\/order-history\?.*nationality=TUV/);
  await expect(page).toHaveURL(/sort=arrival_date/);
  await expect.poll(() => shownIds(page, ids)).toEqual(byArrival);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^orders-allOrder-.*\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toContain('Order ID');
  const exported = lines
    .slice(1)
    .map((l) => Number(l.split(',')[0]))
    .filter((id) => ids.includes(id));
  expect(exported).toEqual(byArrival);
  // Phone numbers come without a visible quote.
  expect(csv).toContain('+688 902123');
  expect(csv).not.toContain("'+688");
});

test('at 1,280 px the Action column stays in view, the page never scrolls sideways, and the row opens the order', async ({
  page,
}) => {
  await loginAs(page, 'Team');
  await page.goto('/admin/order-history?nationality=TUV&sort=arrival_date');
  const row = page.locator(`tr[data-order-id="${ids[1]}"]`);
  await expect(row).toBeVisible();
  const view = row.getByRole('link', { name: 'View' });
  await expect(view).toBeVisible();
  const box = (await view.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  // Every product column is shown by default: a wide table scrolls inside its own box, not the page.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await row.getByRole('cell', { name: new RegExp(lastName) }).click();
  await expect(page).toHaveURL(/\/admin\/view-order\//);
});

test('a working queue opens sorted by due time, earliest first; search keeps that order', async ({
  page,
  baseURL,
}) => {
  const api = await playwrightRequest.newContext({ baseURL });
  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  // Due 72 h after payment, or 24 h before arrival when that is sooner: created in this order, they fall
  // due second-to-arrive, then third, then the one far off.
  const late = await newOrder(api, inDays(6), 4);
  const first = await newOrder(api, inDays(2), 5);
  const second = await newOrder(api, inDays(3), 6);
  await api.dispose();
  const ours = [late, first, second];

  await loginAs(page, 'Manager');
  await page.goto('/admin/recent-order');
  await expect(page.getByRole('heading', { name: 'New Orders' })).toBeVisible();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(page.getByRole('columnheader', { name: /^Due/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('searchbox').first().fill(lastName);
  await expect.poll(() => shownIds(page, ours)).toEqual([first, second, late]);
});
