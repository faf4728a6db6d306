import { CLOSED_STATUSES, type OrderStatus, type Role } from './constants.js';

/**
 * The order lifecycle as one table: which role may do what to an order in which state. The server
 * enforces it on every path (bulk queue actions, row actions, the detail screen's moves, remark flags)
 * and the UI only mirrors it to decide which buttons to show. docs/product.md describes the rules in
 * prose; docs/decisions/080-order-rules.md records the choices.
 */

/** What the rules need to know about an order: its status, whether someone holds it, and when it is due. */
export interface OrderState {
  processStatus: OrderStatus;
  /** True when the order is assigned to a staff member. */
  assigned: boolean;
  /** YYYY-MM-DD processing date. */
  processingDate: string;
}

/**
 * The rules' view of an order as the API answers it (a list row or the detail): the screens build the
 * state in this one way.
 */
export function orderStateOf(order: {
  process_status: OrderStatus;
  assign_to: string | null;
  processing_date: string;
}): OrderState {
  return {
    processStatus: order.process_status,
    assigned: !!order.assign_to,
    processingDate: order.processing_date,
  };
}

export type OrderAction =
  /** A detail-screen status button, or a remark flag that moves the order. */
  | { kind: 'move'; to: OrderStatus }
  /** Soft delete from a queue (bulk or row) or the detail screen's Move to Delete. */
  | { kind: 'delete' }
  /** Out of Deleted, back to the status the order had before. */
  | { kind: 'restore' }
  /** 'Refunded it' in the Refunds queue, or Move to Completed Refunds on the detail screen. */
  | { kind: 'completeRefund' };

export type Decision =
  | { allowed: true }
  /** `code` 403: this role may never do it here; 409: the order's state does not allow it now. */
  | { allowed: false; code: 403 | 409; message: string };

const ADMIN_MANAGER: readonly Role[] = ['Admin', 'Manager'];
const ALL_STAFF: readonly Role[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];

/** Whether a status ends work on the order (CLOSED_STATUSES). */
export function isClosedStatus(status: string): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status);
}

/** Human names of the statuses, as the queues call them. */
export const STATUS_NAMES: Record<OrderStatus, string> = {
  New: 'New',
  Awaiting: 'Awaiting Customer',
  AwaitingGovt: 'Awaiting Govt',
  'Customer Called': 'Customer Called',
  'Contact Customer': 'Contact Customer',
  Completed: 'Completed',
  Deleted: 'Deleted',
  Refunds: 'Refunds',
  Refunded: 'Completed Refunds',
  ChargeBack: 'ChargeBack',
};

export function statusName(status: string): string {
  return STATUS_NAMES[status as OrderStatus] ?? status;
}

/**
 * A move out of ChargeBack into Completed mails the customer nothing (no status notification, no macro
 * mail, no approval notice): the customer is disputing the payment, and "your order is complete" would
 * answer the dispute for them. Every server path asks this; the detail screen says it before the move.
 */
export function completionMailSuppressed(from: string, to: string): boolean {
  return from === 'ChargeBack' && to === 'Completed';
}

/**
 * The mail template a WhatsApp message suggests for an order in each status (the text follows where the
 * order is: a Contact Customer order asks the customer to get in touch, not "your card is approved").
 */
export const WHATSAPP_TEMPLATE_BY_STATUS: Record<OrderStatus, string> = {
  New: 'contact-customer',
  Awaiting: 'awaiting-customer',
  AwaitingGovt: 'sent-to-government',
  'Customer Called': 'approval-notice',
  'Contact Customer': 'contact-customer',
  Completed: 'approval-notice',
  Deleted: 'contact-customer',
  Refunds: 'contact-customer',
  Refunded: 'refund-confirmation',
  ChargeBack: 'contact-customer',
};

/** Statuses whose detail screen shows the Defence Packs and Enter Transaction Details. */
export const EVIDENCE_STATUSES: readonly OrderStatus[] = [
  'Completed',
  'Customer Called',
  'ChargeBack',
  'Refunds',
  'Refunded',
];

/** A New order whose processing date is after today sits in Future Orders. */
export function isFutureOrder(order: OrderState, today: string): boolean {
  return order.processStatus === 'New' && order.processingDate > today;
}

/** An open order someone holds sits in that person's My Orders. */
export function isInMyOrders(order: OrderState): boolean {
  return order.assigned && !isClosedStatus(order.processStatus);
}

/**
 * Who may delete an order, decided by the folder it really sits in (never by the folder a request
 * claims): anyone in Future Orders, Admin only while someone holds it, Admin and Manager elsewhere.
 * When both apply (a held future order) the stricter rule wins.
 */
export function deleteRoles(order: OrderState, today: string): readonly Role[] {
  if (isInMyOrders(order)) return ['Admin'];
  if (isFutureOrder(order, today)) return ALL_STAFF;
  return ADMIN_MANAGER;
}

const allow: Decision = { allowed: true };
const refuse = (code: 403 | 409, message: string): Decision => ({ allowed: false, code, message });

function mayRole(roles: readonly Role[], role: Role | null): boolean {
  return role !== null && roles.includes(role);
}

function deleteDecision(order: OrderState, role: Role | null, today: string): Decision {
  if (order.processStatus === 'Deleted') return refuse(409, 'The order is already deleted.');
  const roles = deleteRoles(order, today);
  if (mayRole(roles, role)) return allow;
  if (roles.length === 1) return refuse(403, 'Only an Admin can delete an order someone is working on.');
  return refuse(403, 'Only an Admin or Manager can delete this order.');
}

const RESTORE_REFUSED = 'Only an Admin or Manager can take an order out of Deleted.';
const REFUNDED_LOCKED = 'Only an Admin or Manager can move an order out of Completed Refunds.';

/**
 * The one decision function. `today` is the service date (YYYY-MM-DD) that decides Future Orders.
 */
export function decide(order: OrderState, action: OrderAction, role: Role | null, today: string): Decision {
  const from = order.processStatus;
  switch (action.kind) {
    case 'delete':
      return deleteDecision(order, role, today);
    case 'restore':
      if (!mayRole(ADMIN_MANAGER, role)) return refuse(403, RESTORE_REFUSED);
      if (from !== 'Deleted') return refuse(409, `The order is not deleted (it is in ${statusName(from)}).`);
      return allow;
    case 'completeRefund':
      if (from !== 'Refunds') {
        return refuse(
          409,
          `Only orders in Refunds can be marked refunded (the order is in ${statusName(from)}).`,
        );
      }
      return allow;
    case 'move': {
      const to = action.to;
      if (to === from) return refuse(409, `The order is already in ${statusName(to)}.`);
      if (to === 'Deleted') return deleteDecision(order, role, today);
      if (from === 'Deleted') return mayRole(ADMIN_MANAGER, role) ? allow : refuse(403, RESTORE_REFUSED);
      if (to === 'Refunded') return decide(order, { kind: 'completeRefund' }, role, today);
      if (from === 'Refunded' && !mayRole(ADMIN_MANAGER, role)) return refuse(403, REFUNDED_LOCKED);
      if (to === 'New') return refuse(409, 'Orders go back to New only by restoring or releasing them.');
      return allow;
    }
  }
}

/** Where a remark flag moves the order: Chargeback wins over Refund when both are ticked. */
export function remarkFlagTarget(flags: {
  statusRefund: 'Y' | 'N';
  chargeBack: 'Y' | 'N';
}): 'ChargeBack' | 'Refunds' | null {
  if (flags.chargeBack === 'Y') return 'ChargeBack';
  if (flags.statusRefund === 'Y') return 'Refunds';
  return null;
}

/**
 * Whether a remark with these flags moves the order, and what the rules say about it. An order that
 * is already where the flag points, or already refunded when the flag is Refund, keeps its status
 * and the remark is only recorded.
 */
export function remarkMove(
  order: OrderState,
  flags: { statusRefund: 'Y' | 'N'; chargeBack: 'Y' | 'N' },
  role: Role | null,
  today: string,
): { to: 'ChargeBack' | 'Refunds'; decision: Decision } | null {
  const to = remarkFlagTarget(flags);
  if (!to || to === order.processStatus) return null;
  if (to === 'Refunds' && order.processStatus === 'Refunded') return null;
  return { to, decision: decide(order, { kind: 'move', to }, role, today) };
}

/**
 * The holder rule of shared queues: while an order is assigned to someone, nobody else moves it (by a
 * status button or a remark flag). Admin and Manager may take it over, which reassigns it to them.
 */
export function holderDecision(
  order: { assignedToId: number | null; holder: string | null },
  actor: { id: number; role: Role },
  takeOver: boolean,
): { allowed: true; takeOver: boolean } | { allowed: false; code: 409; message: string } {
  if (order.assignedToId === null || order.assignedToId === actor.id)
    return { allowed: true, takeOver: false };
  const name = order.holder || 'someone else';
  if (mayRole(ADMIN_MANAGER, actor.role)) {
    if (takeOver) return { allowed: true, takeOver: true };
    return {
      allowed: false,
      code: 409,
      message: `${name} is working on this order. Take it over to change it.`,
    };
  }
  return {
    allowed: false,
    code: 409,
    message: `${name} is working on this order. Ask them, or an Admin or Manager, to release it.`,
  };
}
