import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  makeOrder,
  moveOrder,
  staffToken,
  test,
} from './fixtures.js';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

interface Tracked {
  orderId: number;
  email: string;
}

/** A paid order from the intake API (the application site says the traveller reads Spanish), moved by staff. */
async function orderIn(api: APIRequestContext, n: number, status: string): Promise<Tracked> {
  const order = await makeOrder(
    api,
    {
      email: `Viajero.${Date.now()}-${n}@Example.com`,
      passport_number: `L${String(n).padStart(8, '0')}`,
      last_name: `Viaje${n}`,
      first_name: 'Lucía',
      nationality: 'Spain',
      country_of_residence: 'ESP',
    },
    { lang: 'es' },
  );
  await moveOrder(api, await staffToken(api, 'Admin'), order.orderId, status);
  return order;
}

let withGovernment: Tracked;
let cancelled: Tracked;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  withGovernment = await orderIn(api, 1, 'AwaitingGovt');
  cancelled = await orderIn(api, 2, 'Deleted');
  await api.dispose();
});

async function track(page: Page, order: Tracked) {
  await page.getByLabel('Número de pedido').fill(String(order.orderId));
  await page.getByLabel('Correo electrónico').fill(order.email);
  await page.getByRole('button', { name: 'BUSCAR PEDIDO' }).click();
}

test('the customer pages in Spanish at 390 px: track, progress line, picker; axe finds nothing', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/track-order?lang=es');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Descargue su Tarjeta de Embarque y Desembarque de Aruba' }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  // Only the chosen language's messages load: the Spanish chunk, no other language's.
  expect(scripts.some((s) => /customer-es-/.test(s))).toBe(true);
  expect(scripts.filter((s) => /customer-(nl|pap|pt)-/.test(s))).toEqual([]);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, 'track page in Spanish');

  await track(page, withGovernment);
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${withGovernment.orderId}$`));
  await expect(page.getByRole('heading', { name: 'Su solicitud se está procesando' })).toBeVisible();
  const progress = page.getByRole('region', { name: 'Progreso del pedido' });
  await expect(progress.getByRole('listitem')).toHaveText([
    'Recibido',
    'En revisión',
    'En el gobierno',
    'Aprobado',
  ]);
  await expect(progress.locator('[aria-current="step"]')).toHaveText('En el gobierno');
  await expect(progress).toContainText('Su solicitud se ha enviado al gobierno de Aruba.');
  await expect(page.getByRole('table', { name: 'Historial de descargas' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, 'details page in Spanish');

  // The picker switches the page (and its stage message) and the choice is remembered.
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('pap');
  await expect(page.getByRole('region', { name: 'Progreso di e orden' })).toContainText('Cerca gobierno');
  await expect(page.getByRole('region', { name: 'Progreso di e orden' })).toContainText(
    'Bo aplicacion a wòrdu entregá na gobierno di Aruba.',
  );
  await expectNoHorizontalScroll(page);
  await page.goto('/track-order');
  await expect(page.getByRole('button', { name: 'SIGUI ORDEN' })).toBeVisible();
});

test('a cancelled order tracked with its e-mail says so in Spanish, with the support address', async ({
  page,
}) => {
  await page.goto('/track-order?lang=es');
  await track(page, cancelled);
  const notice = page.getByRole('region', { name: 'Este pedido fue cancelado' });
  await expect(notice).toContainText(`El pedido ${cancelled.orderId} fue cancelado.`);
  await expect(notice.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(page).toHaveURL(/\/track-order\?lang=es$/);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, 'cancelled notice in Spanish');
  // A wrong e-mail for the same order is told nothing about it.
  await page.getByLabel('Correo electrónico').fill('alguien@example.com');
  await page.getByRole('button', { name: 'BUSCAR PEDIDO' }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Ningún pedido coincide con este número de pedido y correo electrónico.' }),
  ).toBeVisible();
});
