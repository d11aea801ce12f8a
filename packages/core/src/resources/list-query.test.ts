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

  it('builds the parameters it parses (a round trip), leaving defaults out', () => {
    const params = { page: '2', sort: '-country', 'f[country]': 'ES,FR', 'f[created_at][max]': '2026-03-01' };
    const parsed = parseListQuery(companies, params);
    expect(parsed.ok && listQueryParams(parsed.value, companies)).toEqual(params);
  });
});
