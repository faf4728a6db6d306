import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';
import { type OrderDetails, orderDetails } from '../../shared/contracts/order-detail';
import { makeStore } from '../app/store';

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (req: SentRequest) => { status?: number; body: unknown };

/**
 * Answers the SPA's API calls in jsdom (which has no server): handlers keyed by "METHOD /api/path".
 * Node's Request needs absolute URLs, so relative ones resolve against the page like a browser does.
 */
export function fakeApi(handlers: Record<string, Handler>) {
  const sent: SentRequest[] = [];
  const NodeRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
      }
    },
  );
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const req =
      input instanceof NodeRequest
        ? input
        : new NodeRequest(new URL(String(input), window.location.href), init);
    const text = await req.clone().text();
    const path = new URL(req.url).pathname;
    const entry: SentRequest = { method: req.method, path, body: text ? JSON.parse(text) : undefined };
    sent.push(entry);
    const handler = handlers[`${req.method} ${path}`];
    const { status = 200, body } = handler
      ? handler(entry)
      : { status: 404, body: { status: 0, message: 'Not Found' } };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

/** Renders a page under a memory router at `path`, with the real store and a toast container. */
export function renderPage(routePath: string, path: string, element: ReactElement) {
  const router = createMemoryRouter([{ path: routePath, element }], { initialEntries: [path] });
  return render(
    <Provider store={makeStore()}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
}

/** A complete order detail answer, checked against the shared contract so it cannot drift from it. */
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
    sla_state: null,
    uploadDoc: [],
    mailHistory: [],
    downloadHistory: [],
    remarks: [],
    events: [],
    ...overrides,
  });
}

/** Signs a staff member of that role in, as the login would (the token's payload is all the UI reads). */
export function signInAs(type: string, name = `Demo ${type}`): void {
  const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const token = `${enc({ alg: 'HS256' })}.${enc({ user: { id: 1, name, type }, exp: Date.now() / 1000 + 3600 })}.sig`;
  localStorage.setItem('user', JSON.stringify({ accessToken: token }));
}
