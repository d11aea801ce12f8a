/**
 * i18next over the core catalogues (en, es). Keys are flat and dotted (`login.mail.required`),
 * so the key and namespace separators are off; interpolation uses the catalogues' `{name}`.
 */
import { catalogues, DEFAULT_LOCALE, LOCALES, type Locale } from '@backoffice/core/i18n/catalogues';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const i18n: I18n = i18next.createInstance();

let initialised = false;

/** Initialises the shared instance synchronously (idempotent) and sets the language. */
export function initI18n(locale: Locale = DEFAULT_LOCALE): I18n {
  if (!initialised) {
    initialised = true;
    void i18n.use(initReactI18next).init({
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      resources: Object.fromEntries(LOCALES.map((l) => [l, { translation: catalogues[l] }])),
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
      initAsync: false,
      showSupportNotice: false,
      react: { useSuspense: false },
    });
  } else if (i18n.language !== locale) {
    void i18n.changeLanguage(locale);
  }
  return i18n;
}

/** Translates outside React (toasts from the fetch layer, the session store). */
export function t(key: string, params?: Record<string, string | number>): string {
  return i18n.t(key, params ?? {});
}
