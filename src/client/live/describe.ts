import type { OrderStatus } from '../../shared/constants';
import type { OrderChangeEvent } from '../../shared/contracts/live';
import { statusName } from '../../shared/order-rules';

/** "Demo Team moved it to Awaiting Govt": one order change in words, for the detail page's notice. */
export function describeOrderChange(e: OrderChangeEvent): string {
  // Assignments and releases without a staff member are routing's.
  const who = e.by || (e.action === 'assign' ? 'Routing' : 'The system');
  switch (e.action) {
    case 'status':
      return `${who} moved it to ${statusName(e.processStatus)}`;
    case 'assign':
      return e.assignTo ? `${who} assigned it to ${e.assignTo}` : `${who} released it`;
    case 'takeover':
      return `${who} took it over`;
    case 'remark':
      return `${who} added a remark`;
    case 'upload':
      return `${who} uploaded a document`;
    case 'withdraw':
      return `${who} withdrew a document`;
    case 'mail':
      return `${who} queued a mail`;
    case 'transaction':
      return `${who} changed the transaction details`;
    default:
      return `${who} changed it`;
  }
}

/**
 * The likely next step from a status, shown as the primary status button: a new order usually waits for
 * the customer's answer or goes to the government, an answered one to the government, and an order back
 * from the government or a call is completed.
 */
const NEXT_STEP: Partial<Record<OrderStatus, OrderStatus>> = {
  New: 'AwaitingGovt',
  Awaiting: 'AwaitingGovt',
  'Contact Customer': 'Customer Called',
  'Customer Called': 'Completed',
  AwaitingGovt: 'Completed',
  Refunds: 'Refunded',
};
export function likelyNextStatus(processStatus: OrderStatus): OrderStatus | null {
  return NEXT_STEP[processStatus] ?? null;
}
