import type { APIRequestContext, Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { DEMO_EMAILS, DEMO_PASSWORD, expect, test } from './fixtures.js';

/** The code an authenticator app shows for this secret, `ahead` steps of 30 s from now. */
const codeFor = (secret: string, ahead = 0) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + ahead * 30_000,
  });

async function adminToken(request: APIRequestContext): Promise<string> {
  // The server answers 503 to everything but the health checks while it is still migrating.
  await expect
    .poll(async () => (await request.get('/api/health/ready')).status(), { timeout: 60_000 })
    .toBe(200);
  const res = await request.post('/api/admin/admin-login', {
    data: { email: DEMO_EMAILS.Admin, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).jwtToken as string;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/admin');
  await page.getByPlaceholder('Your Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test.describe('two-factor sign-in', () => {
  test('enable two-factor sign-in, then sign in with a code on the same card', async ({ page }) => {
    const email = `totp-${Date.now()}@example.com`;
    const password = 'e2e-two-factor-passphrase';
    const admin = await adminToken(page.request);
    const added = await page.request.post('/api/admin/add-team-member', {
      headers: { authorization: admin },
      data: { name: 'E2E Totp', email, password, type: 'Team' },
    });
    expect(added.status()).toBe(200);

    await signIn(page, email, password);
    await expect(page.getByText('Welcome E2E Totp')).toBeVisible();
    await page.getByRole('button', { name: /^Welcome / }).click();
    await page.getByRole('link', { name: 'Two-factor sign-in' }).click();
    await expect(page).toHaveURL(/\/admin\/account\/two-factor$/);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('6-digit code').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: /I have saved them/ }).click();

    await page.getByRole('button', { name: /^Welcome / }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();

    await signIn(page, email, password);
    // Same card, second step: the code field replaces e-mail and password.
    const code = page.getByLabel('Authentication code');
    await expect(code).toBeVisible();
    await expect(page.getByPlaceholder('Your Email Address')).toBeHidden();
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('The code is not correct. Please try again.').first()).toBeVisible();
    // The enabling code is used up; the next step's code is accepted (one step of drift).
    await code.fill(codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Welcome E2E Totp')).toBeVisible();
  });

  test('a user whose role requires two-factor sign-in is sent to set it up first', async ({ page }) => {
    const admin = await adminToken(page.request);
    const put = (twoFactorRoles: string[]) =>
      page.request.put('/api/admin/security-settings', {
        headers: { authorization: admin },
        data: { twoFactorRoles, mustChangeSetPasswords: false },
      });
    expect((await put(['Telecaller'])).status()).toBe(200);
    try {
      await signIn(page, DEMO_EMAILS.Telecaller, DEMO_PASSWORD);
      await expect(page).toHaveURL(/\/admin\/account\/two-factor$/);
      await expect(page.getByText('Your role requires two-factor sign-in.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeVisible();
      const token = await page.evaluate(
        () => JSON.parse(localStorage.getItem('user')!).accessToken as string,
      );
      const held = await page.request.get('/api/admin/get-team-member-list', {
        headers: { authorization: token },
      });
      expect(held.status()).toBe(403);
    } finally {
      await put([]);
    }
  });
});
