import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DEMO_EMAILS, DEMO_PASSWORD, expect, test } from './fixtures.js';

const INTAKE_KEY = 'e2e-intake-key-0123456789';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

interface Tracked {
  orderId: number;
  email: string;
}

async function staffToken(api: APIRequestContext): Promise<string> {
  const login = await api.post('/api/admin/admin-login', {
    data: { email: DEMO_EMAILS.Admin, password: DEMO_PASSWORD },
  });
  return (await login.json()).jwtToken as string;
}

/** A paid order of a traveller who reads Spanish, from the intake API. */
async function spanishOrder(api: APIRequestContext, n: number): Promise<Tracked> {
  const stamp = `${Date.now()}-${n}`;
  const email = `Cliente.${stamp}@Example.com`;
  const created = await api.post('/api/intake/orders?lang=es', {
    headers: { 'x-intake-key': INTAKE_KEY },
    data: {
      client_reference: `e2e-customer-page-2-${stamp}`,
      email,
      re_enter_email: email,
      processing_mode: 'Standard',
      arrival_date: '2030-01-15',
      passport_number: `Q${String(n).padStart(8, '0')}`,
      last_name: `Viaje${n}`,
      first_name: 'Lucía',
      nationality: 'Spain',
      country_of_residence: 'ESP',
      processing_date: '2020-01-01',
      amount: 59,
      currency: 'USD',
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  return { orderId: (await created.json()).data.order_id as number, email };
}

async function move(api: APIRequestContext, orderId: number, status: string) {
  const moved = await api.put('/api/admin/move-order-status', {
    headers: { authorization: await staffToken(api) },
    data: { orderId, updatingStatus: status },
  });
  expect(moved.ok(), await moved.text()).toBeTruthy();
}

async function upload(api: APIRequestContext, order: Tracked) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(`Approved card ${order.orderId}`, { x: 50, y: 780, size: 20, font });
  const res = await api.post('/api/admin/upload-visa-document', {
    headers: { authorization: await staffToken(api) },
    multipart: {
      orderId: String(order.orderId),
      email: order.email,
      mailServiceProvider: 'AWS',
      uploadVisaDoc: {
        name: 'approved.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await pdf.save()),
      },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

let refunded: Tracked;
let approved: Tracked;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  refunded = await spanishOrder(api, 1);
  // A refund flag on a remark moves the order to Refunds; Completed Refunds (Refunded) follows from there.
  const remark = await api.post('/api/admin/add-new-remark', {
    headers: { authorization: await staffToken(api) },
    data: { orderId: refunded.orderId, remark: 'Customer asked for a refund', statusRefund: 'Y' },
  });
  expect(remark.ok(), await remark.text()).toBeTruthy();
  await move(api, refunded.orderId, 'Refunded');
  approved = await spanishOrder(api, 2);
  await upload(api, approved);
  await api.dispose();
});

async function track(page: Page, order: Tracked) {
  await page.goto('/track-order?lang=es');
  await page.getByLabel('Número de pedido').fill(String(order.orderId));
  await page.getByLabel('Correo electrónico').fill(order.email);
  await page.getByRole('button', { name: 'BUSCAR PEDIDO' }).click();
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
}

async function expectNoHorizontalScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** The element's box lies inside the 390 px viewport. */
async function expectInsideViewport(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
}

test('a refunded order reads one message: refunded, not "being processed"', async ({ page }) => {
  await track(page, refunded);
  await expect(page.getByRole('heading', { level: 1, name: 'Reembolsado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Progreso del pedido' })).toContainText('reembols');
  await expect(page.locator('main')).not.toContainText('procesando');
  await expectNoHorizontalScroll(page);
});

test('at 390 px the Spanish approval preview and the history fit, device words in Spanish', async ({
  page,
}) => {
  await track(page, approved);
  // The approval preview is the mail in the customer's language, inside the screen.
  await page.getByRole('button', { name: /correo de aprobación/i }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const frame = page.frameLocator('iframe.c-notice-frame');
  await expect(frame.locator('body')).toContainText('aprobada');
  await expectInsideViewport(page, 'dialog.c-dialog');
  await expectInsideViewport(page, 'iframe.c-notice-frame');
  await expectNoHorizontalScroll(page);
  await dialog.getByRole('button').first().click();

  // One download: its history row names the device in Spanish; the table scrolls inside its own box.
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: /descargar/i }).click();
  await downloaded;
  const table = page.getByRole('table', { name: 'Historial de descargas' });
  const row = table.getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(4)).toHaveText('Ordenador de escritorio');
  await expect(row.getByRole('cell').nth(8)).toHaveText('Desconocido');
  await expectInsideViewport(page, '.c-table-wrap');
  await expectNoHorizontalScroll(page);
});
