/**
 * Locale rules of the web app's URLs (spec section 2, Top level):
 * - only es and en are valid; the default is en;
 * - the locale comes from the first path segment, else the saved locale cookie, else en;
 * - a locale mismatch in the URL (an unknown locale tag such as /fr/...) is replaced by the
 *   active locale; a path without a locale segment gets the active locale in front;
 * - trailing slashes are removed;
 * - /clean is a top-level route outside the locale segment.
 * Pure functions: the web app feeds them `location.pathname` and `document.cookie`.
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from './i18n/locales.ts';

export type { Locale } from './i18n/locales.ts';

/** Name of the cookie that remembers the chosen locale. */
export const LOCALE_COOKIE = 'locale';

/** Top-level paths that live outside the /{lang} segment. */
export const TOP_LEVEL_PATHS = ['/clean'] as const;

/** A segment that looks like a language tag: `fr`, `ES`, `es-ES`, `pt_BR`. */
const LOCALE_TAG = /^([a-z]{2})(?:[-_][a-z]{2})?$/i;

/** Removes trailing slashes ('/' stays '/'); collapses repeated slashes. */
export function stripTrailingSlashes(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, '/');
  const trimmed = collapsed.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The first path segment, or '' for the root. */
export function firstSegment(pathname: string): string {
  return stripTrailingSlashes(pathname).split('/')[1] ?? '';
}

/** The valid locale written as the first segment of the path, else null. */
export function localeFromPath(pathname: string): Locale | null {
  const seg = firstSegment(pathname);
  return isLocale(seg) ? seg : null;
}

/** Reads the saved locale from a `document.cookie` string; null when absent or invalid. */
export function localeFromCookie(cookieHeader: string | null | undefined): Locale | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== LOCALE_COOKIE) continue;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // a malformed escape: keep the raw value, which then fails isLocale
    }
    return isLocale(value) ? value : null;
  }
  return null;
}

/** The active locale: the path's first segment, else the cookie, else en. */
export function resolveLocale(pathname: string, cookieHeader?: string | null): Locale {
  return localeFromPath(pathname) ?? localeFromCookie(cookieHeader) ?? DEFAULT_LOCALE;
}

/** `Set-Cookie`-style value that saves the locale for a year on the whole site. */
export function localeCookieValue(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * The canonical form of an app path, or the same string when it is already canonical:
 * trailing slashes removed; `/` -> `/{active}`; `/fr/x` or `/ES/x` -> `/{locale}/x`;
 * `/login` -> `/{active}/login`. Query and hash are the caller's business.
 */
export function canonicalPath(pathname: string, cookieHeader?: string | null): string {
  const path = stripTrailingSlashes(pathname);
  if ((TOP_LEVEL_PATHS as readonly string[]).includes(path)) return path;
  const cookieLocale = localeFromCookie(cookieHeader) ?? DEFAULT_LOCALE;
  if (path === '/') return `/${cookieLocale}`;
  const segments = path.split('/').slice(1);
  const first = segments[0] ?? '';
  if (isLocale(first)) return path;
  const tag = LOCALE_TAG.exec(first);
  if (tag) {
    // A locale-looking segment: keep its language when valid (/ES -> /es), else the active one.
    const lang = (tag[1] ?? '').toLowerCase();
    const locale = isLocale(lang) ? lang : cookieLocale;
    return ['', locale, ...segments.slice(1)].join('/');
  }
  return `/${cookieLocale}${path}`;
}

/** Replaces the locale segment of a canonical path (used by the language switch). */
export function switchLocale(pathname: string, locale: Locale): string {
  const path = stripTrailingSlashes(pathname);
  const segments = path.split('/').slice(1);
  if (isLocale(segments[0])) segments[0] = locale;
  else if (path === '/') return `/${locale}`;
  else segments.unshift(locale);
  return `/${segments.join('/')}`;
}

/** The app path without its locale segment: `/es/utils/ip` -> `/utils/ip`, `/en` -> `/`. */
export function pathWithoutLocale(pathname: string): string {
  const path = stripTrailingSlashes(pathname);
  const segments = path.split('/').slice(1);
  if (!isLocale(segments[0])) return path;
  const rest = segments.slice(1).join('/');
  return rest === '' ? '/' : `/${rest}`;
}
