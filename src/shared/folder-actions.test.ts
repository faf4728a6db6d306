import { describe, expect, it } from 'vitest';
import { FOLDERS, ROLES } from './constants.js';
import { folderActions } from './folder-actions.js';

describe('folder action policy', () => {
  it('new and priority queues: everyone assigns to self; Delete for Admin and Manager only', () => {
    for (const folder of ['newOrder', 'priorityOrder'] as const) {
      expect(folderActions(folder, 'Admin')).toEqual({ bulk: ['assign', 'delete'], row: [] });
      expect(folderActions(folder, 'Manager')).toEqual({ bulk: ['assign', 'delete'], row: [] });
      expect(folderActions(folder, 'Team')).toEqual({ bulk: ['assign'], row: [] });
      expect(folderActions(folder, 'Telecaller')).toEqual({ bulk: ['assign'], row: [] });
    }
  });

  it('my orders: move back for all; bulk Delete for Admin only', () => {
    expect(folderActions('myOrder', 'Admin').bulk).toEqual(['moveBack', 'delete']);
    expect(folderActions('myOrder', 'Manager').bulk).toEqual(['moveBack']);
    expect(folderActions('myOrder', 'Night Staff').bulk).toEqual(['moveBack']);
  });

  it('refunds: Refunded it in bulk and on each row for all; Delete for Admin and Manager, on rows too', () => {
    expect(folderActions('refundOrder', 'Team')).toEqual({ bulk: ['refund'], row: ['refund'] });
    expect(folderActions('refundOrder', 'Manager')).toEqual({
      bulk: ['refund', 'delete'],
      row: ['refund', 'delete'],
    });
  });

  it('deleted orders: Restore for Admin and Manager, never Delete', () => {
    expect(folderActions('deletedOrder', 'Admin')).toEqual({ bulk: ['restore'], row: ['restore'] });
    expect(folderActions('deletedOrder', 'Team')).toEqual({ bulk: [], row: [] });
  });

  it('future orders: Delete on each row for every role, no bulk bar; chargebacks: row Delete for supervisors', () => {
    for (const role of ROLES)
      expect(folderActions('futureOrder', role)).toEqual({ bulk: [], row: ['delete'] });
    expect(folderActions('chargeBack', 'Admin')).toEqual({ bulk: [], row: ['delete'] });
    expect(folderActions('chargeBack', 'Telecaller')).toEqual({ bulk: [], row: [] });
  });

  it('signed out (no role): nothing but the self-service moves the server would refuse anyway', () => {
    for (const folder of FOLDERS) {
      const { bulk, row } = folderActions(folder, null);
      expect(bulk.filter((a) => a !== 'assign' && a !== 'moveBack')).toEqual([]);
      expect(row).toEqual([]);
    }
  });

  it('the other queues offer only Delete, to Admin and Manager', () => {
    for (const folder of ['pendingOrder', 'awaitingOrder', 'allOrder', 'completedOrder'] as const) {
      expect(folderActions(folder, 'Admin')).toEqual({ bulk: ['delete'], row: [] });
      expect(folderActions(folder, 'Team')).toEqual({ bulk: [], row: [] });
    }
  });
});
