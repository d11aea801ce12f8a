/**
 * The signed-in shell (spec sections 2, 4 and 6): the route guard, the top bar, the sidebar and
 * the screens. Unauthenticated visits go to /{locale}/login; a path without menu permission goes
 * to /{locale}/not_allowed (root and login always allowed, ADMIN everything); menus are loaded,
 * refreshed and the token watched by useSessionSync.
 */
import { isPathAllowed, type Caller } from '@backoffice/core/menu';
import { pathWithoutLocale } from '@backoffice/core/locale';
import { App, Spin, theme as antdTheme } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches, useNavigation, useParams } from 'react-router';
import { deepestHandle } from '../lib/route-handle.ts';
import { useSession } from '../lib/session-store.ts';
import { useViewport } from '../lib/use-viewport.ts';
import { visibleMenu } from './menu-model.ts';
import { SimulationBanner } from './simulation-banner.tsx';
import { Sidebar, SIDEBAR_WIDTH } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';
import { useSessionSync } from './use-session-sync.ts';
import './shell.css';

/** antd's xl breakpoint: the sidebar is a rail from here, a drawer below (spec section 9). */
export const SIDEBAR_BREAKPOINT = 1200;

function SignedInShell() {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const { lang = 'en' } = useParams();
  const location = useLocation();
  const handle = deepestHandle(useMatches());
  // A navigation under way (e.g. to the root) decides; the old path is not judged meanwhile.
  const navigating = useNavigation().state !== 'idle';
  const user = useSession((s) => s.user);
  const menus = useSession((s) => s.menus);
  const { width, isMobile } = useViewport();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useSessionSync();

  const roles = user?.roles;
  const acl = user?.acl;
  const caller = useMemo<Caller>(() => ({ roles: roles ?? [], acl: acl ?? {} }), [roles, acl]);
  const menu = useMemo(() => (menus ? visibleMenu(menus, caller) : null), [menus, caller]);
  const path = pathWithoutLocale(location.pathname);
  const allowed = !menu || isPathAllowed(path, menu.flat, caller);
  const rail = width >= SIDEBAR_BREAKPOINT;

  // Collapsed after every navigation (spec section 4).
  useEffect(() => {
    setSidebarOpen(false);
  }, [location.pathname]);

  const title = handle?.menuId ? t(`menu.${handle.menuId}`) : null;
  useEffect(() => {
    if (title) document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  const onOpenChange = useCallback((open: boolean) => setSidebarOpen(open), []);

  return (
    <div
      className="bo-shell"
      data-testid="shell"
      data-menu={menu ? 'ready' : 'loading'}
      style={{ background: token.colorBgLayout, color: token.colorText }}
    >
      <a className="bo-skip-link" href="#bo-main" style={{ background: token.colorBgElevated, color: token.colorPrimary }}>
        {t('shell.skip_to_content')}
      </a>
      <TopBar sidebarOpen={sidebarOpen} onToggleSidebar={() => setSidebarOpen((o) => !o)} toggleRef={toggleRef} />
      <div className="bo-shell__body">
        {menu ? (
          <Sidebar
            mode={rail ? 'rail' : 'drawer'}
            open={sidebarOpen}
            onOpenChange={onOpenChange}
            menu={menu}
            lang={lang}
            path={path}
            toggleRef={toggleRef}
            drawerWidth={isMobile ? '80%' : SIDEBAR_WIDTH}
          />
        ) : null}
        <main className="bo-shell__content" id="bo-main" tabIndex={-1}>
          <SimulationBanner />
          {!menu && path !== '/' ? (
            // With a user and no menus, the app goes to the locale root (spec section 4).
            <Navigate to={`/${lang}`} replace />
          ) : !menu ? (
            <div className="bo-shell__loading" data-testid="menu-loading">
              <Spin size="large" description={t('session.restoring')} />
            </div>
          ) : allowed ? (
            <Outlet />
          ) : navigating ? (
            <div className="bo-shell__loading" data-testid="menu-loading">
              <Spin size="large" />
            </div>
          ) : (
            <Navigate to={`/${lang}/not_allowed`} replace />
          )}
        </main>
      </div>
    </div>
  );
}

export default function ShellLayout() {
  const { lang } = useParams();
  const user = useSession((s) => s.user);
  if (!user) return <Navigate to={`/${lang}/login`} replace />;
  // antd's App context (message, modal, notification hooks) for the screens.
  return (
    <App message={{ top: 16, maxCount: 3 }} component={false}>
      <SignedInShell />
    </App>
  );
}
