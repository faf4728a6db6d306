import { type APIRequestContext, type Browser, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, moveOrder, staffToken, test } from './fixtures.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A Spanish-speaking traveller's order, held by the Team member and waiting on the customer. */
async function awaitingOrder(api: APIRequestContext): Promise<{ orderId: number; email: string }> {
  const order = await makeOrder(
    api,
    {
      email: `respuesta.${Date.now()}@example.com`,
      passport_number: 'R12345678',
      last_name: 'Respuesta',
      first_name: 'Lucía',
      nationality: 'Spain',
      country_of_residence: 'ESP',
    },
    { lang: 'es' },
  );
  const team = await staffToken(api, 'Team');
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: team },
    data: { orderId: [order.orderId], assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();
  await moveOrder(api, team, order.orderId, 'Awaiting');
  return order;
}

async function customerPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'es-ES',
  });
  return { context, page: await context.newPage() };
}

test('the holder has the order open; the customer answers on the track page in Spanish at 390 px; the answer shows without reload', async ({
  page,
  browser,
  baseURL,
}) => {
  const api = await playwrightRequest.newContext({ baseURL });
  const order = await awaitingOrder(api);
  await api.dispose();

  await loginAs(page, 'Team');
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  await expect(page.getByTestId('process-status')).toHaveText('Awaiting');
  const conversation = page.getByRole('region', { name: 'Conversation' });
  // The status mail the move to Awaiting sent is the first entry; no answer yet.
  await expect(conversation.getByTestId('conversation-out')).toContainText('Sent notification mail');
  await expect(conversation.getByTestId('conversation-in')).toHaveCount(0);

  const customer = await customerPage(browser, baseURL);
  const c = customer.page;
  await c.goto('/track-order?lang=es');
  await c.getByLabel('Número de pedido').fill(String(order.orderId));
  await c.getByLabel('Correo electrónico').fill(order.email);
  await c.getByRole('button', { name: 'BUSCAR PEDIDO' }).click();
  await expect(c).toHaveURL(new RegExp(`/get-new-order-details/${order.orderId}$`));
  const form = c.getByRole('region', { name: 'Envíenos su respuesta' });
  await expect(form).toBeVisible();
  await form.getByLabel('Su mensaje').fill('Aquí está la foto nueva de mi pasaporte.');
  await form.getByLabel('Fotos o documentos (hasta 5)').setInputFiles({
    name: 'pasaporte.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await form.getByRole('button', { name: 'ENVIAR RESPUESTA' }).click();
  await expect(c.getByTestId('reply-received')).toHaveText(
    'Gracias. Hemos recibido su respuesta y continuaremos con su solicitud.',
  );
  const { scroll, width } = await c.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
  await customer.context.close();

  // The holder's open page: the answer, its file and the move back to New arrive over the live stream.
  await expect(conversation.getByTestId('conversation-in')).toContainText(
    'Aquí está la foto nueva de mi pasaporte.',
  );
  await expect(conversation.getByRole('button', { name: 'pasaporte.png' })).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('New');
});
