import type { Folder, FolderCountKey } from '../../shared/constants';

/**
 * The order screens reached from the navigation, written once: their path under /admin, their title, the
 * folder a list shows and the count it shows. The folder lists come first, in their order, the first one
 * (New Orders) also being the dashboard's list; then the sidebar's queues in the sidebar's order, Future
 * Orders and Chargeback among them. The app routes them and places them on the dashboard tiles and in the
 * sidebar; the list screens, the saved views and the live keyboard keys read them here.
 */
export const ORDER_SCREENS = [
  { path: 'recent-order', title: 'New Orders', folder: 'newOrder', countKey: 'newOrdersCount' },
  { path: 'my-order', title: 'My Orders', folder: 'myOrder', countKey: 'myOrdersCount' },
  {
    path: 'priority-order',
    title: 'Priority Order',
    folder: 'priorityOrder',
    countKey: 'priorityOrdersCount',
  },
  { path: 'pending-order', title: 'Pending Orders', folder: 'pendingOrder', countKey: 'pendingOrdersCount' },
  {
    path: 'completed-order',
    title: 'Completed Orders',
    folder: 'completedOrder',
    countKey: 'completedOrdersCount',
  },
  {
    path: 'awaiting-response',
    title: 'Awaiting Customer',
    folder: 'awaitingOrder',
    countKey: 'awaitingOrdersCount',
  },
  {
    path: 'awaiting-govt',
    title: 'Awaiting Govt',
    folder: 'awaitingGovtOrder',
    countKey: 'awaitingGovtCount',
  },
  {
    path: 'called',
    title: 'Customer Called',
    folder: 'customerCalledOrder',
    countKey: 'customerCalledCount',
  },
  {
    path: 'contact-customer',
    title: 'Contact Customer',
    folder: 'contactCustomerOrder',
    countKey: 'contactCustomerOrdersCount',
  },
  { path: 'order-history', title: 'Order History', folder: 'allOrder', countKey: 'allOrdersCount' },
  { path: 'future-order', title: 'Future Orders', countKey: 'futureOrdersCount' },
  { path: 'deleted-order', title: 'Deleted Orders', folder: 'deletedOrder', countKey: 'deletedOrdersCount' },
  { path: 'refund-order', title: 'Refunds', folder: 'refundOrder', countKey: 'refundOrdersCount' },
  {
    path: 'completed-refunds',
    title: 'Completed Refunds',
    folder: 'refundedOrder',
    countKey: 'refundedOrdersCount',
  },
  { path: 'chargeback', title: 'Chargeback', countKey: 'chargeBackCount' },
] as const satisfies readonly OrderScreen[];

/** An order screen of the navigation. */
export interface OrderScreen {
  /** Under /admin. */
  path: string;
  title: string;
  /** The folder a folder list route shows. */
  folder?: Folder;
  countKey: FolderCountKey;
}

/** The path of an order screen under /admin (a typo does not compile). */
export type OrderScreenPath = (typeof ORDER_SCREENS)[number]['path'];

/** A folder list route: its path under /admin, folder name, title and counts key. */
export interface FolderRoute {
  path: OrderScreenPath;
  folder: Folder;
  title: string;
  countKey: FolderCountKey;
}

const screens: readonly OrderScreen[] = ORDER_SCREENS;

/** The folder list routes, in their order (the first is the dashboard's list). */
export const FOLDER_ROUTES = screens.filter((e): e is FolderRoute => !!e.folder) as FolderRoute[];

/** The entry of a path, for a screen's title. */
export function orderScreen(path: OrderScreenPath): OrderScreen {
  return screens.find((e) => e.path === path)!;
}
