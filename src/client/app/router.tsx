import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { SESSION_STORAGE_KEY } from '../../shared/constants';
import { ErrorPage } from '../components/error-page';
import { waitUntilSignIn } from '../auth/after-sign-in';
import { lazyChunk } from './lazy';
import { FOLDER_ROUTES } from '../orders/nav';
import type { NavPath } from './nav';

/** A navigation screen's path, checked against nav.ts. */
const nav = (path: NavPath) => path;

/**
 * Whether a session is stored, valid or not (staff-root checks it and shows the login for an expired
 * one): the first load's cheap guess at which staff screen comes first.
 */
function sessionStored(): boolean {
  try {
    return localStorage.getItem(SESSION_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

// Staff and customer areas are separate lazy chunks: a customer never downloads staff code.
const staffRoot = lazyChunk('staff', () => {
  // Signed out, staff-root shows the login screen: its chunk (and CSS) loads beside staff-root's, not
  // after it (docs/decisions/284); staff-root's own import of it then finds it loaded.
  if (!sessionStored()) import('../auth/login-page').catch(() => undefined);
  return import('./staff-root');
});
const folderPage = lazyChunk('orders', () => import('../orders/folder-page'));

const staffChildren: RouteObject[] = [
  { index: true, lazy: folderPage, handle: { folder: FOLDER_ROUTES[0] } },
  ...FOLDER_ROUTES.map((r) => ({ path: r.path, lazy: folderPage, handle: { folder: r } })),
  { path: nav('future-order'), lazy: lazyChunk('future', () => import('../orders/future-page')) },
  { path: nav('chargeback'), lazy: lazyChunk('chargeback', () => import('../orders/chargeback-page')) },
  {
    path: 'view-order/:orderId',
    lazy: lazyChunk('order-detail', () => import('../order-detail/order-detail-page')),
  },
  { path: nav('send-invoice'), lazy: lazyChunk('invoices', () => import('../invoices/send-invoice-page')) },
  {
    path: nav('country-order-list'),
    lazy: lazyChunk('country-report', () => import('../reports/country-report-page')),
  },
  {
    path: nav('processed-order'),
    lazy: lazyChunk('processed-report', () => import('../reports/processed-report-page')),
  },
  {
    path: nav('finance-report'),
    lazy: lazyChunk('finance-report', () => import('../reports/finance-report-page')),
  },
  { path: nav('manage-team'), lazy: lazyChunk('team', () => import('../team/manage-team-page')) },
  { path: 'manage-team/:teamMemberId', lazy: lazyChunk('team', () => import('../team/manage-team-page')) },
  { path: nav('gateway-setting'), lazy: lazyChunk('gateways', () => import('../gateways/gateway-page')) },
  { path: nav('insights'), lazy: lazyChunk('insights', () => import('../insights/insights-page')) },
  { path: nav('audit-log'), lazy: lazyChunk('audit-log', () => import('../audit/audit-log-page')) },
  {
    path: nav('unmatched-mail'),
    lazy: lazyChunk('unmatched-mail', () => import('../inbound/unmatched-mail-page')),
  },
  {
    path: 'due-time-policy',
    lazy: lazyChunk('due-time-policy', () => import('../orders/due-time-policy-page')),
  },
  {
    path: 'working-hours',
    lazy: lazyChunk('working-hours', () => import('../working-hours/working-hours-page')),
  },
  {
    path: nav('mail-templates'),
    lazy: lazyChunk('mail-templates', () => import('../communication/templates-page')),
  },
  { path: nav('macros'), lazy: lazyChunk('macros', () => import('../communication/macros-page')) },
  {
    path: 'waiting-policy',
    lazy: lazyChunk('waiting-policy', () => import('../communication/waiting-policy-page')),
  },
  {
    path: nav('status-notifications'),
    lazy: lazyChunk('status-notifications', () => import('../communication/notifications-page')),
  },
  {
    path: nav('change-password'),
    lazy: lazyChunk('password', () => import('../password/change-password-page')),
  },
  { path: 'account/sessions', lazy: lazyChunk('account', () => import('../account/sessions-page')) },
  { path: 'account/two-factor', lazy: lazyChunk('account', () => import('../account/two-factor-page')) },
  {
    path: 'account/security-settings',
    lazy: lazyChunk('account', () => import('../account/security-settings-page')),
  },
  {
    path: 'call-backs-due',
    lazy: lazyChunk('call-backs-due', () => import('../call-backs/call-backs-due-page')),
  },
  {
    path: 'self-service-settings',
    lazy: lazyChunk('self-service-settings', () => import('../self-service/self-service-settings-page')),
  },
  {
    path: 'retention-settings',
    lazy: lazyChunk('retention', () => import('../retention/retention-settings-page')),
  },
];

type ScreenModule = { Component: ComponentType };

/**
 * A staff screen's route. The router loads the code of every matched route before it shows anything, but
 * a signed-out visitor sees the login screen in place of the screen (staff-root): then the route gets a
 * stand-in that loads the screen when it first shows, after the sign-in, so the login does not wait for
 * the screen's code (docs/decisions/284). Signed in, the router loads the screen first, as always.
 */
function deferWhenSignedOut(route: RouteObject): RouteObject {
  const load = route.lazy as (() => Promise<ScreenModule>) | undefined;
  if (typeof load !== 'function') return route;
  let standIn: ComponentType | undefined;
  const lazyScreen = (): Promise<ScreenModule> => {
    if (sessionStored()) return load();
    if (!standIn) {
      waitUntilSignIn(load);
      const Screen = lazy(() => load().then((m) => ({ default: m.Component })));
      standIn = function DeferredScreen() {
        return (
          <Suspense fallback={null}>
            <Screen />
          </Suspense>
        );
      };
    }
    return Promise.resolve({ Component: standIn });
  };
  return { ...route, lazy: lazyScreen } as RouteObject;
}

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/admin" replace />, errorElement: <ErrorPage /> },
  {
    path: '/logout',
    lazy: lazyChunk('logout', () => import('../staff/logout-page')),
    errorElement: <ErrorPage />,
  },
  {
    path: '/admin',
    lazy: staffRoot,
    errorElement: <ErrorPage />,
    children: staffChildren.map(deferWhenSignedOut),
  },
  {
    path: '/track-order/:orderId?',
    lazy: lazyChunk('customer', () => import('../customer/track-page')),
    errorElement: <ErrorPage />,
  },
  {
    path: '/get-new-order-details/:orderId',
    lazy: lazyChunk('customer', () => import('../customer/order-details-page')),
    errorElement: <ErrorPage />,
  },
  {
    path: '*',
    errorElement: <ErrorPage />,
    loader: () => {
      throw new Response('', { status: 404, statusText: 'Not Found' });
    },
  },
];

export const router = createBrowserRouter(routes);
