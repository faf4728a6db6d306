import { expect, loginAs, test } from './fixtures.js';

// The server listens (and /api/health answers) while it still migrates; wait until it serves requests.
test.beforeAll(async ({ request }) => {
  await expect
    .poll(async () => (await request.get('/api/user_info')).status(), { timeout: 90_000, intervals: [500] })
    .not.toBe(503);
});

test('Admin changes the retention period from the account menu; other roles may not', async ({ page }) => {
  await loginAs(page, 'Admin');
  await page.goto('/admin/recent-order');
  await page.getByRole('button', { name: /^Welcome / }).click();
  await page.getByRole('link', { name: 'Data retention' }).click();
  await expect(page).toHaveURL(/\/admin\/retention-settings$/);
  const days = page.getByLabel('Days after the end of travel');
  await expect(days).toHaveValue('365');
  await days.fill('20');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Days must be at least 30 days')).toBeVisible();
  await days.fill('400');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The retention period has been saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Days after the end of travel')).toHaveValue('400');

  // The change is in the audit log, one click away.
  await page.getByRole('link', { name: 'Changes in the audit log' }).click();
  await expect(page.getByTestId('audit-row').first()).toContainText('settings:retention');
  await page.goto('/admin/retention-settings');
  await page.getByLabel('Days after the end of travel').fill('365');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The retention period has been saved.')).toBeVisible();
});

test('Manager is told only an Admin can change it, and has no menu entry', async ({ page }) => {
  await loginAs(page, 'Manager');
  await page.goto('/admin/recent-order');
  await page.getByRole('button', { name: /^Welcome / }).click();
  await expect(page.getByRole('link', { name: 'Data retention' })).toHaveCount(0);
  await page.goto('/admin/retention-settings');
  await expect(page.getByText('Only an Admin can change how long personal data is kept.')).toBeVisible();
});
