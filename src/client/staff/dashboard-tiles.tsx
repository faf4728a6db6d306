import { Link } from 'react-router';
import type { FolderCounts } from '../../shared/constants';
import { TILES } from '../app/nav';

/** Dashboard tiles (spec §2), each with its count; without counts the tiles show no numbers. */
export function DashboardTiles({ counts }: { counts: FolderCounts | undefined }) {
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
    </section>
  );
}
