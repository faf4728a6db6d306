import Dropdown from 'react-bootstrap/Dropdown';
import { useNavigate } from 'react-router';
import { signOut } from '../auth/sign-out';

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

/** Top bar (spec §2): 'Welcome {name}', an avatar and a dropdown with Logout. */
export function TopBar({ name, sidebarOpen, onToggleSidebar }: Props) {
  const navigate = useNavigate();
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
      <div className="ms-auto d-flex align-items-center gap-2">
        <span className="staff-welcome">Welcome {name}</span>
        <Dropdown align="end">
          <Dropdown.Toggle variant="light" className="staff-avatar-toggle" aria-label="Account menu">
            <span className="staff-avatar" aria-hidden>
              {initials(name)}
            </span>
          </Dropdown.Toggle>
          <Dropdown.Menu>
            <Dropdown.ItemText className="small text-muted">{name}</Dropdown.ItemText>
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
