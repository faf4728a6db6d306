import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_MSG } from '../../shared/contracts/gateways.js';
import { MSG } from '../../shared/messages.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Gateway {
  id: number;
  gateway_name: string;
  is_active: '1' | '0';
}
const list = async (role: DemoRole = 'Admin') =>
  (await t.as(role, { method: 'GET', url: '/api/admin/payment-gateways' })).json().data as Gateway[];
const activate = (role: DemoRole, body: object) =>
  t.as(role, { method: 'POST', url: '/api/admin/payment-gateway-setting', payload: body });

describe('payment gateways', () => {
  it('lists the seeded gateways with is_active as "1"/"0", exactly one active', async () => {
    const gateways = await list('Telecaller');
    expect(gateways.length).toBeGreaterThanOrEqual(3);
    expect(gateways.map((g) => g.gateway_name)).toContain('Stripe');
    for (const g of gateways) expect(['1', '0']).toContain(g.is_active);
    expect(gateways.filter((g) => g.is_active === '1')).toHaveLength(1);
  });

  it('switches the active gateway in one step and audits from -> to', async () => {
    const before = await list();
    const target = before.find((g) => g.gateway_name === 'PayPal')!;
    const res = await activate('Manager', { gatewayId: String(target.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: GATEWAY_MSG.activated('PayPal') });
    const after = await list();
    expect(after.filter((g) => g.is_active === '1').map((g) => g.id)).toEqual([target.id]);
    const { rows } = await t.database.sql.query<{ from_value: unknown; to_value: unknown }>(
      "select from_value, to_value from audit_log where action = 'gateway.activate' order by id desc limit 1",
    );
    expect(rows[0]).toEqual({
      from_value: { active: before.filter((g) => g.is_active === '1').map((g) => g.gateway_name) },
      to_value: { active: ['PayPal'] },
    });
  });

  it('keeps exactly one active under concurrent switches', async () => {
    const gateways = await list();
    await Promise.all(
      gateways.flatMap((g) => [
        activate('Admin', { gatewayId: g.id }),
        activate('Manager', { gatewayId: g.id }),
      ]),
    );
    expect((await list()).filter((g) => g.is_active === '1')).toHaveLength(1);
  });

  it('refuses a missing or unknown gateway and changes nothing', async () => {
    const before = await list();
    const empty = await activate('Admin', { gatewayId: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MSG.gatewayRequired);
    expect((await activate('Admin', {})).json().message).toBe(MSG.gatewayRequired);
    expect((await activate('Admin', { gatewayId: true })).statusCode).toBe(400);
    const unknown = await activate('Admin', { gatewayId: 99999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 0, message: GATEWAY_MSG.notFound });
    expect(await list()).toEqual(before);
  });

  it('lets only Admin and Manager switch; Night Staff cannot even read', async () => {
    const before = await list();
    const other = before.find((g) => g.is_active === '0')!;
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await activate(role, { gatewayId: other.id })).statusCode).toBe(403);
    }
    expect(
      (await t.as('Night Staff', { method: 'GET', url: '/api/admin/payment-gateways' })).statusCode,
    ).toBe(403);
    expect(await list()).toEqual(before);
  });
});
