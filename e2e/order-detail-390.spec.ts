import { type Page, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import {
  addRemark,
  expect,
  loginAs,
  type MadeOrder,
  makeOrder,
  moveOrder,
  staffToken,
  test,
} from './fixtures.js';

/**
 * The order detail page was 418 px wide at 390 px (the page scrolled sideways). With
 * every section filled and opened, no element reaches past the screen's right edge, unless it sits in a
 * box that scrolls or clips sideways on its own (a wide table in its card).
 */
const WIDTH = 390;
let order: MadeOrder;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  await expect.poll(async () => (await api.get('/api/health/ready')).status(), { timeout: 60_000 }).toBe(200);
  order = await makeOrder(api, {
    email: 'a.very.long.customer.address.that.does.not.break@an-example-domain-with-a-long-name.com',
    last_name: 'Vandenbroucke-Oosterhuizen',
    first_name: 'Maximiliaan-Alexander',
  });
  const token = await staffToken(api, 'Admin');
  await addRemark(
    api,
    token,
    order.orderId,
    'Called the customer: https://www.example.com/a/very/long/link/without/any/spaces/in/it/at/all/0123456789',
    { telephone: 'Y' },
  );
  // Awaiting: the status mail goes out, so the conversation has an entry.
  await moveOrder(api, token, order.orderId, 'Awaiting');
  await api.dispose();
});

/** Elements past the right edge that no sideways-scrolling or clipping box holds. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right > width + 0.5 && !clipped(el)) {
        out.push(
          `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} right=${Math.round(r.right)}`,
        );
      }
    }
    return out;
  });
}

test.describe('390 px', () => {
  test.use({ viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true });

  test('the order detail fits the screen: no element wider than 390 px, no sideways scroll', async ({
    page,
  }) => {
    await loginAs(page, 'Admin');
    await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
    await expect(page.getByTestId('process-status')).toHaveText('Awaiting');
    await expect(page.locator('.spinner-border')).toHaveCount(0);
    // Every folded section opened.
    for (const toggle of await page.locator('main [aria-expanded="false"]').all()) {
      await toggle.click({ timeout: 1_000 }).catch(() => {});
    }
    await expect(page.locator('.spinner-border')).toHaveCount(0);
    // An opened menu is placed by Popper a frame after it shows: poll until the layout has settled.
    await expect.poll(() => overflowing(page)).toEqual([]);
    const { scroll, width } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(width);
  });
});
