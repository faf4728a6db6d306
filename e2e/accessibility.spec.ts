import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import {
  addRemark,
  axeViolations,
  type DemoRole,
  expect,
  expectNoAxeViolations,
  loginAs,
  type MadeOrder,
  makeOrder,
  staffToken,
  test,
  uploadApprovedCard,
} from './fixtures.js';

/** A paid order from the intake API; with `approved` its card is uploaded by staff through the API. */
async function newOrder(api: APIRequestContext, approved: boolean): Promise<MadeOrder> {
  const order = await makeOrder(api, {
    passport_number: 'A11Y123456',
    last_name: 'Access',
    first_name: 'Ada',
  });
  if (approved) {
    const token = await staffToken(api, 'Team');
    await addRemark(api, token, order.orderId, 'Checked the passport scan.', { telephone: 'Y' });
    await uploadApprovedCard(api, token, order);
  }
  return order;
}

let worked: MadeOrder;
let fresh: MadeOrder;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  // The server answers health while it still migrates: wait until it is ready for work.
  await expect.poll(async () => (await api.get('/api/health/ready')).status(), { timeout: 60_000 }).toBe(200);
  worked = await newOrder(api, true);
  fresh = await newOrder(api, false);
  await api.dispose();
});

/** Every staff screen; the folder queues share one component, so two of them stand for the rest. */
const STAFF_ROUTES = [
  '/admin',
  '/admin/recent-order',
  '/admin/my-order',
  '/admin/pending-order',
  '/admin/deleted-order',
  '/admin/refund-order',
  '/admin/future-order',
  '/admin/chargeback',
  '/admin/send-invoice',
  '/admin/country-order-list',
  '/admin/processed-order',
  '/admin/manage-team',
  '/admin/gateway-setting',
  '/admin/insights',
  '/admin/audit-log',
  '/admin/change-password',
  '/admin/account/sessions',
  '/admin/account/two-factor',
  '/admin/account/security-settings',
  '/admin/retention-settings',
  '/admin/due-time-policy',
];
/** The screens whose content changes with the role (sidebar, buttons, cards). */
const ROLE_ROUTES = ['/admin', '/admin/recent-order', '/admin/manage-team', '/admin/gateway-setting'];
const OTHER_ROLES: DemoRole[] = ['Manager', 'Team', 'Telecaller', 'Night Staff'];

/**
 * The screen has drawn its heading (or its refusal, for a role that may not see it) and finished loading;
 * the live event stream never lets the network idle.
 */
async function settle(page: Page) {
  await expect(page.locator('main h1, main [role="alert"]').first()).toBeVisible();
  await expect(page.locator('.spinner-border')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test.describe('axe-core, WCAG 2.1 AA', () => {
  test('the login screen', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    await expectNoAxeViolations(page, 'login');
  });

  test('every staff screen as Admin', async ({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, 'Admin');
    const found: string[] = [];
    for (const route of [...STAFF_ROUTES, `/admin/view-order/${encodeOrderId(worked.orderId)}`]) {
      await page.goto(route);
      await settle(page);
      for (const v of await axeViolations(page)) found.push(`${route}: ${v}`);
    }
    expect(found).toEqual([]);
  });

  for (const role of OTHER_ROLES) {
    test(`the screens that differ, as ${role}`, async ({ page }) => {
      test.setTimeout(120_000);
      await loginAs(page, role);
      const found: string[] = [];
      const routes = [
        ...ROLE_ROUTES,
        `/admin/view-order/${encodeOrderId(worked.orderId)}`,
        `/admin/view-order/${encodeOrderId(fresh.orderId)}`,
      ];
      for (const route of routes) {
        await page.goto(route);
        await settle(page);
        for (const v of await axeViolations(page)) found.push(`${route}: ${v}`);
      }
      expect(found).toEqual([]);
    });
  }

  test('the customer pages, wide and at 390 px', async ({ page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`/track-order/${worked.orderId}`);
      await expect(page.getByRole('button', { name: 'TRACK ORDER' })).toBeVisible();
      await expectNoAxeViolations(page, `track ${width}`);
      await page.getByLabel('Email ID').fill(worked.email);
      await page.getByRole('button', { name: 'TRACK ORDER' }).click();
      await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${worked.orderId}$`));
      await expect(page.getByRole('table', { name: 'Downloaded History' })).toBeVisible();
      await expectNoAxeViolations(page, `details ${width}`);
    }
  });
});
