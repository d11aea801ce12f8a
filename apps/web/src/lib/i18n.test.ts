import { en, es } from '@backoffice/core/i18n/catalogues';
import { describe, expect, it } from 'vitest';
import { i18n, initI18n, loadScreenCatalogues, t } from './i18n.ts';

describe('the app’s i18n instance', () => {
  it('has the sign-in page’s and the shell’s words from the start, and the screens’ once loaded, in both languages', async () => {
    initI18n('es');
    expect(t('login.title')).toBe(es['login.title']);
    expect(t('menu.dashboard')).toBe(es['menu.dashboard']);
    // A screen's words are not in the entry: the key itself until the shell's route loads them.
    expect(t('vast.intro')).toBe('vast.intro');

    await Promise.all([loadScreenCatalogues(), loadScreenCatalogues()]);
    expect(t('vast.intro')).toBe(es['vast.intro']);
    await i18n.changeLanguage('en');
    expect(t('vast.status.valid', { version: '4.2' })).toBe(en['vast.status.valid'].replace('{version}', '4.2'));
    expect(t('login.title')).toBe(en['login.title']);
  });
});
