import { Outlet } from 'react-router';

/** Placeholder: the staff-access issue renders the login screen or the staff layout here. */
export function Component() {
  return (
    <div>
      <h1 className="h4 p-3">ED-Card</h1>
      <Outlet />
    </div>
  );
}
