import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectCanvasDrawn, loginAs, test } from './fixtures.js';

/** True once a chart's canvas holds drawn (non-transparent) pixels. */
async function drawn(page: Page, index: number) {
  const canvas = page.locator('[data-testid=insights-chart] canvas').nth(index);
  await canvas.scrollIntoViewIfNeeded();
  await expectCanvasDrawn(canvas, 300);
}

// The server listens (and /api/health answers) while it still migrates; wait until it serves requests.
test.beforeAll(async ({ request }) => {
  await expect
    .poll(async () => (await request.get('/api/user_info')).status(), { timeout: 90_000, intervals: [500] })
    .not.toBe(503);
});

test('Insights: a 30-day period with every chart drawn, the previous period, and an audited CSV', async ({
  page,
}) => {
  const token = await loginAs(page, 'Manager');
  const chartChunks: string[] = [];
  page.on('request', (r) => {
    if (/insights-chart/.test(r.url())) chartChunks.push(r.url());
  });
  await page.goto('/admin/recent-order');
  await expect(page.getByRole('link', { name: 'Insights' })).toBeVisible();
  expect(chartChunks).toEqual([]);

  await page.getByRole('link', { name: 'Insights' }).click();
  await page.getByRole('button', { name: '30 d' }).click();
  await expect(page).toHaveURL(/preset=30d/);
  await expect(page.getByTestId('insights-period')).toContainText('compared with');
  const charts = page.locator('[data-testid=insights-chart]');
  // The seven of the period, the dispute ratios' months and the customers' ratings per week.
  await expect(charts).toHaveCount(10);
  for (let i = 0; i < 7; i++) await drawn(page, i);
  expect(chartChunks.length).toBeGreaterThan(0);

  // 30 days listed in the throughput table, and the KPI compares with the previous 30 days.
  await expect(page.getByRole('table', { name: 'Throughput' }).locator('tbody tr')).toHaveCount(30);
  await expect(page.getByTestId('kpi-Completed')).toContainText('previous period:');
  await expect(page.getByTestId('kpi-Completed')).not.toContainText('…');

  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Throughput' }) });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('Day,Received,Completed,Refunded,Deleted');
  expect(csv.split('\r\n')).toHaveLength(31);

  const audit = await page.request.get('/api/admin/audit-log?action=export.csv&actor=manager@demo.test', {
    headers: { authorization: token },
  });
  expect((await audit.json()).data.entries[0]).toMatchObject({ target: 'screen:insights' });

  // Custom period.
  await page.getByRole('button', { name: 'Custom' }).click();
  await page.locator('#insights-from').fill('2026-01-01');
  await page.locator('#insights-to').fill('2026-01-07');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('table', { name: 'Throughput' }).locator('tbody tr')).toHaveCount(7);
});

test('Team sees "My day", not the insights', async ({ page }) => {
  await loginAs(page, 'Team');
  await page.goto('/admin/recent-order');
  await expect(page.getByTestId('my-day')).toBeVisible();
  await expect(page.getByTestId('my-day-open')).toHaveText(/^\d+$/);
  await expect(page.getByRole('link', { name: 'Insights' })).toHaveCount(0);
  await page.goto('/admin/insights');
  await expect(page.getByText('You do not have permission to view the insights.')).toBeVisible();
});

test('Audit log filtered by actor, then exported', async ({ page }) => {
  // A failed sign-in of the Telecaller and a sign-in of the Admin, so both actors have entries.
  await page.request.post('/api/admin/admin-login', {
    data: { email: 'telecaller@demo.test', password: 'nope-nope' },
  });
  await loginAs(page, 'Admin');
  await page.goto('/admin/audit-log');
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await page.getByLabel('Actor (e-mail or staff id)').fill('telecaller@demo.test');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/actor=telecaller%40demo.test/);
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toContainText('telecaller@demo.test');
  for (const text of await rows.allInnerTexts()) expect(text).toContain('telecaller@demo.test');
  await expect(rows.first()).toContainText('Sign-in failed');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain('telecaller@demo.test');
  expect(csv).not.toContain('admin@demo.test ');

  // The export itself is now in the log.
  await page.getByLabel('Actor (e-mail or staff id)').fill('admin@demo.test');
  await page.getByLabel('Action').selectOption('export.csv');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows.first()).toContainText('CSV export');
});

test('Gateway Setting asks before switching and shows who switched', async ({ page }) => {
  await loginAs(page, 'Manager');
  await page.goto('/admin/gateway-setting');
  const active = page.getByTestId('active-gateway');
  await expect(active).not.toHaveText('…');
  const before = (await active.textContent())!.trim();
  const target = before === 'PayPal' ? 'Stripe' : 'PayPal';
  await page.getByLabel('Payment Gateway').selectOption({ label: target });
  await page.getByRole('button', { name: 'Active Gateway' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(
    `Switch the active gateway from ${before} to ${target} for all new payments?`,
  );
  await dialog.getByRole('button', { name: 'No' }).click();
  await expect(dialog).toBeHidden();
  await expect(active).toHaveText(before);

  await page.getByRole('button', { name: 'Active Gateway' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(active).toHaveText(target);
  const changes = page.getByTestId('gateway-changes');
  await expect(changes.locator('li').first()).toContainText(`${before} → ${target}`);
  await expect(changes.locator('li').first()).toContainText('Demo Manager');
});
