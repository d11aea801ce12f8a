import type { MenuEntry } from '@backoffice/core/menu';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  initialSession,
  isTokenExpired,
  LIVE_SESSION_COOKIE,
  MENU_MAX_AGE_MS,
  menuNeed,
  restoreSession,
  SESSION_STORAGE_KEY,
  SESSION_VERSION,
  useSession,
  type SessionUser,
} from './session-store.ts';

const nowSec = () => Math.floor(Date.now() / 1000);

function user(over: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 1,
    mail: 'admin@adtech.example',
    name: 'Ada Admin',
    token: 'admin-token',
    roles: [{ id: 1, name: 'ADMIN' }],
    acl: { __bypass__: ['*'] },
    exp: nowSec() + 3600,
    picture: null,
    simulated_by: null,
    ...over,
  };
}

const menus: MenuEntry[] = [
  { id: 1, id_parent: null, title: 'menu.dashboard', icon: 'DashboardOutlined', prefix: '', slug: '', permission: '', hidden: false },
];

/** A page reload: the in-memory state is gone, local storage stays. */
async function reload() {
  const saved = localStorage.getItem(SESSION_STORAGE_KEY);
  useSession.setState({ ...initialSession() });
  if (saved !== null) localStorage.setItem(SESSION_STORAGE_KEY, saved);
  await useSession.persist.rehydrate();
}

const clearCookies = () => {
  document.cookie = `${LIVE_SESSION_COOKIE}=; path=/; max-age=0`;
};

beforeEach(() => {
  localStorage.clear();
  clearCookies();
  useSession.setState({ ...initialSession() });
});

describe('session store', () => {
  it('starts signed out with the light theme, en and the current version', () => {
    const s = useSession.getState();
    expect(s.user).toBeNull();
    expect(s.menus).toBeNull();
    expect(s.theme).toBe('light');
    expect(s.locale).toBe('en');
    expect(s.version).toBe(SESSION_VERSION);
    expect(s.updated).toBeNull();
  });

  it('signs in, persists to local storage and signs out clearing the session', () => {
    useSession.getState().login(user(), true);
    useSession.getState().setMenus(menus, 1000);
    const saved = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { state: { user: SessionUser; updated: number }; version: number };
    expect(saved.version).toBe(SESSION_VERSION);
    expect(saved.state.user.token).toBe('admin-token');
    expect(saved.state.updated).toBe(1000);
    useSession.getState().setTheme('dark');
    useSession.getState().logout();
    const s = useSession.getState();
    expect(s.user).toBeNull();
    expect(s.menus).toBeNull();
    expect(s.updated).toBeNull();
    expect(s.theme).toBe('dark'); // a preference, not session data
    const after = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { state: { user: unknown } };
    expect(after.state.user).toBeNull();
  });

  it('clear() (used by /clean) also resets preferences but keeps the locale', () => {
    useSession.getState().login(user(), true);
    useSession.getState().setTheme('dark');
    useSession.getState().setLocale('es');
    useSession.getState().clear();
    const s = useSession.getState();
    expect(s.user).toBeNull();
    expect(s.theme).toBe('light');
    expect(s.locale).toBe('es');
  });

  it('restores a remembered session from local storage after a reload', async () => {
    useSession.getState().login(user(), true);
    useSession.getState().setMenus(menus, 5);
    clearCookies(); // the browser was closed
    await reload();
    expect(useSession.getState().user?.mail).toBe('admin@adtech.example');
    expect(useSession.getState().menus).toHaveLength(1);
    expect(useSession.getState().updated).toBe(5);
  });

  it('restores a non-remembered session only while the browser session lasts', async () => {
    useSession.getState().login(user(), false);
    expect(document.cookie).toContain(`${LIVE_SESSION_COOKIE}=1`);
    await reload();
    expect(useSession.getState().user).not.toBeNull(); // a reload keeps it
    clearCookies(); // closing the browser drops session cookies
    await reload();
    expect(useSession.getState().user).toBeNull();
  });

  it('drops a persisted state of another version', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ state: { user: user(), theme: 'dark' }, version: 0 }));
    await useSession.persist.rehydrate();
    expect(useSession.getState().user).toBeNull();
    expect(useSession.getState().theme).toBe('light');
  });

  it('restoreSession ignores garbage and keeps valid preferences', () => {
    const current = initialSession();
    expect(restoreSession(null, current, true)).toEqual(current);
    expect(restoreSession({ theme: 'neon', locale: 'fr' }, current, true)).toEqual(current);
    expect(restoreSession({ theme: 'dark', locale: 'es', user: { nope: 1 } }, current, true)).toMatchObject({
      theme: 'dark',
      locale: 'es',
      user: null,
    });
  });

  it('toggles the theme and sets the locale', () => {
    useSession.getState().toggleTheme();
    expect(useSession.getState().theme).toBe('dark');
    useSession.getState().toggleTheme();
    expect(useSession.getState().theme).toBe('light');
    useSession.getState().setLocale('es');
    expect(useSession.getState().locale).toBe('es');
  });
});

describe('menu freshness and token expiry', () => {
  it('needs nothing without a user, a fetch without menus, a refresh after one day', () => {
    const now = 10 * MENU_MAX_AGE_MS;
    expect(menuNeed({ user: null, menus: null, updated: null }, now)).toBe('none');
    expect(menuNeed({ user: user(), menus: null, updated: null }, now)).toBe('fetch');
    expect(menuNeed({ user: user(), menus, updated: now - 1000 }, now)).toBe('none');
    expect(menuNeed({ user: user(), menus, updated: now - MENU_MAX_AGE_MS }, now)).toBe('none');
    expect(menuNeed({ user: user(), menus, updated: now - MENU_MAX_AGE_MS - 1 }, now)).toBe('refresh');
    expect(menuNeed({ user: user(), menus, updated: null }, now)).toBe('refresh');
  });

  it('compares the token exp with the current time in seconds', () => {
    const now = 1_700_000_000_000;
    expect(isTokenExpired(user({ exp: 1_700_000_001 }), now)).toBe(false);
    expect(isTokenExpired(user({ exp: 1_700_000_000 }), now)).toBe(true);
    expect(isTokenExpired(user({ exp: Number.NaN }), now)).toBe(true);
    expect(isTokenExpired(null, now)).toBe(false);
  });
});

describe('simulation', () => {
  /** A role simulation's session as POST login/as {id_role} answers it: the ADMIN with the role's ACL and a token of its own. */
  const financeRole = (over: Partial<SessionUser> = {}) =>
    user({
      token: 'role-token',
      roles: [{ id: 3, name: 'FINANCE' }],
      acl: { '/v1/billing': ['*'] },
      simulated_by: { id: 1, mail: 'admin@adtech.example', name: 'Ada Admin' },
      simulated_role: { id: 3, name: 'FINANCE' },
      ...over,
    });

  it('simulates a role with the session the API issued, keeping the original session', () => {
    useSession.getState().login(user(), true);
    useSession.getState().setMenus(menus, 42);
    useSession.getState().simulate(financeRole());
    const s = useSession.getState();
    expect(s.user?.roles).toEqual([{ id: 3, name: 'FINANCE' }]);
    expect(s.user?.acl).toEqual({ '/v1/billing': ['*'] });
    expect(s.user?.token).toBe('role-token');
    expect(s.user?.simulated_by?.mail).toBe('admin@adtech.example');
    // The role's menu comes from the API.
    expect(s.menus).toBeNull();
    expect(s.simulation).toEqual({ kind: 'role', id: 3, label: 'FINANCE' });
    expect(s.original?.user.token).toBe('admin-token');
  });

  it('simulates a user with its own session and refetches menus', () => {
    useSession.getState().login(user(), true);
    useSession.getState().setMenus(menus, 42);
    const other = user({ id: 9, mail: 'finance@adtech.example', token: 'finance-token', roles: [{ id: 3, name: 'FINANCE' }] });
    useSession.getState().simulate(other);
    const s = useSession.getState();
    expect(s.user?.token).toBe('finance-token');
    expect(s.menus).toBeNull();
    expect(s.simulation).toEqual({ kind: 'user', id: 9, label: 'finance@adtech.example' });
  });

  it('switching simulations keeps the first original; stopping restores it', () => {
    useSession.getState().login(user(), true);
    useSession.getState().setMenus(menus, 42);
    useSession.getState().simulate(user({ id: 9, token: 'u9', roles: [] }));
    useSession.getState().simulate(financeRole());
    expect(useSession.getState().user?.token).toBe('role-token');
    expect(useSession.getState().original?.user.token).toBe('admin-token');
    useSession.getState().stopSimulation();
    const s = useSession.getState();
    expect(s.user?.roles[0]?.name).toBe('ADMIN');
    expect(s.menus).toBe(menus);
    expect(s.updated).toBe(42);
    expect(s.original).toBeNull();
    expect(s.simulation).toBeNull();
  });

  it('a token refresh during a role simulation renews the simulated session and keeps the role', () => {
    useSession.getState().login(user(), true);
    useSession.getState().simulate(financeRole());
    useSession.getState().refreshUser(financeRole({ token: 'fresh', exp: nowSec() + 9999 }));
    const s = useSession.getState();
    expect(s.user?.token).toBe('fresh');
    expect(s.user?.roles[0]?.name).toBe('FINANCE');
    expect(s.original?.user.token).toBe('admin-token');
  });

  it('logout ends the simulation too', () => {
    useSession.getState().login(user(), true);
    useSession.getState().simulate(financeRole());
    useSession.getState().logout();
    expect(useSession.getState().original).toBeNull();
    expect(useSession.getState().simulation).toBeNull();
  });
});

describe('several tabs', () => {
  it('follows a logout made in another tab', async () => {
    const { followOtherTabs } = await import('./session-store.ts');
    const stop = followOtherTabs();
    useSession.getState().login(user(), true);
    const signedIn = localStorage.getItem(SESSION_STORAGE_KEY);
    // Another tab logs out: it rewrites local storage and this tab gets a storage event.
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ state: { ...initialSession('es'), theme: 'dark' }, version: SESSION_VERSION }),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, oldValue: signedIn }));
    await new Promise((r) => setTimeout(r, 0));
    expect(useSession.getState().user).toBeNull();
    expect(useSession.getState().theme).toBe('dark');
    expect(useSession.getState().locale).toBe('en'); // this tab's URL decides its language
    stop();
  });
});
