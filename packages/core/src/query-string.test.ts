import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { buildQueryString, formatQueryDate, withQuery } from './query-string.ts';

describe('query strings from filters', () => {
  it('writes scalars and leaves out empty values', () => {
    expect(buildQueryString({ a: 1, b: 'x', c: true, d: false, e: null, f: undefined, g: '', h: Number.NaN })).toBe(
      'a=1&b=x&c=true&d=false',
    );
    expect(buildQueryString({})).toBe('');
    expect(buildQueryString(null)).toBe('');
  });

  it('percent-encodes names and values', () => {
    expect(buildQueryString({ q: 'a b&c=d', 'na me': 'é' })).toBe('q=a%20b%26c%3Dd&na%20me=%C3%A9');
  });

  it('nests objects as name[key]=value at any depth', () => {
    expect(buildQueryString({ filters: { country: 'ES', device: 'mobile' } })).toBe(
      'filters[country]=ES&filters[device]=mobile',
    );
    expect(buildQueryString({ a: { b: { c: 1 } } })).toBe('a[b][c]=1');
    expect(buildQueryString({ a: { b: null, c: '' } })).toBe('');
  });

  it('turns arrays into id lists', () => {
    expect(buildQueryString({ ids: [1, 2, 3] })).toBe('ids=1,2,3');
    expect(buildQueryString({ networks: [{ id: 7, value: 'Net A' }, { id: 9, value: 'Net, B' }] })).toBe('networks=7,9');
    expect(buildQueryString({ names: ['a,b', 'c'] })).toBe('names=a%2Cb,c');
    expect(buildQueryString({ ids: [] })).toBe('');
    expect(buildQueryString({ f: { ids: [4, null, 5] } })).toBe('f[ids]=4,5');
  });

  it('formats dates: the day at midnight, else day and time', () => {
    expect(formatQueryDate(new Date(2024, 0, 5))).toBe('2024-01-05');
    expect(formatQueryDate(new Date(2024, 0, 5, 13, 4, 9))).toBe('2024-01-05 13:04:09');
    expect(formatQueryDate(new Date('nope'))).toBe('');
    expect(buildQueryString({ range: { start: dayjs('2024-02-01'), end: new Date(2024, 1, 29) } })).toBe(
      'range[start]=2024-02-01&range[end]=2024-02-29',
    );
    expect(buildQueryString({ at: new Date(2024, 11, 31, 23, 59, 0) })).toBe('at=2024-12-31%2023%3A59%3A00');
    expect(buildQueryString({ bad: new Date('nope') })).toBe('');
  });

  it('appends to a URL with ? or &', () => {
    expect(withQuery('/v1/reports', { page: 2 })).toBe('/v1/reports?page=2');
    expect(withQuery('/v1/reports?x=1', { page: 2 })).toBe('/v1/reports?x=1&page=2');
    expect(withQuery('/v1/reports', {})).toBe('/v1/reports');
  });
});
