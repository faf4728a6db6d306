import type { Page } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { signedStripeEvent, stripeDispute, stripeEvent } from '../src/server/test/stripe-events.js';
import { expect, loginAs, makeOrder, staffToken, test } from './fixtures.js';

/**
 * The working day at the widths people use (1,280×800 and 1,440×900): the Chargeback list shows what a
 * defence needs and sorts by its deadline, a disputed order says so at the top, nothing of the tile
 * strip or the list headers is cut, and the saved views are in the first screen of the sidebar.
 */
const WEBHOOK_SECRET = 'whsec_e2e_webhook_signing_secret';
const stripeBase = () => `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3105) + 1000}`;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
];

/** A Stripe order whose payment is disputed (signed webhook), its evidence due in `days`. */
async function disputedOrder(page: Page, lastName: string, days: number) {
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}`;
  const charge = `ch_e2e${stamp}`;
  const order = await makeOrder(page.request, {
    transaction_id: charge,
    merchant_name: 'Stripe',
    last_name: lastName,
  });
  const disputeId = `dp_e2e${stamp}`;
  expect(
    (await page.request.post(`${stripeBase()}/__double/disputes`, { data: { id: disputeId } })).ok(),
  ).toBe(true);
  const { payload, signature } = signedStripeEvent(
    stripeEvent(
      'charge.dispute.created',
      stripeDispute(charge, { id: disputeId, dueInSeconds: days * 86_400 + 3600 }),
      { id: `evt_e2e${stamp}` },
    ),
    WEBHOOK_SECRET,
  );
  const hook = await page.request.post('/api/webhooks/stripe', {
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    data: payload,
  });
  expect(hook.status(), await hook.text()).toBe(200);
  return order;
}

/** Every column header of the order table is whole: inside the table's box and left of the pinned Action. */
async function expectHeadersWhole(page: Page) {
  const table = page.getByTestId('order-table');
  await expect(table.locator('tbody tr[data-order-id]').first()).toBeVisible();
  const cut = await table.evaluate((t) => {
    const box = t.parentElement!.getBoundingClientRect();
    const action = t.querySelector('thead th[data-fit-action]')!.getBoundingClientRect();
    return Array.from(t.querySelectorAll<HTMLElement>('thead th[data-fit-col]'))
      .filter((th) => {
        const r = th.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > action.left + 0.5 || th.scrollWidth > th.clientWidth;
      })
      .map((th) => th.textContent);
  });
  expect(cut).toEqual([]);
}

/** The compact tile strip: no tile runs past the strip's right edge, and the strip does not scroll. */
async function expectTilesWhole(page: Page) {
  const strip = page.getByRole('region', { name: 'Dashboard' });
  await expect(strip.locator('.staff-tile').first()).toBeVisible();
  const out = await strip.evaluate((s) => {
    const right = s.getBoundingClientRect().right;
    const tiles = Array.from(s.querySelectorAll('.staff-tile'))
      .filter((t) => t.getBoundingClientRect().right > right + 0.5)
      .map((t) => t.textContent);
    return {
      tiles,
      overflow: s.scrollWidth - s.clientWidth,
      page: document.documentElement.scrollWidth - innerWidth,
    };
  });
  expect(out).toEqual({ tiles: [], overflow: 0, page: 0 });
}

test('the Chargeback list shows Amount, Reason and Respond by whole at 1,280 and 1,440 and sorts by Respond by; the order says it is disputed at the top', async ({
  page,
}) => {
  const lastName = `Respond${Date.now()}`;
  const later = await disputedOrder(page, lastName, 9);
  const sooner = await disputedOrder(page, lastName, 2);
  await loginAs(page, 'Manager');

  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`/admin/chargeback?search=${lastName}`);
    await expect(page.locator('#queue-title')).toHaveText('Chargeback');
    const row = page.locator(`tr[data-order-id="${sooner.orderId}"]`);
    await expect(row).toBeVisible();
    for (const name of ['Amount', 'Reason', /^Respond by/]) {
      await expect(page.getByRole('columnheader', { name })).toBeInViewport({ ratio: 1 });
    }
    await expect(row).toContainText('59.00 USD');
    await expect(row).toContainText('fraudulent');
    await expect(row.getByTestId('due-badge')).toHaveText('in 2 d');
    await expectHeadersWhole(page);
    await expectTilesWhole(page);
  }

  // Opened sorted by Respond by, soonest first; its header turns it to latest first, and back.
  const ids = () =>
    page
      .locator('[data-testid="order-table"] tbody tr[data-order-id]')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-order-id'))));
  const respondBy = page.getByRole('columnheader', { name: /^Respond by/ });
  await expect(respondBy).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(ids).toEqual([sooner.orderId, later.orderId]);
  await respondBy.getByRole('button').click();
  await expect(page).toHaveURL(/sort=due_at.*dir=desc|dir=desc.*sort=due_at/);
  await expect.poll(ids).toEqual([later.orderId, sooner.orderId]);
  await respondBy.getByRole('button').click();
  await expect.poll(ids).toEqual([sooner.orderId, later.orderId]);

  // The order: a banner above everything with the reason, amount and deadline, and Submit evidence.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/admin/view-order/${encodeOrderId(sooner.orderId)}`);
  const banner = page.getByRole('region', { name: 'Dispute' });
  await expect(banner).toBeInViewport({ ratio: 1 });
  await expect(banner.getByTestId('dispute-reason')).toHaveText('fraudulent');
  await expect(banner.getByTestId('dispute-amount')).toHaveText('59.00 USD');
  await expect(banner.getByTestId('dispute-deadline')).toHaveText(/\d{1,2} \w{3} \d{4} \d{2}:\d{2} E[SD]T/);
  await banner.getByRole('button', { name: 'Submit evidence' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('The evidence was submitted to the bank.')).toBeVisible();
  await expect(banner.getByTestId('dispute-next')).toContainText('Evidence submitted');
  await expect(banner.getByTestId('dispute-next')).toContainText('What happens next: the bank reviews');
  await expect(banner.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
});

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the tile strip and the list headers are whole; "+N" shows the other columns`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await loginAs(page, 'Manager');
    for (const path of ['my-order', 'recent-order', 'refund-order', 'contact-customer', 'order-history']) {
      await page.goto(`/admin/${path}`);
      await expectTilesWhole(page);
      await expectHeadersWhole(page);
    }
    // The columns left out are one click away; the table then scrolls inside its box, not the page.
    const more = page.getByTestId('more-columns');
    await expect(more).toHaveText(/^\+\d+ more/);
    await more.click();
    await expect(page.getByRole('columnheader', { name: 'Process Month' })).toBeAttached();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(
      0,
    );
    await page.getByRole('button', { name: 'Narrow the table' }).click();
    await expectHeadersWhole(page);
  });
}

test("at 1,440×900 a Manager's shared view is in the sidebar's first screen", async ({ page }) => {
  const manager = await staffToken(page.request, 'Manager');
  const name = `Shared ${Date.now()}`;
  const saved = await page.request.post('/api/admin/views', {
    headers: { authorization: manager },
    data: { name, folder: 'newOrder', query: { nationality: 'NLD' }, shared: true },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginAs(page, 'Manager');
  await page.goto('/admin');
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(name) });
  await expect(link).toBeInViewport({ ratio: 1 });
  // A Team member sees the shared view there too.
  await page.context().clearCookies();
  await loginAs(page, 'Team');
  await page.goto('/admin');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(name) }),
  ).toBeInViewport({ ratio: 1 });
});

test('deleting a member who holds orders: the dialog says how many and reassigns them to another member', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = page.request;
  const admin = await staffToken(api, 'Admin');
  const stamp = Date.now();
  const password = 'Leaving-e2e-password-1';
  const add = async (name: string) => {
    const res = await api.post('/api/admin/add-team-member', {
      headers: { authorization: admin },
      data: { name, email: `${name.toLowerCase().replaceAll(' ', '.')}@demo.test`, password, type: 'Team' },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    return (await res.json()).data.id as number;
  };
  const leaving = `Leaving ${stamp}`;
  const heir = `Heir ${stamp}`;
  const leavingId = await add(leaving);
  const heirId = await add(heir);
  const login = await api.post('/api/admin/admin-login', {
    data: { email: `leaving.${stamp}@demo.test`, password },
  });
  expect(login.ok(), await login.text()).toBeTruthy();
  const leavingToken = (await login.json()).jwtToken as string;
  const orders = [(await makeOrder(api)).orderId, (await makeOrder(api)).orderId];
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: leavingToken },
    data: { orderId: orders, assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();

  await loginAs(page, 'Manager');
  await page.goto('/admin/manage-team');
  await page
    .getByRole('row', { name: new RegExp(leaving) })
    .getByRole('button', { name: 'Delete' })
    .click();
  const dialog = page.getByRole('dialog');
  const choice = dialog.getByTestId('open-orders-choice');
  await expect(choice).toContainText(`${leaving} holds 2 open orders`);
  await choice.getByLabel('Reassign them to').check();
  await choice.getByLabel('Member who takes over the orders').selectOption({ label: heir });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(leaving) })).toHaveCount(0);

  const manager = await staffToken(api, 'Manager');
  const held = async (id: number) =>
    (
      await (
        await api.get(`/api/admin/team-member-open-orders/${id}`, { headers: { authorization: manager } })
      ).json()
    ).data.openOrders as number;
  expect(await held(heirId)).toBe(2);
  // The deleted member is gone from the team (their count is no longer asked for).
  const gone = await api.get(`/api/admin/team-member-open-orders/${leavingId}`, {
    headers: { authorization: manager },
  });
  expect(gone.status()).toBe(404);
});
