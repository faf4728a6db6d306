import { Link } from 'react-router';
import type { FolderCounts } from '../../shared/constants';
import { TILES } from '../app/nav';

/** Dashboard tiles, each with its count; without counts the tiles show no numbers. */
export function DashboardTiles({ counts }: { counts: FolderCounts | undefined }) {
  // get-folder-count also answers the due-time figures.
  const sla = counts as (FolderCounts & { atRiskCount?: number; breachedCount?: number }) | undefined;
  return (
    <section className="staff-tiles" aria-label="Dashboard">
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
      {/* Open orders near or past their due time, whole system: each opens the matching list. */}
      {sla?.atRiskCount !== undefined ? (
        <>
          <Link to="/admin/order-history?slaState=at_risk&sort=due_at" className="staff-tile">
            <span className="staff-tile-label">Due soon</span>
            <span className="staff-tile-count text-warning" data-testid="tile-count-atRisk">
              {sla.atRiskCount}
            </span>
          </Link>
          <Link to="/admin/order-history?slaState=breached&sort=due_at" className="staff-tile">
            <span className="staff-tile-label">Late</span>
            <span className="staff-tile-count text-danger" data-testid="tile-count-breached">
              {sla.breachedCount}
            </span>
          </Link>
        </>
      ) : null}
    </section>
  );
}
