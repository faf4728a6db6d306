import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_EMAILS, DEMO_PASSWORD, type DemoRole, expect, loginAs, test } from './fixtures.js';

/** The sidebar and who sees each link (docs/product.md), written out here as an independent check. */
const SIDEBAR: { label: string; hiddenFor: DemoRole[] }[] = [
  { label: 'Awaiting Customer', hiddenFor: [] },
  { label: 'Awaiting Govt', hiddenFor: [] },
  { label: 'Customer Called', hiddenFor: [] },
  { label: 'Contact Customer', hiddenFor: [] },
  { label: 'Order History', hiddenFor: ['Telecaller'] },
  { label: 'Future Orders', hiddenFor: [] },
  { label: 'Deleted Orders', hiddenFor: [] },
  { label: 'Refunds', hiddenFor: [] },
  { label: 'Completed Refunds', hiddenFor: [] },
  { label: 'Chargeback', hiddenFor: [] },
  { label: 'Country Order List', hiddenFor: [] },
  { label: 'Manage Invoices', hiddenFor: [] },
  { label: 'Manage Team', hiddenFor: ['Night Staff'] },
  { label: 'Order Processed', hiddenFor: ['Team', 'Telecaller', 'Night Staff'] },
  { label: 'Gateway Setting', hiddenFor: ['Night Staff'] },
  { label: 'Change Password', hiddenFor: ['Night Staff'] },
  { label: 'Logout', hiddenFor: [] },
];
const ROLES: DemoRole[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];
const TILES = ['My Orders', 'New Orders', 'Priority Order', 'Pending Orders', 'Completed Orders'];

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.Toastify__toast').filter({ hasText: text }).first();
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto('/admin');
  await page.getByPlaceholder('Your Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function apiToken(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const res = await request.post('/api/admin/admin-login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()).jwtToken as string;
}

/** A fresh team member created by the demo Admin through the API. */
async function createMember(request: APIRequestContext, email: string, password: string, type = 'Team') {
  const admin = await apiToken(request, DEMO_EMAILS.Admin);
  const res = await request.post('/api/admin/add-team-member', {
    headers: { authorization: admin },
    data: { name: `E2E ${type}`, email, password, type },
  });
  expect(res.status()).toBe(200);
  return { admin, id: (await res.json()).data.id as number };
}

test.describe('sign-in', () => {
  test('the login screen: card, logo, remember me, forgot password, product validation messages', async ({
    page,
  }) => {
    await page.goto('/admin');
    await expect(page).toHaveTitle('ED-Card');
    await expect(page.locator('.login-card')).toBeVisible();
    await expect(page.getByAltText('ED-Card logo')).toBeVisible();
    await expect(page.getByLabel('Remember me')).toBeVisible();
    const background = await page
      .locator('.login-page')
      .evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(background).toMatch(/url\(/);

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email Address is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByPlaceholder('Your Email Address').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();

    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(toast(page, 'ask your Admin or Manager')).toBeVisible();

    await signInWithForm(page, DEMO_EMAILS.Team, 'wrong-password');
    await expect(toast(page, 'Invalid email or password.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  for (const role of ROLES) {
    test(`${role} signs in with the form and sees the sidebar of the role`, async ({ page }) => {
      await signInWithForm(page, DEMO_EMAILS[role], DEMO_PASSWORD);
      await expect(toast(page, 'Login successful.')).toBeVisible();
      await expect(page.getByText(`Welcome Demo ${role}`)).toBeVisible();
      await expect(page).toHaveURL(/\/admin$/);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}'));
      expect(Object.keys(stored)).toEqual(['accessToken']);
      const nav = sidebar(page);
      for (const link of SIDEBAR) {
        // The accessible name starts with the label and may end with the folder's count.
        const locator = nav.getByRole('link', { name: new RegExp(`^${link.label}\\b`) });
        if (link.hiddenFor.includes(role)) await expect(locator).toHaveCount(0);
        else await expect(locator).toBeVisible();
      }
      const tiles = page.getByRole('region', { name: 'Dashboard' });
      for (const tile of TILES)
        await expect(tiles.getByRole('link', { name: new RegExp(tile) })).toBeVisible();
    });
  }

  test('tiles and sidebar show counts, re-fetched on route change', async ({ page }) => {
    await loginAs(page, 'Admin');
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/get-folder-count')) calls.push(r.url());
    });
    await page.goto('/admin');
    await expect(page.getByTestId('tile-count-newOrdersCount')).toHaveText(/^\d+$/);
    await expect(page.getByTestId('count-refund-order')).toHaveText(/^\d+$/);
    const before = calls.length;
    await sidebar(page)
      .getByRole('link', { name: /^Refunds/ })
      .click();
    await expect(page).toHaveURL(/\/admin\/refund-order$/);
    await expect.poll(() => calls.length).toBeGreaterThan(before);
  });

  test('logout from the dropdown clears the session and shows the login screen', async ({ page }) => {
    await loginAs(page, 'Manager');
    await page.goto('/admin');
    await page.getByRole('button', { name: /^Welcome / }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('the sidebar Logout link clears the session too', async ({ page }) => {
    await signInWithForm(page, DEMO_EMAILS.Telecaller, DEMO_PASSWORD);
    await expect(page.getByText('Welcome Demo Telecaller')).toBeVisible();
    await sidebar(page).getByRole('link', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  test('a 401 anywhere toasts the message, clears the session and shows the login where it was', async ({
    page,
  }) => {
    const email = `revoked-${Date.now()}@example.com`;
    const { admin, id } = await createMember(page.request, email, 'first-pass-1');
    // Without live updates: the ended session's stream would otherwise sign the screen out at once
    // (src/server/live/stream-sessions.test.ts); here the next request meets the 401.
    await page.route('**/api/admin/events**', (route) => route.abort());
    await signInWithForm(page, email, 'first-pass-1');
    await expect(page.getByText('Welcome E2E Team')).toBeVisible();
    // An Admin deletes the member: every token of theirs dies at once.
    const del = await page.request.put('/api/admin/delete-team-member', {
      headers: { authorization: admin },
      data: { teamMemberId: id },
    });
    expect(del.status()).toBe(200);
    // The click's list request meets the 401, unless a background request of the screen (its counts)
    // met it first and the login already replaced the sidebar: the login then shows where the screen was.
    const before = new URL(page.url()).pathname;
    const clicked = await sidebar(page)
      .getByRole('link', { name: /Awaiting Govt/ })
      .click({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    await expect(toast(page, 'Your session has expired or is invalid. Please sign in again.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByText('Your session has ended — please sign in again')).toBeVisible();
    if (clicked) await expect(page).toHaveURL(/\/admin\/awaiting-govt$/);
    else expect(new URL(page.url()).pathname).toBe(before);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('mobile: the login card fits at 375 px, the sidebar toggles below 991 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/admin');
    const card = await page.locator('.login-card').boundingBox();
    expect(card!.width).toBeGreaterThan(330);
    expect(card!.x + card!.width).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 900, height: 800 });
    await loginAs(page, 'Admin');
    await page.goto('/admin');
    const nav = sidebar(page);
    await expect(nav).not.toBeInViewport();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav).toBeInViewport();
    await nav.getByRole('link', { name: /Deleted Orders/ }).click();
    await expect(page).toHaveURL(/deleted-order$/);
    await expect(nav).not.toBeInViewport();
    await page.setViewportSize({ width: 1200, height: 800 });
    await expect(nav).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
  });
});

test.describe('Manage Team', () => {
  test('add, validate, edit and delete a member', async ({ page }) => {
    const email = `member-${Date.now()}@example.com`;
    await loginAs(page, 'Admin');
    await page.goto('/admin/manage-team');
    const form = page.getByRole('form', { name: 'Add team member' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByText('Please enter your name.')).toBeVisible();
    await expect(form.getByText('Please enter your email.')).toBeVisible();
    await expect(form.getByText('Please enter your password.')).toBeVisible();
    await expect(form.getByText('Please select type.')).toBeVisible();

    await form.getByLabel('Name').fill('Paula Picker');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill('paula-pass-1');
    await form.getByLabel('Type').selectOption('Telecaller');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(toast(page, 'Team member added successfully.')).toBeVisible();
    const list = page.getByRole('table', { name: 'Team Member List' });
    const row = list.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Paula Picker');
    await expect(row).toContainText('Telecaller');
    await expect(form.getByLabel('Name')).toHaveValue('');

    await row.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/admin\/manage-team\/\d+$/);
    const edit = page.getByRole('form', { name: 'Edit team member' });
    await expect(edit.getByLabel('Name')).toHaveValue('Paula Picker');
    await expect(edit.getByLabel('Password')).toHaveValue('');
    await edit.getByLabel('Name').fill('Paula Editor');
    await edit.getByLabel('Type').selectOption('Team');
    await edit.getByRole('button', { name: 'Update' }).click();
    await expect(toast(page, 'Team member updated successfully.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/manage-team$/);
    const edited = list.getByRole('row').filter({ hasText: email });
    await expect(edited).toContainText('Paula Editor');
    await expect(edited).toContainText('Team');
    // The empty password on edit kept the old one.
    expect(
      (
        await page.request.post('/api/admin/admin-login', { data: { email, password: 'paula-pass-1' } })
      ).status(),
    ).toBe(200);

    await edited.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to delete?');
    await dialog.getByRole('button', { name: 'No' }).click();
    await expect(list.getByRole('row').filter({ hasText: email })).toHaveCount(1);
    await list.getByRole('row').filter({ hasText: email }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await expect(toast(page, 'Team member deleted successfully.')).toBeVisible();
    await expect(list.getByRole('row').filter({ hasText: email })).toHaveCount(0);
    expect(
      (
        await page.request.post('/api/admin/admin-login', { data: { email, password: 'paula-pass-1' } })
      ).status(),
    ).toBe(401);
  });

  test('a Manager cannot pick the Admin type nor touch Admin rows; nobody deletes themselves', async ({
    page,
  }) => {
    await loginAs(page, 'Manager');
    await page.goto('/admin/manage-team');
    const form = page.getByRole('form', { name: 'Add team member' });
    await expect(form.getByRole('option', { name: 'Admin' })).toBeDisabled();
    const list = page.getByRole('table', { name: 'Team Member List' });
    const adminRow = list.getByRole('row').filter({ hasText: DEMO_EMAILS.Admin });
    await expect(adminRow.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(adminRow.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    const selfRow = list.getByRole('row').filter({ hasText: DEMO_EMAILS.Manager });
    await expect(selfRow.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expect(selfRow.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  });

  test('Team sees the list read-only with a notice', async ({ page }) => {
    await loginAs(page, 'Team');
    await page.goto('/admin/manage-team');
    await expect(page.getByText('You can view the team.')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Add team member' })).toHaveCount(0);
    const list = page.getByRole('table', { name: 'Team Member List' });
    await expect(list.getByRole('row').filter({ hasText: DEMO_EMAILS.Admin })).toContainText('Admin');
    await expect(list.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  });
});

test.describe('Gateway Setting', () => {
  test('a Manager switches the active gateway; the choice persists', async ({ page }) => {
    await loginAs(page, 'Manager');
    await page.goto('/admin/gateway-setting');
    const select = page.getByLabel('Payment Gateway');
    await expect(page.getByTestId('active-gateway')).not.toHaveText('…');
    await select.selectOption({ label: 'Select gateway' });
    await page.getByRole('button', { name: 'Active Gateway' }).click();
    await expect(page.getByText('Please select gateway.')).toBeVisible();
    const current = await page.getByTestId('active-gateway').textContent();
    const target = current === 'Braintree' ? 'Adyen' : 'Braintree';
    await select.selectOption({ label: target });
    await page.getByRole('button', { name: 'Active Gateway' }).click();
    // The switch affects every new payment: it asks first.
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(
      `Switch the active gateway from ${current} to ${target} for all new payments?`,
    );
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expect(toast(page, `${target} is now the active payment gateway.`)).toBeVisible();
    await expect(page.getByTestId('active-gateway')).toHaveText(target);
    await page.reload();
    await expect(page.getByTestId('active-gateway')).toHaveText(target);
    await expect(select).toHaveValue(/\d+/);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('user')!).accessToken as string);
    const gateways = (
      await (
        await page.request.get('/api/admin/payment-gateways', { headers: { authorization: token } })
      ).json()
    ).data as {
      gateway_name: string;
      is_active: string;
    }[];
    expect(gateways.filter((g) => g.is_active === '1').map((g) => g.gateway_name)).toEqual([target]);
  });

  test('Telecaller sees the gateways read-only', async ({ page }) => {
    await loginAs(page, 'Telecaller');
    await page.goto('/admin/gateway-setting');
    await expect(
      page.getByText('Only an Admin or a Manager can change the active payment gateway.'),
    ).toBeVisible();
    await expect(page.getByLabel('Payment Gateway')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Active Gateway' })).toHaveCount(0);
  });
});

test.describe('Change Password', () => {
  test('validation, wrong current password, then success ends the old session', async ({ page }) => {
    const email = `pw-${Date.now()}@example.com`;
    await createMember(page.request, email, 'old-pass-123');
    await signInWithForm(page, email, 'old-pass-123');
    await expect(page.getByText('Welcome E2E Team')).toBeVisible();
    const oldToken = await page.evaluate(
      () => JSON.parse(localStorage.getItem('user')!).accessToken as string,
    );
    await sidebar(page).getByRole('link', { name: 'Change Password' }).click();
    const form = page.getByRole('form', { name: 'Update password' });
    await form.getByRole('button', { name: 'Update Password' }).click();
    await expect(form.getByText('Please enter your New Password.')).toBeVisible();
    // One rule and one message, whether 5 or 7 characters short of the rule.
    for (const short of ['12345', '1234567']) {
      await form.getByLabel('New Password').fill(short);
      await form.getByRole('button', { name: 'Update Password' }).click();
      await expect(form.getByText('New Password must be at least 8 characters.')).toBeVisible();
    }
    await form.getByLabel('Current Password').fill('not-the-password');
    await form.getByLabel('New Password').fill('new-pass-456');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await expect(toast(page, 'Your current password is incorrect.')).toBeVisible();
    await expect(page).toHaveURL(/change-password$/);

    await form.getByLabel('Current Password').fill('old-pass-123');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await expect(toast(page, 'Password changed successfully. Please sign in again.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    const old = await page.request.get('/api/user_info', { headers: { authorization: oldToken } });
    expect(old.status()).toBe(401);

    await signInWithForm(page, email, 'old-pass-123');
    await expect(toast(page, 'Invalid email or password.')).toBeVisible();
    await signInWithForm(page, email, 'new-pass-456');
    await expect(page.getByText('Welcome E2E Team')).toBeVisible();
  });
});
