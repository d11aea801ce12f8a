/**
 * The i18n catalogues (en, es), merged from one file per area. Keys are flat and dotted
 * (`login.mail.required`). Each area file is owned by the feature that uses it; ./base.ts holds
 * the areas every page needs, ./screens.ts the screens' (the web app loads those later).
 */
import { baseEn, baseEs } from './base.ts';
import type { Locale } from './locales.ts';
import { screensEn, screensEs } from './screens.ts';

export * from './locales.ts';

export const en = { ...baseEn, ...screensEn } as const;
export type MessageKey = keyof typeof en;
export const es: Record<MessageKey, string> = { ...baseEs, ...screensEs };

export const catalogues: Record<Locale, Record<string, string>> = { en, es };

/** Translates a key with `{name}` interpolation; unknown keys come back unchanged. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const text = catalogues[locale][key] ?? catalogues.en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

