import { render } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { z } from 'zod';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import type { FolderCounts } from '../../shared/constants';
import { type OrderDetails, orderDetails } from '../../shared/contracts/order-detail';
import { folderCounts, type OrderListRow, orderListRow } from '../../shared/contracts/orders';
import { FOLDER_COUNT_KEYS } from '../../shared/constants';
import type { Envelope } from '../transport/api-client';
import { makeStore } from '../state/store';
import { server } from './server';

/**
 * The one fixture module of the client tests: the API answers (through MSW), the data (checked against
 * the shared contracts, so they cannot drift from what the server sends), the signed-in user and the
 * page under a router and a store.
 */

export interface SentRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: unknown;
  headers: Headers;
}

export interface Answer {
  status?: number;
  body: unknown;
  /** Response headers; with a `content-type` the body (a string) is sent as it is, not as JSON. */
  headers?: Record<string, string>;
}

export type Handler = (req: SentRequest) => Answer | Promise<Answer>;

/** A successful answer in the shared envelope; lists add their totals beside `data`. */
export function ok<T>(
  data?: T,
  message = 'ok',
  extra: Omit<Envelope, 'status' | 'message' | 'data'> = {},
): Answer {
  const body: Envelope<T> = { status: 1, message, ...extra, ...(data === undefined ? {} : { data }) };
  return { body };
}

/**
 * An answer checked against the response contract the server documents for the route (the shared zod
 * schema): a fixture that drifts from what the server sends fails the test that uses it.
 */
export function answer<S extends z.ZodType>(schema: S, body: z.input<S>, status = 200): Answer {
  return { status, body: schema.parse(body) };
}

/** A refused answer: the HTTP status and the server's message in the envelope. */
export function refused(status: number, message: string): Answer {
  const body: Envelope = { status: status === 401 ? 401 : 0, message };
  return { status, body };
}

/**
 * Answers the screens' API calls: handlers keyed by "METHOD /api/path" (path without the query). Any
 * other /api/ call answers 404 as the server does for an unknown route. Returns every request sent, in
 * order, for the assertions.
 */
export function mockApi(handlers: Record<string, Handler>): SentRequest[] {
  const sent: SentRequest[] = [];
  server.use(
    http.all('*/api/*', async ({ request }) => {
      const url = new URL(request.url);
      let body: unknown;
      const type = request.headers.get('content-type') ?? '';
      if (type.includes('multipart/form-data'))
        body = Object.fromEntries((await request.formData()).entries());
      else {
        const text = await request.text();
        body = text ? JSON.parse(text) : undefined;
      }
      const entry: SentRequest = {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        headers: request.headers,
      };
      sent.push(entry);
      const handler = handlers[`${request.method} ${url.pathname}`];
      const answer = handler ? await handler(entry) : refused(404, 'Not Found');
      if (answer.headers?.['content-type']) {
        return new HttpResponse(String(answer.body), {
          status: answer.status ?? 200,
          headers: answer.headers,
        });
      }
      return HttpResponse.json(answer.body as never, { status: answer.status ?? 200 });
    }),
  );
  return sent;
}

/** A file answer (CSV, PDF) with the name the server gives it. */
export function file(text: string, type: string, fileName?: string): Answer {
  return {
    body: text,
    headers: {
      'content-type': type,
      ...(fileName ? { 'content-disposition': `attachment; filename="${fileName}"` } : {}),
    },
  };
}

/** Signs a staff member of that role in, as the login would (the token's payload is all the UI reads). */
export function signInAs(type: string, name = `Demo ${type}`): void {
  const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const token = `${enc({ alg: 'HS256' })}.${enc({ user: { id: 1, name, type }, exp: Date.now() / 1000 + 3600 })}.sig`;
  localStorage.setItem('user', JSON.stringify({ accessToken: token }));
}

/** Renders routes under a memory router at `path`, with the real store and a toast container. */
export function renderRoutes(
  routes: Parameters<typeof createMemoryRouter>[0],
  path: string,
  store = makeStore(),
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
  return { ...view, store, router };
}

/** Renders one page at `path` (matched by `routePath`). */
export function renderPage(routePath: string, path: string, element: ReactElement, store = makeStore()) {
  return renderRoutes([{ path: routePath, element }], path, store);
}

/** One list row as the server sends it; `over` changes any field. */
export function listRow(id: number, over: Partial<OrderListRow> = {}): OrderListRow {
  return orderListRow.parse({
    order_id: id,
    process_status: 'New',
    first_name: 'Jane',
    last_name: `Doe${id}`,
    arrival_date: '2026-03-14',
    email: `jane${id}@example.com`,
    telephone_number: '612345678',
    phone_code: '31',
    created_at: '2026-03-01T12:00:00.000Z',
    refund_date: null,
    processing_date: '2026-03-01',
    process_month: 'Mar',
    assign_to: '',
    nationality: 'Netherlands',
    processing_mode: 'Standard',
    due_at: null,
    due_state: null,
    check_level: 0,
    check_codes: [],
    ...over,
  });
}

/** The folder counts answer: every folder `base` plus its index (distinct numbers), then `over`. */
export function countsFixture(over: Partial<FolderCounts> = {}, base = 1, step = 0): FolderCounts {
  const all = Object.fromEntries(Object.values(FOLDER_COUNT_KEYS).map((k, i) => [k, base + i * step]));
  return folderCounts.parse({
    atRiskCount: 0,
    breachedCount: 0,
    repliedCount: 0,
    ...all,
    ...over,
  }) as FolderCounts;
}

/** A complete order detail answer, checked against the shared contract. */
export function orderFixture(overrides: Partial<OrderDetails> = {}): OrderDetails {
  return orderDetails.parse({
    order_id: 100123,
    transaction_id: 'txn_1',
    merchant_name: 'Stripe',
    email: 'jane.doe@example.com',
    re_enter_email: 'jane.doe@example.com',
    processing_mode: 'Priority',
    process_status: 'Awaiting',
    landing_domain: 'arubaedcard.example',
    arrival_date: '2026-03-14',
    resident_check: 'No',
    passport_number: 'X1234567',
    passport_expiration: '2031-05-01',
    last_name: 'Doe',
    first_name: 'Jane',
    nationality: 'Netherlands',
    date_of_birth: '1985-04-12',
    sex: 'Female',
    country_of_birth: 'Netherlands',
    country_of_departure: 'Netherlands',
    travel_mode: 'Air',
    airline: 'KLM',
    flight_number: 'KL 765',
    departure_date: '2026-03-21',
    vessel_name: null,
    country_of_residence: 'NLD',
    zip_code: '1012 AB',
    state: 'Noord-Holland',
    city: 'Amsterdam',
    address: 'Damrak 1',
    residence_number: '3',
    occupation: 'Engineer',
    purpose_of_visit: 'Vacation',
    dual_citizenship: 'No',
    phone_code: '31',
    telephone_number: '612345678',
    prior_visits: 'No',
    place_of_stay: 'Hotel',
    name_of_place_of_stay: 'Hyatt Regency Aruba',
    other_hotel_name: null,
    local_address: 'J.E. Irausquin Blvd 85',
    house_number: '85',
    application_email: '100123@ed-card.test',
    processing_date: '2026-03-01',
    process_month: 'Mar',
    refund_date: null,
    assign_to: null,
    amount: '59.00',
    currency: 'USD',
    created_at: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-01T12:00:00.000Z',
    version: 1,
    due_at: null,
    due_state: null,
    uploadDoc: [],
    mailHistory: [],
    downloadHistory: [],
    remarks: [],
    events: [],
    ...overrides,
  });
}
