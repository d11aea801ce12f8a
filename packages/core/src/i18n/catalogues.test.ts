import { describe, expect, it } from 'vitest';
import { MENU_GROUPS, MENU_ROUTES } from '../routes.ts';
import { en, es, localeFromAcceptLanguage, translate } from './catalogues.ts';

describe('i18n catalogues', () => {
  it('es has exactly the keys of en, none empty', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(es)) expect(v, k).not.toBe('');
  });
  it('every menu entry and group has a title in both languages', () => {
    for (const r of MENU_ROUTES) {
      expect(en, r.id).toHaveProperty(`menu.${r.id}`);
      expect(es, r.id).toHaveProperty(`menu.${r.id}`);
    }
    for (const g of MENU_GROUPS) expect(en).toHaveProperty(`menu.group.${g.id}`);
  });
  it('translates with interpolation and falls back to the key', () => {
    expect(translate('es', 'common.no_data_found')).toBe('No se han encontrado datos');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
  });
  it('reads Accept-Language', () => {
    expect(localeFromAcceptLanguage('es-ES,es;q=0.9,en;q=0.8')).toBe('es');
    expect(localeFromAcceptLanguage('fr-FR,fr')).toBe('en');
    expect(localeFromAcceptLanguage(undefined)).toBe('en');
  });
});
