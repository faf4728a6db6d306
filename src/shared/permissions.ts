import type { Folder, Role } from './constants.js';
import { ROLES } from './constants.js';

/**
 * The one permission table (docs/product.md). The API guards and the UI both read it; the UI only mirrors it.
 */
const ALL: readonly Role[] = ROLES;
const ADMIN_MANAGER: readonly Role[] = ['Admin', 'Manager'];
const NOT_TELECALLER: readonly Role[] = ['Admin', 'Manager', 'Team', 'Night Staff'];
const NOT_NIGHT_STAFF: readonly Role[] = ['Admin', 'Manager', 'Team', 'Telecaller'];

export const PERMISSIONS = {
  /** Signed in at all: user info, own password. */
  'session.self': ALL,
  /** Read and write the shift note on the dashboard (decision 318). */
  'shift.note': ALL,
  'orders.read': ALL,
  /** The Order History (allOrder) list and search. */
  'orders.readAll': NOT_TELECALLER,
  'orders.assign': ALL,
  /** Move another staff member's orders back to the original folder (supervisors). */
  'orders.releaseAny': ADMIN_MANAGER,
  /** Assign above one's routing capacity, after the warning with the load. */
  'orders.assignOverCapacity': ADMIN_MANAGER,
  /** The routing policy (which folders route, the idle release): Admin and Manager. */
  'routing.policy': ADMIN_MANAGER,
  'orders.move': ALL,
  /** Bulk or per-row delete in the new, priority, default and refund queues and on the chargeback list. */
  'orders.delete': ADMIN_MANAGER,
  /** Bulk delete in the my-orders queue. */
  'orders.deleteMyOrders': ['Admin'],
  /** Delete on the future order list. */
  'orders.deleteFuture': ALL,
  /** Withdraw a wrongly uploaded document (kept for audit, never served again). */
  'orders.withdrawDocument': ADMIN_MANAGER,
  /** Let a card whose check found a mismatch or another order's file go out, with a reason. */
  'orders.releaseCard': ADMIN_MANAGER,
  'orders.refund': ALL,
  'orders.remark': ALL,
  'orders.documents': ALL,
  'orders.transaction': ALL,
  'orders.defencePack': ALL,
  /** Send the Defence Pack to the payment provider as a dispute's evidence (draft or submit). */
  'orders.disputeEvidence': ADMIN_MANAGER,
  'orders.invoice': ALL,
  /** Correct an order's traveller and trip data; decide on a possible duplicate (docs/product.md, "Order checks"). */
  'orders.correct': ['Admin', 'Manager', 'Team'],
  'reports.country': ALL,
  'reports.processedBy': ADMIN_MANAGER,
  'team.read': NOT_NIGHT_STAFF,
  'team.write': ADMIN_MANAGER,
  'gateways.read': NOT_NIGHT_STAFF,
  'gateways.write': ADMIN_MANAGER,
  /** See and end another member's sessions; reset another member's two-factor sign-in. */
  'sessions.manageAny': ['Admin'],
  /** Sign-in settings: two-factor per role, password change after a reset. */
  'settings.security': ['Admin'],
  /** The insights dashboard (backlog, throughput, time to complete, staff, on time, chargebacks, mail). */
  'insights.read': ADMIN_MANAGER,
  /** The "My day" card: one's own completions today and open assigned orders. */
  'insights.myDay': ALL,
  /** The audit trail; a Manager does not see Admin accounts' sign-ins (server-side filter). */
  'audit.read': ADMIN_MANAGER,
  /** Record that one exported personal data to CSV (the export itself is built in the browser). */
  'audit.exportEvent': ALL,
  /** The due-time policy per processing mode: everyone reads it, Admin and Manager change it. */
  'dueTime.read': ALL,
  'dueTime.write': ADMIN_MANAGER,
  /** The working-hours calendar (weekly hours, holidays): everyone reads it, an Admin changes it. */
  'workingHours.write': ['Admin'],
  /** The submission policy: window, job minutes, auto-send of government cards (docs/product.md). */
  'submission.policy': ADMIN_MANAGER,
  /** API keys for machines (the job API): create, list, revoke. */
  'apiKeys.manage': ['Admin'],
  /** Retention of personal data: the policy period, and erasing one order's personal data on request. */
  'settings.retention': ['Admin'],
  'orders.erase': ['Admin'],
  /** Saved list views: everyone keeps their own; Admin and Manager may share theirs with all. */
  'views.own': ALL,
  'views.share': ADMIN_MANAGER,
  /** Customer mail templates: everyone reads (and previews) them, Admin and Manager change them. */
  'templates.read': ALL,
  'templates.write': ADMIN_MANAGER,
  /** Macros: everyone reads and applies them, Admin and Manager change them. */
  'macros.read': ALL,
  'macros.apply': ALL,
  'macros.write': ADMIN_MANAGER,
  /** Which statuses mail the customer, with which template. */
  'notifications.settings': ADMIN_MANAGER,
  /** Customers' self-service: the cancellation ladder, the feedback mail, the track page's answers. */
  'settings.selfService': ['Admin'],
  /** The payment policy (fraud warnings, dispute bands): Admin and Manager read it, Admin changes it. */
  'payments.policyRead': ADMIN_MANAGER,
  'payments.policyWrite': ['Admin'],
  /** Act on a fraud warning (refund now, keep) and clear a risk hold, with a reason. */
  'payments.risk': ADMIN_MANAGER,
  /** The dispute ratios the card networks watch. */
  'payments.insights': ADMIN_MANAGER,
  /** Sync the provider's payouts and list their unmatched transactions. */
  'payouts.sync': ['Admin'],
  /** The finance report (margin per period, reconciled with the provider's payouts). */
  'reports.finance': ADMIN_MANAGER,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return !!role && (PERMISSIONS[permission] as readonly string[]).includes(role);
}

/** Which delete permission applies to a bulk delete coming from a folder ("Who may do what"). */
export function deletePermissionFor(folder: Folder): Permission {
  if (folder === 'myOrder') return 'orders.deleteMyOrders';
  if (folder === 'futureOrder') return 'orders.deleteFuture';
  return 'orders.delete';
}

/** The permission needed to read a folder's list and search. */
export function readPermissionFor(folder: Folder): Permission {
  return folder === 'allOrder' ? 'orders.readAll' : 'orders.read';
}

/** Sidebar links and who sees them (docs/product.md, "Who may do what"). */
export const SIDEBAR_VISIBILITY = {
  'order-history': NOT_TELECALLER,
  'manage-team': NOT_NIGHT_STAFF,
  'processed-order': ADMIN_MANAGER,
  'finance-report': ADMIN_MANAGER,
  'gateway-setting': NOT_NIGHT_STAFF,
  insights: ADMIN_MANAGER,
  'audit-log': ADMIN_MANAGER,
  /** Mail that matched no order: those who may read every order (orders.readAll). */
  'unmatched-mail': NOT_TELECALLER,
  'change-password': NOT_NIGHT_STAFF,
  'mail-templates': ALL,
  macros: ALL,
  'status-notifications': ADMIN_MANAGER,
} as const satisfies Record<string, readonly Role[]>;

export function sidebarVisible(role: Role | null | undefined, link: string): boolean {
  const roles = (SIDEBAR_VISIBILITY as Record<string, readonly string[]>)[link];
  return roles ? !!role && roles.includes(role) : !!role;
}
