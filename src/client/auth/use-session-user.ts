import { useMemo } from 'react';
import { type SessionUser, sessionUser } from '../transport/session';
import { useAppSelector } from '../state/store';

/** Name and type of the signed-in user, read from the stored token; null when signed out. */
export function useSessionUser(): SessionUser | null {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  return useMemo(() => (isAuth ? sessionUser() : null), [isAuth]);
}
