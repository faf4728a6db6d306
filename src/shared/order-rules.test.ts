import { describe, expect, it } from 'vitest';
import { MOVABLE_STATUSES, ORDER_STATUSES, ROLES, type Role } from './constants.js';
import {
  decide,
  deleteRoles,
  holderDecision,
  type OrderState,
  orderStateOf,
  remarkMove,
} from './order-rules.js';

const TODAY = '2026-11-22';
const order = (over: Partial<OrderState> = {}): OrderState => ({
  processStatus: 'New',
  assigned: false,
  processingDate: TODAY,
  ...over,
});
const allowed = (o: OrderState, action: Parameters<typeof decide>[1], role: Role) =>
  decide(o, action, role, TODAY).allowed;

describe('delete rule, decided by the real folder', () => {
  it('lets only Admin and Manager delete an open, unheld order', () => {
    for (const role of ROLES) {
      expect(allowed(order({ processStatus: 'Awaiting' }), { kind: 'delete' }, role)).toBe(
        role === 'Admin' || role === 'Manager',
      );
    }
  });
  it('lets every role delete a future order', () => {
    const future = order({ processingDate: '2026-12-01' });
    for (const role of ROLES) expect(allowed(future, { kind: 'delete' }, role)).toBe(true);
    expect(deleteRoles(future, TODAY)).toEqual(ROLES);
  });
  it('lets only Admin delete an order someone holds, even a future one', () => {
    for (const o of [order({ assigned: true }), order({ assigned: true, processingDate: '2027-01-01' })]) {
      for (const role of ROLES) expect(allowed(o, { kind: 'delete' }, role)).toBe(role === 'Admin');
    }
  });
  it('treats a held but closed order as not held', () => {
    expect(
      allowed(order({ processStatus: 'Completed', assigned: true }), { kind: 'delete' }, 'Manager'),
    ).toBe(true);
  });
  it('refuses a second delete with 409 and a role refusal with 403', () => {
    expect(decide(order({ processStatus: 'Deleted' }), { kind: 'delete' }, 'Admin', TODAY)).toMatchObject({
      allowed: false,
      code: 409,
    });
    expect(decide(order(), { kind: 'delete' }, 'Night Staff', TODAY)).toMatchObject({
      allowed: false,
      code: 403,
    });
  });
  it('applies the same rule to the detail screen move to Deleted', () => {
    for (const role of ROLES) {
      for (const o of [order(), order({ assigned: true }), order({ processingDate: '2027-02-02' })]) {
        expect(decide(o, { kind: 'move', to: 'Deleted' }, role, TODAY)).toEqual(
          decide(o, { kind: 'delete' }, role, TODAY),
        );
      }
    }
  });
});

describe('leaving Deleted', () => {
  const deleted = order({ processStatus: 'Deleted' });
  it('restore and every move out are Admin and Manager only', () => {
    for (const role of ROLES) {
      const may = role === 'Admin' || role === 'Manager';
      expect(allowed(deleted, { kind: 'restore' }, role)).toBe(may);
      for (const to of MOVABLE_STATUSES.filter((s) => s !== 'Deleted' && s !== 'Refunded')) {
        expect(allowed(deleted, { kind: 'move', to }, role)).toBe(may);
      }
    }
  });
  it('a Telecaller moving a deleted order to Completed gets 403', () => {
    expect(decide(deleted, { kind: 'move', to: 'Completed' }, 'Telecaller', TODAY)).toMatchObject({
      allowed: false,
      code: 403,
    });
  });
  it('restore of an order that is not deleted is a 409', () => {
    expect(decide(order(), { kind: 'restore' }, 'Admin', TODAY)).toMatchObject({ allowed: false, code: 409 });
  });
});

describe('refunds', () => {
  it('complete refund only from Refunds, for every role', () => {
    for (const status of ORDER_STATUSES) {
      for (const role of ROLES) {
        const d = decide(order({ processStatus: status }), { kind: 'completeRefund' }, role, TODAY);
        expect(d.allowed).toBe(status === 'Refunds');
        if (!d.allowed) expect(d.code).toBe(409);
      }
    }
  });
  it('Move to Completed Refunds follows the same rule', () => {
    expect(allowed(order({ processStatus: 'Refunds' }), { kind: 'move', to: 'Refunded' }, 'Team')).toBe(true);
    expect(allowed(order({ processStatus: 'Awaiting' }), { kind: 'move', to: 'Refunded' }, 'Admin')).toBe(
      false,
    );
  });
  it('only Admin and Manager move an order out of Completed Refunds', () => {
    const refunded = order({ processStatus: 'Refunded' });
    expect(allowed(refunded, { kind: 'move', to: 'ChargeBack' }, 'Team')).toBe(false);
    expect(allowed(refunded, { kind: 'move', to: 'ChargeBack' }, 'Manager')).toBe(true);
  });
});

describe('moves', () => {
  it('refuses a move to the current status with 409', () => {
    for (const to of MOVABLE_STATUSES) {
      expect(decide(order({ processStatus: to }), { kind: 'move', to }, 'Admin', TODAY)).toMatchObject({
        allowed: false,
        code: 409,
      });
    }
  });
  it('allows every role the ordinary moves between open statuses', () => {
    for (const role of ROLES) {
      expect(allowed(order(), { kind: 'move', to: 'AwaitingGovt' }, role)).toBe(true);
      expect(allowed(order({ processStatus: 'Completed' }), { kind: 'move', to: 'ChargeBack' }, role)).toBe(
        true,
      );
    }
  });
});

describe('remark flags', () => {
  const flags = (refund: boolean, chargeBack: boolean) =>
    ({ statusRefund: refund ? 'Y' : 'N', chargeBack: chargeBack ? 'Y' : 'N' }) as const;
  it('Chargeback wins over Refund', () => {
    expect(remarkMove(order(), flags(true, true), 'Team', TODAY)?.to).toBe('ChargeBack');
  });
  it('no move without a flag, to the current status, or back to Refunds once refunded', () => {
    expect(remarkMove(order(), flags(false, false), 'Team', TODAY)).toBeNull();
    expect(remarkMove(order({ processStatus: 'Refunds' }), flags(true, false), 'Team', TODAY)).toBeNull();
    expect(remarkMove(order({ processStatus: 'Refunded' }), flags(true, false), 'Team', TODAY)).toBeNull();
  });
  it('a flag on a deleted order follows the restore rule', () => {
    const d = remarkMove(order({ processStatus: 'Deleted' }), flags(true, false), 'Team', TODAY);
    expect(d?.decision).toMatchObject({ allowed: false, code: 403 });
    const m = remarkMove(order({ processStatus: 'Deleted' }), flags(true, false), 'Manager', TODAY);
    expect(m?.decision.allowed).toBe(true);
  });
});

describe('holder rule', () => {
  const held = { assignedToId: 7, holder: 'Demo Team' };
  it('lets the holder and anyone on an unheld order act', () => {
    expect(holderDecision(held, { id: 7, role: 'Team' }, false)).toEqual({ allowed: true, takeOver: false });
    expect(
      holderDecision({ assignedToId: null, holder: null }, { id: 1, role: 'Telecaller' }, false),
    ).toEqual({
      allowed: true,
      takeOver: false,
    });
  });
  it('refuses other Team, Telecaller and Night Staff members, naming the holder, even with takeOver', () => {
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const d = holderDecision(held, { id: 8, role }, true);
      expect(d).toMatchObject({ allowed: false, code: 409 });
      if (!d.allowed) expect(d.message).toContain('Demo Team');
    }
  });
  it('lets Admin and Manager take over only when they ask to', () => {
    for (const role of ['Admin', 'Manager'] as const) {
      expect(holderDecision(held, { id: 9, role }, false)).toMatchObject({ allowed: false, code: 409 });
      expect(holderDecision(held, { id: 9, role }, true)).toEqual({ allowed: true, takeOver: true });
    }
  });
});

describe('orderStateOf', () => {
  it('reads a list row or detail answer: an empty or missing assignee is not held', () => {
    const row = { process_status: 'Awaiting' as const, assign_to: '', processing_date: TODAY };
    expect(orderStateOf(row)).toEqual({ processStatus: 'Awaiting', assigned: false, processingDate: TODAY });
    expect(orderStateOf({ ...row, assign_to: null }).assigned).toBe(false);
    expect(orderStateOf({ ...row, assign_to: 'Demo Team' }).assigned).toBe(true);
  });
});
