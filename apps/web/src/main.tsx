/**
 * Entry point. The first URL is made canonical (locale segment, no trailing slash) before the
 * router starts, so no screen code is fetched for a URL that is about to change. When that URL
 * is the home, its one request starts here, in parallel with the lazy code of the shell.
 */
import { canonicalPath, resolveLocale } from '@backoffice/core/locale';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { startDashboardRequest } from './features/dashboard/use-dashboard.ts';
import { initI18n } from './lib/i18n.ts';
import { saveLocaleCookie } from './lib/locale-cookie.ts';
import { useSession } from './lib/session-store.ts';
import 'virtual:antd-static.css';
import './app/global.css';

const { pathname, search, hash } = window.location;
const canonical = canonicalPath(pathname, document.cookie);
if (canonical !== pathname) window.history.replaceState(window.history.state, '', `${canonical}${search}${hash}`);

const locale = resolveLocale(canonical, document.cookie);
initI18n(locale);
if (canonical !== '/clean') {
  useSession.getState().setLocale(locale);
  saveLocaleCookie(locale);
}
// The home's figures are asked for now, while the shell's and the screen's code download.
if (canonical === `/${locale}`) startDashboardRequest();

const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
