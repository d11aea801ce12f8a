/**
 * App-wide providers: server state (TanStack Query), translations (i18next over the core
 * catalogues), antd with the session's theme and language (es_ES / en_US, dayjs weeks starting
 * Monday, no animations when the system asks for reduced motion) and the themed message holder
 * behind the top-centre toasts. antd's <App> (which also
 * brings modal and notification code) wraps the signed-in shell only, keeping sign-in light.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, message, theme as antdTheme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { setDayjsLocale } from '../components/dayjs-locale.ts';
import { REDUCED_MOTION_QUERY, useMediaQuery } from '../components/use-media-query.ts';
import { i18n } from '../lib/i18n.ts';
import { createQueryClient } from '../lib/query.ts';
import { followOtherTabs, useSession } from '../lib/session-store.ts';
import { themeConfig } from '../lib/theme.ts';
import { bindToast, TOAST_SECONDS } from '../lib/toast.ts';

export const queryClient = createQueryClient();

/** Toasts: top-centre, auto-dismissing (spec section 9), themed by the ConfigProvider. */
function ToastHost() {
  const [api, holder] = message.useMessage({ top: 16, duration: TOAST_SECONDS, maxCount: 3 });
  useEffect(() => {
    bindToast(api);
    return () => bindToast(null);
  }, [api]);
  return holder;
}

/** Paints the page behind the app (body, scrollbars, form controls) in the theme's colours. */
function DocumentTheme() {
  const mode = useSession((s) => s.theme);
  const { token } = antdTheme.useToken();
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
    document.body.style.background = token.colorBgLayout;
    document.body.style.color = token.colorText;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', token.colorBgContainer);
  }, [mode, token.colorBgLayout, token.colorText, token.colorBgContainer]);
  return null;
}

/** Keeps the document language, i18next and dayjs on the session's locale. */
function DocumentLocale() {
  const locale = useSession((s) => s.locale);
  useLayoutEffect(() => {
    document.documentElement.lang = locale;
    setDayjsLocale(locale);
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => followOtherTabs(), []);
  const mode = useSession((s) => s.theme);
  const locale = useSession((s) => s.locale);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const theme = useMemo(() => themeConfig(mode, { reducedMotion }), [mode, reducedMotion]);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider locale={locale === 'es' ? esES : enUS} theme={theme}>
          <ToastHost />
          <DocumentTheme />
          <DocumentLocale />
          {children}
        </ConfigProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
