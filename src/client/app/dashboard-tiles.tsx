import { Link } from 'react-router';
import type { FolderCounts } from '../../shared/constants';
import { can } from '../../shared/permissions';
import { TILES } from './nav';
import { useSessionUser } from '../auth/use-session-user';

/** Dashboard tiles, each with its count; without counts the tiles show no numbers. */
export function DashboardTiles({
  counts,
  compact = false,
}: {
  counts: FolderCounts | undefined;
  /** One short row of tiles (the lists); the dashboard shows them full size. */
  compact?: boolean;
}) {
  // get-folder-count also answers the due-time figures.
  const due = counts as
    | (FolderCounts & {
        atRiskCount?: number;
        breachedCount?: number;
        needsAttentionCount?: number;
        tripPassedCount?: number;
        callBackDueCount?: number;
      })
    | undefined;
  // The figures are open orders of the whole system, which only Order History lists: a role that cannot
  // open it (Telecaller) gets no tiles rather than links to a refusal or to a list with other numbers.
  const role = useSessionUser()?.type ?? null;
  const showDue = due?.atRiskCount !== undefined && can(role, 'orders.readAll');
  return (
    <section className={compact ? 'staff-tiles staff-tiles-compact' : 'staff-tiles'} aria-label="Dashboard">
      {TILES.map((tile) => (
        <Link key={tile.to} to={tile.to} className="staff-tile">
          <span className="staff-tile-label">{tile.label}</span>
          {counts ? (
            <span className="staff-tile-count" data-testid={`tile-count-${tile.countKey}`}>
              {counts[tile.countKey]}
            </span>
          ) : null}
        </Link>
      ))}
      {/* The user's call-backs whose time has come (decisions 331, 383): their list. */}
      {due?.callBackDueCount ? (
        <Link to="/admin/call-backs-due" className="staff-tile" title="Logged call-backs whose time has come">
          <span className="staff-tile-label">Call-backs due</span>
          <span className="staff-tile-count text-warning" data-testid="tile-count-callBackDue">
            {due.callBackDueCount}
          </span>
        </Link>
      ) : null}
      {/* Open orders near or past their due time, whole system: each opens the matching list. */}
      {showDue ? (
        <>
          <Link to="/admin/order-history?dueState=at_risk&sort=due_at" className="staff-tile">
            <span className="staff-tile-label">Due soon</span>
            <span className="staff-tile-count text-warning" data-testid="tile-count-atRisk">
              {due?.atRiskCount}
            </span>
          </Link>
          <Link to="/admin/order-history?dueState=breached&sort=due_at" className="staff-tile">
            <span className="staff-tile-label">Late</span>
            <span className="staff-tile-count text-danger" data-testid="tile-count-breached">
              {due?.breachedCount}
            </span>
          </Link>
          {/* Still worked but the arrival day is over: not late, to refund or close (decision 316). */}
          {due?.tripPassedCount !== undefined ? (
            <Link
              to="/admin/order-history?dueState=trip_passed&sort=arrival_date"
              className="staff-tile staff-tile-trip"
              title="The arrival date has passed: refund or close these orders"
            >
              <span className="staff-tile-label">Trip passed</span>
              <span className="staff-tile-count" data-testid="tile-count-tripPassed">
                {due.tripPassedCount}
              </span>
            </Link>
          ) : null}
        </>
      ) : null}
      {/* Orders still being worked with a failing data check (docs/product.md, "Order checks"). */}
      {showDue && due?.needsAttentionCount !== undefined ? (
        <Link to="/admin/order-history?needsAttention=true" className="staff-tile">
          <span className="staff-tile-label">Needs attention</span>
          <span className="staff-tile-count text-warning">{due.needsAttentionCount}</span>
        </Link>
      ) : null}
    </section>
  );
}
