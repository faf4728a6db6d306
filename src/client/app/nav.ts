import type { FolderCountKey } from '../../shared/constants';
import { ORDER_SCREENS, type OrderScreenPath, orderScreen } from '../orders/nav';

/**
 * Every staff screen reached from the navigation: the order screens, which the orders feature writes
 * (src/client/orders/nav.ts: path, title, folder, count), then the other screens of the sidebar, in its
 * order. The app composes them: the routes (router.tsx), the dashboard tiles and the sidebar are derived
 * from this list; who sees a sidebar link is the shared visibility table, keyed by the path.
 */
const NAV = [
  ...ORDER_SCREENS,
  { path: 'country-order-list', title: 'Country Order List' },
  { path: 'send-invoice', title: 'Manage Invoices' },
  { path: 'manage-team', title: 'Manage Team' },
  { path: 'processed-order', title: 'Order Processed' },
  { path: 'finance-report', title: 'Finance' },
  { path: 'gateway-setting', title: 'Gateway Setting' },
  { path: 'insights', title: 'Insights' },
  { path: 'unmatched-mail', title: 'Unmatched Mail' },
  { path: 'audit-log', title: 'Audit Log' },
  { path: 'mail-templates', title: 'Mail Templates' },
  { path: 'macros', title: 'Macros' },
  { path: 'status-notifications', title: 'Status Notifications' },
  { path: 'change-password', title: 'Change Password' },
] as const satisfies readonly NavEntry[];

interface NavEntry {
  /** Under /admin. */
  path: string;
  title: string;
  countKey?: FolderCountKey;
}

/** The path of a navigation screen under /admin (a typo does not compile). */
export type NavPath = (typeof NAV)[number]['path'];

/**
 * Each screen has one place: the five main folder lists are the dashboard tiles, in this order, and every
 * other screen is a sidebar link, in the list's order.
 */
const TILE_PATHS = [
  'my-order',
  'recent-order',
  'priority-order',
  'pending-order',
  'completed-order',
] as const satisfies readonly OrderScreenPath[];

const entries: readonly NavEntry[] = NAV;
const onTile = new Set<string>(TILE_PATHS);

/** Dashboard tiles, in their order. */
export const TILES: { label: string; to: string; countKey: FolderCountKey }[] = TILE_PATHS.map((path) => {
  const { title, countKey } = orderScreen(path);
  return { label: title, to: `/admin/${path}`, countKey };
});

/** Sidebar links; `key` is the visibility key of the shared permission table. Logout closes the list. */
export const SIDEBAR_LINKS: { label: string; to: string; key: string; countKey?: FolderCountKey }[] = [
  ...entries
    .filter((e) => !onTile.has(e.path))
    .map((e) => ({
      label: e.title,
      to: `/admin/${e.path}`,
      key: e.path,
      ...(e.countKey ? { countKey: e.countKey } : {}),
    })),
  { label: 'Logout', to: '/logout', key: 'logout' },
];
