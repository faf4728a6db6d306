import Dropdown from 'react-bootstrap/Dropdown';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { signOut } from '../auth/sign-out';
import { useSessionUser } from '../auth/use-session-user';
import { errorMessage } from '../transport/api';
import { useGetAvailabilityQuery, useSetAvailabilityMutation } from '../staff/availability-api';

interface Props {
  name: string;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase() ||
    '?'
  );
}

/** Top bar: 'Welcome {name}', an avatar and the account menu (sessions, two-factor, Logout). */
export function TopBar({ name, sidebarOpen, onToggleSidebar }: Props) {
  const navigate = useNavigate();
  const type = useSessionUser()?.type;
  const availability = useGetAvailabilityQuery();
  const [setAvailability] = useSetAvailabilityMutation();
  const away = availability.data?.away ?? false;
  return (
    <header className="staff-topbar">
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm staff-toggle"
        aria-label={sidebarOpen ? 'Close menu' : 'Open menu'}
        aria-expanded={sidebarOpen}
        aria-controls="staff-sidebar"
        onClick={onToggleSidebar}
      >
        <span className="staff-toggle-bar" />
        <span className="staff-toggle-bar" />
        <span className="staff-toggle-bar" />
      </button>
      <div className="ms-auto d-flex align-items-center gap-2 staff-account">
        <Dropdown align="end">
          {/* The button's name is its visible text, the greeting; the avatar's initials are decoration. */}
          <Dropdown.Toggle variant="light" className="staff-avatar-toggle">
            <span className="staff-welcome">Welcome {name}</span>
            <span className="staff-avatar" aria-hidden>
              {initials(name)}
            </span>
          </Dropdown.Toggle>
          <Dropdown.Menu>
            <Dropdown.ItemText className="small text-body-secondary">
              {name}
              {availability.data ? ` · ${away ? 'Away' : 'Available'}` : ''}
            </Dropdown.ItemText>
            {availability.data ? (
              <Dropdown.Item
                as="button"
                onClick={() => {
                  setAvailability({ away: !away })
                    .unwrap()
                    .then((r) => toast.success(r.message))
                    .catch((e) => toast.error(errorMessage(e)));
                }}
              >
                {away ? 'Set me Available' : 'Set me Away'}
              </Dropdown.Item>
            ) : null}
            <Dropdown.Divider />
            <Dropdown.Item as={Link} to="/admin/account/sessions">
              Your sessions
            </Dropdown.Item>
            <Dropdown.Item as={Link} to="/admin/account/two-factor">
              Two-factor sign-in
            </Dropdown.Item>
            {type === 'Admin' ? (
              <>
                <Dropdown.Item as={Link} to="/admin/account/security-settings">
                  Sign-in settings
                </Dropdown.Item>
                <Dropdown.Item as={Link} to="/admin/retention-settings">
                  Data retention
                </Dropdown.Item>
                <Dropdown.Item as={Link} to="/admin/self-service-settings">
                  Customer self-service
                </Dropdown.Item>
                <Dropdown.Item as={Link} to="/admin/working-hours">
                  Working hours
                </Dropdown.Item>
              </>
            ) : null}
            <Dropdown.Divider />
            <Dropdown.Item
              as="button"
              onClick={() => {
                signOut();
                navigate('/', { replace: true });
              }}
            >
              Logout
            </Dropdown.Item>
          </Dropdown.Menu>
        </Dropdown>
      </div>
    </header>
  );
}
