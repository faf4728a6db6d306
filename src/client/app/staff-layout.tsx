import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { errorMessage } from '../transport/api';
import { FOLDER_ROUTES } from '../orders/nav';
import { useSessionUser } from '../auth/use-session-user';
import { LoadError } from '../components/load-error';
import { useGetFolderCountQuery } from '../orders/counts-api';
import { DashboardTiles } from './dashboard-tiles';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** Roles whose dashboard shows the "My day" card (Admin and Manager have the insights screen). */
const MY_DAY_ROLES: readonly string[] = ['Team', 'Telecaller', 'Night Staff'];
// Its own small chunk: the staff first load stays within its budget.
const MyDayCard = lazy(() => import('../insights/my-day-card').then((m) => ({ default: m.MyDayCard })));
// The event stream, keyboard shortcuts and jump-to-order box: their own chunk, loaded after sign-in.
// The dashboard's shift note (decision 318): its own chunk, loaded only on the dashboard.
const ShiftNoteCard = lazy(() =>
  import('../shift-notes/shift-note-card').then((m) => ({ default: m.ShiftNoteCard })),
);
// This month's dispute band for Admin and Manager (docs/product.md, "Dispute ratios"): its own chunk.
const DisputeBandCard = lazy(() =>
  import('../insights/dispute-band-card').then((m) => ({ default: m.DisputeBandCard })),
);
const LiveRoot = lazy(() => import('../live/live-root').then((m) => ({ default: m.LiveRoot })));

/** The dashboard and the queues: the screens that show the folder tiles (a detail or form page does not). */
const TILE_PATHS = new Set([
  '/admin',
  ...FOLDER_ROUTES.map((r) => `/admin/${r.path}`),
  '/admin/future-order',
  '/admin/chargeback',
]);

/** The staff layout under /admin/*: sidebar, top bar, dashboard tiles, then the page. */
export function StaffLayout() {
  const user = useSessionUser();
  const location = useLocation();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  // While the counts cannot be read the tiles and sidebar show no numbers, and the page says so.
  const { data: counts, refetch, isError: countsFailed, error: countsError } = useGetFolderCountQuery();
  const firstRender = useRef(true);

  // Counts are re-fetched on every route change; the first fetch is the query's own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route change is the trigger
  useEffect(() => {
    setSidebarOpen(false);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    refetch();
  }, [location.pathname, location.search]);

  const withTiles = TILE_PATHS.has(location.pathname.replace(/\/+$/, '') || '/admin');
  const onDashboard = (location.pathname.replace(/\/+$/, '') || '/admin') === '/admin';

  return (
    <div className="staff-shell">
      {/* The first Tab stop: past the sidebar's links straight to the screen's own content. */}
      <a href="#main-content" className="skip-link">
        Skip to main content
      </a>
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
        {/* "Live updates are offline" lands here (live-root.tsx), in the flow: it covers no control. */}
        <div id="live-status" />
        <main id="main-content" className="staff-content" tabIndex={-1}>
          {countsFailed ? (
            <LoadError
              className="alert alert-light border py-2 mb-3"
              message={`The order counts could not be loaded: ${errorMessage(countsError)}`}
              onRetry={() => void refetch()}
            />
          ) : null}
          {withTiles ? <DashboardTiles counts={counts} compact={!onDashboard} /> : null}
          {onDashboard ? (
            <Suspense fallback={null}>
              <ShiftNoteCard />
            </Suspense>
          ) : null}
          {onDashboard && user && (user.type === 'Admin' || user.type === 'Manager') ? (
            <Suspense fallback={null}>
              <DisputeBandCard />
            </Suspense>
          ) : null}
          {withTiles && user && MY_DAY_ROLES.includes(user.type) ? (
            <Suspense fallback={null}>
              <MyDayCard />
            </Suspense>
          ) : null}
          <Outlet />
        </main>
        <Suspense fallback={null}>
          <LiveRoot />
        </Suspense>
      </div>
    </div>
  );
}
