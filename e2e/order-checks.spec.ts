import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, test, todayIso } from './fixtures.js';

test('an order with three problems shows them, is corrected in place and leaves Needs attention', async ({
  page,
}) => {
  const stamp = Date.now();
  const made = await makeOrder(page.request, {
    email: `checks${stamp}@gmial.com`,
    departure_date: '2030-01-22',
    passport_number: 'NWK92R3F1',
    passport_expiration: '2030-01-20',
    last_name: 'Checks',
    first_name: 'Edith',
    flight_number: 'KLM',
    processing_date: todayIso(),
  });
  const { orderId } = made;
  const checks = made.data.checks as { code: string }[];
  // The intake answer already names the three problems, for the application site to ask about.
  expect(checks.map((c) => c.code).sort()).toEqual(
    ['email_typo', 'flight_number_shape', 'passport_expires_during_trip'].sort(),
  );

  await loginAs(page, 'Team');
  await page.goto('/admin/order-history?needsAttention=true');
  const row = page.locator('tr', {
    has: page.locator(`a[href="/admin/view-order/${encodeOrderId(orderId)}"]`),
  });
  await expect(row.getByTestId('check-badge')).toHaveText('Must fix');

  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const panel = page.getByTestId('order-checks');
  await expect(panel.getByTestId('check-passport_expires_during_trip')).toContainText(
    'The passport expires on 2030-01-20, before the departure on 2030-01-22.',
  );
  await expect(panel.getByTestId('check-passport_expires_during_trip')).toContainText('Passport Expiration');
  await expect(panel.getByTestId('check-email_typo')).toContainText(`did you mean checks${stamp}@gmail.com?`);
  await expect(panel.getByTestId('check-flight_number_shape')).toContainText('Flight Number');

  await panel.getByRole('button', { name: 'Correct data' }).click();
  await panel.getByLabel('Passport Expiration').fill('2034-05-01');
  await panel.getByLabel('Email', { exact: true }).fill(`checks${stamp}@gmail.com`);
  await panel.getByLabel('Re-entered Email').fill(`checks${stamp}@gmail.com`);
  await panel.getByLabel('Flight Number').fill('KL 765');
  await panel.getByRole('button', { name: 'Save corrections' }).click();
  await expect(panel).toContainText('No problems found');
  await expect(panel.locator('[data-testid^="check-"]')).toHaveCount(0);

  // The timeline shows the correction; the order has left Needs attention.
  await expect(page.getByRole('cell', { name: 'Data corrected' })).toBeVisible();
  // The timeline names the field and shows its date as the page does (day first).
  await expect(page.getByRole('cell', { name: /Passport Expiration: 01\/05\/2034/ })).toBeVisible();
  await page.goto('/admin/order-history?needsAttention=true');
  await expect(page.locator('table')).toBeVisible();
  await expect(page.locator(`a[href="/admin/view-order/${encodeOrderId(orderId)}"]`)).toHaveCount(0);
});
