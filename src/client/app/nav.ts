import type { Folder, FolderCountKey } from '../../shared/constants';

/**
 * Every staff screen reached from the navigation, written once: its path under /admin, its title, the
 * folder it lists and the count it shows (when it has them), and where it appears (sidebar, tile). The
 * routes (router.tsx), the dashboard tiles and the sidebar are derived from this list; who sees a sidebar
 * link is the shared visibility table, keyed by the path. The folder list routes are in this order, the
 * first one (New Orders) also being the dashboard's list.
 */
const NAV = [
  { path: 'recent-order', title: 'New Orders', folder: 'newOrder', countKey: 'newOrdersCount', tile: 2 },
  { path: 'my-order', title: 'My Orders', folder: 'myOrder', countKey: 'myOrdersCount', tile: 1 },
  {
    path: 'priority-order',
    title: 'Priority Order',
    folder: 'priorityOrder',
    countKey: 'priorityOrdersCount',
    tile: 3,
  },
  {
    path: 'pending-order',
    title: 'Pending Orders',
    folder: 'pendingOrder',
    countKey: 'pendingOrdersCount',
    tile: 4,
  },
  {
    path: 'completed-order',
    title: 'Completed Orders',
    folder: 'completedOrder',
    countKey: 'completedOrdersCount',
    tile: 5,
  },
  // The sidebar, in its order.
  {
    path: 'awaiting-response',
    title: 'Awaiting Customer',
    folder: 'awaitingOrder',
    countKey: 'awaitingOrdersCount',
    sidebar: true,
  },
  {
    path: 'awaiting-govt',
    title: 'Awaiting Govt',
    folder: 'awaitingGovtOrder',
    countKey: 'awaitingGovtCount',
    sidebar: true,
  },
  {
    path: 'called',
    title: 'Customer Called',
    folder: 'customerCalledOrder',
    countKey: 'customerCalledCount',
    sidebar: true,
  },
  {
    path: 'contact-customer',
    title: 'Contact Customer',
    folder: 'contactCustomerOrder',
    countKey: 'contactCustomerOrdersCount',
    sidebar: true,
  },
  {
    path: 'order-history',
    title: 'Order History',
    folder: 'allOrder',
    countKey: 'allOrdersCount',
    sidebar: true,
  },
  { path: 'future-order', title: 'Future Orders', countKey: 'futureOrdersCount', sidebar: true },
  {
    path: 'deleted-order',
    title: 'Deleted Orders',
    folder: 'deletedOrder',
    countKey: 'deletedOrdersCount',
    sidebar: true,
  },
  {
    path: 'refund-order',
    title: 'Refunds',
    folder: 'refundOrder',
    countKey: 'refundOrdersCount',
    sidebar: true,
  },
  {
    path: 'completed-refunds',
    title: 'Completed Refunds',
    folder: 'refundedOrder',
    countKey: 'refundedOrdersCount',
    sidebar: true,
  },
  { path: 'chargeback', title: 'Chargeback', countKey: 'chargeBackCount', sidebar: true },
  { path: 'country-order-list', title: 'Country Order List', sidebar: true },
  { path: 'send-invoice', title: 'Manage Invoices', sidebar: true },
  { path: 'manage-team', title: 'Manage Team', sidebar: true },
  { path: 'processed-order', title: 'Order Processed', sidebar: true },
  { path: 'finance-report', title: 'Finance', sidebar: true },
  { path: 'gateway-setting', title: 'Gateway Setting', sidebar: true },
  { path: 'insights', title: 'Insights', sidebar: true },
  { path: 'unmatched-mail', title: 'Unmatched Mail', sidebar: true },
  { path: 'audit-log', title: 'Audit Log', sidebar: true },
  { path: 'mail-templates', title: 'Mail Templates', sidebar: true },
  { path: 'macros', title: 'Macros', sidebar: true },
  { path: 'status-notifications', title: 'Status Notifications', sidebar: true },
  { path: 'change-password', title: 'Change Password', sidebar: true },
] as const satisfies readonly NavEntry[];

interface NavEntry {
  /** Under /admin. */
  path: string;
  title: string;
  /** The folder a folder list route shows. */
  folder?: Folder;
  countKey?: FolderCountKey;
  /** Position among the dashboard tiles. */
  tile?: number;
  sidebar?: boolean;
}

/** The path of a navigation screen under /admin (a typo does not compile). */
export type NavPath = (typeof NAV)[number]['path'];

/** A folder list route: its path under /admin, folder name, title and counts key. */
export interface FolderRoute {
  path: NavPath;
  folder: Folder;
  title: string;
  countKey: FolderCountKey;
}

const entries: readonly NavEntry[] = NAV;

export const FOLDER_ROUTES = entries.filter((e): e is FolderRoute => !!e.folder) as FolderRoute[];

/** The entry of a path, for a screen's title. */
export function navEntry(path: NavPath): NavEntry {
  return entries.find((e) => e.path === path)!;
}

/** Dashboard tiles, in their order. */
export const TILES: { label: string; to: string; countKey: FolderCountKey }[] = entries
  .filter((e) => e.tile !== undefined && e.countKey)
  .sort((a, b) => a.tile! - b.tile!)
  .map((e) => ({ label: e.title, to: `/admin/${e.path}`, countKey: e.countKey! }));

/** Sidebar links; `key` is the visibility key of the shared permission table. Logout closes the list. */
export const SIDEBAR_LINKS: { label: string; to: string; key: string; countKey?: FolderCountKey }[] = [
  ...entries
    .filter((e) => e.sidebar)
    .map((e) => ({
      label: e.title,
      to: `/admin/${e.path}`,
      key: e.path,
      ...(e.countKey ? { countKey: e.countKey } : {}),
    })),
  { label: 'Logout', to: '/logout', key: 'logout' },
];
