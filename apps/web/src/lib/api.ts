/**
 * The app's fetch client: the spec's client bound to the session (token, language) and to the
 * session rules for authentication errors (spec sections 4 and 8): an expired token shows
 * 'Token Expired, please logout and try again' and logs out; a missing or invalid token logs
 * out with its message.
 */
import { createFetchClient, FetchError, type FetchClient } from './fetch-client.ts';
import { i18n, t } from './i18n.ts';
import { useSession } from './session-store.ts';
import { toast } from './toast.ts';

/** REST base from VITE_REST_URL; empty means the API serves this app (same origin). */
export const REST_BASE: string = import.meta.env.VITE_REST_URL ?? '';

const SIGN_OUT_KEYS = new Set(['auth.token_expired', 'auth.token_missing', 'auth.token_invalid']);

/** The user-facing text of an error: its i18n key translated, else the server's text, else the message. */
export function errorText(error: unknown): string {
  if (error instanceof FetchError) {
    const key = error.key;
    if (key && i18n.exists(key)) return t(key, error.details.params ?? undefined);
    return error.details.text ?? error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return t('common.error');
}

/** Signs out once for a session-ending error; returns whether it did. */
export function handleSessionError(error: FetchError): boolean {
  const key = error.key;
  if (!key || !SIGN_OUT_KEYS.has(key)) return false;
  const { user, logout } = useSession.getState();
  if (!user) return false;
  toast.error(key === 'auth.token_expired' ? t('auth.token_expired') : errorText(error));
  logout();
  return true;
}

/**
 * Ends sessions on the server (POST /v1/logout), without waiting and without the session rules:
 * an already ended session answers 401, which must not sign anyone out here.
 */
export function endSessionsOnServer(tokens: readonly (string | null | undefined)[]): void {
  for (const token of new Set(tokens)) {
    if (!token) continue;
    void fetch(`${REST_BASE}/v1/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
  }
}

/** The profile menu's Logout and /clean: ends the session (and a simulation) on the server and here. */
export function signOut(): void {
  const { user, original, logout } = useSession.getState();
  endSessionsOnServer([user?.token, original?.user.token]);
  logout();
}

/** Expires the session locally (the token's exp has passed). */
export function expireSession(): void {
  const { user, logout } = useSession.getState();
  if (!user) return;
  toast.error(t('auth.token_expired'));
  logout();
}

export const api: FetchClient = createFetchClient({
  restBase: REST_BASE,
  getToken: () => useSession.getState().user?.token,
  getLocale: () => useSession.getState().locale,
  onError: (error, request) => {
    // An answer to a session that is no longer the current one (a simulation just left, a sign-in
    // since) says nothing about the current one: a 401 for the ended simulated session must not
    // sign the admin out.
    if (request.token && request.token !== useSession.getState().user?.token) return;
    handleSessionError(error);
  },
});

/** Is this error one the session layer already handled (no second toast needed)? */
export function isSessionError(error: unknown): boolean {
  return error instanceof FetchError && error.key !== null && SIGN_OUT_KEYS.has(error.key);
}
