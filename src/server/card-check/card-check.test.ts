import { PDFDocument, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardField } from '../../shared/contracts/card-check.js';
import { storeBuffer } from '../documents/storage.js';
import { checkStoredCard, recheckPendingCards } from '../flows/card-check.js';
import { CARD_CHECK_RUNNING_MESSAGE, cardGate } from '../orders/card-gate.js';
import { readCardInWorker } from '../pdf/build.js';
import { DEFAULT_PDF_WORKER_LIMITS } from '../pdf/worker-pool.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { multipart } from '../test/smtp.js';
import { type CardExpectation, compareCard, normaliseCardDate } from './compare.js';
import { recordPendingCheck } from './store.js';

/**
 * The card check (docs/product.md, "Card check"): cards made here with pdf-lib (text, QR codes made with
 * the qrcode package, both), read back on the real PDF workers, compared with real orders; every path
 * that sends or completes is refused while the card is blocked and open after a Manager's release.
 */

type CardValues = Partial<
  Record<'surname' | 'given' | 'passport' | 'dob' | 'arrival' | 'flight' | 'ref', string>
>;

async function makeCard(
  v: CardValues,
  opts: { text?: boolean; qr?: 'json' | 'pairs' | null; nonce?: string } = {},
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setKeywords([opts.nonce ?? `${Math.random()}`]);
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  let y = 780;
  const line = (s: string) => {
    page.drawText(s, { x: 50, y, size: 12, font });
    y -= 22;
  };
  if (opts.text ?? true) {
    line('ARUBA EMBARKATION AND DISEMBARKATION CARD - APPROVED');
    if (v.ref) line(`ED Card Number: ${v.ref}`);
    if (v.surname) line(`Surname: ${v.surname}`);
    if (v.given) line(`Given names: ${v.given}`);
    if (v.passport) line(`Passport No.: ${v.passport}   Nationality: USA`);
    if (v.dob) line(`Date of birth: ${v.dob}`);
    if (v.arrival) line(`Arrival date: ${v.arrival}`);
    if (v.flight) line(`Flight: ${v.flight}`);
  }
  if (opts.qr) {
    const payload =
      opts.qr === 'json'
        ? JSON.stringify({
            ref: v.ref,
            surname: v.surname,
            given_names: v.given,
            passport_number: v.passport,
            date_of_birth: v.dob,
            arrival_date: v.arrival,
            flight: v.flight,
          })
        : `SURNAME=${v.surname ?? ''};FIRST NAME=${v.given ?? ''};PASSPORT NO=${v.passport ?? ''};DOB=${v.dob ?? ''}`;
    const png = await QRCode.toBuffer(payload, { margin: 2, scale: 4 });
    page.drawImage(await pdf.embedPng(png), { x: 350, y: 450, width: 180, height: 180 });
  }
  return Buffer.from(await pdf.save());
}

const expected: CardExpectation = {
  surname: 'Pérez Gómez',
  given_names: 'Ana María',
  passport_number: 'X1023456',
  date_of_birth: '1985-04-12',
  arrival_date: '2026-03-12',
  flight_number: 'B6 1234',
  reference: null,
};
const matching: CardValues = {
  surname: 'PEREZ GOMEZ',
  given: 'ANA MARIA',
  passport: 'X1023456',
  dob: '12/04/1985',
  arrival: '12 Mar 2026',
  flight: 'B6-1234',
  ref: 'ED-2026-000123',
};

const read = (bytes: Buffer) => readCardInWorker(DEFAULT_PDF_WORKER_LIMITS, bytes, 'application/pdf', 20_000);
const statusOf = (r: ReturnType<typeof compareCard>) =>
  Object.fromEntries(r.fields.map((f) => [f.field, f.status])) as Record<CardField, string>;

describe('reading and comparing a card', () => {
  it('text only: every field found and matched (diacritics, date formats, dashes); the reference is shown', async () => {
    const reading = await read(await makeCard(matching));
    const r = compareCard(reading, expected);
    expect(r.result).toBe('pass');
    expect(statusOf(r)).toEqual({
      surname: 'match',
      given_names: 'match',
      passport_number: 'match',
      date_of_birth: 'match',
      arrival_date: 'match',
      flight_number: 'match',
      reference: 'absent',
    });
    expect(r.fields.find((f) => f.field === 'reference')!.found).toBe('ED-2026-000123');
    expect(r.fields.find((f) => f.field === 'passport_number')!.found).toBe('X1023456');
  });

  it('QR only (JSON and key=value codes): the values come from the codes', async () => {
    for (const qr of ['json', 'pairs'] as const) {
      const reading = await read(await makeCard(matching, { text: false, qr }));
      expect(reading!.qr).toHaveLength(1);
      const r = compareCard(reading, expected);
      expect(r.result, qr).toBe('pass');
      expect(statusOf(r).passport_number).toBe('match');
      expect(statusOf(r).surname).toBe('match');
      expect(statusOf(r).date_of_birth).toBe('match');
    }
  });

  it('a code drawn as vector squares (no picture) is read from the rendered page', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    page.drawText(`Surname: ${matching.surname}`, { x: 50, y: 780, size: 12, font });
    const code = QRCode.create(
      JSON.stringify({ surname: matching.surname, passport_number: matching.passport, dob: matching.dob }),
      {},
    );
    const { size } = code.modules;
    const cell = 180 / (size + 4);
    for (let r = 0; r < size; r++)
      for (let c = 0; c < size; c++)
        if (code.modules.get(r, c))
          page.drawRectangle({
            x: 350 + (c + 2) * cell,
            y: 630 - (r + 3) * cell,
            width: cell,
            height: cell,
          });
    const reading = await read(Buffer.from(await pdf.save()));
    expect(reading!.qr).toHaveLength(1);
    const r = compareCard(reading, expected);
    expect(statusOf(r).passport_number).toBe('match');
    expect(statusOf(r).date_of_birth).toBe('match');
  });

  it('a code picture of one pixel a module, and one with a transparent background, are read', async () => {
    const payload = JSON.stringify({ surname: matching.surname, passport_number: matching.passport });
    for (const png of [
      await QRCode.toBuffer(payload, { margin: 2, scale: 1 }),
      await QRCode.toBuffer(payload, {
        margin: 2,
        scale: 4,
        color: { dark: '#000000ff', light: '#00000000' },
      }),
    ]) {
      const pdf = await PDFDocument.create();
      const page = pdf.addPage([595, 842]);
      page.drawImage(await pdf.embedPng(png), { x: 350, y: 450, width: 180, height: 180 });
      const reading = await read(Buffer.from(await pdf.save()));
      expect(reading!.qr).toEqual([payload]);
    }
  });

  it('two code pictures on one page: both are read', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    page.drawImage(await pdf.embedPng(await QRCode.toBuffer('FIRST', { margin: 2, scale: 4 })), {
      x: 50,
      y: 450,
      width: 150,
      height: 150,
    });
    page.drawImage(await pdf.embedPng(await QRCode.toBuffer('SECOND', { margin: 2, scale: 4 })), {
      x: 350,
      y: 450,
      width: 150,
      height: 150,
    });
    expect((await read(Buffer.from(await pdf.save())))!.qr).toEqual(['FIRST', 'SECOND']);
  });

  it('text and QR: a wrong passport number in the text is a mismatch naming both values', async () => {
    const reading = await read(await makeCard({ ...matching, passport: 'X1023457' }, { qr: 'json' }));
    expect(reading!.qr.length).toBe(1);
    const r = compareCard(reading, expected);
    expect(r.result).toBe('mismatch');
    expect(r.fields.find((f) => f.field === 'passport_number')).toEqual({
      field: 'passport_number',
      expected: 'X1023456',
      found: 'X1023457',
      status: 'mismatch',
    });
  });

  it('each field mismatched in turn is a mismatch of that field alone', async () => {
    const wrong: [keyof CardValues, string, CardField][] = [
      ['surname', 'PERERA', 'surname'],
      ['given', 'ANNA', 'given_names'],
      ['passport', 'Y1023456', 'passport_number'],
      ['dob', '13-04-1985', 'date_of_birth'],
      ['arrival', '2026-03-13', 'arrival_date'],
      ['flight', 'B6 1235', 'flight_number'],
    ];
    for (const [key, value, field] of wrong) {
      const r = compareCard(await read(await makeCard({ ...matching, [key]: value })), expected);
      expect(r.result, field).toBe('mismatch');
      expect(
        r.fields.filter((f) => f.status === 'mismatch').map((f) => f.field),
        field,
      ).toEqual([field]);
    }
  });

  it('the letter O for the digit 0 matches in a passport number only', async () => {
    const r = compareCard(await read(await makeCard({ ...matching, passport: 'X1O23456' })), expected);
    expect(statusOf(r).passport_number).toBe('match');
    const name = compareCard(await read(await makeCard({ ...matching, surname: 'PER0Z GOMEZ' })), expected);
    expect(statusOf(name).surname).toBe('mismatch');
  });

  it('a card with no text and no code is unread; a card without a field leaves it absent', async () => {
    const blank = await PDFDocument.create();
    blank.addPage([595, 842]);
    const r = compareCard(await read(Buffer.from(await blank.save())), expected);
    expect(r.result).toBe('unread');
    expect(r.fields.every((f) => f.status === 'absent')).toBe(true);
    const partial = compareCard(await read(await makeCard({ surname: 'Pérez-Gómez' })), expected);
    expect(partial.result).toBe('pass');
    expect(statusOf(partial).surname).toBe('match');
    expect(statusOf(partial).date_of_birth).toBe('absent');
  });

  it('dates in the accepted formats', () => {
    expect(normaliseCardDate('12-03-2026')).toBe('2026-03-12');
    expect(normaliseCardDate('12/03/2026')).toBe('2026-03-12');
    expect(normaliseCardDate('2026-03-12')).toBe('2026-03-12');
    expect(normaliseCardDate('12 Mar 2026')).toBe('2026-03-12');
    expect(normaliseCardDate('Mar 12, 2026')).toBe('2026-03-12');
    expect(normaliseCardDate('32/13/2026')).toBeNull();
  });
});

describe('the card gate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const newOrder = () =>
    createOrder(t.database, {
      last_name: 'Pérez Gómez',
      first_name: 'Ana María',
      passport_number: 'X1023456',
      date_of_birth: '1985-04-12',
      flight_number: 'B6 1234',
    });
  const cardFor = (o: { arrivalDate: string | null }, extra: CardValues = {}) =>
    makeCard({ ...matching, arrival: o.arrivalDate!, ...extra });

  const upload = (role: DemoRole, orderId: number, email: string, card: Buffer, complete = false) =>
    t.as(role, {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(
        {
          orderId: String(orderId),
          email,
          mailServiceProvider: 'AWS',
          ...(complete ? { complete: 'true' } : {}),
        },
        { name: 'card.pdf', type: 'application/pdf', content: card },
      ),
    });
  const approvalMails = async (orderId: number) =>
    (
      await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from mail_log where order_id = $1 and kind in ('approval', 'resend')`,
        [orderId],
      )
    ).rows[0]!.n;
  const statusOfOrder = async (orderId: number) =>
    (
      await t.database.sql.query<{ s: string; checks: { code: string }[] }>(
        'select process_status as s, checks from orders where order_id = $1',
        [orderId],
      )
    ).rows[0]!;
  const resend = (orderId: number, email: string) =>
    t.as('Admin', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: { orderId, email, mailServiceProvider: 'AWS' },
    });
  const complete = (orderId: number) =>
    t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId, updatingStatus: 'Completed', confirmRecent: true },
    });
  const release = (role: DemoRole, orderId: number, payload: Record<string, unknown>) =>
    t.as(role, { method: 'POST', url: `/api/admin/orders/${orderId}/card-check/release`, payload });

  it('a matching card is mailed; the check shows each field green', async () => {
    const o = await newOrder();
    const res = await upload('Team', o.orderId, o.email, await cardFor(o));
    expect(res.statusCode, res.body).toBe(200);
    const check = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/card-check` });
    expect(check.statusCode).toBe(200);
    const c = check.json().data.cardCheck;
    expect(c).toMatchObject({ result: 'pass', blocked: false, duplicateOf: null, running: false });
    expect(c.fields.filter((f: { status: string }) => f.status === 'match')).toHaveLength(6);
    expect(await approvalMails(o.orderId)).toBe(1);
  });

  it('a wrong passport number: stored, not mailed (409 naming both values); every sending path refused; a Manager releases', async () => {
    const o = await newOrder();
    const res = await upload('Team', o.orderId, o.email, await cardFor(o, { passport: 'X1023457' }));
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json();
    expect(body.message).toContain('passport number: the card says "X1023457", the order "X1023456"');
    expect(body.data.cardCheck).toMatchObject({ result: 'mismatch', blocked: true });
    expect(await approvalMails(o.orderId)).toBe(0);
    const docs = await t.database.sql.query('select id from documents where order_id = $1', [o.orderId]);
    expect(docs.rows).toHaveLength(1);
    expect((await statusOfOrder(o.orderId)).checks.map((c) => c.code)).toContain('card_mismatch');

    // Every path that sends the card or completes the order with it.
    const r1 = await resend(o.orderId, o.email);
    expect(r1.statusCode).toBe(409);
    expect(r1.json().data.cardCheck.blocked).toBe(true);
    expect((await complete(o.orderId)).statusCode).toBe(409);
    const macro = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: { name: `Complete ${o.orderId}`, moveTo: 'Completed' },
    });
    expect(macro.statusCode, macro.body).toBe(200);
    const applied = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: macro.json().data.id, orderIds: [o.orderId] },
    });
    expect(applied.json().data.orders[0]).toMatchObject({ result: 'refused' });
    expect((await statusOfOrder(o.orderId)).s).not.toBe('Completed');
    expect(await approvalMails(o.orderId)).toBe(0);

    // Release: Team may not; a hostile reason is refused; a Manager with a reason may.
    expect((await release('Team', o.orderId, { reason: 'looks fine to me' })).statusCode).toBe(403);
    expect((await release('Manager', o.orderId, { reason: 'ok\u0000' })).statusCode).toBe(400);
    expect((await release('Manager', o.orderId, { reason: 'x'.repeat(5000) })).statusCode).toBe(400);
    expect((await release('Manager', o.orderId, { reason: 'ok', extra: 1 })).statusCode).toBe(400);
    expect(
      (await release('Manager', 999_999_999, { reason: 'the government typo, confirmed' })).statusCode,
    ).toBe(404);
    const ok = await release('Manager', o.orderId, { reason: 'Government typo, confirmed by phone' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.cardCheck).toMatchObject({
      blocked: false,
      release: { reason: 'Government typo, confirmed by phone', by: expect.any(String) },
    });
    expect((await statusOfOrder(o.orderId)).checks.map((c) => c.code)).not.toContain('card_mismatch');
    const audit = await t.database.sql.query(
      `select target from audit_log where action = 'card-check.release' and target like $1`,
      [`order ${o.orderId},%`],
    );
    expect(audit.rows).toHaveLength(1);
    expect((await release('Manager', o.orderId, { reason: 'again please' })).statusCode).toBe(409);

    // Open after the release.
    expect((await resend(o.orderId, o.email)).statusCode).toBe(200);
    expect((await complete(o.orderId)).statusCode).toBe(200);
    expect(await approvalMails(o.orderId)).toBe(1);
  });

  it('a new upload checks again and clears an earlier release', async () => {
    const o = await newOrder();
    expect(
      (await upload('Team', o.orderId, o.email, await cardFor(o, { surname: 'PERERA' }))).statusCode,
    ).toBe(409);
    expect((await release('Admin', o.orderId, { reason: 'name checked by hand' })).statusCode).toBe(200);
    const again = await upload('Team', o.orderId, o.email, await cardFor(o, { dob: '1985-04-13' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().data.cardCheck).toMatchObject({ blocked: true, release: null });
    expect((await resend(o.orderId, o.email)).statusCode).toBe(409);
    // A right card: mailed, the check clears.
    const right = await upload('Team', o.orderId, o.email, await cardFor(o));
    expect(right.statusCode, right.body).toBe(200);
    expect((await statusOfOrder(o.orderId)).checks.map((c) => c.code)).not.toContain('card_mismatch');
  });

  it("another order's card file is a duplicate: refused although every field would be absent", async () => {
    const a = await newOrder();
    const b = await createOrder(t.database);
    const card = await cardFor(a);
    expect((await upload('Team', a.orderId, a.email, card)).statusCode).toBe(200);
    const res = await upload('Team', b.orderId, b.email, card);
    expect(res.statusCode).toBe(409);
    expect(res.json().data.cardCheck.duplicateOf).toBe(a.orderId);
    expect(res.json().message).toContain(`the same file is the card of order ${a.orderId}`);
    expect((await statusOfOrder(b.orderId)).checks.map((c) => c.code)).toContain('card_duplicate');
  });

  it('Upload, mail and complete with a wrong card: stored, not mailed, not completed', async () => {
    const o = await newOrder();
    const res = await upload('Team', o.orderId, o.email, await cardFor(o, { flight: 'KL 735' }), true);
    expect(res.statusCode).toBe(409);
    expect((await statusOfOrder(o.orderId)).s).not.toBe('Completed');
    expect(await approvalMails(o.orderId)).toBe(0);
  });

  it('an unreadable card is information only: mailed, card_unreadable shown', async () => {
    const o = await newOrder();
    const blank = await PDFDocument.create();
    blank.addPage([595, 842]);
    blank.setKeywords([`${o.orderId}`]);
    const res = await upload('Team', o.orderId, o.email, Buffer.from(await blank.save()));
    expect(res.statusCode, res.body).toBe(200);
    const checks = (await statusOfOrder(o.orderId)).checks;
    expect(checks).toContainEqual(expect.objectContaining({ code: 'card_unreadable', severity: 'info' }));
  });

  it('a card stored by a job: checkStoredCard records its check and cardGate holds the send', async () => {
    const o = await newOrder();
    const stored = await storeBuffer(t.config, await cardFor(o, { given: 'JUANA' }), 'pdf');
    const { rows } = await t.database.sql.query<{ id: number }>(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, $2, 'card.pdf', 'application/pdf', $3, $4) returning id::int as id`,
      [o.orderId, stored.key, stored.size, stored.sha256],
    );
    const check = await checkStoredCard(t.app.ctx, rows[0]!.id);
    expect(check).toMatchObject({ result: 'mismatch', blocked: true });
    expect(await cardGate(t.database.db, o.orderId)).toMatchObject({ state: 'blocked' });
  });

  it('a card stored while the workers were busy is "still being checked" until the sweep reads it', async () => {
    const o = await newOrder();
    const stored = await storeBuffer(t.config, await cardFor(o), 'pdf');
    const { rows } = await t.database.sql.query<{ id: number }>(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, $2, 'card.pdf', 'application/pdf', $3, $4) returning id::int as id`,
      [o.orderId, stored.key, stored.size, stored.sha256],
    );
    await recordPendingCheck(t.database.db, o.orderId, rows[0]!.id);
    const held = await resend(o.orderId, o.email);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe(CARD_CHECK_RUNNING_MESSAGE);
    expect((await complete(o.orderId)).statusCode).toBe(409);
    expect(await recheckPendingCards(t.app.ctx)).toBeGreaterThanOrEqual(1);
    expect((await resend(o.orderId, o.email)).statusCode).toBe(200);
  });

  it('GET card-check: null without a card, 404 for an unknown order, 400 for a hostile id', async () => {
    const o = await createOrder(t.database);
    const none = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/card-check` });
    expect(none.json().data).toEqual({ cardCheck: null });
    expect(
      (await t.as('Team', { method: 'GET', url: '/api/admin/orders/999999999/card-check' })).statusCode,
    ).toBe(404);
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/orders/1%00/card-check' })).statusCode).toBe(
      400,
    );
  });
});
