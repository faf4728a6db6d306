import { describe, expect, it } from 'vitest';
import { FOLDER_ROUTES, orderScreen } from '../orders/nav';
import { SIDEBAR_LINKS, TILES } from './nav';
import { routes } from './router';

describe('navigation, written once', () => {
  const adminPaths = (routes.find((r) => r.path === '/admin')?.children ?? []).map((r) => r.path);

  it('every folder and sidebar screen under /admin is a route', () => {
    for (const r of FOLDER_ROUTES) expect(adminPaths).toContain(r.path);
    for (const link of SIDEBAR_LINKS.filter((l) => l.to.startsWith('/admin/')))
      expect(adminPaths).toContain(link.to.slice('/admin/'.length));
  });

  it('the dashboard list is New Orders; the tiles keep their order; Logout closes the sidebar', () => {
    expect(FOLDER_ROUTES[0]).toMatchObject({ folder: 'newOrder', title: 'New Orders' });
    expect(TILES.map((t) => t.label)).toEqual([
      'My Orders',
      'New Orders',
      'Priority Order',
      'Pending Orders',
      'Completed Orders',
    ]);
    expect(SIDEBAR_LINKS.at(-1)).toEqual({ label: 'Logout', to: '/logout', key: 'logout' });
  });

  it('a tile, a sidebar link and a route of one folder share its title and count', () => {
    const refunds = FOLDER_ROUTES.find((r) => r.folder === 'refundOrder');
    const link = SIDEBAR_LINKS.find((l) => l.key === 'refund-order');
    expect(link).toMatchObject({ label: refunds?.title, countKey: refunds?.countKey });
    expect(orderScreen('future-order')).toMatchObject({
      title: 'Future Orders',
      countKey: 'futureOrdersCount',
    });
  });
});
