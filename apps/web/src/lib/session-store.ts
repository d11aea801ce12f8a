/**
 * Session state (spec sections 3 and 4): user, menus, locale, theme (light default), version and
 * updated timestamp, persisted in local storage (zustand persist, versioned) and restored.
 *
 * Transitions: login -> signed in; logout, an expired token, a failed menu fetch or /clean ->
 * signed out. Menus older than one day are refreshed (token first), missing menus are fetched.
 * An ADMIN simulating a role or a user keeps the original session here to come back to it. A
 * simulation is a session of its own that the API issues (POST login/as with id_user or id_role)
 * and enforces; the ADMIN's own session stays open meanwhile, for the simulator's calls.
 *
 * "Remember login on this computer": without it the session also needs a browser-session
 * cookie, so it survives reloads and new tabs but not closing the browser.
 */
import type { Acl, RoleRef } from '@backoffice/core/acl';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@backoffice/core/i18n/locales';
import type { MenuEntry } from '@backoffice/core/menu';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { LIVE_SESSION_COOKIE, SESSION_STORAGE_KEY, SESSION_VERSION } from './session-keys.ts';

export { LIVE_SESSION_COOKIE, SESSION_STORAGE_KEY, SESSION_VERSION };
/** Menus are refreshed after more than one day (spec section 9). */
export const MENU_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export type Theme = 'light' | 'dark';

/** The API's session object (data of login, refresh and login/as). */
export interface SessionUser {
  id: number;
  mail: string;
  name: string;
  token: string;
  roles: RoleRef[];
  acl: Acl;
  /** Token expiry, seconds since the epoch. */
  exp: number;
  picture: string | null;
  simulated_by: { id: number; mail: string; name: string } | null;
  /** The role an ADMIN is simulating (its ACL is `acl`), if any. */
  simulated_role?: { id: number; name: string } | null;
}

export interface Simulation {
  kind: 'role' | 'user';
  id: number;
  /** Role name or user mail, shown in the "Simulating …" banner. */
  label: string;
}

export interface OriginalSession {
  user: SessionUser;
  menus: MenuEntry[] | null;
  updated: number | null;
}

export interface SessionData {
  user: SessionUser | null;
  /** The menu tree as the API sends it (filtered for the caller on display). */
  menus: MenuEntry[] | null;
  locale: Locale;
  theme: Theme;
  version: number;
  /** When the menus were last loaded (ms since the epoch). */
  updated: number | null;
  remember: boolean;
  /** The ADMIN's own session while simulating. */
  original: OriginalSession | null;
  simulation: Simulation | null;
}

export interface SessionActions {
  login(user: SessionUser, remember: boolean): void;
  logout(): void;
  /** /clean: everything back to defaults except the locale in use. */
  clear(): void;
  setMenus(menus: MenuEntry[], now?: number): void;
  /** A refreshed session (login/refresh): new token, same simulation. */
  refreshUser(fresh: SessionUser): void;
  /** Re-reads the session another tab saved (keeping this tab's language). */
  followStored(): void;
  setLocale(locale: Locale): void;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  /** Starts (or switches to) a simulation: the session POST login/as answered. */
  simulate(session: SessionUser): void;
  stopSimulation(): void;
}

export type SessionState = SessionData & SessionActions;

export function initialSession(locale: Locale = DEFAULT_LOCALE): SessionData {
  return {
    user: null,
    menus: null,
    locale,
    theme: 'light',
    version: SESSION_VERSION,
    updated: null,
    remember: false,
    original: null,
    simulation: null,
  };
}

const signedOut = { user: null, menus: null, updated: null, original: null, simulation: null, remember: false } as const;

/** Is the token expired? Expiry is compared with the current time in seconds (spec section 9). */
export function isTokenExpired(user: Pick<SessionUser, 'exp'> | null | undefined, nowMs = Date.now()): boolean {
  if (!user) return false;
  return !Number.isFinite(user.exp) || user.exp <= Math.floor(nowMs / 1000);
}

/** What the session needs before the shell can show the menu. */
export type MenuNeed = 'none' | 'fetch' | 'refresh';

export function menuNeed(state: Pick<SessionData, 'user' | 'menus' | 'updated'>, nowMs = Date.now()): MenuNeed {
  if (!state.user) return 'none';
  if (!state.menus) return 'fetch';
  if (state.updated === null || nowMs - state.updated > MENU_MAX_AGE_MS) return 'refresh';
  return 'none';
}

/** The persisted part of the state. */
export function persistedPart(state: SessionData): SessionData {
  const { user, menus, locale, theme, version, updated, remember, original, simulation } = state;
  return { user, menus, locale, theme, version, updated, remember, original, simulation };
}

/**
 * Merges what local storage holds into a fresh state. A session saved without "remember" is
 * dropped when its browser-session cookie is gone (the browser was closed).
 */
export function restoreSession(persisted: unknown, current: SessionData, liveSession: boolean): SessionData {
  if (persisted === null || typeof persisted !== 'object') return current;
  const p = persisted as Partial<SessionData>;
  // What storage says about the session wins (also over memory, when another tab changed it).
  const merged: SessionData = {
    ...current,
    ...signedOut,
    theme: p.theme === 'dark' || p.theme === 'light' ? p.theme : current.theme,
    locale: isLocale(p.locale) ? p.locale : current.locale,
  };
  const hasUser = p.user !== null && typeof p.user === 'object' && typeof p.user.token === 'string';
  if (!hasUser) return merged;
  if (!p.remember && !liveSession) return merged;
  return {
    ...merged,
    user: p.user ?? null,
    menus: Array.isArray(p.menus) ? p.menus : null,
    updated: typeof p.updated === 'number' ? p.updated : null,
    remember: Boolean(p.remember),
    original: p.original ?? null,
    simulation: p.simulation ?? null,
  };
}

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

function setLiveCookie(on: boolean): void {
  if (typeof document === 'undefined') return;
  document.cookie = on
    ? `${LIVE_SESSION_COOKIE}=1; path=/; samesite=lax`
    : `${LIVE_SESSION_COOKIE}=; path=/; max-age=0; samesite=lax`;
}

/** True while re-reading a state another tab wrote (see followOtherTabs). */
let followingOtherTab = false;

export const useSession = create<SessionState>()(
  persist(
    (set, get) => ({
      ...initialSession(),
      login(user, remember) {
        setLiveCookie(true);
        set({ ...signedOut, user, remember });
      },
      logout() {
        setLiveCookie(false);
        set({ ...signedOut });
      },
      clear() {
        setLiveCookie(false);
        set({ ...initialSession(get().locale) });
      },
      setMenus(menus, now = Date.now()) {
        set({ menus, updated: now });
      },
      refreshUser(fresh) {
        set({ user: fresh });
      },
      followStored() {
        followStoredSession();
      },
      setLocale(locale) {
        if (get().locale !== locale) set({ locale });
      },
      setTheme(theme) {
        set({ theme });
      },
      toggleTheme() {
        set({ theme: get().theme === 'dark' ? 'light' : 'dark' });
      },
      simulate(session) {
        const { user, menus, updated, original } = get();
        const base = original ?? (user ? { user, menus, updated } : null);
        if (!base) return;
        const role = session.simulated_role ?? null;
        set({
          original: base,
          user: session,
          // The simulated user's or role's menu comes from the API with the new session.
          menus: null,
          updated: null,
          simulation: role ? { kind: 'role', id: role.id, label: role.name } : { kind: 'user', id: session.id, label: session.mail },
        });
      },
      stopSimulation() {
        const { original } = get();
        if (!original) return;
        set({ user: original.user, menus: original.menus, updated: original.updated, original: null, simulation: null });
      },
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: SESSION_VERSION,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => persistedPart(state),
      // An older persisted shape is not trusted: start over (preferences included).
      migrate: () => initialSession(),
      merge: (persisted, current) => {
        const restored = restoreSession(persisted, current, readCookie(LIVE_SESSION_COOKIE) === '1');
        return { ...current, ...restored, locale: followingOtherTab ? current.locale : restored.locale };
      },
    },
  ),
);

/**
 * Re-reads what another tab saved. This tab's language follows its own URL, not the other tab's;
 * and nothing is written back (two tabs with different languages would otherwise bounce the value
 * forever).
 */
function followStoredSession(): void {
  followingOtherTab = true;
  try {
    void useSession.persist.rehydrate();
  } finally {
    followingOtherTab = false;
  }
}

/** Another tab signed in, out or switched theme: follow it (local storage is shared, memory is not). */
export function followOtherTabs(): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    followStoredSession();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
