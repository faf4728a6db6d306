import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateTextProblems } from '../../../shared/contracts/communication.js';
import { customerRequestText } from '../../customer/request-text.js';
import { renderTemplate } from '../../communication/render.js';
import { createTestApp, type TestApp } from '../app.js';
import { createOrder } from '../factories.js';

/**
 * Text that is valid JSON but no valid text or template: unpaired surrogates (PostgreSQL refuses them in
 * jsonb, so they answered 500) and template variables named after Object.prototype members (`in` found
 * them, so `{{constructor}}` rendered native code or threw).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_SITE_URL: 'https://edcard.example' });
});
afterAll(() => t.close());

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'];
const SURROGATES = ['a\ud800b', 'end\ud83d', '\udc00start'];

async function counts() {
  const { rows } = await t.database.sql.query(
    `select (select count(*)::int from macros) macros, (select count(*)::int from mail_template_versions) versions,
            (select count(*)::int from audit_log) audit`,
  );
  return rows[0];
}

describe('unpaired surrogates', () => {
  it('are refused with 400 in macros, template names and the export event; nothing is written', async () => {
    const before = await counts();
    for (const bad of SURROGATES) {
      const tries = [
        await t.as('Admin', { method: 'POST', url: '/api/admin/macros', payload: { name: `Macro ${bad}` } }),
        await t.as('Admin', {
          method: 'POST',
          url: '/api/admin/macros',
          payload: { name: 'Macro ok', remark: `Remark ${bad}` },
        }),
        await t.as('Admin', {
          method: 'POST',
          url: '/api/admin/mail-templates',
          payload: { name: `Name ${bad}`, language: 'en', subject: 'Hello', body: 'Body' },
        }),
        await t.as('Admin', {
          method: 'POST',
          url: '/api/admin/mail-templates',
          payload: { name: 'Surrogate body', language: 'en', subject: 'Hello', body: `Body ${bad}` },
        }),
        await t.as('Team', {
          method: 'POST',
          url: '/api/admin/audit/export-event',
          payload: { screen: 'insights', rows: 3, detail: `detail ${bad}` },
        }),
        await t.as('Admin', {
          method: 'POST',
          url: '/api/admin/search-order',
          payload: { searchVal: bad, folderName: 'allOrder', start: 0, end: 10 },
        }),
      ];
      for (const res of tries) {
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(/must not contain control characters/);
        expect(res.body).not.toMatch(/at .*\.ts/);
      }
    }
    expect(await counts()).toEqual(before);
    // A well-formed pair (an emoji) is text and stays welcome.
    const emoji = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: { name: 'Thanks \ud83d\ude00', remark: 'Said thanks \ud83d\ude00' },
    });
    expect(emoji.statusCode, emoji.body).toBe(200);
  });
});

describe('template variables named after prototype members', () => {
  it('are unknown variables: refused on save with their name', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(templateTextProblems(`Hi {{${name}}}`)).toEqual([`uses the unknown variable {{${name}}}`]);
      const res = await t.as('Admin', {
        method: 'POST',
        url: '/api/admin/mail-templates',
        payload: { name: `Proto ${name}`, language: 'en', subject: 'Hello', body: `Hi {{${name}}}` },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(`{{${name}}}`);
    }
  });

  it('render as written, never native code: the preview answers 200', async () => {
    const order = await createOrder(t.database, { first_name: 'Ana' });
    for (const name of PROTOTYPE_NAMES) {
      const res = await t.as('Team', {
        method: 'POST',
        url: '/api/admin/mail-templates/preview',
        payload: {
          orderId: order.orderId,
          subject: `S {{${name}}}`,
          body: `Dear {{first_name}} {{${name}}}`,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { subject, text, html } = res.json().data;
      expect(subject).toBe(`S {{${name}}}`);
      expect(text).toBe(`Dear Ana {{${name}}}`);
      expect(html).not.toContain('native code');
    }
    const direct = renderTemplate(
      { subject: '{{constructor}}', body: '{{valueOf}} {{toString}} {{first_name}}', language: 'en' },
      { first_name: 'Ana' },
    );
    expect(direct.subject).toBe('{{constructor}}');
    expect(direct.text).toBe('{{valueOf}} {{toString}} Ana');
  });

  it("a stored template that uses one does not break the customer's download history", async () => {
    const order = await createOrder(t.database, { first_name: 'Bea', process_status: 'Awaiting' });
    // A template saved before the check knew better, as it stands in the database.
    const { rows } = await t.database.sql.query<{ id: number }>(
      `insert into mail_templates (key, language, purpose, name, current_version)
       values ('proto-old', 'en', 'customer', 'Old proto', 1) returning id`,
    );
    const templateId = rows[0]!.id;
    await t.database.sql.query(
      `insert into mail_template_versions (template_id, version, subject, body)
       values ($1, 1, 'Hi', 'Please send {{constructor}} and {{__proto__}}, {{first_name}}')`,
      [templateId],
    );
    await t.database.sql.query(
      `insert into mail_log (order_id, kind, to_email, provider, status, template_id, template_version)
       values ($1, 'macro', $2, 'AWS', 'sent', $3, 1)`,
      [order.orderId, order.email, templateId],
    );
    expect(await customerRequestText(t.database.db, t.config, order.orderId, null)).toBe(
      'Please send {{constructor}} and {{__proto__}}, Bea',
    );
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/front/track-order',
      payload: { orderId: String(order.orderId), email: order.email },
    });
    expect(track.statusCode, track.body).toBe(200);
    const history = await t.app.inject({
      method: 'POST',
      url: '/api/front/get-download-history',
      headers: { authorization: `Bearer ${track.json().data.token}` },
      payload: { orderId: order.orderId },
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).not.toContain('native code');
  });
});

describe('POST /api/admin/mail-templates without a key', () => {
  it('derives a new, unique key from the name', async () => {
    const payload = {
      name: 'Hotel booking missing!',
      language: 'en',
      subject: 'Hello',
      body: 'Hi {{first_name}}',
    };
    const first = await t.as('Admin', { method: 'POST', url: '/api/admin/mail-templates', payload });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      key: 'hotel-booking-missing',
      language: 'en',
      purpose: 'customer',
    });
    const second = await t.as('Admin', { method: 'POST', url: '/api/admin/mail-templates', payload });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.key).toBe('hotel-booking-missing-2');
    const accents = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: { ...payload, name: 'Documentación pendiente', language: 'es' },
    });
    expect(accents.json().data.key).toBe('documentacion-pendiente');
    // Saving a version without a key keeps the template's own.
    const saved = await t.as('Admin', {
      method: 'PUT',
      url: `/api/admin/mail-templates/${first.json().data.id}`,
      payload: { ...payload, subject: 'Hello again' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ key: 'hotel-booking-missing', version: 2 });
    // A given key is still checked.
    const bad = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: { ...payload, key: 'Not A Key' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
