import {
  type APIRequestContext,
  type Browser,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, staffToken, test } from './fixtures.js';

/** Two staff side by side, each in their own browser context: the queues are one live, shared workspace. */

/** An order of our own in New. */
const newOrder = async () =>
  (await makeOrder(api, { passport_number: 'LIVE123456', last_name: 'Live', first_name: 'Lena' })).orderId;

/** A page of its own browser context, signed in as the role. */
async function staffPage(browser: Browser, role: 'Team' | 'Manager'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, role);
  return page;
}

const detail = (orderId: number) => `/admin/view-order/${encodeOrderId(orderId)}`;
const bar = (page: Page) => page.getByRole('region', { name: 'Order actions' });

let api: APIRequestContext;
test.beforeAll(async ({ baseURL }) => {
  api = await playwrightRequest.newContext({ baseURL });
  await expect.poll(async () => (await api.get('/api/health/ready')).status(), { timeout: 60_000 }).toBe(200);
});
test.afterAll(async () => {
  await api.dispose();
});

test('presence shows on both screens, and B sees A’s move without reloading', async ({ browser }) => {
  const orderId = await newOrder();
  const a = await staffPage(browser, 'Team');
  const b = await staffPage(browser, 'Manager');
  await a.goto(detail(orderId));
  await b.goto(detail(orderId));
  await expect(a.getByTestId('process-status')).toHaveText('New');
  await expect(b.getByTestId('process-status')).toHaveText('New');

  // Each sees the other.
  await expect(a.getByTestId('presence')).toHaveText('Demo Manager is viewing');
  await expect(b.getByTestId('presence')).toHaveText('Demo Team is viewing');

  // A types a remark: B sees A editing.
  await a.getByPlaceholder('Enter your remark').fill('Calling the customer now');
  await expect(b.getByTestId('presence')).toHaveText('Demo Team is editing');

  // A moves the order; B's page follows by itself and says what changed.
  await bar(a).getByRole('button', { name: 'Move to Awaiting Govt' }).click();
  await expect(a.getByTestId('process-status')).toHaveText('AwaitingGovt');
  await expect(b.getByTestId('process-status')).toHaveText('AwaitingGovt');
  await expect(b.getByTestId('change-notice')).toContainText('Demo Team moved it to Awaiting Govt');
  // Not for one's own change.
  await expect(a.getByTestId('change-notice')).toHaveCount(0);

  // A leaves: B no longer lists A.
  await a.goto('/admin');
  await expect(b.getByTestId('presence')).toHaveText('');
  await a.context().close();
  await b.context().close();
});

test('B’s stale move is refused with A’s name, and Reload shows the change', async ({ browser }) => {
  const orderId = await newOrder();
  const a = await staffPage(browser, 'Team');
  const b = await staffPage(browser, 'Manager');
  // B's live stream is cut: B's page stays as it was opened, and says it is offline.
  await b.route('**/api/admin/events', (route) => route.abort());
  await b.goto(detail(orderId));
  await expect(b.getByTestId('process-status')).toHaveText('New');
  await expect(b.getByText('Live updates are offline')).toBeVisible();

  await a.goto(detail(orderId));
  await bar(a).getByRole('button', { name: 'Move to Awaiting Govt' }).click();
  await expect(a.getByTestId('process-status')).toHaveText('AwaitingGovt');

  // B still shows New and moves from it: refused, naming A and the change, nothing overwritten.
  await expect(b.getByTestId('process-status')).toHaveText('New');
  await bar(b).getByRole('button', { name: 'Move to Customer Called' }).click();
  const conflict = b.getByTestId('conflict');
  await expect(conflict).toContainText(
    /This order changed since you opened it: Demo Team moved it to Awaiting Govt at \d\d:\d\d/,
  );
  const token = await staffToken(api, 'Admin');
  const now = await api.get(`/api/admin/get-orders-details/${orderId}`, {
    headers: { authorization: token },
  });
  expect((await now.json()).data.process_status).toBe('AwaitingGovt');

  await conflict.getByRole('button', { name: 'Reload' }).click();
  await expect(b.getByTestId('process-status')).toHaveText('AwaitingGovt');
  await expect(b.getByTestId('conflict')).toHaveCount(0);
  await a.context().close();
  await b.context().close();
});

test('an order someone holds: a Manager is told who holds it, takes it over and moves it', async ({
  browser,
}) => {
  const orderId = await newOrder();
  const a = await staffPage(browser, 'Team');
  const b = await staffPage(browser, 'Manager');
  await a.goto(detail(orderId));
  // a: Assign to me.
  await expect(a.getByTestId('process-status')).toHaveText('New');
  await a.locator('body').click();
  await a.keyboard.press('a');
  await expect(a.getByText('Assigned to Demo Team')).toBeVisible();

  await b.goto(detail(orderId));
  await expect(b.getByText('Assigned to Demo Team')).toBeVisible();
  await bar(b).getByRole('button', { name: 'Move to Awaiting Govt' }).click();
  const conflict = b.getByTestId('conflict');
  await expect(conflict).toContainText('Demo Team is working on this order');
  await conflict.getByRole('button', { name: 'Take over and move it to Awaiting Govt' }).click();
  await expect(b.getByTestId('process-status')).toHaveText('AwaitingGovt');
  await expect(b.getByText('Assigned to Demo Manager')).toBeVisible();
  // A's page follows: the order is now Demo Manager's.
  await expect(a.getByText('Assigned to Demo Manager')).toBeVisible();
  await expect(a.getByTestId('change-notice')).toContainText('Demo Manager');
  await a.context().close();
  await b.context().close();
});

test('counts tick on their own, and the open list offers new orders instead of jumping', async ({
  browser,
}) => {
  const b = await staffPage(browser, 'Manager');
  await b.goto('/admin/awaiting-govt');
  const count = b.getByTestId('count-awaiting-govt');
  await expect(count).toHaveText(/^\d+$/);
  const before = Number(await count.textContent());
  const rowsBefore = await b.locator('tbody tr[data-order-id]').count();

  // Another staff member (through the API) moves an order into Awaiting Govt.
  const orderId = await newOrder();
  const token = await staffToken(api, 'Team');
  const moved = await api.put('/api/admin/move-order-status', {
    headers: { authorization: token },
    data: { orderId, updatingStatus: 'AwaitingGovt' },
  });
  expect(moved.ok(), await moved.text()).toBeTruthy();

  await expect(count).toHaveText(String(before + 1));
  const newBar = b.getByText('1 new order', { exact: true });
  await expect(newBar).toBeVisible();
  expect(await b.locator('tbody tr[data-order-id]').count()).toBe(rowsBefore);
  await b.getByRole('button', { name: 'show' }).click();
  await expect(newBar).toHaveCount(0);
  await b.context().close();
});

test('keyboard: ? lists the shortcuts, / searches, j moves through a list, Ctrl+K opens an order, g m, n claims the next', async ({
  browser,
}) => {
  const orderId = await newOrder();
  const b = await staffPage(browser, 'Manager');
  await b.goto('/admin/recent-order');
  await expect(b.locator('tbody tr[data-order-id]').first()).toBeVisible();
  await b.keyboard.press('?');
  await expect(b.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await b.keyboard.press('Escape');
  await expect(b.getByRole('dialog')).toHaveCount(0);

  await b.keyboard.press('/');
  await expect(b.getByRole('searchbox').first()).toBeFocused();
  await b.locator('h1').first().click();

  await b.keyboard.press('j');
  await expect(
    b.locator('tbody tr[data-order-id]').first().getByRole('link', { name: 'View' }),
  ).toBeFocused();

  await b.keyboard.press('Control+k');
  const jump = b.getByRole('dialog', { name: 'Open an order' });
  await jump.getByLabel('Order number').fill(String(orderId));
  await jump.getByLabel('Order number').press('Enter');
  await expect(b).toHaveURL(new RegExp(`${detail(orderId)}$`));
  await expect(b.getByRole('heading', { level: 1, name: new RegExp(`^Order ${orderId}`) })).toBeVisible();

  // g then a letter jumps to a folder.
  await b.locator('body').click();
  await b.keyboard.press('g');
  await b.keyboard.press('m');
  await expect(b).toHaveURL(/\/admin\/my-order$/);

  // n: the next order nobody holds is assigned to me and opens.
  await b.goto('/admin/recent-order');
  await expect(b.locator('tbody tr[data-order-id]').first()).toBeVisible();
  await b.locator('h1').first().click();
  await b.keyboard.press('n');
  await expect(b).toHaveURL(/\/admin\/view-order\//);
  await expect(b.getByText('Assigned to Demo Manager')).toBeVisible();
  await b.context().close();
});
