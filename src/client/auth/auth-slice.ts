import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { getAccessToken } from '../app/session';

/** Auth state: isAuth is true when a stored session exists at start; role is never set. */
export interface AuthState {
  loading: boolean;
  error: string | null;
  data: unknown;
  isAuth: boolean;
  role: string | null;
  userInfoLoading: boolean;
}

export const initialAuthState = (): AuthState => ({
  loading: false,
  error: null,
  data: null,
  isAuth: !!getAccessToken(),
  role: null,
  userInfoLoading: false,
});

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    loggedOut: () => ({ ...initialAuthState(), isAuth: false }),
    loginPending: (state) => {
      state.loading = true;
    },
    loginRejected: (state, action: PayloadAction<string | null>) => {
      state.loading = false;
      state.error = action.payload;
    },
    loginFulfilled: (state, action: PayloadAction<unknown>) => {
      state.loading = false;
      if (action.payload) {
        state.isAuth = true;
        state.data = action.payload;
      }
    },
  },
});

export const { loggedOut, loginPending, loginRejected, loginFulfilled } = authSlice.actions;
