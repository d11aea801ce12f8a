import { describe, expect, it } from 'vitest';
import { testI18n } from '../../../test/i18n.ts';
import { countryName, dimensionText, formatCount, formatRatio, localFilterLabel, shiftDecimal, sumDecimals } from './dataviewer-format.ts';

const t = testI18n.t.bind(testI18n);

describe('DataViewer formatting', () => {
  it('shows ratios as percentages in the UI language', () => {
    expect(formatRatio('0.318842', 'en')).toBe('31.88%');
    expect(formatRatio('0.318842', 'es')).toBe('31,88\u00a0%');
    expect(formatRatio('1', 'en')).toBe('100.00%');
    expect(formatRatio(null, 'en')).toBe('');
  });

  it('moves the decimal point exactly', () => {
    expect(shiftDecimal('0.000105', 2)).toBe('0.0105');
    expect(shiftDecimal('-1.5', 2)).toBe('-150');
    expect(shiftDecimal('12', 2)).toBe('1200');
  });

  it('groups counts', () => {
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatCount(1234567, 'es')).toBe('1.234.567');
  });

  it('sums money exactly (no float drift)', () => {
    expect(sumDecimals(['0.100000', '0.200000'])).toBe('0.300000');
    expect(sumDecimals(['1234567890.123456', '0.000001', null, -1])).toBe('1234567889.123457');
    expect(sumDecimals([])).toBe('0.000000');
  });

  it('translates enum codes and country names', async () => {
    expect(countryName('ES', 'en')).toBe('Spain');
    expect(countryName('ES', 'es')).toBe('España');
    expect(dimensionText('device', 'enum', 'phone', 'en', t)).toBe('Phone');
    expect(dimensionText('environment', 'enum', 'ctv', 'en', t)).toBe('CTV');
    expect(dimensionText('size', 'enum', '300x250', 'en', t)).toBe('300x250');
    expect(dimensionText('demand_partner', 'entity', null, 'en', t)).toBe('—');
    await testI18n.changeLanguage('es');
    expect(dimensionText('device', 'enum', 'phone', 'es', t)).toBe('Móvil');
  });

  it('labels filter values known without the server', () => {
    expect(localFilterLabel('country', 'FR', 'en', t)).toBe('France (FR)');
    expect(localFilterLabel('deal', 0, 'en', t)).toBe('Open auction');
    expect(localFilterLabel('demand_partner', 7, 'en', t)).toBe('7');
  });
});
