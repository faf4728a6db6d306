import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCustomerToken } from '../../customer/tokens.js';
import { createTestApp, type TestApp } from '../app.js';
import { createOrder } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Answers with personal data must not be kept by a browser, a shared computer's cache or a proxy. */
describe('Cache-Control on answers holding personal data', () => {
  it('marks staff order, customer and team answers no-store', async () => {
    const order = await createOrder(t.database);
    const answers = [
      await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' }),
      await t.as('Admin', { method: 'GET', url: '/api/admin/get-orders-list/newOrder?page=1&limit=10' }),
      await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` }),
      await t.as('Admin', {
        method: 'POST',
        url: '/api/admin/search-order',
        payload: { folderName: 'allOrder', searchVal: order.email, start: 0, end: 10 },
      }),
      await t.as('Manager', { method: 'GET', url: '/api/admin/get-team-member-list' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('marks customer track answers (success and failure) and the history no-store', async () => {
    const order = await createOrder(t.database, { process_status: 'Completed' });
    const track = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/front/track-order',
        payload: { orderId: String(order.orderId), email },
      });
    const found = await track(order.email);
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toBe('no-store');
    const missed = await track('someone-else@example.com');
    expect(missed.statusCode).toBe(404);
    expect(missed.headers['cache-control']).toBe('no-store');
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const history = await t.app.inject({
      method: 'POST',
      url: '/api/front/get-download-history',
      payload: { orderId: order.orderId },
      headers: { authorization: token },
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().mainResult.first_name).toBe(order.firstName);
    expect(history.headers['cache-control']).toBe('no-store');
  });

  it('marks refusals no-store too, and leaves the caching of static assets alone', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/get-folder-count' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const invalid = await t.as('Admin', { method: 'GET', url: '/api/admin/get-orders-details/x%00y' });
    expect(invalid.statusCode).toBeGreaterThanOrEqual(400);
    expect(invalid.statusCode).toBeLessThan(500);
    expect(invalid.headers['cache-control']).toBe('no-store');
    const page = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(page.headers['cache-control']).not.toBe('no-store');
  });
});
