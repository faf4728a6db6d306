import { Link, NavLink, useLocation } from 'react-router';
import { STAFF_APP_NAME } from '../../shared/brand';
import type { FolderCounts, Role } from '../../shared/constants';
import { sidebarVisible } from '../../shared/permissions';
import { SIDEBAR_LINKS } from './nav';
import { useGetUnmatchedQuery } from '../inbound/unmatched-api';
import { SidebarViews } from '../orders/sidebar-views';

interface Props {
  role: Role | null;
  counts: FolderCounts | undefined;
  open: boolean;
  onClose: () => void;
}

/** The sidebar's groups: queues (every folder with its count), the customer-facing screens, settings. */
const CUSTOMERS = new Set([
  'country-order-list',
  'send-invoice',
  'processed-order',
  'finance-report',
  'insights',
]);
const SETTINGS = new Set([
  'manage-team',
  'gateway-setting',
  'audit-log',
  'mail-templates',
  'macros',
  'status-notifications',
  'change-password',
]);
/** How many mails matched no order (the Unmatched Mail link; shown only to roles that see the link). */
function UnmatchedCount() {
  const { data } = useGetUnmatchedQuery({ page: 1, size: 25 });
  if (!data) return null;
  return (
    <span className="badge rounded-pill staff-count" data-testid="count-unmatched-mail">
      {data.total}
    </span>
  );
}

/** The All list narrowed to the orders whose customer answered (the "Customer replied" count). */
export const CUSTOMER_REPLIED_LIST = '/admin/order-history?customerReplied=true';
type SidebarLink = (typeof SIDEBAR_LINKS)[number];
const groupOf = (link: SidebarLink) =>
  link.key === 'logout'
    ? 'Account'
    : CUSTOMERS.has(link.key)
      ? 'Customers'
      : SETTINGS.has(link.key)
        ? 'Settings'
        : 'Queues';
const GROUPS = ['Queues', 'Customers', 'Settings', 'Account'] as const;

/**
 * Sidebar: the links with their counts, filtered per role by the shared permission table, in groups
 * (Queues, the saved views, Customers, Settings; Logout last). The account menu of the top bar stays on screen however
 * long the sidebar is.
 */
export function Sidebar({ role, counts, open, onClose }: Props) {
  const location = useLocation();
  const repliedListOpen =
    location.pathname === '/admin/order-history' &&
    new URLSearchParams(location.search).get('customerReplied') === 'true';
  const repliedLabel = counts && 'repliedCount' in counts && (
    <>
      <span>Customer replied</span>
      <span className="badge rounded-pill staff-count" data-testid="count-customerReplied">
        {(counts as { repliedCount: number }).repliedCount}
      </span>
    </>
  );
  const visible = SIDEBAR_LINKS.filter((link) => sidebarVisible(role, link.key));
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
      {GROUPS.map((group) => {
        const links = visible.filter((link) => groupOf(link) === group);
        if (!links.length) return null;
        return (
          <ul key={group} className="staff-nav" aria-label={group}>
            {group !== 'Account' ? (
              <li className="staff-nav-header" aria-hidden>
                {group}
              </li>
            ) : null}
            {links.map((link) => (
              <li key={link.key}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) => `staff-nav-link${isActive ? ' active' : ''}`}
                >
                  <span>{link.label}</span>
                  {link.key === 'unmatched-mail' ? <UnmatchedCount /> : null}
                  {'countKey' in link && link.countKey && counts ? (
                    <span className="badge rounded-pill staff-count" data-testid={`count-${link.key}`}>
                      {counts[link.countKey]}
                    </span>
                  ) : null}
                </NavLink>
              </li>
            ))}
            {group === 'Queues' && counts && 'repliedCount' in counts ? (
              <li>
                {/* The orders with an unread answer, held by the user or unassigned (decision 327); a link
                    to that list for the roles that may open the All list. */}
                {sidebarVisible(role, 'order-history') ? (
                  <Link
                    to={CUSTOMER_REPLIED_LIST}
                    className={`staff-nav-link${repliedListOpen ? ' active' : ''}`}
                    data-testid="link-customerReplied"
                  >
                    {repliedLabel}
                  </Link>
                ) : (
                  <span className="staff-nav-link">{repliedLabel}</span>
                )}
              </li>
            ) : null}
          </ul>
        );
      }).flatMap((list, i) =>
        // Saved views (one's own and those shared with the team) right under the queues, so they are on
        // the first screen, above the customer screens and the settings.
        GROUPS[i] === 'Queues' ? [list, <SidebarViews key="views" />] : [list],
      )}
    </nav>
  );
}
