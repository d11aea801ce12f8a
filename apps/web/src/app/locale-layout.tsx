/** The /{lang} segment: the URL's locale becomes the active one (session, cookie, i18n). */
import { isLocale } from '@backoffice/core/i18n/locales';
import { useLayoutEffect } from 'react';
import { Outlet, useParams } from 'react-router';
import { saveLocaleCookie } from '../lib/locale-cookie.ts';
import { useSession } from '../lib/session-store.ts';

export function LocaleLayout() {
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : null;
  useLayoutEffect(() => {
    if (!locale) return;
    useSession.getState().setLocale(locale);
    saveLocaleCookie(locale);
  }, [locale]);
  // An invalid segment never renders: RootLayout replaces it by the active locale.
  return locale ? <Outlet /> : null;
}
