import type { Role } from '../../shared/constants';
import { SESSION_STORAGE_KEY } from '../../shared/constants';

/** The signed-in user as read from the token payload (the stored session). */
export interface SessionUser {
  id: number;
  name: string;
  type: Role;
}

export function getAccessToken(): string | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { accessToken?: unknown };
    return typeof parsed.accessToken === 'string' ? parsed.accessToken : null;
  } catch {
    return null;
  }
}

export function saveSession(accessToken: string): void {
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken }));
}

export function clearSession(): void {
  localStorage.removeItem(SESSION_STORAGE_KEY);
}

/** Name and type come from the token's payload; the server re-checks everything. */
export function sessionUser(token: string | null = getAccessToken()): SessionUser | null {
  if (!token) return null;
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(decodeURIComponent(escape(json))) as { user?: SessionUser; exp?: number };
    if (!claims.user || (claims.exp && claims.exp * 1000 < Date.now())) return null;
    return claims.user;
  } catch {
    return null;
  }
}
