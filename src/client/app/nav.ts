import type { Folder, FolderCountKey } from '../../shared/constants';

/** A folder list route: its path under /admin, folder name, title and counts key. */
export interface FolderRoute {
  path: string;
  folder: Folder;
  title: string;
  countKey: FolderCountKey;
}

export const FOLDER_ROUTES: FolderRoute[] = [
  { path: 'recent-order', folder: 'newOrder', title: 'New Orders', countKey: 'newOrdersCount' },
  { path: 'my-order', folder: 'myOrder', title: 'My Orders', countKey: 'myOrdersCount' },
  {
    path: 'priority-order',
    folder: 'priorityOrder',
    title: 'Priority Order',
    countKey: 'priorityOrdersCount',
  },
  { path: 'pending-order', folder: 'pendingOrder', title: 'Pending Orders', countKey: 'pendingOrdersCount' },
  {
    path: 'completed-order',
    folder: 'completedOrder',
    title: 'Completed Orders',
    countKey: 'completedOrdersCount',
  },
  { path: 'deleted-order', folder: 'deletedOrder', title: 'Deleted Orders', countKey: 'deletedOrdersCount' },
  {
    path: 'awaiting-response',
    folder: 'awaitingOrder',
    title: 'Awaiting Customer',
    countKey: 'awaitingOrdersCount',
  },
  {
    path: 'awaiting-govt',
    folder: 'awaitingGovtOrder',
    title: 'Awaiting Govt',
    countKey: 'awaitingGovtCount',
  },
  {
    path: 'called',
    folder: 'customerCalledOrder',
    title: 'Customer Called',
    countKey: 'customerCalledCount',
  },
  { path: 'order-history', folder: 'allOrder', title: 'Order History', countKey: 'allOrdersCount' },
  {
    path: 'contact-customer',
    folder: 'contactCustomerOrder',
    title: 'Contact Customer',
    countKey: 'contactCustomerOrdersCount',
  },
  { path: 'refund-order', folder: 'refundOrder', title: 'Refunds', countKey: 'refundOrdersCount' },
  {
    path: 'completed-refunds',
    folder: 'refundedOrder',
    title: 'Completed Refunds',
    countKey: 'refundedOrdersCount',
  },
];

/** Dashboard tiles (docs/product.md, "Sign-in and the layout"). */
export const TILES: { label: string; to: string; countKey: FolderCountKey }[] = [
  { label: 'My Orders', to: '/admin/my-order', countKey: 'myOrdersCount' },
  { label: 'New Orders', to: '/admin/recent-order', countKey: 'newOrdersCount' },
  { label: 'Priority Order', to: '/admin/priority-order', countKey: 'priorityOrdersCount' },
  { label: 'Pending Orders', to: '/admin/pending-order', countKey: 'pendingOrdersCount' },
  { label: 'Completed Orders', to: '/admin/completed-order', countKey: 'completedOrdersCount' },
];

/** Sidebar links, `key` is the visibility key of the shared permission table. */
export const SIDEBAR_LINKS: { label: string; to: string; key: string; countKey?: FolderCountKey }[] = [
  {
    label: 'Awaiting Customer',
    to: '/admin/awaiting-response',
    key: 'awaiting-response',
    countKey: 'awaitingOrdersCount',
  },
  { label: 'Awaiting Govt', to: '/admin/awaiting-govt', key: 'awaiting-govt', countKey: 'awaitingGovtCount' },
  { label: 'Customer Called', to: '/admin/called', key: 'called', countKey: 'customerCalledCount' },
  {
    label: 'Contact Customer',
    to: '/admin/contact-customer',
    key: 'contact-customer',
    countKey: 'contactCustomerOrdersCount',
  },
  { label: 'Order History', to: '/admin/order-history', key: 'order-history', countKey: 'allOrdersCount' },
  { label: 'Future Orders', to: '/admin/future-order', key: 'future-order', countKey: 'futureOrdersCount' },
  {
    label: 'Deleted Orders',
    to: '/admin/deleted-order',
    key: 'deleted-order',
    countKey: 'deletedOrdersCount',
  },
  { label: 'Refunds', to: '/admin/refund-order', key: 'refund-order', countKey: 'refundOrdersCount' },
  {
    label: 'Completed Refunds',
    to: '/admin/completed-refunds',
    key: 'completed-refunds',
    countKey: 'refundedOrdersCount',
  },
  { label: 'Chargeback', to: '/admin/chargeback', key: 'chargeback', countKey: 'chargeBackCount' },
  { label: 'Country Order List', to: '/admin/country-order-list', key: 'country-order-list' },
  { label: 'Manage Invoices', to: '/admin/send-invoice', key: 'send-invoice' },
  { label: 'Manage Team', to: '/admin/manage-team', key: 'manage-team' },
  { label: 'Order Processed', to: '/admin/processed-order', key: 'processed-order' },
  { label: 'Gateway Setting', to: '/admin/gateway-setting', key: 'gateway-setting' },
  { label: 'Insights', to: '/admin/insights', key: 'insights' },
  { label: 'Audit Log', to: '/admin/audit-log', key: 'audit-log' },
  { label: 'Change Password', to: '/admin/change-password', key: 'change-password' },
  { label: 'Logout', to: '/logout', key: 'logout' },
];
