import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import type { OrderStatus } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import {
  completeRefunds as completeRefundsOf,
  deleteOrders as deleteOrdersOf,
} from '../orders/delete-restore.js';
import { type AddRemarkInput, addRemark as addRemarkOf } from '../orders/remarks.js';
import {
  type ChangeStatusInput,
  changeStatus as changeStatusOf,
  moveAsSystem as moveAsSystemOf,
} from '../orders/status.js';
import { statusMail } from './status-mail.js';

/**
 * Moving an order's status, with its customer mail: the order commands check the rules, write the
 * status and its events, and queue the mails of the status entered (flows/status-mail.ts), all in one
 * transaction. A refund through the payment provider first is the refund flow's (flows/refund-orders.ts);
 * the detail screen's move, which takes one or the other, is flows/detail-move.ts.
 */

/** One order to a status (the detail screen's buttons, macros, the submission). */
export const changeStatus = (db: DbOrTx, actor: StaffIdentity, input: ChangeStatusInput) =>
  changeStatusOf(db, actor, input, statusMail);

/** A move by the system user, through the shared rules: whether it moved, or the rules' reason. */
export const moveAsSystem = (
  db: DbOrTx,
  orderId: number,
  to: OrderStatus,
  opts: { notify?: boolean; today?: string } = {},
) => moveAsSystemOf(db, orderId, to, opts, statusMail);

/** Soft delete (the shared rules decide per order). */
export const deleteOrders = (db: DbOrTx, actor: StaffIdentity, ids: number[], today = serviceToday()) =>
  deleteOrdersOf(db, actor, ids, statusMail, today);

/** 'Refunded it': Refunded, the refund date and the refund confirmation mail. */
export const completeRefunds = (db: DbOrTx, actor: StaffIdentity, ids: number[], today = serviceToday()) =>
  completeRefundsOf(db, actor, ids, statusMail, today);

/** A remark whose Refund or Chargeback flag may move the order. */
export const addRemark = (db: DbOrTx, actor: StaffIdentity, input: AddRemarkInput) =>
  addRemarkOf(db, actor, input, statusMail);
