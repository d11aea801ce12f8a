/**
 * Keeps a signed-in session usable (spec section 4): an expired token ends it with 'Token
 * Expired, please logout and try again'; missing menus are fetched; menus older than one day
 * are refreshed after renewing the token; a failed menu fetch shows a toast and logs out.
 */
import type { MenuEntry } from '@backoffice/core/menu';
import { useEffect, useState } from 'react';
import { api, expireSession, isSessionError } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { isTokenExpired, menuNeed, useSession, type SessionUser } from '../lib/session-store.ts';
import { toast } from '../lib/toast.ts';

/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

let inFlight: Promise<void> | null = null;

/** The answers belong to the session that asked: a simulation started meanwhile is not overwritten. */
const sameSession = (token: string) => useSession.getState().user?.token === token;

/**
 * Renews the token. A refresh ends the old token's session on the server, so tabs of one browser
 * take turns (a Web Lock): a tab that waited reads what the other saved and uses its new token
 * instead of refreshing the ended one. Answers the token to go on with, or null to stop.
 */
async function refreshToken(token: string): Promise<string | null> {
  const run = async (): Promise<string | null> => {
    useSession.getState().followStored();
    const current = useSession.getState().user?.token;
    if (current !== token) return null;
    const fresh = await api.request<SessionUser>('login/refresh', { token });
    if (!sameSession(token)) return null;
    useSession.getState().refreshUser(fresh);
    return useSession.getState().user?.token ?? fresh.token;
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('bo-session-refresh', run) : run();
}

async function syncMenus(refresh: boolean, startToken: string): Promise<void> {
  let token = startToken;
  if (refresh) {
    try {
      const next = await refreshToken(token);
      if (next === null) return;
      token = next;
    } catch (error) {
      if (isSessionError(error) || !sameSession(token)) return;
      toast.error(t('session.refresh_failed'));
    }
  }
  try {
    const menus = await api.request<MenuEntry[]>('admin/menu', { token });
    if (!sameSession(token)) return;
    useSession.getState().setMenus(Array.isArray(menus) ? menus : []);
  } catch (error) {
    if (isSessionError(error) || !sameSession(token)) return;
    toast.error(t('session.menu_failed'));
    useSession.getState().logout();
  }
}

/**
 * Fetches the menus of a session that has none yet, unless a fetch is under way: the sign-in page
 * calls it as soon as the session exists, so the shell's first render already has its menus
 * (instead of a spinner, then the fetch once the shell has mounted).
 */
export function prefetchMenus(token: string): Promise<void> {
  inFlight ??= syncMenus(false, token).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

export function useSessionSync(): void {
  const user = useSession((s) => s.user);
  const menus = useSession((s) => s.menus);
  const updated = useSession((s) => s.updated);
  const exp = user?.exp;
  const token = user?.token;

  useEffect(() => {
    if (exp === undefined) return;
    if (isTokenExpired({ exp })) {
      expireSession();
      return;
    }
    const timer = setTimeout(expireSession, Math.min(exp * 1000 - Date.now(), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [exp, token]);

  const need = menuNeed({ user, menus, updated });
  // Bumped when a sync ends, so a need that arose meanwhile (a new simulation) is served.
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (need === 'none' || !token || inFlight) return;
    if (isTokenExpired({ exp: exp ?? 0 })) return;
    inFlight = syncMenus(need === 'refresh', token).finally(() => {
      inFlight = null;
      setRound((r) => r + 1);
    });
  }, [need, token, exp, round]);
}
