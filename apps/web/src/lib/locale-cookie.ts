/** The saved locale cookie (spec section 2) in the browser. */
import { localeCookieValue, localeFromCookie } from '@backoffice/core/locale';
import type { Locale } from '@backoffice/core/i18n/locales';

export function readLocaleCookie(): Locale | null {
  return typeof document === 'undefined' ? null : localeFromCookie(document.cookie);
}

export function saveLocaleCookie(locale: Locale): void {
  if (typeof document === 'undefined') return;
  if (readLocaleCookie() !== locale) document.cookie = localeCookieValue(locale);
}
