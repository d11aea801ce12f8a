import { describe, expect, it } from 'vitest';
import { dataviewerSearch, parseDataviewerSearch } from './dataviewer-link.ts';

describe('dataviewerSearch', () => {
  it('writes every part of a definition', () => {
    const search = dataviewerSearch({
      range: { start: '2025-03-01', end: '2025-03-31' },
      timezone: 'Europe/Madrid',
      dimensions: ['day', 'demand_partner'],
      metrics: ['revenue', 'impressions'],
      filters: [
        { dimension: 'country', op: 'include', values: ['ES', 'FR'] },
        { dimension: 'deal', op: 'exclude', values: [0] },
      ],
      sort: [{ field: 'revenue', dir: 'desc' }],
      run: true,
    });
    const p = new URLSearchParams(search);
    expect(search.startsWith('?')).toBe(true);
    expect(p.get('start')).toBe('2025-03-01');
    expect(p.get('end')).toBe('2025-03-31');
    expect(p.get('tz')).toBe('Europe/Madrid');
    expect(p.get('dims')).toBe('day,demand_partner');
    expect(p.get('metrics')).toBe('revenue,impressions');
    expect(p.getAll('f')).toEqual(['country:include:ES,FR', 'deal:exclude:0']);
    expect(p.get('sort')).toBe('revenue:desc');
    expect(p.get('run')).toBe('1');
  });

  it('is empty for an empty definition and leaves out empty filters and run=false', () => {
    expect(dataviewerSearch({})).toBe('');
    expect(dataviewerSearch({ filters: [{ dimension: 'country', op: 'include', values: [] }], run: false })).toBe('');
  });

  it('writes a preset only when there is no fixed range', () => {
    expect(dataviewerSearch({ preset: 'yesterday' })).toBe('?preset=yesterday');
    expect(dataviewerSearch({ preset: 'yesterday', range: { start: '2025-01-01', end: '2025-01-02' } })).toBe('?start=2025-01-01&end=2025-01-02');
  });

  it('round-trips through parseDataviewerSearch', () => {
    const def = {
      range: { start: '2025-04-01 13:00', end: '2025-04-01 15:00' },
      timezone: 'Europe/Madrid',
      dimensions: ['hour', 'country'],
      metrics: ['bid_requests', 'revenue'],
      filters: [{ dimension: 'demand_partner', op: 'include' as const, values: [1, 2] }],
      sort: [{ field: 'hour', dir: 'asc' as const }],
      run: true,
    };
    const parsed = parseDataviewerSearch(new URLSearchParams(dataviewerSearch(def)));
    expect(parsed).toEqual({ ...def, preset: null, present: true });
  });
});

describe('parseDataviewerSearch', () => {
  it('reports absence when no DataViewer parameter is there', () => {
    const parsed = parseDataviewerSearch(new URLSearchParams('foo=1'));
    expect(parsed.present).toBe(false);
    expect(parsed).toMatchObject({ range: null, preset: null, timezone: null, dimensions: [], metrics: [], filters: [], sort: [], run: false });
  });

  it('drops unknown dimensions, metrics, duplicates and malformed dates', () => {
    const parsed = parseDataviewerSearch(new URLSearchParams('start=2025-02-30&end=2025-03-01&dims=day,nope,day,country&metrics=revenue,bogus'));
    expect(parsed.range).toBeNull();
    expect(parsed.dimensions).toEqual(['day', 'country']);
    expect(parsed.metrics).toEqual(['revenue']);
  });

  it('accepts date-times with T or seconds and normalises them', () => {
    const parsed = parseDataviewerSearch(new URLSearchParams('start=2025-03-01T10:00&end=2025-03-01 12:30:00'));
    expect(parsed.range).toEqual({ start: '2025-03-01 10:00', end: '2025-03-01 12:30' });
  });

  it('needs both ends of a range; a preset is read when there is none', () => {
    expect(parseDataviewerSearch(new URLSearchParams('start=2025-03-01')).range).toBeNull();
    expect(parseDataviewerSearch(new URLSearchParams('preset=last7days')).preset).toBe('last7days');
    expect(parseDataviewerSearch(new URLSearchParams('preset=someday')).preset).toBeNull();
  });

  it('reads filters: entity ids as numbers, enum codes as strings, invalid values and filters dropped', () => {
    const p = new URLSearchParams();
    p.append('f', 'demand_partner:include:1,2,x,-3');
    p.append('f', 'country:exclude:ES,XX');
    p.append('f', 'deal:include:0');
    p.append('f', 'day:include:2025-01-01');
    p.append('f', 'publisher:maybe:1');
    p.append('f', 'publisher:include:0');
    const parsed = parseDataviewerSearch(p);
    expect(parsed.filters).toEqual([
      { dimension: 'demand_partner', op: 'include', values: [1, 2] },
      { dimension: 'country', op: 'exclude', values: ['ES'] },
      { dimension: 'deal', op: 'include', values: [0] },
    ]);
  });

  it('keeps sort fields that are chosen dimensions or metrics, defaulting to desc', () => {
    const parsed = parseDataviewerSearch(new URLSearchParams('dims=country&metrics=revenue&sort=revenue,country:asc,impressions:desc,revenue:asc'));
    expect(parsed.sort).toEqual([
      { field: 'revenue', dir: 'desc' },
      { field: 'country', dir: 'asc' },
    ]);
  });

  it('reads run=1 only', () => {
    expect(parseDataviewerSearch(new URLSearchParams('run=1')).run).toBe(true);
    expect(parseDataviewerSearch(new URLSearchParams('run=true')).run).toBe(false);
  });
});
