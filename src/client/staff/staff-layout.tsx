import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSessionUser } from '../auth/use-session-user';
import { useGetFolderCountQuery } from '../orders/counts-api';
import { DashboardTiles } from './dashboard-tiles';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** The staff layout under /admin/* (spec §2): sidebar, top bar, dashboard tiles, then the page. */
export function StaffLayout() {
  const user = useSessionUser();
  const location = useLocation();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // Counts fail until their endpoint exists (or while it is down): the tiles then show no numbers.
  const { data: counts, refetch } = useGetFolderCountQuery();
  const firstRender = useRef(true);

  // Counts are re-fetched on every route change (spec §2); the first fetch is the query's own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route change is the trigger
  useEffect(() => {
    setSidebarOpen(false);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    refetch();
  }, [location.pathname, location.search]);

  return (
    <div className="staff-shell">
      <Sidebar
        role={user?.type ?? null}
        counts={counts}
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
      />
      {sidebarOpen ? (
        <div className="staff-backdrop" onClick={() => setSidebarOpen(false)} aria-hidden />
      ) : null}
      <div className="staff-main">
        <TopBar
          name={user?.name ?? ''}
          sidebarOpen={sidebarOpen}
          onToggleSidebar={() => setSidebarOpen((o) => !o)}
        />
        <main className="staff-content">
          <DashboardTiles counts={counts} />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
