import 'bootstrap/dist/css/bootstrap.min.css';
import 'react-toastify/dist/ReactToastify.css';
import './staff.css';
import { lazy, Suspense, useEffect } from 'react';
import { Provider } from 'react-redux';
import { useNavigate } from 'react-router';
import { ToastContainer, toast } from 'react-toastify';
import { setUnauthorizedHandler } from '../app/api';
import { clearSession, getAccessToken, sessionUser } from '../app/session';
import { getStore, useAppSelector } from '../app/store';
import { signOut, takeSignOutNotice } from '../auth/sign-out';

// Signed-out visitors load only the login screen (forms, validation); signed-in staff only the layout.
const LoginPage = lazy(() => import('../auth/login-page').then((m) => ({ default: m.LoginPage })));
const StaffLayout = lazy(() => import('./staff-layout').then((m) => ({ default: m.StaffLayout })));

// An expired or unreadable token is no session: the login screen shows instead of a failing layout.
if (getAccessToken() && !sessionUser()) clearSession();

/** Toasts of the staff screens (spec §9): top-right, 5 s, pause on hover and focus loss, drag 80 %. */
export const STAFF_TOASTS = {
  position: 'top-right',
  autoClose: 5000,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 80,
} as const;

/** Any 401 on a staff screen: toast the server message, clear the session, go to / (spec §6, §8). */
function UnauthorizedHandler() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler((message) => {
      // Signed out already (a failed sign-in answers 401 too): the login form shows its own toast.
      if (!getStore().getState().auth.isAuth) return;
      signOut({ kind: 'error', message });
      navigate('/', { replace: true });
    });
  }, [navigate]);
  // After a sign-out elsewhere (401, password changed) the fresh shell shows its notice.
  useEffect(() => {
    const notice = takeSignOutNotice();
    if (notice) toast[notice.kind](notice.message, { toastId: `sign-out:${notice.message}` });
  }, []);
  return null;
}

function StaffArea() {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  return <Suspense fallback={null}>{isAuth ? <StaffLayout /> : <LoginPage />}</Suspense>;
}

/** /admin: the login screen when signed out, the staff layout otherwise. */
export function Component() {
  return (
    <Provider store={getStore()}>
      {/* The container first: its effects run before the handler's, so a pending notice finds it. */}
      <ToastContainer {...STAFF_TOASTS} />
      <UnauthorizedHandler />
      <StaffArea />
    </Provider>
  );
}
