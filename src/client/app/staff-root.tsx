import 'bootstrap/dist/css/bootstrap.min.css';
import 'react-toastify/dist/ReactToastify.css';
import './staff.css';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Provider } from 'react-redux';
import { useLocation, useNavigate } from 'react-router';
import { ToastContainer, toast } from 'react-toastify';
import { setUnauthorizedHandler } from '../transport/api-client';
import { clearSession, getAccessToken, sessionUser } from '../transport/session';
import { getStore, useAppSelector } from '../state/store';
import { signOut, takeSignOutNotice } from '../auth/sign-out';

// Signed-out visitors load only the login screen (forms, validation); signed-in staff only the layout.
const LoginPage = lazy(() => import('../auth/login-page').then((m) => ({ default: m.LoginPage })));
const StaffLayout = lazy(() => import('./staff-layout').then((m) => ({ default: m.StaffLayout })));

export const SESSION_ENDED = 'Your session has ended — please sign in again';

// An expired or unreadable token is no session: the login screen shows instead of a failing layout,
// and says why.
let sessionEnded = false;
if (getAccessToken() && !sessionUser()) {
  clearSession();
  sessionEnded = true;
}

/** Staff toasts (docs/product.md): top-right, 5 s, pause on hover and focus loss, drag 80 %. */
export const STAFF_TOASTS = {
  position: 'top-right',
  autoClose: 5000,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 80,
} as const;

/**
 * Any 401 on a staff screen: toast the server message and clear the session. The address stays, so the
 * login shows in place of the screen that asked, and signing in again returns to it.
 */
function UnauthorizedHandler() {
  useEffect(() => {
    setUnauthorizedHandler((message) => {
      // Signed out already (a failed sign-in answers 401 too): the login form shows its own toast.
      if (!getStore().getState().auth.isAuth) return;
      // Set first: the login screen that replaces the layout reads it when it appears.
      sessionEnded = true;
      signOut();
      toast.error(message, { toastId: `sign-out:${message}` });
    });
  }, []);
  // After a sign-out elsewhere (401, password changed) the fresh shell shows its notice.
  useEffect(() => {
    const notice = takeSignOutNotice();
    if (notice) toast[notice.kind](notice.message, { toastId: `sign-out:${notice.message}` });
  }, []);
  return null;
}

/** The login screen, in the page's main landmark, saying why when a session expired or was ended. */
function SignIn() {
  const [ended] = useState(sessionEnded);
  return (
    <main id="main-content" className="staff-sign-in">
      {ended ? (
        <p className="alert alert-warning staff-session-ended" role="status">
          {SESSION_ENDED}
        </p>
      ) : null}
      <LoginPage />
    </main>
  );
}

/**
 * The login shows at whatever address asked for it (a deep link, a screen whose session ended). The
 * login form goes to /admin when it succeeds; this takes the person back to the address that asked,
 * unless the sign-in sent them somewhere else first (a password change, two-factor setup).
 */
function useReturnAfterSignIn(isAuth: boolean) {
  const location = useLocation();
  const navigate = useNavigate();
  const here = `${location.pathname}${location.search}`;
  const asked = useRef<string | null>(null);
  if (!isAuth) asked.current = here;
  useEffect(() => {
    const target = asked.current;
    if (!isAuth || !target) return;
    if (here === '/admin') {
      asked.current = null;
      if (target !== here) navigate(target, { replace: true });
    } else if (here !== target) {
      asked.current = null;
    }
  }, [isAuth, here, navigate]);
}

function StaffArea() {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  useReturnAfterSignIn(isAuth);
  // A new sign-in ends the notice.
  if (isAuth) sessionEnded = false;
  return <Suspense fallback={null}>{isAuth ? <StaffLayout /> : <SignIn />}</Suspense>;
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
