/**
 * The route table. Every route of spec section 2 lives under /:lang and loads lazily with the
 * spec's retry (3 attempts, 1 s apart). The signed-in area is one lazy layout (the shell) whose
 * screens sit under a pathless route with its own error boundary, so a crashing screen shows
 * the crash screen inside the shell instead of taking the shell down.
 */
import { APP_ROUTES, type AppRoute } from '@backoffice/core/routes';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { loadScreenCatalogues } from '../lib/i18n.ts';
import { lazyScreen, retry } from '../lib/retry.ts';
import type { RouteHandle } from '../lib/route-handle.ts';
import { CleanRoute } from './clean-route.tsx';
import { LocaleLayout } from './locale-layout.tsx';
import { queryClient } from './providers.tsx';
import { ReportRedirect } from './report-redirect.tsx';
import { BootSplash, RootLayout } from './root-layout.tsx';
import { RootErrorBoundary } from './route-error.tsx';
import { screenLoader } from './screens.ts';


function screenRoute(route: AppRoute): RouteObject {
  const handle: RouteHandle = { menuId: route.menuId, screen: route.screen };
  // A list route (not its /new or /:id) of a resource screen asks for its first page from the
  // route's loader, which runs as soon as the screen's module is in, before the screen renders.
  const isList = !/\/(new|:[A-Za-z_]+)$/.test(route.pattern);
  const load = screenLoader(route.screen);
  const lazy = async () => {
    const mod = await retry(load);
    const prefetch = isList ? mod.prefetchList : undefined;
    if (!prefetch) return { Component: mod.default };
    return {
      Component: mod.default,
      loader: ({ request }: LoaderFunctionArgs) => {
        prefetch(queryClient, new URL(request.url));
        return null;
      },
    };
  };
  if (route.pattern === '/') return { index: true, handle, lazy };
  return { path: route.pattern.slice(1), handle, lazy };
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: BootSplash,
    ErrorBoundary: RootErrorBoundary,
    children: [
      // '/' is redirected to /{lang} by RootLayout (and by main.tsx on the first load).
      { index: true, Component: BootSplash },
      { path: 'clean', Component: CleanRoute },
      {
        path: ':lang',
        Component: LocaleLayout,
        children: [
          { path: 'login', lazy: lazyScreen(() => import('../shell/login-page.tsx')) },
          { path: 'report/:id', Component: ReportRedirect },
          {
            id: 'shell',
            // The shell and the screens' messages together: no screen renders before its words.
            lazy: async () => {
              const [mod] = await Promise.all([retry(() => import('../shell/shell-layout.tsx')), retry(loadScreenCatalogues)]);
              return { Component: mod.default };
            },
            children: [
              {
                id: 'screens',
                lazy: async () => {
                  const mod = await retry(() => import('../shell/crash-screen.tsx'));
                  return { ErrorBoundary: mod.ScreenErrorBoundary };
                },
                children: [
                  ...APP_ROUTES.map(screenRoute),
                  {
                    path: '*',
                    handle: { menuId: null, screen: 'not_found' } satisfies RouteHandle,
                    lazy: lazyScreen(() => import('../shell/not-found-page.tsx')),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
