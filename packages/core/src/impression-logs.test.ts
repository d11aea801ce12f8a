import { describe, expect, it } from 'vitest';
import { describeFilter, impressionLogFileBase, impressionLogRequestSchema, isCpm, progressOf } from './impression-logs.ts';
import { issuesToErrors } from './validation-errors.ts';

const schema = impressionLogRequestSchema('2025-04-10');
const errors = (body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? null : issuesToErrors(r.error.issues);
};
const valid = { date: '2025-04-09', network_id: 3, columns: ['win_price', 'timestamp'], filters: [{ field: 'country', values: ['ES'] }] };

describe('impression log request rules (spec 5)', () => {
  it('date, network and columns are mandatory; filters must not be empty', () => {
    expect(errors({})).toEqual({
      date: 'impressions_log.date_required',
      network_id: 'impressions_log.network_required',
      columns: 'impressions_log.columns_required',
      filters: 'impressions_log.filters_required',
    });
    expect(errors({ ...valid, filters: [] })).toEqual({ filters: 'impressions_log.filters_required' });
    expect(errors({ ...valid, columns: [] })).toEqual({ columns: 'impressions_log.columns_required' });
  });
  it('no future day, a real day; filters complete and each field once', () => {
    expect(errors({ ...valid, date: '2025-04-11' })).toEqual({ date: 'impressions_log.date_future' });
    expect(errors({ ...valid, date: '2025-04-10' })).toBeNull();
    expect(errors({ ...valid, date: '10/04/2025' })).toEqual({ date: 'impressions_log.date_invalid' });
    expect(errors({ ...valid, filters: [{ field: 'device', values: ['toaster'] }] })).toEqual({ 'filters.0.values.0': 'impressions_log.filter_value_invalid' });
    expect(errors({ ...valid, filters: [{ field: 'deal', value: 'open' }, { field: 'deal', value: 'deal' }] })).toEqual({ filters: 'impressions_log.filter_duplicate' });
    expect(errors({ ...valid, filters: [{ field: 'nope', values: [] }] })).toEqual({ 'filters.0.field': 'impressions_log.filter_field_invalid' });
  });
  it('keeps the columns in catalogue order', () => {
    expect(schema.parse(valid).columns).toEqual(['timestamp', 'win_price']);
  });
});

describe('impression log helpers', () => {
  it('CPMs with at most 4 decimals', () => {
    expect(['1', '0.5', '12.3456'].every(isCpm)).toBe(true);
    expect(['1.23456', '-1', '1e3', ''].some(isCpm)).toBe(false);
  });
  it('progress: 0 while unknown, never 100 before done', () => {
    expect(progressOf('pending', 0, null)).toBe(0);
    expect(progressOf('running', 50, 200)).toBe(25);
    expect(progressOf('running', 200, 200)).toBe(99);
    expect(progressOf('done', 200, 200)).toBe(100);
  });
  it('file names and filter descriptions', () => {
    expect(impressionLogFileBase('Nimbus Exchange', '2025-04-09')).toBe('impressions_log_nimbus_exchange_2025-04-09');
    expect(describeFilter({ field: 'min_win_price', value: '1.5' }, (k) => (k === 'impressions_log.filter.min_win_price' ? 'Win price' : k))).toBe('Win price ≥ 1.5');
    expect(describeFilter({ field: 'publisher', values: [1, 2] }, () => 'Publisher', (id) => `P${id}`)).toBe('Publisher: P1, P2');
  });
});
