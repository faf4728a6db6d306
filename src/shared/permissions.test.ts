import { describe, expect, it } from 'vitest';
import type { Role } from './constants.js';
import { can, deletePermissionFor, sidebarVisible } from './permissions.js';

describe('permission table', () => {
  it('follows the delete permissions of each folder', () => {
    expect(can('Manager', deletePermissionFor('newOrder'))).toBe(true);
    expect(can('Team', deletePermissionFor('newOrder'))).toBe(false);
    expect(can('Manager', deletePermissionFor('myOrder'))).toBe(false);
    expect(can('Admin', deletePermissionFor('myOrder'))).toBe(true);
    expect(can('Night Staff', deletePermissionFor('futureOrder'))).toBe(true);
  });
  it('follows the sidebar visibility of each role', () => {
    expect(sidebarVisible('Telecaller', 'order-history')).toBe(false);
    expect(sidebarVisible('Night Staff', 'manage-team')).toBe(false);
    expect(sidebarVisible('Night Staff', 'change-password')).toBe(false);
    expect(sidebarVisible('Team', 'processed-order')).toBe(false);
    expect(sidebarVisible('Manager', 'processed-order')).toBe(true);
    expect(sidebarVisible('Night Staff', 'chargeback')).toBe(true);
    expect(sidebarVisible(null, 'chargeback')).toBe(false);
  });
  it('denies unknown roles', () => {
    expect(can('Hacker' as Role, 'orders.read')).toBe(false);
    expect(can(undefined, 'orders.read')).toBe(false);
  });
});
