import { api } from '../app/api';
import { clearSession } from '../app/session';
import { getStore } from '../app/store';
import { loggedOut } from './auth-slice';

/** Logout (spec §2, §4): clears the stored session, resets the auth state and every cached answer. */
export function signOut(): void {
  clearSession();
  const store = getStore();
  store.dispatch(loggedOut());
  store.dispatch(api.util.resetApiState());
}
