import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, makeOrder, moveOrder, staffToken, test, uploadApprovedCard } from './fixtures.js';

/**
 * Routing by capacity (docs/product.md, "Routing"): a Manager gives a member a shift and capacity 2 on
 * Manage Team; of three new orders, the member's My Orders shows two, and the third arrives when one of
 * them is completed. Routing hands out the oldest waiting orders first, and the shared end-to-end server
 * holds the seed's and the other specs' New orders (and more arrive as windows open), so this spec runs
 * against a server of its own: a fresh database with the demo logins and no orders
 * (SEED_DEMO_ORDERS=0), on the end-to-end port + 2000. The shared server's queues and routing policy are
 * never touched.
 */
const OWN_PORT = Number(process.env.E2E_PORT ?? 3105) + 2000;
const OWN_URL = `http://127.0.0.1:${OWN_PORT}`;
let server: ChildProcess | undefined;
let dataDir = '';

test.use({ baseURL: OWN_URL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), `edcard-e2e-routing-${OWN_PORT}-`));
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(OWN_PORT),
      HOST: '127.0.0.1',
      CLIENT_DIST_DIR: process.env.E2E_CLIENT_DIST ?? 'dist/client',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PUBLIC_SITE_URL: OWN_URL,
      INTAKE_API_KEY: 'e2e-intake-key-0123456789',
      SEED_DEMO: '1',
      SEED_DEMO_ORDERS: '0',
      TRACK_PER_IP_MAX: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the routing spec's server stopped (${server.exitCode})`);
    const ready = await fetch(`${OWN_URL}/api/health/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() - started > 150_000) throw new Error("the routing spec's server did not get ready");
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const PASSWORD = 'Routing-e2e-password-1';

async function addMember(api: APIRequestContext, admin: string, name: string, email: string) {
  const res = await api.post('/api/admin/add-team-member', {
    headers: { authorization: admin },
    data: { name, email, password: PASSWORD, type: 'Team' },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).data.id as number;
}

async function heldBy(api: APIRequestContext, token: string, id: number): Promise<number> {
  const res = await api.get(`/api/admin/team-member-open-orders/${id}`, {
    headers: { authorization: token },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).data.openOrders as number;
}

const row = (page: Page, orderId: number) => page.locator(`tr[data-order-id="${orderId}"]`);

/**
 * Waits until My Orders shows the order: an assignment arrives live as a notice ("2 new orders — show")
 * above the list, which shows the rows when asked.
 */
async function arrives(page: Page, orderId: number) {
  await expect(async () => {
    const show = page.getByRole('status').getByRole('button', { name: 'show' });
    if (await show.isVisible()) await show.click();
    await expect(row(page, orderId)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
}

test('a member with capacity 2 gets two of three new orders; the third arrives when one is completed', async ({
  page,
  browser,
  request: api,
}) => {
  test.setTimeout(240_000);
  const admin = await staffToken(api, 'Admin');
  const manager = await staffToken(api, 'Manager');
  const stamp = Date.now();
  const member = { name: 'Rita Router', email: `rita.${stamp}@example.com`, id: 0 };
  member.id = await addMember(api, admin, member.name, member.email);

  const policyRes = await api.get('/api/admin/routing-policy', { headers: { authorization: manager } });
  expect(policyRes.ok()).toBeTruthy();
  const { routing, idleMinutesToRelease } = (await policyRes.json()).data;
  const putPolicy = async (body: unknown) => {
    const res = await api.put('/api/admin/routing-policy', {
      headers: { authorization: manager },
      data: body,
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  };

  try {
    // This server holds no other order: New Orders are routed from now on.
    await putPolicy({ routing: { ...routing, newOrder: 'auto' }, idleMinutesToRelease });

    // The Manager gives the member a shift around the clock and capacity 2 on Manage Team.
    await page.addInitScript(
      (t) => localStorage.setItem('user', JSON.stringify({ accessToken: t })),
      manager,
    );
    await page.goto(`/admin/manage-team/${member.id}`);
    const form = page.getByRole('form', { name: 'Routing' });
    await form.getByLabel('Capacity (open orders at once)').fill('2');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      await form.getByLabel(day, { exact: true }).check();
      await form.getByLabel(`${day} from`).fill('00:00');
      await form.getByLabel(`${day} to`).fill('24:00');
    }
    await form.getByRole('button', { name: 'Save routing' }).click();
    await expect(page.locator('.Toastify__toast').first()).toBeVisible();
    await expect
      .poll(async () => {
        const res = await api.get(`/api/admin/team-member-info/${member.id}`, {
          headers: { authorization: manager },
        });
        return (await res.json()).data.capacity;
      })
      .toBe(2);

    // Three new orders arrive.
    const orders = [];
    for (const name of ['First', 'Second', 'Third']) orders.push(await makeOrder(api, { last_name: name }));
    const [first, second, third] = orders as [
      (typeof orders)[number],
      (typeof orders)[number],
      (typeof orders)[number],
    ];

    // The member's My Orders shows the two older ones, live; the third waits.
    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    const memberToken = (
      await (
        await api.post('/api/admin/admin-login', { data: { email: member.email, password: PASSWORD } })
      ).json()
    ).jwtToken as string;
    await memberPage.addInitScript(
      (t) => localStorage.setItem('user', JSON.stringify({ accessToken: t })),
      memberToken,
    );
    await memberPage.goto('/admin/my-order');
    await arrives(memberPage, first.orderId);
    await arrives(memberPage, second.orderId);
    expect(await heldBy(api, manager, member.id)).toBe(2);
    // Another routing pass (every 15 s) does not hand out the third.
    await memberPage.waitForTimeout(17_000);
    await expect(row(memberPage, third.orderId)).toHaveCount(0);
    expect(await heldBy(api, manager, member.id)).toBe(2);

    // The member completes one: the third arrives.
    await uploadApprovedCard(api, memberToken, first);
    await moveOrder(api, memberToken, first.orderId, 'Completed');
    await arrives(memberPage, third.orderId);
    await expect(row(memberPage, first.orderId)).toHaveCount(0);
    await expect(row(memberPage, second.orderId)).toBeVisible();
    expect(await heldBy(api, manager, member.id)).toBe(2);
    await memberContext.close();
  } finally {
    // Routing off again, and the member's orders back to their queue.
    await putPolicy({ routing, idleMinutesToRelease });
    await api.put('/api/admin/delete-team-member', {
      headers: { authorization: admin },
      data: { teamMemberId: member.id, openOrders: 'release' },
    });
  }
});
