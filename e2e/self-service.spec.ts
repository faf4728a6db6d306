import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import {
  expect,
  expectNoHorizontalScroll,
  makeOrder,
  moveOrder,
  staffToken,
  test,
  uploadApprovedCard,
} from './fixtures.js';

/** The customers' self-service on a 390 px phone, in Spanish and in Papiamento (docs/product.md). */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

interface Tracked {
  orderId: number;
  email: string;
}

const LABELS = {
  es: { orderId: 'Número de pedido', email: 'Correo electrónico', submit: 'BUSCAR PEDIDO' },
  pap: { orderId: 'Número di orden', email: 'Correo electrónico', submit: 'SIGUI ORDEN' },
} as const;

async function track(page: Page, order: Tracked, lang: keyof typeof LABELS) {
  await page.goto(`/track-order?lang=${lang}`);
  await page.getByLabel(LABELS[lang].orderId).fill(String(order.orderId));
  await page.getByLabel(LABELS[lang].email).fill(order.email);
  await page.getByRole('button', { name: LABELS[lang].submit }).click();
  await expect(page).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
}

const orderIn = (api: APIRequestContext, lang: string) =>
  makeOrder(
    api,
    { first_name: 'Lucía', nationality: 'Spain', country_of_residence: 'ESP', amount: 80 },
    { lang },
  );

test('Spanish: correct the passport number; staff see the correction by the customer', async ({
  page,
  baseURL,
}) => {
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await orderIn(api, 'es');
  await track(page, order, 'es');
  const section = page.getByTestId('correct-details');
  await section.getByRole('button', { name: 'Corregir mis datos' }).click();
  const passport = section.getByLabel('Número de pasaporte');
  await expect(passport).not.toHaveValue('');
  // A refused value is shown beside its field, in Spanish.
  await passport.fill('');
  await section.getByRole('button', { name: 'GUARDAR CAMBIOS' }).click();
  await expect(section.getByText('Número de pasaporte: este valor no es válido.')).toBeVisible();
  await passport.fill('XK1234567');
  await section.getByRole('button', { name: 'GUARDAR CAMBIOS' }).click();
  await expect(page.getByTestId('correct-done')).toHaveText('Cambiado: Número de pasaporte.');
  await expectNoHorizontalScroll(page);

  const token = await staffToken(api, 'Admin');
  const detail = await (
    await api.get(`/api/admin/get-orders-details/${order.orderId}`, { headers: { authorization: token } })
  ).json();
  expect(detail.data.passport_number).toBe('XK1234567');
  expect(detail.data.customer_edited).toBe(true);
  expect(detail.data.events).toContainEqual(
    expect.objectContaining({ action: 'correction', actor_name: 'Customer' }),
  );
  await api.dispose();
});

test('Papiamento: cancel an untouched order, see the refund amount and the confirmation', async ({
  page,
  baseURL,
}) => {
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await orderIn(api, 'pap');
  await track(page, order, 'pap');
  const section = page.getByTestId('cancel-order');
  await expect(section).toContainText('100%');
  await section.getByRole('button', { name: 'Kansela mi órden' }).click();
  await expect(page.getByTestId('cancel-amount')).toHaveText('Bo ta haña 80.00 USD bèk.');
  await section.getByLabel('Dikon bo ta kansela?').fill('Mi biahe a wòrdu kanselá');
  await section.getByRole('button', { name: 'KONFIRMÁ KANSELASHON' }).click();
  await expect(page.getByTestId('cancel-done')).toHaveText(
    `Bo órden ${order.orderId} ta kanselá. Nos tim lo debolbé 80.00 USD.`,
  );
  await expectNoHorizontalScroll(page);
  await api.dispose();
});

test('Spanish: rate a completed order 2 with a comment', async ({ page, baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await orderIn(api, 'es');
  const token = await staffToken(api, 'Admin');
  await uploadApprovedCard(api, token, order);
  await moveOrder(api, token, order.orderId, 'Completed');
  // The card mail is delivered by the queue (after its undo window): the question shows once it was sent.
  await track(page, order, 'es');
  await expect
    .poll(
      async () => {
        await page.reload();
        return page
          .getByTestId('rating')
          .isVisible({ timeout: 3000 })
          .catch(() => false);
      },
      { timeout: 45_000, intervals: [2000] },
    )
    .toBe(true);
  const rating = page.getByTestId('rating');
  await expect(rating.getByRole('heading', { name: '¿Qué tal lo hicimos?' })).toBeVisible();
  await rating.getByRole('button', { name: '2 de 5' }).click();
  await rating.getByLabel('¿Algo que quiera contarnos? (opcional)').fill('Tardó demasiado');
  await rating.getByRole('button', { name: 'ENVIAR VALORACIÓN' }).click();
  await expect(page.getByTestId('rating-thanks')).toHaveText('Gracias por su valoración.');
  await expectNoHorizontalScroll(page);
  const checks = await (
    await api.get(`/api/admin/orders/${order.orderId}/checks`, { headers: { authorization: token } })
  ).json();
  expect(checks.data.checks).toContainEqual(
    expect.objectContaining({ code: 'dispute_risk', severity: 'warn' }),
  );
  await api.dispose();
});
