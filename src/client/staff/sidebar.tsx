import { NavLink } from 'react-router';
import { STAFF_APP_NAME } from '../../shared/brand';
import type { FolderCounts } from '../../shared/constants';
import { sidebarVisible } from '../../shared/permissions';
import { SIDEBAR_LINKS } from '../app/nav';
import { SidebarViews } from '../orders/sidebar-views';

interface Props {
  role: string | null;
  counts: FolderCounts | undefined;
  open: boolean;
  onClose: () => void;
}

/** Sidebar: the links with their counts, filtered per role by the shared permission table. */
export function Sidebar({ role, counts, open, onClose }: Props) {
  return (
    <nav id="staff-sidebar" className={`staff-sidebar${open ? ' open' : ''}`} aria-label="Main">
      <div className="staff-brand">
        <img src="/logo.svg" alt="" width={36} height={36} />
        <span>{STAFF_APP_NAME}</span>
        <button
          type="button"
          className="btn-close btn-close-white staff-sidebar-close"
          aria-label="Close menu"
          onClick={onClose}
        />
      </div>
      <ul className="staff-nav">
        {SIDEBAR_LINKS.filter((link) => sidebarVisible(role, link.key)).map((link) => (
          <li key={link.key}>
            <NavLink to={link.to} className={({ isActive }) => `staff-nav-link${isActive ? ' active' : ''}`}>
              <span>{link.label}</span>
              {link.countKey && counts ? (
                <span className="badge rounded-pill staff-count" data-testid={`count-${link.key}`}>
                  {counts[link.countKey]}
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
        {counts && 'repliedCount' in counts ? (
          <li>
            <span className="staff-nav-link">
              <span>Customer replied</span>
              <span className="badge rounded-pill staff-count" data-testid="count-customerReplied">
                {(counts as { repliedCount: number }).repliedCount}
              </span>
            </span>
          </li>
        ) : null}
      </ul>
      <SidebarViews />
    </nav>
  );
}
