import { describe, expect, it } from 'vitest';
import {
  autocompleteQuery,
  clampCounter,
  clampSlider,
  counterBounds,
  isValidDecimal,
  isValidUrl,
  parseDecimalInput,
  shouldAutocomplete,
  SLIDER_MARKS,
  withinMaxCount,
  withinTolerance,
} from './inputs.ts';

describe('number input (up to 3 decimals, dot separator)', () => {
  it.each([
    ['12', '12'],
    ['12.5', '12.5'],
    ['12.345', '12.345'],
    ['-0.125', '-0.125'],
    ['007.10', '7.10'],
    ['.5', '0.5'],
    [' 3 ', '3'],
    ['-0', '0'],
  ])('accepts %j as %j', (text, value) => {
    expect(parseDecimalInput(text)).toBe(value);
    expect(isValidDecimal(text)).toBe(true);
  });
  it.each(['12,5', '12.3456', '1e3', '1.', '', '-', '.', 'abc', '1.2.3', '+1', '1 000'])(
    'rejects %j',
    (text) => {
      expect(parseDecimalInput(text)).toBeNull();
    },
  );
  it('can forbid negatives or change the number of decimals', () => {
    expect(parseDecimalInput('-1', { allowNegative: false })).toBeNull();
    expect(parseDecimalInput('1.23456', { maxDecimals: 5 })).toBe('1.23456');
    expect(parseDecimalInput('1.5', { maxDecimals: 0 })).toBeNull();
  });
});

describe('counter', () => {
  it('clamps to 0-50 by default', () => {
    expect(clampCounter(51)).toBe(50);
    expect(clampCounter(-3)).toBe(0);
    expect(clampCounter(7.6)).toBe(8);
    expect(clampCounter('12')).toBe(12);
    expect(clampCounter('')).toBe(0);
    expect(clampCounter(null)).toBe(0);
  });
  it('allows negatives only when told', () => {
    expect(clampCounter(-3, { min: -10 })).toBe(0);
    expect(clampCounter(-3, { min: -10, allowNegative: true })).toBe(-3);
    expect(clampCounter(-30, { min: -10, allowNegative: true })).toBe(-10);
    expect(counterBounds({ min: 5, max: 2 })).toEqual({ min: 5, max: 5 });
  });
});

describe('slider and multi-select', () => {
  it('has marks at 20/40/60/80 and clamps to 0-100', () => {
    expect(SLIDER_MARKS).toEqual([20, 40, 60, 80]);
    expect(clampSlider(120)).toBe(100);
    expect(clampSlider(-1)).toBe(0);
  });
  it('checks the maximum item count', () => {
    expect(withinMaxCount([1, 2], 2)).toBe(true);
    expect(withinMaxCount([1, 2, 3], 2)).toBe(false);
    expect(withinMaxCount([1, 2, 3])).toBe(true);
  });
});

describe('autocomplete', () => {
  it('waits for 2 characters and builds the query with the field name and limit', () => {
    expect(shouldAutocomplete('a')).toBe(false);
    expect(shouldAutocomplete(' a ')).toBe(false);
    expect(shouldAutocomplete('ab')).toBe(true);
    expect(autocompleteQuery('network', ' goo ')).toEqual({ network: 'goo', limit: '10' });
    expect(autocompleteQuery('q', 'xy', 25)).toEqual({ q: 'xy', limit: '25' });
  });
});

describe('URL input', () => {
  it.each([
    'http://example.com',
    'https://example.com/a?b=c#d',
    'ftp://files.example.com/x.csv',
    'FTPS://user@host:990/',
    'https://[::1]:8080/',
    'http://localhost',
  ])('accepts %s', (url) => expect(isValidUrl(url)).toBe(true));
  it.each([
    'example.com',
    'mailto:a@b.c',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'http:/example.com',
    'http://',
    'https://exa mple.com',
    'sftp://host',
    'http://..',
    '',
  ])('rejects %s', (url) => expect(isValidUrl(url)).toBe(false));
});

describe('tolerance check', () => {
  it('is within base ± base/divisor, bounds included', () => {
    expect(withinTolerance(110, 100, 10)).toBe(true);
    expect(withinTolerance(90, 100, 10)).toBe(true);
    expect(withinTolerance(110.01, 100, 10)).toBe(false);
    expect(withinTolerance(89.99, 100, 10)).toBe(false);
    expect(withinTolerance(0.33, 0.3, 10)).toBe(true);
    expect(withinTolerance(-95, -100, 10)).toBe(true);
    expect(withinTolerance(0, 0, 10)).toBe(true);
    expect(withinTolerance(0.1, 0, 10)).toBe(false);
  });
  it('rejects a divisor that is not positive', () => {
    expect(() => withinTolerance(1, 1, 0)).toThrow(RangeError);
    expect(() => withinTolerance(1, 1, -2)).toThrow(RangeError);
  });
});
