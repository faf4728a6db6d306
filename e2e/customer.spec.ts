import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { expect, makeOrder, staffToken, test, uploadApprovedCard } from './fixtures.js';

const ALT_HOST = 'aruba-card.example';
const TITLE = 'Download your Aruba Embarkation Disembarkation Card';
const BUDGET_BYTES = 60 * 1024;

interface Tracked {
  orderId: number;
  email: string;
  firstName: string;
  lastName: string;
}

/** A paid order from the intake API, with its approved card uploaded by staff through the real API. */
async function approvedOrder(api: APIRequestContext, n: number, landingDomain: string): Promise<Tracked> {
  const firstName = 'Casey';
  const lastName = `Journey${n}`;
  const order = await makeOrder(api, {
    email: `Traveller.${Date.now()}-${n}@Example.com`,
    landing_domain: landingDomain,
    passport_number: `P${String(n).padStart(8, '0')}`,
    last_name: lastName,
    first_name: firstName,
  });
  await uploadApprovedCard(api, await staffToken(api, 'Team'), order);
  return { orderId: order.orderId, email: order.email, firstName, lastName };
}

let mainOrder: Tracked;
let altOrder: Tracked;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  mainOrder = await approvedOrder(api, 1, 'arubaedcard.example');
  altOrder = await approvedOrder(api, 2, ALT_HOST);
  await api.dispose();
});

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Records every script the page loads; `sizes()` resolves to each one's gzip size. */
function recordScripts(page: Page) {
  const pending: Promise<{ url: string; gzip: number }>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(res.body().then((body) => ({ url: res.url(), gzip: gzipSync(body, { level: 9 }).length })));
  });
  return { sizes: () => Promise.all(pending) };
}

async function track(page: Page, order: Tracked, email = order.email) {
  await page.getByLabel('Email ID').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'TRACK ORDER' }).click();
}

async function downloadAndCheck(page: Page, order: Tracked) {
  const table = page.getByRole('table', { name: 'Downloaded History' });
  await expect(table.getByText('No record found')).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  const clicked = Date.now();
  await page.getByRole('button', { name: 'Download Now' }).click();
  // The file follows after 1000 ms; its fetch records the history row, which then appears.
  const row = table.getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText(String(order.orderId));
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^\d\d-\d\d-\d{4} \d{1,2}:\d\d:\d\d (AM|PM) E[SD]T$/);
  await expect(row.getByRole('cell').nth(3)).toHaveText('127.0.0.1');
  await expect(row.getByRole('cell').nth(4)).toHaveText('Desktop computer');
  await expect(row.getByRole('cell').nth(5)).toHaveText('desktop');
  await expect(row.getByRole('cell').nth(6)).toHaveText(/^Chrome/);
  await expect(row.getByRole('cell').nth(7)).toHaveText(/^Linux/);
  await expect(row.getByRole('cell').nth(8)).toHaveText('Unknown');
  const download = await downloadPromise;
  expect(Date.now() - clicked).toBeGreaterThanOrEqual(1000);
  expect(download.suggestedFilename()).toBe(`ed-card-${order.orderId}.pdf`);
  const file = await readFile((await download.path())!);
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');
  const text = file.toString('latin1');
  expect(text.length).toBeGreaterThan(500);
}

test('desktop: track, download the card, see the history row', async ({ page }) => {
  const recorder = recordScripts(page);
  await page.goto(`/track-order/${mainOrder.orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByLabel('Order ID')).toHaveValue(String(mainOrder.orderId));
  await expect(page.getByRole('link', { name: 'Need Help? Contact Support' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of [
    'Home',
    'Apply Now',
    'Additional Benefits',
    'Terms & Conditions',
    'Privacy Policy',
    'Refund Policy',
    'Contact Us',
  ]) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('img', { name: 'Aruba ED Card' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('© 2025 Aruba ED Card');
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'no-reply@ed-card.test' }),
  ).toBeVisible();

  // The budget: every script of the track page, gzip, and nothing of the staff app.
  await page.waitForLoadState('networkidle');
  const scripts = await recorder.sizes();
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
  expect(scripts.length).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  for (const s of scripts) expect(new URL(s.url).pathname).toMatch(/^\/assets\/customer-/);
  await expectNoSeriousAxeViolations(page);

  // The product's messages under the fields.
  await page.getByLabel('Order ID').fill('');
  await page.getByRole('button', { name: 'TRACK ORDER' }).click();
  await expect(page.getByText('Please enter your orderId')).toBeVisible();
  await expect(page.getByText('Please enter your email')).toBeVisible();

  // A wrong e-mail: an error toast that stays.
  await page.getByLabel('Order ID').fill(String(mainOrder.orderId));
  await track(page, mainOrder, `nobody-${mainOrder.email}`);
  const failure = page
    .getByRole('alert')
    .filter({ hasText: 'No order matches this Order ID and e-mail address.' });
  await expect(failure).toBeVisible();
  await page.waitForTimeout(6000);
  await expect(failure).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/track-order/${mainOrder.orderId}$`));

  await track(page, mainOrder);
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${mainOrder.orderId}$`));
  // Found: said at the top of the page, and the error toast of the wrong e-mail is gone.
  await expect(page.getByRole('status').filter({ hasText: 'Your order has been found.' })).toBeVisible();
  await expect(failure).toBeHidden();
  await expect(
    page.getByRole('heading', { name: 'Your application has been completed successfully' }),
  ).toBeVisible();
  await expect(page.getByText(`Dear ${mainOrder.firstName} ${mainOrder.lastName}`)).toBeVisible();
  const headers = await page
    .getByRole('table', { name: 'Downloaded History' })
    .locator('th')
    .allTextContents();
  expect(headers).toEqual([
    '#',
    'Order ID',
    'Date & Time (EST)',
    'Device IP Address',
    'Device',
    'Device Type',
    'Browser',
    'OS',
    'Device Location',
  ]);
  await expectNoSeriousAxeViolations(page);
  await downloadAndCheck(page, mainOrder);

  // Back on the track page the form was reset by the successful track.
  await page.goBack();
  await expect(page.getByLabel('Email ID')).toHaveValue('');
});

test.describe('phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('375 px: mobile menu, alternate brand, download', async ({ page }) => {
    await page.goto(`/track-order/${altOrder.orderId}`);
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(nav.getByRole('link', { name: 'Home' })).toBeHidden();
    await toggle.click();
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(nav.getByRole('link', { name: 'Home' })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxeViolations(page);

    await track(page, altOrder);
    await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${altOrder.orderId}$`));
    // The order came from the alternate landing host: its logo, name and navigation.
    // "Order found" is a line at the top of the page, in its flow: no toast over the download history.
    await expect(page.getByTestId('order-found')).toHaveText('Your order has been found.');
    await expect(page.locator('.Toastify__toast')).toHaveCount(0);
    const history = page.getByRole('table', { name: 'Downloaded History' });
    await history.scrollIntoViewIfNeeded();
    const onTop = await history.evaluate((t) => {
      const r = t.getBoundingClientRect();
      return t.contains(document.elementFromPoint(r.left + 10, r.top + r.height / 2));
    });
    expect(onTop).toBe(true);
    await expect(page.getByRole('img', { name: 'Aruba Card' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('© 2025 Aruba Card');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav.getByRole('link', { name: 'Apply Now' })).toHaveAttribute(
      'href',
      `https://${ALT_HOST}/apply-now`,
    );
    await expect(nav.getByRole('link', { name: 'Additional Benefits' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Close menu' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxeViolations(page);
    await downloadAndCheck(page, altOrder);
  });
});

test('the details page without a valid token goes back to the track page', async ({ page }) => {
  await page.goto(`/get-new-order-details/${mainOrder.orderId}`);
  await expect(page).toHaveURL(new RegExp(`/track-order/${mainOrder.orderId}$`));
  await expect(page.getByLabel('Order ID')).toHaveValue(String(mainOrder.orderId));
  // A forged token in storage is refused by the server, and the page goes back too.
  await page.evaluate((id) => {
    sessionStorage.setItem(
      `edcard-customer-token:${id}`,
      JSON.stringify({ token: 'forged.token.value', expiresAt: Date.now() + 600_000 }),
    );
  }, mainOrder.orderId);
  await page.goto(`/get-new-order-details/${mainOrder.orderId}`);
  await expect(page).toHaveURL(new RegExp(`/track-order/${mainOrder.orderId}$`));
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your session has expired. Please track your order again.' }),
  ).toBeVisible();
});

test.describe('translation widget', () => {
  const WIDGET = 'https://translate.widget.example/element.js?cb=edcardTranslateInit';

  /** Serves the page as if TRANSLATE_WIDGET_URL were set: the meta names it and the policy allows it. */
  async function configureWidget(page: Page) {
    await page.route(/\/track-order(\/|$)/, async (route) => {
      const res = await route.fetch();
      const html = (await res.text()).replace(
        '&quot;hostBrand&quot;',
        `&quot;translateWidgetUrl&quot;:&quot;${WIDGET.replaceAll('&', '&amp;')}&quot;,&quot;hostBrand&quot;`,
      );
      const csp = (res.headers()['content-security-policy'] ?? '').replace(
        "script-src 'self'",
        "script-src 'self' https://translate.widget.example",
      );
      await route.fulfill({
        response: res,
        body: html,
        headers: { ...res.headers(), 'content-security-policy': csp },
      });
    });
  }

  test('the page works when the widget cannot load', async ({ page }) => {
    await configureWidget(page);
    let asked = false;
    await page.route('https://translate.widget.example/**', (route) => {
      asked = true;
      return route.abort('internetdisconnected');
    });
    await page.goto(`/track-order/${mainOrder.orderId}`);
    await expect.poll(() => asked).toBe(true);
    await track(page, mainOrder);
    await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${mainOrder.orderId}$`));
  });

  test('the widget starts in the header when it loads', async ({ page }) => {
    await configureWidget(page);
    await page.route('https://translate.widget.example/**', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.google = { translate: { TranslateElement: function (opts, id) {
          document.getElementById(id).textContent = 'Translate from ' + opts.pageLanguage; } } };
          window.edcardTranslateInit();`,
      }),
    );
    await page.goto('/track-order');
    await expect(page.getByText('Translate from en')).toBeVisible();
  });
});
