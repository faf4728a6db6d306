import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from './constants.js';
import { CUSTOMER_STAGES, customerStageOf, PROGRESS_STAGES, stageShowsRequest } from './customer-stage.js';
import en from './i18n/en.js';

const EXPECTED: Record<OrderStatus, [string, string]> = {
  New: ['received', 'stage.received.message'],
  'Customer Called': ['in_review', 'stage.in_review.message'],
  Awaiting: ['action_needed', 'stage.action_needed.message'],
  'Contact Customer': ['action_needed', 'stage.action_needed.message'],
  AwaitingGovt: ['with_government', 'stage.with_government.message'],
  Completed: ['approved', 'stage.approved.message'],
  Refunds: ['refunded', 'stage.refund_requested.message'],
  Refunded: ['refunded', 'stage.refunded.message'],
  ChargeBack: ['cancelled', 'stage.chargeback.message'],
  Deleted: ['cancelled', 'stage.cancelled.message'],
};

describe('customerStageOf', () => {
  it.each(ORDER_STATUSES)('maps %s to its stage and message', (status) => {
    const info = customerStageOf(status);
    expect([info.stage, info.messageKey]).toEqual(EXPECTED[status]);
    expect(CUSTOMER_STAGES).toContain(info.stage);
    // Every stage message and stage name exists in the English catalog.
    expect(en[info.messageKey]).toBeTruthy();
    expect(en[`stage.${info.stage}`]).toBeTruthy();
  });

  it('reads an unknown or hostile status as received, never approved', () => {
    for (const status of [
      '',
      'completed',
      'toString',
      '__proto__',
      'constructor',
      'Completed\u0000',
      'x'.repeat(10_000),
    ]) {
      expect(customerStageOf(status).stage).toBe('received');
    }
  });

  it('uses every stage and shows the request text only when the customer must act', () => {
    const used = new Set(ORDER_STATUSES.map((s) => customerStageOf(s).stage));
    expect([...used].sort()).toEqual([...CUSTOMER_STAGES].sort());
    expect(CUSTOMER_STAGES.filter(stageShowsRequest)).toEqual(['action_needed']);
    expect(PROGRESS_STAGES.every((s) => CUSTOMER_STAGES.includes(s))).toBe(true);
  });
});
