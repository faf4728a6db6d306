import { configureStore } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { api } from '../transport/api';
import { authSlice } from './auth-slice';

/**
 * The client's state, a floor every feature stands on: the API cache (transport/api.ts) and the session
 * state of auth-slice.ts, which any screen reads (signed in or not) and the sign-in and sign-out change.
 * It imports transport/ only; the features import it, never the composition in app/.
 */
export function makeStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer, auth: authSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;

let staffStore: AppStore | undefined;
/** The one store of the staff area (staff shell, logout page); created on first use, in the staff chunk. */
export function getStore(): AppStore {
  staffStore ??= makeStore();
  return staffStore;
}
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
export const useAppDispatch: () => AppDispatch = useDispatch;
export const useAppSelector: TypedUseSelectorHook<RootState> = useSelector;
