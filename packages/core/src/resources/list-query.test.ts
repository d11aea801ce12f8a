import { describe, expect, it } from 'vitest';
import { companies } from './companies.ts';
import { listQueryParams, MAX_PAGE_SIZE, parseListQuery } from './list-query.ts';

describe('list queries', () => {
  it('parses page, page size, sort and every filter kind; defaults the sort', () => {
    const r = parseListQuery(companies, {
      page: '3',
      page_size: '50',
      sort: 'country,-updated_at',
      'f[legal_name]': 'gmbh',
      'f[country]': 'DE,AT',
      'f[updated_at][min]': '2026-01-01',
      'f[updated_at][max]': '2026-02-01',
    });
    expect(r).toEqual({
      ok: true,
      value: {
        page: 3,
        page_size: 50,
        sort: [
          { field: 'country', desc: false },
          { field: 'updated_at', desc: true },
        ],
        filters: [
          { field: 'legal_name', kind: 'contains', value: 'gmbh' },
          { field: 'country', kind: 'in', values: ['DE', 'AT'] },
          { field: 'updated_at', kind: 'range', min: '2026-01-01', max: '2026-02-01' },
        ],
      },
    });
    expect(parseListQuery(companies, {})).toEqual({ ok: true, value: { page: 1, page_size: 25, sort: [{ field: 'legal_name', desc: false }], filters: [] } });
  });

  it('refuses what it does not know, with a field error each', () => {
    const r = parseListQuery(companies, {
      page: '0',
      page_size: String(MAX_PAGE_SIZE + 1),
      sort: 'iban',
      'f[iban]': 'x',
      'f[country]': 'XX',
      'f[legal_name][min]': 'a',
      other: '1',
    });
    expect(r).toEqual({
      ok: false,
      errors: {
        page: 'error.invalid_value',
        page_size: 'resource.page_size_max',
        sort: 'resource.sort_unknown',
        'f[iban]': 'error.unknown_field',
        'f[country]': 'error.invalid_value',
        'f[legal_name][min]': 'error.unknown_field',
        other: 'error.unknown_field',
      },
    });
  });

  it('takes only dates and instants PostgreSQL takes in a range (Date.parse takes 2026-02-30, 24:00, year 0, +23:59)', () => {
    const bound = (text: string) => parseListQuery(companies, { 'f[created_at][min]': text }).ok;
    for (const ok of ['2026-02-28', '2024-02-29', '0001-01-01', '2026-01-01T10:00', '2026-01-01 10:00:59', '2026-01-01T10:00:00.123Z', '2026-01-01T23:59:59+14:00', '2026-01-01T00:00-0530'])
      expect(bound(ok), ok).toBe(true);
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '0000-01-01', '2026-01-01T24:00', '2026-01-01T10:60', '2026-01-01T10:00:60', '2026-01-01T10:00+15:00', '2026-01-01T10:00+23:59', '2026-01-01T10:00.5', '2026-1-1'])
      expect(bound(bad), bad).toBe(false);
  });

  it('builds the parameters it parses (a round trip), leaving defaults out', () => {
    const params = { page: '2', sort: '-country', 'f[country]': 'ES,FR', 'f[created_at][max]': '2026-03-01' };
    const parsed = parseListQuery(companies, params);
    expect(parsed.ok && listQueryParams(parsed.value, companies)).toEqual(params);
  });
});
