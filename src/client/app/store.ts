import { configureStore } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { authSlice } from '../auth/auth-slice';
import { api } from '../transport/api';

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
