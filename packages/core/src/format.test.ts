import { describe, expect, it } from 'vitest';
import { currencySymbol, formatMoney, formatNumber, roundDecimal, toDecimalString } from './format.ts';

describe('formatMoney', () => {
  it('shows EUR as € and USD as $ with 2 decimals and thousands separators', () => {
    expect(formatMoney(1234567.891, 'EUR', 'en')).toBe('€1,234,567.89');
    expect(formatMoney('1234567.891', 'USD', 'en')).toBe('$1,234,567.89');
    expect(formatMoney('1234.5', 'EUR', 'es')).toBe('1.234,50\u00a0€');
    expect(formatMoney(1000, 'usd', 'es')).toBe('1.000,00\u00a0$');
    expect(formatMoney(0, 'EUR', 'en')).toBe('€0.00');
  });
  it('keeps decimal strings exact (no float rounding)', () => {
    // As a float 1.005 is 1.00499999…; as money text it rounds up.
    expect(formatMoney('1.005', 'EUR', 'en')).toBe('€1.01');
    expect(formatMoney('12345678901234567890.125', 'USD', 'en')).toBe('$12,345,678,901,234,567,890.13');
    expect(formatMoney('0.994', 'EUR', 'en')).toBe('€0.99');
    expect(formatMoney('0.995', 'EUR', 'en')).toBe('€1.00');
  });
  it('puts the minus sign first and shows other currencies by code', () => {
    expect(formatMoney('-1234.5', 'EUR', 'en')).toBe('-€1,234.50');
    expect(formatMoney(-0.001, 'EUR', 'en')).toBe('€0.00');
    expect(formatMoney('-2.5', 'USD', 'es')).toBe('-2,50\u00a0$');
    expect(formatMoney(10, 'GBP', 'en')).toBe('GBP\u00a010.00');
    expect(currencySymbol(' eur ')).toBe('€');
  });
  it('gives an empty string for missing or invalid amounts', () => {
    expect(formatMoney(null, 'EUR')).toBe('');
    expect(formatMoney('abc', 'EUR')).toBe('');
    expect(formatMoney('1,5', 'EUR')).toBe('');
    expect(formatMoney(Number.NaN, 'EUR')).toBe('');
  });
});

describe('formatNumber', () => {
  it('groups thousands in both locales', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.50');
    expect(formatNumber(1234.5, 'es')).toBe('1.234,50');
    expect(formatNumber(999.999, 'en')).toBe('1,000.00');
    expect(formatNumber('1234567', 'en', 0)).toBe('1,234,567');
    expect(formatNumber(12.3456, 'en', 3)).toBe('12.346');
  });
  it('expands exponents exactly', () => {
    expect(toDecimalString(1e21)).toBe('1000000000000000000000');
    expect(toDecimalString(1.5e-7)).toBe('0.00000015');
    expect(toDecimalString('2.5E3')).toBe('2500');
    expect(toDecimalString('007.50')).toBe('7.50');
    expect(toDecimalString(' ')).toBeNull();
    expect(toDecimalString(Infinity)).toBeNull();
  });
  it('rounds half away from zero', () => {
    expect(roundDecimal('2.5', 0)).toBe('3');
    expect(roundDecimal('-2.5', 0)).toBe('-3');
    expect(roundDecimal('-0.004', 2)).toBe('0.00');
    expect(roundDecimal('9.995', 2)).toBe('10.00');
  });
});
