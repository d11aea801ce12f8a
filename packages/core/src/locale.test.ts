import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  firstSegment,
  localeCookieValue,
  localeFromCookie,
  localeFromPath,
  pathWithoutLocale,
  resolveLocale,
  stripTrailingSlashes,
  switchLocale,
} from './locale.ts';

describe('locale rules', () => {
  it('removes trailing slashes and collapses repeated ones', () => {
    expect(stripTrailingSlashes('/')).toBe('/');
    expect(stripTrailingSlashes('')).toBe('/');
    expect(stripTrailingSlashes('/es/')).toBe('/es');
    expect(stripTrailingSlashes('/es/utils/ip///')).toBe('/es/utils/ip');
    expect(stripTrailingSlashes('//es//login')).toBe('/es/login');
    expect(stripTrailingSlashes('es/login')).toBe('/es/login');
  });

  it('reads the first segment', () => {
    expect(firstSegment('/')).toBe('');
    expect(firstSegment('/es/login')).toBe('es');
  });

  it('accepts only es and en as path locales', () => {
    expect(localeFromPath('/es/login')).toBe('es');
    expect(localeFromPath('/en')).toBe('en');
    expect(localeFromPath('/fr/login')).toBeNull();
    expect(localeFromPath('/ES/login')).toBeNull();
    expect(localeFromPath('/login')).toBeNull();
    expect(localeFromPath('/')).toBeNull();
  });

  it('reads the saved locale cookie among others', () => {
    expect(localeFromCookie('a=1; locale=es; b=2')).toBe('es');
    expect(localeFromCookie('locale=en')).toBe('en');
    expect(localeFromCookie('locale=fr')).toBeNull();
    expect(localeFromCookie('xlocale=es')).toBeNull();
    expect(localeFromCookie('locale=%E0%A4%A')).toBeNull();
    expect(localeFromCookie('')).toBeNull();
    expect(localeFromCookie(undefined)).toBeNull();
  });

  it('resolves path segment, else cookie, else en', () => {
    expect(resolveLocale('/es/x', 'locale=en')).toBe('es');
    expect(resolveLocale('/x', 'locale=es')).toBe('es');
    expect(resolveLocale('/fr/x', 'locale=es')).toBe('es');
    expect(resolveLocale('/', '')).toBe('en');
    expect(resolveLocale('/', 'locale=de')).toBe('en');
  });

  it('writes a cookie for the whole site', () => {
    expect(localeCookieValue('es')).toMatch(/^locale=es; path=\/; max-age=\d+/);
  });

  describe('canonicalPath', () => {
    it('redirects the root to the active locale', () => {
      expect(canonicalPath('/', '')).toBe('/en');
      expect(canonicalPath('/', 'locale=es')).toBe('/es');
      expect(canonicalPath('///', 'locale=es')).toBe('/es');
    });
    it('keeps canonical paths unchanged', () => {
      expect(canonicalPath('/es', '')).toBe('/es');
      expect(canonicalPath('/en/login', 'locale=es')).toBe('/en/login');
      expect(canonicalPath('/es/reports/dataviewer/12', '')).toBe('/es/reports/dataviewer/12');
    });
    it('removes trailing slashes', () => {
      expect(canonicalPath('/es/', '')).toBe('/es');
      expect(canonicalPath('/en/utils/ip/', '')).toBe('/en/utils/ip');
    });
    it('replaces an invalid locale by the active locale', () => {
      expect(canonicalPath('/fr/login', '')).toBe('/en/login');
      expect(canonicalPath('/fr/login', 'locale=es')).toBe('/es/login');
      expect(canonicalPath('/de', 'locale=es')).toBe('/es');
      expect(canonicalPath('/pt-BR/utils/ip/', '')).toBe('/en/utils/ip');
    });
    it('normalises the case and region of a valid locale', () => {
      expect(canonicalPath('/ES/login', 'locale=en')).toBe('/es/login');
      expect(canonicalPath('/en-GB/login', 'locale=es')).toBe('/en/login');
    });
    it('adds the active locale to a path without one', () => {
      expect(canonicalPath('/login', '')).toBe('/en/login');
      expect(canonicalPath('/login', 'locale=es')).toBe('/es/login');
      expect(canonicalPath('/utils/ip/', 'locale=es')).toBe('/es/utils/ip');
    });
    it('leaves /clean at the top level', () => {
      expect(canonicalPath('/clean', 'locale=es')).toBe('/clean');
      expect(canonicalPath('/clean/', '')).toBe('/clean');
    });
  });

  it('switches the locale segment', () => {
    expect(switchLocale('/en/utils/ip', 'es')).toBe('/es/utils/ip');
    expect(switchLocale('/en', 'es')).toBe('/es');
    expect(switchLocale('/', 'es')).toBe('/es');
    expect(switchLocale('/login', 'es')).toBe('/es/login');
  });

  it('strips the locale segment', () => {
    expect(pathWithoutLocale('/es/utils/ip')).toBe('/utils/ip');
    expect(pathWithoutLocale('/en')).toBe('/');
    expect(pathWithoutLocale('/en/')).toBe('/');
    expect(pathWithoutLocale('/utils/ip')).toBe('/utils/ip');
  });
});
