import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import {
  addRemark,
  expect,
  expectNoHorizontalScroll,
  makeOrder,
  moveOrder,
  staffToken,
  test,
  uploadApprovedCard,
} from './fixtures.js';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

interface Tracked {
  orderId: number;
  email: string;
}

/** A paid order of a traveller who reads Spanish, from the intake API. */
const spanishOrder = (api: APIRequestContext, n: number): Promise<Tracked> =>
  makeOrder(
    api,
    {
      email: `Cliente.${Date.now()}-${n}@Example.com`,
      passport_number: `Q${String(n).padStart(8, '0')}`,
      last_name: `Viaje${n}`,
      first_name: 'Lucía',
      nationality: 'Spain',
      country_of_residence: 'ESP',
    },
    { lang: 'es' },
  );

let refunded: Tracked;
let approved: Tracked;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  refunded = await spanishOrder(api, 1);
  // A refund flag on a remark moves the order to Refunds; Completed Refunds (Refunded) follows from there.
  const admin = await staffToken(api, 'Admin');
  await addRemark(api, admin, refunded.orderId, 'Customer asked for a refund', { statusRefund: 'Y' });
  await moveOrder(api, admin, refunded.orderId, 'Refunded');
  approved = await spanishOrder(api, 2);
  await uploadApprovedCard(api, admin, approved);
  await api.dispose();
});

async function track(page: Page, order: Tracked) {
  await page.goto('/track-order?lang=es');
  await page.getByLabel('Número de pedido').fill(String(order.orderId));
  await page.getByLabel('Correo electrónico').fill(order.email);
  await page.getByRole('button', { name: 'BUSCAR PEDIDO' }).click();
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
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
