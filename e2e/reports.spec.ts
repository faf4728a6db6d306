import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import dayjs from 'dayjs';
import { expect, expectCanvasDrawn, loginAs, test } from './fixtures.js';

const rows = (page: Page) => page.locator('.report-table-wrap tbody tr');
const FROM = dayjs().subtract(500, 'day').format('YYYY-MM-DD');
const TO = dayjs().add(1, 'day').format('YYYY-MM-DD');

async function submitRange(page: Page, from = FROM, to = TO) {
  await page.getByLabel('From').fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Submit' }).click();
}

/** True once the chart's canvas holds drawn (non-transparent) pixels. */
const chartDrawn = (page: Page) => expectCanvasDrawn(page.locator('canvas[data-testid=report-chart]'), 500);

async function downloadCsv(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

test('Country Order Details: range, table, search, chart and CSV', async ({ page }) => {
  const token = await loginAs(page, 'Admin');
  const chartRequests: string[] = [];
  page.on('request', (r) => {
    if (/report-chart/.test(r.url())) chartRequests.push(r.url());
  });

  // Another screen first: the chart library is not part of it.
  await page.goto('/admin/recent-order');
  await expect(page.locator('#queue-title')).toHaveText('New Orders');
  expect(chartRequests).toEqual([]);

  await page.getByRole('link', { name: 'Country Order List' }).click();
  await expect(page.locator('#report-title')).toHaveText('Country Order Details');
  for (const name of [
    'S. No',
    'State/Territory',
    'Order Count',
    'Standard Processing',
    'Priority Processing',
    'Future Order Processing',
  ]) {
    await expect(page.getByRole('columnheader', { name, exact: true })).toBeVisible();
  }
  await submitRange(page);
  await expect(page).toHaveURL(new RegExp(`from=${FROM}.*to=${TO}`));
  await expect(page.locator('.Toastify__toast--success')).toContainText('Country order details loaded');

  const api = await page.request.post('/api/admin/get-country-order-count', {
    headers: { authorization: token },
    data: { fromDate: FROM, toDate: TO },
  });
  const expected = (await api.json()).data as { nationality: string; count: number }[];
  expect(expected.length).toBeGreaterThan(10);
  await expect(rows(page)).toHaveCount(10);
  await expect(rows(page).first().locator('td').nth(1)).toHaveText(expected[0]!.nationality);
  await expect(rows(page).first().locator('td').nth(2)).toHaveText(String(expected[0]!.count));
  await expect(page.getByText(`of ${expected.length}`)).toBeVisible();
  await chartDrawn(page);
  expect(chartRequests.length).toBeGreaterThan(0);

  // The header stays fixed: the table box is at most 550 px high and its header is sticky.
  const box = await page.locator('.report-table-wrap').evaluate((el) => ({
    max: getComputedStyle(el).maxHeight,
    sticky: getComputedStyle(el.querySelector('th')!).position,
  }));
  expect(box).toEqual({ max: '550px', sticky: 'sticky' });

  // Search narrows the table after the debounce, and lives in the URL.
  await page.getByLabel('Search').fill('united');
  await expect(page).toHaveURL(/search=united/);
  const united = expected.filter((r) => r.nationality.toLowerCase().includes('united'));
  expect(united.length).toBeGreaterThan(0);
  await expect(rows(page)).toHaveCount(united.length);
  for (const r of united) await expect(rows(page).filter({ hasText: r.nationality })).toHaveCount(1);

  const csv = await downloadCsv(page);
  expect(csv.name).toBe(`country-order-details_${FROM}_${TO}_search.csv`);
  const lines = csv.text.split('\r\n');
  expect(lines[0]).toBe(
    'S. No,State/Territory,Order Count,Standard Processing,Priority Processing,Future Order Processing',
  );
  expect(lines).toHaveLength(united.length + 1);
  expect(lines[1]).toContain(`,${united[0]!.count},`);

  // A search that matches nothing.
  await page.getByLabel('Search').fill('no such country');
  await expect(page.getByText('No records found')).toBeVisible();

  // The URL alone restores the report (a shared link, the back button).
  await page.goto(`/admin/country-order-list?from=${FROM}&to=${TO}&search=united`);
  await expect(rows(page)).toHaveCount(united.length);
  await expect(page.getByLabel('From')).toHaveValue(dayjs(FROM).format('D MMM YYYY'));
});

test('Country Order Details refuses a bad range in the form', async ({ page }) => {
  await loginAs(page, 'Team');
  await page.goto('/admin/country-order-list');
  await submitRange(page, '2025-03-10', '2025-03-01');
  await expect(page.getByText('The To date must be on or after the From date.')).toBeVisible();
  await expect(page).not.toHaveURL(/from=/);
  await submitRange(page, '2020-01-01', '2025-03-01');
  await expect(page.getByText('The range can be at most 3 years.')).toBeVisible();
});

test('Processed By: Admin sees staff counts, search narrows, chart and CSV', async ({ page }) => {
  const token = await loginAs(page, 'Admin');
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Order Processed' }).click();
  await expect(page.locator('#report-title')).toHaveText('Processed By');
  await submitRange(page);
  await expect(page.locator('.Toastify__toast--success')).toContainText('Processed orders loaded');
  const api = await page.request.post('/api/admin/get-processed-by-count', {
    headers: { authorization: token },
    data: { fromDate: FROM, toDate: TO },
  });
  const expected = (await api.json()).data as { processed_by: string; count: number }[];
  expect(expected.length).toBeGreaterThanOrEqual(5);
  await expect(rows(page)).toHaveCount(expected.length);
  await chartDrawn(page);

  await page.getByLabel('Search').fill('manager');
  await expect(page).toHaveURL(/search=manager/);
  await expect(rows(page)).toHaveCount(1);
  const manager = expected.find((r) => r.processed_by === 'Demo Manager')!;
  await expect(rows(page).first()).toContainText('Demo Manager');
  await expect(rows(page).first().locator('td').nth(2)).toHaveText(String(manager.count));

  const csv = await downloadCsv(page);
  expect(csv.text).toBe(`S. No,Name,Order Count\r\n1,Demo Manager,${manager.count}`);
});

test('Processed By is for Admin and Manager only', async ({ page }) => {
  await loginAs(page, 'Team');
  await page.goto('/admin');
  await expect(page.getByRole('link', { name: 'Country Order List' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Order Processed' })).toHaveCount(0);
  await page.goto(`/admin/processed-order?from=${FROM}&to=${TO}`);
  await expect(page.getByRole('alert')).toHaveText('You do not have permission to do this.');
  await expect(page.locator('.report-table-wrap')).toHaveCount(0);
});
