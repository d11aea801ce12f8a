/**
 * i18next over the core catalogues (en, es). Keys are flat and dotted (`login.mail.required`),
 * so the key and namespace separators are off; interpolation uses the catalogues' `{name}`.
 * The entry ships the areas every page needs (core i18n/base); the screens' areas come in one
 * chunk that the signed-in shell's route waits for (`loadScreenCatalogues`, decision 044).
 */
import { baseEn, baseEs } from '@backoffice/core/i18n/base';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@backoffice/core/i18n/locales';
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
      resources: { en: { translation: { ...baseEn } }, es: { translation: { ...baseEs } } },
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

let screens: Promise<void> | null = null;

/**
 * Adds the screens' messages (both languages) to the instance; one request, remembered (a failed
 * load is forgotten, so the route's retry asks again).
 */
export function loadScreenCatalogues(): Promise<void> {
  screens ??= import('@backoffice/core/i18n/screens').then(
    ({ screensEn, screensEs }) => {
      i18n.addResourceBundle('en', 'translation', screensEn, true, true);
      i18n.addResourceBundle('es', 'translation', screensEs, true, true);
    },
    (error: unknown) => {
      screens = null;
      throw error;
    },
  );
  return screens;
}
