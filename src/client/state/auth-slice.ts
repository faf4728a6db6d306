import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { getAccessToken } from '../transport/session';

/** Auth state: isAuth is true when a stored session exists at start; loading while signing in. */
export interface AuthState {
  loading: boolean;
  isAuth: boolean;
}

export const initialAuthState = (): AuthState => ({
  loading: false,
  isAuth: !!getAccessToken(),
});

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    loggedOut: () => ({ ...initialAuthState(), isAuth: false }),
    loginPending: (state) => {
      state.loading = true;
    },
    /** The sign-in failed; the page shows the message itself. */
    loginRejected: (state, _action: PayloadAction<string | null>) => {
      state.loading = false;
    },
    loginFulfilled: (state, action: PayloadAction<unknown>) => {
      state.loading = false;
      if (action.payload) state.isAuth = true;
    },
  },
});

export const { loggedOut, loginPending, loginRejected, loginFulfilled } = authSlice.actions;
