import { request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, moveOrder, staffToken, test } from './fixtures.js';

test('the waiting policy has a screen: its steps, what each would touch now, and an on/off switch', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Waiting' });
  const team = await staffToken(api, 'Team');
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: team },
    data: { orderId: [order.orderId], assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();
  await moveOrder(api, team, order.orderId, 'Awaiting');

  await loginAs(page, 'Manager');
  await page.goto('/admin/status-notifications');
  await page.getByRole('link', { name: 'Waiting policy' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting policy' })).toBeVisible();
  const steps = page.getByRole('table', { name: 'Waiting policy steps' });
  await expect(steps.getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('waiting-step-1')).toContainText('Reminder mail to the customer');
  await expect(page.getByTestId('waiting-step-3')).toContainText('Move to Contact Customer');
  // Just moved to Awaiting: no step is due for it yet; the count of waiting orders includes it.
  await expect(page.getByTestId('waiting-policy-waiting')).toContainText(/[1-9]\d* order\(s\) in Awaiting/);
  for (const n of [1, 2, 3])
    await expect(page.getByTestId(`waiting-step-${n}-orders`)).toContainText('order(s)');
  await expect(page.getByLabel('Hours before step 1')).toHaveValue('48');

  // Off: said in the switch, the toast and the preview; on again: the clock starts now.
  const toggle = page.getByRole('switch', { name: /The waiting policy is (on|off)/ });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'The waiting policy is off' }),
  ).toBeVisible();
  await expect(page.getByRole('switch', { name: 'The waiting policy is off' })).not.toBeChecked();
  await expect(page.getByTestId('waiting-step-3-orders')).toContainText('once switched on');
  await page.getByRole('switch', { name: 'The waiting policy is off' }).click();
  await expect(page.getByRole('switch', { name: 'The waiting policy is on' })).toBeChecked();
  await expect(page.getByTestId('waiting-policy-since')).toContainText('On since');
  // Nothing is due right after switching on.
  for (const n of [1, 2, 3])
    await expect(page.getByTestId(`waiting-step-${n}-orders`)).toHaveText('0 order(s)');

  // A Team member is refused by the server.
  const refused = await api.get('/api/admin/waiting-policy/preview', { headers: { authorization: team } });
  expect(refused.status()).toBe(403);
});

test('the correction form: typo "apply" fills both addresses, named fields highlighted, dates day first, the checks stay in view, the timeline speaks the page\'s words', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const typo = `typo.${stamp}@gmial.com`;
  const order = await makeOrder(api, { email: typo, re_enter_email: typo, date_of_birth: '1985-12-04' });

  await loginAs(page, 'Manager');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const checks = page.getByTestId('order-checks');
  const typoCheck = checks.getByTestId('check-email_typo');
  await expect(typoCheck).toContainText('did you mean');
  await typoCheck.getByRole('button', { name: `Apply typo.${stamp}@gmail.com` }).click();

  const form = page.getByRole('form', { name: 'Correct order data' });
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(`typo.${stamp}@gmail.com`);
  await expect(form.getByLabel('Re-entered Email')).toHaveValue(`typo.${stamp}@gmail.com`);
  // The field the check names is highlighted; the others are not.
  await expect(form.locator('.correction-named')).toHaveCount(1);
  await expect(form.locator('.correction-named')).toContainText('Named by the checks');
  // Dates are shown and typed day first, as on the page.
  const birth = form.getByLabel('Date of Birth');
  await expect(birth).not.toHaveValue('12/04/1985');
  await expect(birth).toHaveValue(/^0?4 Dec 1985$|^04\/12\/1985$/);
  await birth.fill('05/12/1985');
  await form.getByRole('button', { name: 'Save corrections' }).click();
  await expect(page.locator('.Toastify__toast').filter({ hasText: 'Order corrected.' })).toBeVisible();
  await expect(form).toBeHidden();
  await expect(checks).toBeInViewport();
  await expect(checks.getByTestId('check-email_typo')).toHaveCount(0);

  // The timeline: field labels and day-first dates, not column names and ISO dates.
  const timeline = page.getByRole('region', { name: 'Status Timeline' });
  const row = timeline.getByRole('row').filter({ hasText: 'Data corrected' }).first();
  await expect(row).toContainText('Re-entered Email:');
  await expect(row).toContainText('Date of Birth: 05/12/1985');
  await expect(row).toContainText('04/12/1985');
  await expect(row).not.toContainText('re_enter_email');
  await expect(row).not.toContainText('1985-12-05');
});

test('"Call back at" names the service time zone and takes a day-first date and a 24-hour time', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Callback' });
  await loginAs(page, 'Manager');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const form = page.getByRole('form', { name: 'Log a call' });
  await form.getByLabel('Outcome').selectOption('call_back');
  const when = form.getByLabel(/^Call back at \(America\/New_York, E[SD]T\)/);
  await expect(when).toBeVisible();
  // Three days ahead, typed day first; 10:30 in New York.
  const day = new Date(Date.now() + 3 * 86_400_000);
  const dd = String(day.getUTCDate()).padStart(2, '0');
  const mm = String(day.getUTCMonth() + 1).padStart(2, '0');
  await when.fill(`${dd}/${mm}/${day.getUTCFullYear()}`);
  await form.getByLabel(/^Time \(E[SD]T\)/).fill('10:30');
  await form.getByRole('button', { name: 'Log contact' }).click();
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'The contact has been logged.' }),
  ).toBeVisible();
  const contact = page.getByTestId('conversation-contact').first();
  const month = day.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  await expect(contact).toContainText(
    new RegExp(`at ${Number(dd)} ${month} ${day.getUTCFullYear()} 10:30 E[SD]T`),
  );
});

test('the order page shows the passport and the trip within the first screen at 1,280×800', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await makeOrder(api, { last_name: 'Firstscreen' });
  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const checks = page.getByTestId('order-checks');
  await expect(checks).toBeVisible();
  const passport = page.getByText('Passport Number', { exact: true }).first();
  const arrival = page.getByText('Arrival Date', { exact: true }).first();
  for (const label of [passport, arrival]) {
    const box = await label.boundingBox();
    expect(box?.y ?? 9999).toBeLessThan(800);
  }
});
