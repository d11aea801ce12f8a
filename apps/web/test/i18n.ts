/**
 * i18next for jsdom tests, with the core catalogues. The interpolation markers are `{` `}`
 * because the catalogues use `{name}` (the same as core's `translate`). The app's own
 * initialisation (src/lib) must use the same markers.
 */
import { catalogues, DEFAULT_LOCALE, type Locale } from '@backoffice/core/i18n/catalogues';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export const testI18n = i18next.createInstance();

void testI18n.use(initReactI18next).init({
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  resources: Object.fromEntries(
    Object.entries(catalogues).map(([lng, messages]) => [lng, { translation: messages }]),
  ),
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  // Flat dotted keys: a dot is part of the key, not a path.
  keySeparator: false,
  nsSeparator: false,
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

/** Switches the test language (await it before asserting translated text). */
export async function setTestLanguage(locale: Locale): Promise<void> {
  await testI18n.changeLanguage(locale);
}
