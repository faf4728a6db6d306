import { beforeAll, describe, expect, it } from 'vitest';
import { signCustomerToken } from '../customer/tokens.js';
import type { TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { TINY_PNG } from '../test/fixtures.js';
import { inboundMailApp } from '../test/inbound.js';
import { multipart } from '../test/smtp.js';

let n = 0;

describe('a file the customer sent: "Use as approved card" asks first, holds its mail for Undo; "Save as document"', () => {
  const app = inboundMailApp();
  let t: TestApp;
  beforeAll(() => {
    ({ t } = app);
  });

  /** An order with a customer's answer carrying one PNG; answers the order and the file's id. */
  async function orderWithFile() {
    const email = `usecard${++n}@example.com`;
    const order = await createOrder(t.database, { email, re_enter_email: email, process_status: 'Awaiting' });
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const body = multipart({ message: 'My passport photo' }, [
      { field: 'files', name: 'passport.png', type: 'image/png', content: TINY_PNG },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${order.orderId}/replies`,
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const conv = (
      await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/conversation` })
    ).json().data;
    const file = conv.items.find((i: { direction: string }) => i.direction === 'in').attachments[0];
    return { orderId: order.orderId, fileId: file.id as number, email };
  }

  const docs = async (orderId: number) =>
    (
      await t.database.sql.query<{ id: number; withdrawn: boolean }>(
        'select id::int as id, withdrawn_at is not null as withdrawn from documents where order_id = $1',
        [orderId],
      )
    ).rows;
  const mails = async (orderId: number) =>
    (
      await t.database.sql.query<{ id: number; status: string; held: boolean }>(
        "select id::int as id, status, hold_until > now() as held from mail_log where order_id = $1 and kind = 'approval'",
        [orderId],
      )
    ).rows;

  it('without the confirmation: 409 naming the image, nothing stored or mailed; confirmed: the card, its mail held; Undo by someone else 403, by the member 200, then 409', async () => {
    const { orderId, fileId } = await orderWithFile();
    const url = `/api/admin/orders/${orderId}/conversation/attachments/${fileId}/use-as-card`;
    const unconfirmed = await t.as('Team', { method: 'POST', url, payload: { mailServiceProvider: 'AWS' } });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().message).toContain('passport.png came from the customer and is an image');
    expect(await docs(orderId)).toEqual([]);
    expect(await mails(orderId)).toEqual([]);

    const hostile = await t.as('Team', {
      method: 'POST',
      url,
      payload: { mailServiceProvider: 'AWS', confirmCustomerFile: 'yes\u0000' },
    });
    expect(hostile.statusCode).toBe(400);
    expect(await docs(orderId)).toEqual([]);

    const use = await t.as('Team', {
      method: 'POST',
      url,
      payload: { mailServiceProvider: 'AWS', confirmCustomerFile: true },
    });
    expect(use.statusCode).toBe(200);
    const { documentId, mailId, heldUntil } = use.json().data;
    expect(Date.parse(heldUntil)).toBeGreaterThan(Date.now());
    expect(use.json().message).toContain('Undo cancels it');
    expect(await mails(orderId)).toEqual([{ id: mailId, status: 'queued', held: true }]);

    const undoUrl = `/api/admin/orders/${orderId}/documents/${documentId}/undo`;
    const other = await t.as('Manager', { method: 'POST', url: undoUrl, payload: {} });
    expect(other.statusCode).toBe(403);
    const foreignOrder = await createOrder(t.database);
    const wrongOrder = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${foreignOrder.orderId}/documents/${documentId}/undo`,
      payload: {},
    });
    expect(wrongOrder.statusCode).toBe(404);
    const extra = await t.as('Team', { method: 'POST', url: undoUrl, payload: { force: true } });
    expect(extra.statusCode).toBe(400);
    expect(await mails(orderId)).toEqual([{ id: mailId, status: 'queued', held: true }]);

    const undo = await t.as('Team', { method: 'POST', url: undoUrl, payload: {} });
    expect(undo.statusCode).toBe(200);
    expect(undo.json().data).toEqual({ documentId, cancelledMailId: mailId });
    expect(await mails(orderId)).toEqual([{ id: mailId, status: 'cancelled', held: true }]);
    expect(await docs(orderId)).toEqual([{ id: documentId, withdrawn: true }]);
    const again = await t.as('Team', { method: 'POST', url: undoUrl, payload: {} });
    expect(again.statusCode).toBe(409);
    const { rows: events } = await t.database.sql.query<{ action: string; to_value: string }>(
      "select action, to_value from order_events where order_id = $1 and action in ('withdraw', 'mail') order by id",
      [orderId],
    );
    expect(events.map((e) => e.to_value)).toContain(`approval mail ${mailId} cancelled by Undo`);
    expect(events.map((e) => e.to_value)).toContain('Undone within the undo window');
  });

  it('after the undo window: Undo answers 409 and the mail goes', async () => {
    const { orderId, fileId } = await orderWithFile();
    const use = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${orderId}/conversation/attachments/${fileId}/use-as-card`,
      payload: { confirmCustomerFile: true },
    });
    expect(use.statusCode).toBe(200);
    const { documentId, mailId } = use.json().data;
    await t.database.sql.query("update mail_log set hold_until = now() - interval '1 second' where id = $1", [
      mailId,
    ]);
    const late = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${orderId}/documents/${documentId}/undo`,
      payload: {},
    });
    expect(late.statusCode).toBe(409);
    expect(await docs(orderId)).toEqual([{ id: documentId, withdrawn: false }]);
  });

  it('"Save as document": kept with the order, not the card, no mail; again changes nothing; another order\'s file 404', async () => {
    const { orderId, fileId } = await orderWithFile();
    const url = `/api/admin/orders/${orderId}/conversation/attachments/${fileId}/save-as-document`;
    const hostile = await t.as('Team', { method: 'POST', url, payload: { name: 'x\u0000' } });
    expect(hostile.statusCode).toBe(400);
    const other = await createOrder(t.database);
    const foreign = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${other.orderId}/conversation/attachments/${fileId}/save-as-document`,
      payload: {},
    });
    expect(foreign.statusCode).toBe(404);
    const save = await t.as('Team', { method: 'POST', url, payload: {} });
    expect(save.statusCode).toBe(200);
    expect(save.json().data).toMatchObject({
      attachmentId: fileId,
      name: 'passport.png',
      alreadySaved: false,
    });
    expect(save.json().message).toContain('It is not the approved card and nothing was mailed');
    const again = await t.as('Team', { method: 'POST', url, payload: {} });
    expect(again.json().data.alreadySaved).toBe(true);
    expect(await docs(orderId)).toEqual([]);
    expect(await mails(orderId)).toEqual([]);
    const conv = (
      await t.as('Team', { method: 'GET', url: `/api/admin/orders/${orderId}/conversation` })
    ).json().data;
    const file = conv.items.find((i: { direction: string }) => i.direction === 'in').attachments[0];
    expect(file.savedAt).toEqual(save.json().data.savedAt);
    const { rows } = await t.database.sql.query<{ n: number }>(
      "select count(*)::int as n from order_events where order_id = $1 and action = 'upload'",
      [orderId],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
