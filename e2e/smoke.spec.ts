import { expect, test } from '@playwright/test';

test('the app starts, / goes to /admin and the page is titled ED-Card', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page).toHaveTitle('ED-Card');
});

test('an unknown path shows the generic error page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
  await expect(page.getByText('404 Not Found')).toBeVisible();
});
