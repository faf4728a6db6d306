import { type APIRequestContext, type Browser, request as playwrightRequest } from '@playwright/test';
import { encodeOrderId } from '../src/shared/order-id.js';
import { DEMO_EMAILS, DEMO_PASSWORD, expect, loginAs, test } from './fixtures.js';

const INTAKE_KEY = 'e2e-intake-key-0123456789';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function tokenOf(api: APIRequestContext, email: string): Promise<string> {
  const login = await api.post('/api/admin/admin-login', { data: { email, password: DEMO_PASSWORD } });
  return (await login.json()).jwtToken as string;
}

/** A Spanish-speaking traveller's order, held by the Team member and waiting on the customer. */
async function awaitingOrder(api: APIRequestContext): Promise<{ orderId: number; email: string }> {
  const stamp = `${Date.now()}`;
  const email = `respuesta.${stamp}@example.com`;
  const created = await api.post('/api/intake/orders?lang=es', {
    headers: { 'x-intake-key': INTAKE_KEY },
    data: {
      client_reference: `e2e-conversation-${stamp}`,
      email,
      re_enter_email: email,
      processing_mode: 'Standard',
      arrival_date: '2030-01-15',
      passport_number: 'R12345678',
      last_name: 'Respuesta',
      first_name: 'Lucía',
      nationality: 'Spain',
      country_of_residence: 'ESP',
      processing_date: '2020-01-01',
      amount: 59,
      currency: 'USD',
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const orderId = (await created.json()).data.order_id as number;
  const team = await tokenOf(api, DEMO_EMAILS.Team);
  const assigned = await api.put('/api/admin/assign-order-status', {
    headers: { authorization: team },
    data: { orderId: [orderId], assignto: 'me' },
  });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();
  const moved = await api.put('/api/admin/move-order-status', {
    headers: { authorization: team },
    data: { orderId, updatingStatus: 'Awaiting' },
  });
  expect(moved.ok(), await moved.text()).toBeTruthy();
  return { orderId, email };
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
