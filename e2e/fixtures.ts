import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { passportOfFormat } from '../src/shared/order-checks.js';

export type DemoRole = 'Admin' | 'Manager' | 'Team' | 'Telecaller' | 'Night Staff';
export const DEMO_EMAILS: Record<DemoRole, string> = {
  Admin: 'admin@demo.test',
  Manager: 'manager@demo.test',
  Team: 'team@demo.test',
  Telecaller: 'telecaller@demo.test',
  'Night Staff': 'night@demo.test',
};
export const DEMO_PASSWORD = 'demo-password';

/** A demo member's token, signed in through the API: the `authorization` header of staff calls. */
export async function staffToken(api: APIRequestContext, role: DemoRole = 'Team'): Promise<string> {
  const res = await api.post('/api/admin/admin-login', {
    data: { email: DEMO_EMAILS[role], password: DEMO_PASSWORD },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).jwtToken as string;
}

/** Signs in through the API and stores the session the way the SPA does (localStorage `user`). */
export async function loginAs(page: Page, role: DemoRole): Promise<string> {
  const token = await staffToken(page.request, role);
  await page.addInitScript((t) => localStorage.setItem('user', JSON.stringify({ accessToken: t })), token);
  return token;
}

/** The intake key playwright.config.ts gives the app. */
export const INTAKE_KEY = 'e2e-intake-key-0123456789';

export interface MadeOrder {
  orderId: number;
  email: string;
  /** The intake's answer (`order_id`, `checks`, …). */
  data: Record<string, unknown>;
}

let made = 0;

/**
 * A paid order, posted as the application site posts it (`POST /api/intake/orders`). A spec gives only
 * the fields it cares about; the rest is a complete traveller from the Netherlands arriving 2030-01-15,
 * with an e-mail address and a passport number (of its nationality's format) of its own. `lang` is the customer's language (`?lang=`).
 */
export async function makeOrder(
  api: APIRequestContext,
  fields: Record<string, unknown> = {},
  opts: { lang?: string } = {},
): Promise<MadeOrder> {
  made += 1;
  const stamp = `${Date.now()}${Math.round(Math.random() * 1e6)}${made}`;
  const email = (fields.email as string | undefined) ?? `e2e.${stamp}@example.com`;
  const res = await api.post(`/api/intake/orders${opts.lang ? `?lang=${opts.lang}` : ''}`, {
    headers: { 'x-intake-key': INTAKE_KEY },
    data: {
      client_reference: `e2e-${stamp}`,
      email,
      re_enter_email: email,
      processing_mode: 'Standard',
      arrival_date: '2030-01-15',
      passport_number: passportOfFormat(
        (fields.nationality as string | undefined) ?? 'Netherlands',
        'E',
        stamp,
      ),
      last_name: 'Traveller',
      first_name: 'Tess',
      nationality: 'Netherlands',
      country_of_residence: 'NLD',
      phone_code: '31',
      telephone_number: '612345678',
      processing_date: '2020-01-01',
      amount: 59,
      currency: 'USD',
      ...fields,
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const data = (await res.json()).data as Record<string, unknown>;
  return { orderId: data.order_id as number, email, data };
}

/** Today in UTC, as the specs that process an order today send it. */
export const todayIso = () => new Date().toISOString().slice(0, 10);

export const test = base;
export { expect };

/** A one-page PDF with a line of text: an approved card to upload. */
export async function approvedPdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 20, font });
  return Buffer.from(await pdf.save());
}

/** Moves an order through the API, as staff with `token`. */
export async function moveOrder(api: APIRequestContext, token: string, orderId: number, status: string) {
  const res = await api.put('/api/admin/move-order-status', {
    headers: { authorization: token },
    data: { orderId, updatingStatus: status },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Adds a remark through the API, as staff with `token`; `flags` set its remark flags (`'Y'`), e.g. telephone. */
export async function addRemark(
  api: APIRequestContext,
  token: string,
  orderId: number,
  remark: string,
  flags: Record<string, 'Y' | 'N'> = {},
) {
  const res = await api.post('/api/admin/add-new-remark', {
    headers: { authorization: token },
    data: { orderId, remark, ...flags },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Uploads an approved card for the order through the API (it is mailed to `email`), as staff with `token`. */
export async function uploadApprovedCard(
  api: APIRequestContext,
  token: string,
  order: { orderId: number; email: string },
) {
  const res = await api.post('/api/admin/upload-visa-document', {
    headers: { authorization: token },
    multipart: {
      orderId: String(order.orderId),
      email: order.email,
      mailServiceProvider: 'AWS',
      uploadVisaDoc: {
        name: 'approved.pdf',
        mimeType: 'application/pdf',
        buffer: await approvedPdf(`Approved card ${order.orderId}`),
      },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Every violation of WCAG 2.1 A and AA on the page, whatever its impact, as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
  );
}

export async function expectNoAxeViolations(page: Page, label: string) {
  expect(await axeViolations(page), label).toEqual([]);
}

/** The page is no wider than the viewport: nothing scrolls sideways. */
export async function expectNoHorizontalScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** Waits until a chart's canvas is visible and holds more than `minPixels` drawn (non-transparent) pixels. */
export async function expectCanvasDrawn(canvas: Locator, minPixels: number) {
  await expect(canvas).toBeVisible();
  await expect
    .poll(() =>
      canvas.evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
        return painted;
      }),
    )
    .toBeGreaterThan(minPixels);
}
