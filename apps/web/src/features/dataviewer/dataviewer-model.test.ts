import { parseDataviewerSearch } from '@backoffice/core/dataviewer-link';
import { describe, expect, it } from 'vitest';
import {
  chartDimensions,
  effectiveSort,
  emptyState,
  linkSearch,
  pickerValue,
  queryBody,
  sameDefinition,
  savedRange,
  stateFromDefinition,
  stateFromLink,
  toDefinition,
  toSavedDefinition,
  unresolvedIds,
  validateState,
  type BuilderState,
} from './dataviewer-model.ts';

const label = (_d: string, v: string | number) => String(v);

const built: BuilderState = {
  range: { start: '2025-03-10', end: '2025-03-10' },
  timezone: 'Europe/Madrid',
  dimensions: ['day', 'demand_partner'],
  metrics: ['revenue', 'impressions'],
  filters: [
    { key: 'a', dimension: 'country', op: 'include', values: [{ id: 'ES', value: 'Spain (ES)' }] },
    { key: 'b', dimension: 'demand_partner', op: 'exclude', values: [{ id: 3, value: 'Nimbus' }] },
  ],
  sort: [{ field: 'revenue', dir: 'desc' }],
};

describe('state -> request body', () => {
  it('sends ids and codes, not labels, and pages with limit/offset', () => {
    expect(queryBody(toDefinition(built), 500, 1000)).toEqual({
      range: { start: '2025-03-10', end: '2025-03-10' },
      timezone: 'Europe/Madrid',
      dimensions: ['day', 'demand_partner'],
      metrics: ['revenue', 'impressions'],
      filters: [
        { dimension: 'country', op: 'include', values: ['ES'] },
        { dimension: 'demand_partner', op: 'exclude', values: [3] },
      ],
      sort: [{ field: 'revenue', dir: 'desc' }],
      limit: 500,
      offset: 1000,
    });
  });

  it('drops a sort on a field that is no longer chosen', () => {
    expect(toDefinition({ ...built, metrics: ['impressions'] }).sort).toEqual([]);
  });

  it('leaves the range out when there is none', () => {
    expect('range' in toDefinition(emptyState('UTC'))).toBe(false);
  });
});

describe('validateState (the API rules)', () => {
  it('accepts a complete report', () => {
    expect(validateState(built)).toBeNull();
  });

  it('needs dates and a dimension or metric, each on its field', () => {
    const errors = validateState(emptyState('UTC'));
    expect(errors?.range).toBe('report.dates_mandatory');
    expect(errors?.dimensions).toBe('report.dimension_or_metric_required');
  });

  it('refuses a filter without values, keyed by the filter', () => {
    const errors = validateState({ ...built, filters: [{ key: 'x', dimension: 'device', op: 'include', values: [] }] });
    expect(errors).toEqual({ 'filter:x': 'report.filter_values_required' });
  });

  it('refuses two time dimensions, ranges in the wrong order and unknown zones', () => {
    expect(validateState({ ...built, dimensions: ['day', 'hour'] })?.dimensions).toBe('report.time_dimension_single');
    expect(validateState({ ...built, range: { start: '2025-03-10', end: '2025-03-01' } })?.range).toBe('report.range_order');
    expect(validateState({ ...built, timezone: 'Mars/Olympus' })?.timezone).toBe('report.timezone_invalid');
  });
});

describe('saved definitions', () => {
  it('stores a preset instead of the dates it stood for', () => {
    const saved = toSavedDefinition({ ...built, range: { start: '2025-03-10', end: '2025-03-10', preset: 'yesterday' } });
    expect(saved.preset).toBe('yesterday');
    expect(saved.range).toBeUndefined();
    expect(toSavedDefinition(built).range).toEqual({ start: '2025-03-10', end: '2025-03-10' });
  });

  it('recomputes a preset when opened and keeps a fixed range', () => {
    const now = new Date('2025-06-15T12:00:00Z');
    const state = stateFromDefinition({ ...toSavedDefinition(built), range: undefined, preset: 'yesterday' }, label, now);
    expect(state.range).toEqual({ start: '2025-06-14', end: '2025-06-14', preset: 'yesterday' });
    expect(stateFromDefinition(toSavedDefinition(built), label, now).range).toEqual({ start: '2025-03-10', end: '2025-03-10' });
    expect(savedRange({ preset: 'yesterday', timezone: 'UTC' }, now)).toEqual({ start: '2025-06-14', end: '2025-06-14', preset: 'yesterday' });
  });

  it('compares definitions by meaning (ids as text, preset over range)', () => {
    const a = toSavedDefinition(built);
    const b = { ...a, filters: a.filters.map((f) => ({ ...f, values: f.values.map(String) })) };
    expect(sameDefinition(a, b)).toBe(true);
    expect(sameDefinition(a, { ...a, metrics: ['revenue'] })).toBe(false);
  });
});

describe('URL state', () => {
  it('round-trips the builder through the link', () => {
    const search = linkSearch(built, true);
    const state = stateFromLink(parseDataviewerSearch(new URLSearchParams(search)), label);
    expect(toDefinition(state)).toEqual(toDefinition(built));
    expect(new URLSearchParams(search).get('run')).toBe('1');
  });

  it('writes a picked preset as the preset', () => {
    const search = new URLSearchParams(linkSearch({ ...built, range: { start: '2025-03-10', end: '2025-03-10', preset: 'yesterday' } }, false));
    expect(search.get('preset')).toBe('yesterday');
    expect(search.has('start')).toBe(false);
    expect(search.has('run')).toBe(false);
  });

  it('defaults the zone when the link has none or a bad one', () => {
    const state = stateFromLink(parseDataviewerSearch(new URLSearchParams('tz=Nowhere/Land&metrics=revenue')), label, new Date(), 'UTC');
    expect(state.timezone).toBe('UTC');
    expect(state.metrics).toEqual(['revenue']);
  });

  it('lists entity filter values whose names are still unknown', () => {
    const state = stateFromLink(parseDataviewerSearch(new URLSearchParams('f=demand_partner:include:1,2&f=country:include:ES')), label);
    expect([...unresolvedIds(state.filters)]).toEqual([['demand_partner', [1, 2]]]);
  });
});

describe('helpers', () => {
  it('shows date-time ranges as their days in the picker', () => {
    expect(pickerValue({ start: '2025-04-01 13:00', end: '2025-04-02 00:00' })).toEqual({ start: '2025-04-01', end: '2025-04-01' });
    expect(pickerValue({ start: '2025-04-01 13:00', end: '2025-04-01 15:00' })).toEqual({ start: '2025-04-01', end: '2025-04-01' });
    expect(pickerValue(null)).toBeNull();
  });

  it('knows the server default order', () => {
    expect(effectiveSort({ dimensions: ['country', 'day'], metrics: ['revenue'], sort: [] })).toEqual([{ field: 'day', dir: 'asc' }]);
    expect(effectiveSort({ dimensions: ['country'], metrics: ['revenue'], sort: [] })).toEqual([{ field: 'revenue', dir: 'desc' }]);
  });

  it('charts the time dimension first and one more', () => {
    expect(chartDimensions(['country', 'device', 'day'])).toEqual(['day', 'country']);
    expect(chartDimensions(['country', 'device', 'os'])).toEqual(['country', 'device']);
    expect(chartDimensions([])).toEqual([]);
  });
});
