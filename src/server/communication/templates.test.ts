import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateLanguage } from '../../shared/contracts/communication.js';
import { renderApprovalNotice } from './approval-notice.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { BUILTIN_TEMPLATES } from './builtin-templates.js';
import { renderBody } from './render.js';
import { renderForOrder, resolveTemplate } from './templates.js';

const ALT_HOST = 'alt-landing.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ALT_LANDING_HOST: ALT_HOST, PUBLIC_SITE_URL: 'https://edcard.example' });
});
afterAll(async () => {
  await t.close();
});

const valid = (over: Record<string, unknown> = {}) => ({
  key: 'docs-missing',
  name: 'Documents missing',
  language: 'en',
  purpose: 'customer',
  subject: 'Order {{order_id}}: one more document',
  body: 'Dear {{first_name}},\n\nWe need **one more document**. See {{track_url}}.\n\n- a passport photo\n- your hotel booking',
  ...over,
});

async function templateRows(key: string) {
  const { rows } = await t.database.sql.query<{ id: number; language: string; deleted: boolean }>(
    'select id, language, deleted_at is not null as deleted from mail_templates where key = $1 order by id',
    [key],
  );
  return rows;
}

async function auditActions(action: string) {
  const res = await t.as('Admin', { method: 'GET', url: `/api/admin/audit-log?action=${action}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.entries as { action: string; target: string }[];
}

describe('built-in templates', () => {
  it('the migration holds exactly the built-in templates of builtin-templates.ts, version 1', async () => {
    for (const b of BUILTIN_TEMPLATES) {
      for (const [language, text] of Object.entries(b.texts)) {
        const found = await resolveTemplate(t.database.db, b.key, language as TemplateLanguage);
        expect(found, `${b.key} ${language}`).toMatchObject({
          language,
          purpose: b.purpose,
          subject: text.subject,
          body: text.body,
        });
      }
    }
  });

  it('English built-ins give today’s subject and text, for both brands', async () => {
    for (const landing of ['arubaedcard.example', ALT_HOST]) {
      const order = await createOrder(t.database, {
        first_name: 'Maria',
        last_name: 'Croes',
        landing_domain: landing,
        amount: 79.5,
        currency: 'EUR',
      });
      const opts = {
        siteUrl: t.config.PUBLIC_SITE_URL,
        altLandingHost: ALT_HOST,
        supportEmail: t.config.SUPPORT_EMAIL,
      };
      const orderFields = {
        order_id: order.orderId,
        first_name: 'Maria',
        last_name: 'Croes',
        email: order.email,
        landing_domain: landing,
      };
      const render = async (key: string) =>
        renderForOrder(
          t.database.db,
          t.config,
          order.orderId,
          (await resolveTemplate(t.database.db, key, 'en'))!,
        );
      for (const [key, reminder] of [
        ['approval-notice', false],
        ['approval-reminder', true],
      ] as const) {
        const today = renderApprovalNotice(orderFields, { ...opts, reminder });
        const mail = (await render(key))!;
        expect(mail.subject).toBe(today.subject);
        expect(mail.text).toBe(today.text);
      }
      const brand = landing === ALT_HOST ? 'Aruba Card' : 'Aruba ED Card';
      // No SUPPORT_EMAIL: the sender address of MAIL_FROM for both brands (decision 361).
      const support = 'no-reply@ed-card.test';
      const refund = (await render('refund-confirmation'))!;
      expect(refund.subject).toBe(`Your refund for order ${order.orderId} has been processed`);
      expect(refund.text).toBe(
        [
          'Dear Maria Croes,',
          '',
          `Your refund of 79.50 EUR for order ${order.orderId} has been processed. Depending on your bank it can take 5 to 10 business days to appear on your statement.`,
          '',
          `Questions? ${support}`,
          '',
          brand,
        ].join('\n'),
      );
      expect(refund.html).toContain(`<a href="mailto:${support}">${support}</a>`);
      const invoice = (await render('invoice'))!;
      expect(invoice.subject).toMatch(new RegExp(`^Invoice \\S+ for your order ${order.orderId}$`));
      expect(invoice.text).toBe(
        [
          'Dear Maria Croes,',
          '',
          `Please find attached the invoice for your Aruba ED Card order ${order.orderId}.`,
          `Track your order: https://edcard.example/track-order/${order.orderId}`,
          '',
          brand,
        ].join('\n'),
      );
    }
  });
});

describe('the Markdown subset', () => {
  it('renders blocks and inline marks, keeps raw HTML as text and links only safe addresses', () => {
    const { html, text } = renderBody(
      '# Title\n\nA **bold** and *soft* [link](https://x.example/a) and [bad](javascript:alert(1)) and [also](javascript:x).\nNext line <b>raw</b>\n\n- one\n- two\n\n---\n\n\\*not italic\\*',
      {},
    );
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>soft</em>');
    expect(html).toContain('<a href="https://x.example/a">link</a>');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('&lt;b&gt;raw&lt;/b&gt;');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<p>*not italic*</p>');
    expect(text).toBe(
      'Title\n\nA bold and soft link (https://x.example/a) and [bad](javascript:alert(1)) and also.\nNext line <b>raw</b>\n\n- one\n- two\n\n----\n\n*not italic*',
    );
  });
});

describe('template API', () => {
  it('Admin creates, saves new versions (old kept), lists, deletes; each change audited', async () => {
    const created = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: valid(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const tpl = created.json().data;
    expect(tpl).toMatchObject({ key: 'docs-missing', language: 'en', version: 1 });

    const saved = await t.as('Manager', {
      method: 'PUT',
      url: `/api/admin/mail-templates/${tpl.id}`,
      payload: valid({ subject: 'Order {{order_id}}: a document is missing' }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.version).toBe(2);
    expect(
      saved.json().data.versions.map((v: { version: number; subject: string }) => [v.version, v.subject]),
    ).toEqual([
      [2, 'Order {{order_id}}: a document is missing'],
      [1, 'Order {{order_id}}: one more document'],
    ]);

    const list = await t.as('Telecaller', { method: 'GET', url: '/api/admin/mail-templates' });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.find((x: { id: number }) => x.id === tpl.id).version).toBe(2);
    // Every built-in in five languages is there.
    expect(list.json().data.filter((x: { key: string }) => x.key === 'approval-notice')).toHaveLength(5);

    const del = await t.as('Admin', { method: 'DELETE', url: `/api/admin/mail-templates/${tpl.id}` });
    expect(del.statusCode, del.body).toBe(200);
    expect(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/mail-templates' }))
        .json()
        .data.some((x: { id: number }) => x.id === tpl.id),
    ).toBe(false);
    expect(await templateRows('docs-missing')).toEqual([{ id: tpl.id, language: 'en', deleted: true }]);
    const { rows: versions } = await t.database.sql.query(
      'select version from mail_template_versions where template_id = $1',
      [tpl.id],
    );
    expect(versions).toHaveLength(2);

    for (const action of ['template.create', 'template.update', 'template.delete']) {
      expect(
        (await auditActions(action)).some((e) => e.target.startsWith(`template ${tpl.id} `)),
        action,
      ).toBe(true);
    }
  });

  it('an unknown variable is refused with its name; nothing is saved', async () => {
    const res = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: valid({ key: 'unknown-var', body: 'Hello {{nickname}}, your order {{order_id}}' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('{{nickname}}');
    expect(await templateRows('unknown-var')).toEqual([]);
    const subject = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: valid({ key: 'unknown-var', subject: 'Hi {{ passport }}' }),
    });
    expect(subject.statusCode).toBe(400);
    expect(subject.json().message).toContain('{{passport}}');
  });

  it('hostile fields: NUL and control characters, a huge body, private-use characters, another role', async () => {
    const before = (await t.database.sql.query('select count(*)::int as n from mail_template_versions'))
      .rows[0];
    const cases = [
      valid({ key: 'hostile-a', body: 'Dear {{first_name}}\u0000' }),
      valid({ key: 'hostile-b', subject: 'Order\u0007 {{order_id}}' }),
      valid({ key: 'hostile-c', body: 'x'.repeat(20_001) }),
      valid({ key: 'hostile-d', body: 'a \uE000 0 \uE001' }),
      valid({ key: 'Hostile E' }),
      valid({ key: 'hostile-f', language: 'fr' }),
    ];
    for (const payload of cases) {
      const res = await t.as('Admin', { method: 'POST', url: '/api/admin/mail-templates', payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await t.as(role, {
        method: 'POST',
        url: '/api/admin/mail-templates',
        payload: valid({ key: 'by-team' }),
      });
      expect(res.statusCode).toBe(403);
    }
    const builtin = (await resolveTemplate(t.database.db, 'refund-confirmation', 'en'))!;
    const teamPut = await t.as('Team', {
      method: 'PUT',
      url: `/api/admin/mail-templates/${builtin.id}`,
      payload: valid({ key: 'refund-confirmation', purpose: 'refund' }),
    });
    expect(teamPut.statusCode).toBe(403);
    const teamDelete = await t.as('Team', {
      method: 'DELETE',
      url: `/api/admin/mail-templates/${builtin.id}`,
    });
    expect(teamDelete.statusCode).toBe(403);
    const after = (await t.database.sql.query('select count(*)::int as n from mail_template_versions'))
      .rows[0];
    expect(after).toEqual(before);
  });

  it('built-in English templates cannot be deleted or re-keyed', async () => {
    const builtin = (await resolveTemplate(t.database.db, 'approval-notice', 'en'))!;
    const del = await t.as('Admin', { method: 'DELETE', url: `/api/admin/mail-templates/${builtin.id}` });
    expect(del.statusCode).toBe(409);
    const rekey = await t.as('Admin', {
      method: 'PUT',
      url: `/api/admin/mail-templates/${builtin.id}`,
      payload: valid({ key: 'approval-x', purpose: 'approval' }),
    });
    expect(rekey.statusCode).toBe(409);
  });

  it('values are escaped: a <script> first name stays text in the preview of a real order', async () => {
    const order = await createOrder(t.database, {
      first_name: '<script>alert(1)</script>',
      last_name: '**Bold** [x](javascript:1)',
    });
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/mail-templates/preview',
      payload: {
        orderId: order.orderId,
        subject: 'Hi {{first_name}}',
        body: 'Dear {{full_name}}, see {{track_url}}',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html, text, subject } = res.json().data;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('**Bold** [x](javascript:1)');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain(`<a href="https://edcard.example/track-order/${order.orderId}">`);
    expect(text).toContain('Dear <script>alert(1)</script> **Bold** [x](javascript:1), see https://');
    expect(subject).toBe('Hi <script>alert(1)</script>');
    const missing = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/mail-templates/preview',
      payload: { orderId: 999_999_999, subject: 'x', body: 'y' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('a translation is picked by the order language, English when the language has none', async () => {
    const es = await createOrder(t.database, { first_name: 'Ana' });
    await t.database.sql.query(`update orders set language = 'es' where order_id = $1`, [es.orderId]);
    const tpl = await resolveTemplate(t.database.db, 'awaiting-customer', 'es');
    expect(tpl?.language).toBe('es');
    await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: valid({ key: 'only-english' }),
    });
    expect((await resolveTemplate(t.database.db, 'only-english', 'pap'))?.language).toBe('en');
  });
});
