import type { OrderStatus } from './constants.js';

/**
 * Where an order is, in the customer's terms (docs/decisions/211). The customer page shows it as a
 * progress line; the staff statuses stay staff vocabulary.
 */
export const CUSTOMER_STAGES = [
  'received',
  'in_review',
  'action_needed',
  'with_government',
  'approved',
  'refunded',
  'cancelled',
] as const;
export type CustomerStage = (typeof CUSTOMER_STAGES)[number];

/** The steps of the progress line, in order; action_needed, refunded and cancelled are detours from it. */
export const PROGRESS_STAGES = ['received', 'in_review', 'with_government', 'approved'] as const;

/**
 * The catalog key of each stage message (what it means, what to do). Two statuses share a stage but say
 * more: a refund asked for and not yet made, and a disputed payment.
 */
export type StageMessageKey =
  | `stage.${CustomerStage}.message`
  | 'stage.refund_requested.message'
  | 'stage.chargeback.message';

export interface CustomerStageInfo {
  stage: CustomerStage;
  /** Key of the stage message in the customer catalogs (src/shared/i18n). */
  messageKey: StageMessageKey;
}

const BY_STATUS: Record<OrderStatus, CustomerStageInfo> = {
  New: { stage: 'received', messageKey: 'stage.received.message' },
  'Customer Called': { stage: 'in_review', messageKey: 'stage.in_review.message' },
  Awaiting: { stage: 'action_needed', messageKey: 'stage.action_needed.message' },
  'Contact Customer': { stage: 'action_needed', messageKey: 'stage.action_needed.message' },
  AwaitingGovt: { stage: 'with_government', messageKey: 'stage.with_government.message' },
  Completed: { stage: 'approved', messageKey: 'stage.approved.message' },
  Refunds: { stage: 'refunded', messageKey: 'stage.refund_requested.message' },
  Refunded: { stage: 'refunded', messageKey: 'stage.refunded.message' },
  ChargeBack: { stage: 'cancelled', messageKey: 'stage.chargeback.message' },
  Deleted: { stage: 'cancelled', messageKey: 'stage.cancelled.message' },
};

/**
 * The customer stage of an order's status. Total: a status this table does not know (a future one)
 * reads as received, never as approved or cancelled.
 */
export function customerStageOf(status: string): CustomerStageInfo {
  return Object.hasOwn(BY_STATUS, status) ? BY_STATUS[status as OrderStatus] : BY_STATUS.New;
}

/** Whether the stage shows the staff's request text (the customer must do something). */
export const stageShowsRequest = (stage: CustomerStage) => stage === 'action_needed';
