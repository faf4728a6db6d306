import { type Page, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import {
  addRemark,
  DEMO_EMAILS,
  DEMO_PASSWORD,
  expect,
  loginAs,
  type MadeOrder,
  makeOrder,
  staffToken,
  test,
} from './fixtures.js';

const SESSION_ENDED = 'Your session has ended — please sign in again';
const STAFF_DATE_TIME = /^\d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d E[SD]T$/;

let order: MadeOrder;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  // The server answers health while it still migrates: wait until it is ready for work.
  await expect.poll(async () => (await api.get('/api/health/ready')).status(), { timeout: 60_000 }).toBe(200);
  order = await makeOrder(api, { passport_number: 'WORK123456', last_name: 'Workday', first_name: 'Wanda' });
  const token = await staffToken(api);
  await addRemark(api, token, order.orderId, 'Called the customer about the flight number.', {
    telephone: 'Y',
  });
  await api.dispose();
});

const detailPath = () => `/admin/view-order/${encodeOrderId(order.orderId)}`;
const actionBar = (page: Page) => page.getByRole('region', { name: 'Order actions' });

async function noSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

test.describe('the order detail page', () => {
  test('the action bar stays in view at the bottom, sections fold and are remembered, no folder tiles', async ({
    page,
  }) => {
    await loginAs(page, 'Admin');
    await page.goto(detailPath());
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(`Order ${order.orderId}`) }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Dashboard' })).toHaveCount(0);
    const bar = actionBar(page);
    await expect(bar).toBeInViewport();
    await expect(bar.getByRole('navigation', { name: 'Move order' }).getByRole('button')).not.toHaveCount(0);
    await expect(bar.getByRole('button', { name: 'Assign to me' })).toBeVisible();

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(bar).toBeInViewport();
    await expect(bar.getByRole('button', { name: 'Remark' })).toBeInViewport();
    // The last section is not hidden under the bar.
    const lastSection = page.getByRole('region', { name: 'Status Timeline' });
    const barBox = (await bar.boundingBox())!;
    const lastBox = (await lastSection.boundingBox())!;
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(barBox.y + 1);

    // Remark from the bar: the remark box gets the cursor, even when its section was folded away.
    const remarkToggle = page.getByRole('button', { name: 'Add Comment Below' });
    await remarkToggle.click();
    await expect(remarkToggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByPlaceholder('Enter your remark')).toBeHidden();
    await bar.getByRole('button', { name: 'Remark' }).click();
    await expect(page.getByPlaceholder('Enter your remark')).toBeFocused();

    // Fold Passport details; the page remembers it for the next order opened.
    const passport = page.getByRole('button', { name: 'Passport details' });
    await passport.click();
    await expect(passport).toHaveAttribute('aria-expanded', 'false');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Passport details' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await expect(page.getByText('Passport Number', { exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Passport details' }).click();
    await expect(page.getByText('Passport Number', { exact: true })).toBeVisible();

    // Dates: one unambiguous form with its zone, the full ISO time on hover.
    const when = page.getByRole('region', { name: 'Comment History' }).locator('time').first();
    await expect(when).toHaveText(STAFF_DATE_TIME);
    await expect(when).toHaveAttribute('title', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Assign from the bar.
    await bar.getByRole('button', { name: 'Assign to me' }).click();
    await expect(page.getByText('Assigned to Demo Admin')).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Move to Original Folder' })).toBeVisible();
    await bar.getByRole('button', { name: 'Move to Original Folder' }).click();
    await expect(bar.getByRole('button', { name: 'Assign to me' })).toBeVisible();

    // Next order: the most urgent order nobody holds is assigned to me and opens.
    await bar.getByRole('button', { name: 'Next order' }).click();
    await expect(page).not.toHaveURL(new RegExp(`${detailPath()}$`));
    await expect(page).toHaveURL(/\/admin\/view-order\//);
    await expect(page.getByText('Assigned to Demo Admin')).toBeVisible();
    await expect(actionBar(page).getByRole('button', { name: 'Move to Original Folder' })).toBeVisible();

    // The dashboard and the queues keep the tiles.
    await page.goto('/admin/pending-order');
    await expect(page.getByRole('region', { name: 'Dashboard' })).toBeVisible();
  });

  test('the skip link is the first Tab stop and moves to the main content', async ({ page }) => {
    await loginAs(page, 'Team');
    await page.goto(detailPath());
    await expect(actionBar(page)).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // From there the order's action bar is reachable by Tab (past the checks panel's and the passport and
    // trip sections' controls, which come first on the page).
    let reached = 0;
    for (let i = 1; i <= 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      const inBar = await page.evaluate(() => !!document.activeElement?.closest('.detail-action-bar'));
      if (inBar) reached = i;
    }
    expect(reached).toBeGreaterThan(0);
  });
});

test.describe('signing in', () => {
  test('a deep link opened while signed out returns there after sign-in', async ({ page }) => {
    await page.goto(detailPath());
    await page.getByPlaceholder('Your Email Address').fill(DEMO_EMAILS.Manager);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(`Order ${order.orderId}`) }),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${detailPath()}$`));
    await expect(page.getByText(SESSION_ENDED)).toHaveCount(0);
  });

  test('an expired token shows the session message at the page that asked', async ({ page, baseURL }) => {
    const api = await playwrightRequest.newContext({ baseURL });
    const live = await staffToken(api, 'Manager');
    await api.dispose();
    // The same token with its expiry moved into the past (the SPA reads the payload; the server would refuse it).
    const [head, body, sig] = live.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const expired = `${head}.${Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url')}.${sig}`;
    await page.addInitScript((t) => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('user', JSON.stringify({ accessToken: t }));
      }
    }, expired);
    await page.goto('/admin/pending-order');
    await expect(page.getByRole('status').filter({ hasText: SESSION_ENDED })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/pending-order$/);
    await page.getByPlaceholder('Your Email Address').fill(DEMO_EMAILS.Manager);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Pending Orders' })).toBeVisible();
    await expect(page.getByText(SESSION_ENDED)).toHaveCount(0);
  });

  test('a session ended on the server shows the session message and signs in back to the same screen', async ({
    page,
  }) => {
    const token = await loginAs(page, 'Telecaller');
    await page.goto('/admin/awaiting-response');
    await expect(page.getByRole('heading', { name: 'Awaiting Customer' })).toBeVisible();
    const out = await page.request.post('/api/admin/logout', { headers: { authorization: token } });
    expect(out.ok()).toBeTruthy();
    // The server ends the screen's live stream with the session: the login appears by itself, where it was.
    await expect(page.getByRole('status').filter({ hasText: SESSION_ENDED })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/awaiting-response$/);
    await page.getByPlaceholder('Your Email Address').fill(DEMO_EMAILS.Telecaller);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Awaiting Customer' })).toBeVisible();
  });
});

test.describe('390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the queues and the detail page have no sideways scroll; the action bar sits at the thumb', async ({
    page,
  }) => {
    await loginAs(page, 'Admin');
    for (const path of ['/admin', '/admin/recent-order', '/admin/pending-order', '/admin/future-order']) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.locator('.spinner-border')).toHaveCount(0);
      await noSidewaysScroll(page);
    }
    await page.goto(detailPath());
    const bar = actionBar(page);
    await expect(bar).toBeInViewport();
    await noSidewaysScroll(page);
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(844 - 2);
    expect(box.height).toBeLessThan(844 / 3);
    const remark = bar.getByRole('button', { name: 'Remark' });
    const remarkBox = (await remark.boundingBox())!;
    expect(remarkBox.height).toBeGreaterThanOrEqual(44);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(bar).toBeInViewport();
    await noSidewaysScroll(page);
    // Every folded section opened: still no sideways scroll.
    for (const toggle of await page.locator('main [aria-expanded="false"]').all()) {
      await toggle.click({ timeout: 1_000 }).catch(() => {});
    }
    await noSidewaysScroll(page);
  });

  test('customer toasts do not stack and the pages fit', async ({ page }) => {
    await page.goto(`/track-order/${order.orderId}`);
    const alerts = page.locator('.Toastify__toast');
    for (const attempt of [1, 2, 3]) {
      await page.getByLabel('Email ID').fill(`nobody${attempt}-${order.email}`);
      await page.getByRole('button', { name: 'TRACK ORDER' }).click();
      await expect(alerts.filter({ hasText: 'No order matches' })).toHaveCount(1);
    }
    await expect(alerts).toHaveCount(1);
    await noSidewaysScroll(page);
    await page.getByLabel('Email ID').fill(order.email);
    await page.getByRole('button', { name: 'TRACK ORDER' }).click();
    await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
    // Found: a line in the page (no toast over the history), and the error toast is gone.
    await expect(page.getByTestId('order-found')).toHaveText('Your order has been found.');
    await expect(alerts).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Downloaded History' })).toBeVisible();
    await noSidewaysScroll(page);
    // The history table scrolls inside its card; the card stays inside the screen.
    const card = page.locator('.c-table-wrap');
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
  });
});
