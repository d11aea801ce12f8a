/**
 * The root of every route: keeps URLs canonical for client-side navigations (the first load
 * is made canonical in main.tsx before the router starts), shows a thin progress bar while a
 * lazy screen loads, sends the optional analytics beacon, and manages the window's scroll: a
 * screen opens at its top, and back/forward (or coming back to a screen) returns to where it was.
 * Positions are kept per path, so a screen that writes its state into the query string (the
 * DataViewer) does not jump when it does.
 */
import { canonicalPath } from '@backoffice/core/locale';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation, useNavigation, type Location } from 'react-router';
import { useAnalytics } from '../lib/analytics.ts';

const scrollKey = (location: Location) => location.pathname;

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="bo-progress" role="progressbar" aria-hidden />;
}

export function RootLayout() {
  const location = useLocation();
  useAnalytics();
  const canonical = canonicalPath(location.pathname, document.cookie);
  if (canonical !== location.pathname) {
    return <Navigate to={{ pathname: canonical, search: location.search, hash: location.hash }} replace />;
  }
  return (
    <>
      <NavigationProgress />
      <ScrollRestoration getKey={scrollKey} />
      <Outlet />
    </>
  );
}

/** Shown while the first screen's code loads. */
export function BootSplash() {
  const { t } = useTranslation();
  return (
    <div className="bo-boot" role="status" aria-live="polite">
      <span className="bo-boot__mark" aria-hidden />
      <span className="bo-visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
