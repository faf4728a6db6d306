import { api } from '../transport/api';
import { clearSession, getAccessToken } from '../transport/session';
import { getStore } from '../state/store';
import { loggedOut } from '../state/auth-slice';

export interface SignOutNotice {
  kind: 'success' | 'error';
  message: string;
}

let pendingNotice: SignOutNotice | null = null;

/**
 * Logout: clears the stored session, resets the auth state and every cached answer.
 * A notice (the 401 message, the password-changed message) is shown by the staff shell after the
 * navigation to /, because the shell that was on screen unmounts with its toasts.
 */
export function signOut(notice?: SignOutNotice): void {
  const token = getAccessToken();
  // End the session on the server too: a copied token must not outlive the sign-out.
  if (token) {
    void fetch('/api/admin/logout', {
      method: 'POST',
      headers: { authorization: token },
      keepalive: true,
    }).catch(() => undefined);
  }
  clearSession();
  const store = getStore();
  store.dispatch(loggedOut());
  store.dispatch(api.util.resetApiState());
  pendingNotice = notice ?? null;
}

/** The notice left by the last sign-out, once. */
export function takeSignOutNotice(): SignOutNotice | null {
  const notice = pendingNotice;
  pendingNotice = null;
  return notice;
}
