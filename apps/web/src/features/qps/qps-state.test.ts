import { describe, expect, it } from 'vitest';
import {
  dataViewerLink,
  defaultQpsState,
  intervalLabel,
  lastHoursRange,
  qpsRequest,
  qpsStateFromSearch,
  qpsStateToSearch,
  validateQps,
  type QpsState,
} from './qps-state.ts';

// 2025-04-01 10:07:30 UTC = 12:07:30 in Madrid (summer time).
const NOW = Date.UTC(2025, 3, 1, 10, 7, 30);

const valid: QpsState = {
  ids: [1, 2],
  metrics: ['qps', 'bid_qps'],
  start: '2025-03-31T12:00:00',
  end: '2025-04-01T12:00:00',
  timezone: 'Europe/Madrid',
  interval: 15,
};

describe('QPS state defaults and the link', () => {
  it('defaults to the last 24 hours up to the current 15-minute bucket end, Madrid, 15 min, QPS + bid QPS', () => {
    expect(defaultQpsState(NOW)).toEqual({
      ids: [],
      metrics: ['qps', 'bid_qps'],
      start: '2025-03-31T12:15:00',
      end: '2025-04-01T12:15:00',
      timezone: 'Europe/Madrid',
      interval: 15,
    });
    expect(lastHoursRange(NOW, 'UTC', 6)).toEqual({
      start: '2025-04-01T04:15:00',
      end: '2025-04-01T10:15:00',
    });
  });

  it('round-trips a state through the URL with readable separators', () => {
    const search = qpsStateToSearch(valid);
    expect(search).toBe(
      'ids=1,2&metrics=qps,bid_qps&start=2025-03-31T12:00&end=2025-04-01T12:00&tz=Europe/Madrid&interval=15',
    );
    const back = qpsStateFromSearch(new URLSearchParams(search), NOW);
    expect(back).toEqual({ state: valid, explicit: true });
  });

  it('reads a link without choices as the defaults (nothing drawn yet) and cleans what it cannot use', () => {
    expect(qpsStateFromSearch(new URLSearchParams(''), NOW)).toEqual({
      state: defaultQpsState(NOW),
      explicit: false,
    });
    const { state, explicit } = qpsStateFromSearch(
      new URLSearchParams('ids=3,x,3,0&metrics=qps,power&start=2025-04-01 08:00&interval=10'),
      NOW,
    );
    expect(explicit).toBe(true);
    expect(state.ids).toEqual([3]);
    expect(state.metrics).toEqual(['qps']);
    expect(state.start).toBe('2025-04-01T08:00:00');
    expect(state.interval).toBe(10);
  });

  it('sends dates with a space in the chosen zone', () => {
    expect(qpsRequest(valid)).toEqual({
      start: '2025-03-31 12:00',
      end: '2025-04-01 12:00',
      timezone: 'Europe/Madrid',
      interval: 15,
      metrics: ['qps', 'bid_qps'],
      ids: [1, 2],
    });
  });
});

describe('QPS rules (the API schema, in the browser)', () => {
  it('accepts a valid choice', () => {
    expect(validateQps(valid, NOW)).toEqual({});
  });

  it.each<[Partial<QpsState>, Record<string, string>]>([
    [{ metrics: [] }, { metrics: 'qps.metric_required' }],
    [{ ids: [] }, { ids: 'qps.filter_required' }],
    [{ ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, { ids: 'qps.filter_required' }],
    [{ interval: 10 }, { interval: 'qps.interval_too_short' }],
    [{ interval: 20 }, { interval: 'qps.interval_invalid' }],
    [{ start: '' }, { start: 'qps.dates_mandatory' }],
    [{ start: '2025-02-01T00:00:00' }, { end: 'qps.range_too_long' }],
    [{ start: '2025-04-01T13:00:00' }, { end: 'report.range_order' }],
    [{ timezone: 'Mars/Olympus' }, { timezone: 'report.timezone_invalid' }],
  ])('%j -> %j', (patch, expected) => {
    expect(validateQps({ ...valid, ...patch }, NOW)).toEqual(expected);
  });

  it('limits the end to 15 minutes after now (in the chosen zone)', () => {
    // now = 12:07:30 Madrid: 12:15 is allowed (the current bucket), 12:30 is not.
    expect(validateQps({ ...valid, end: '2025-04-01T12:15:00' }, NOW)).toEqual({});
    expect(validateQps({ ...valid, end: '2025-04-01T12:30:00' }, NOW)).toEqual({ end: 'qps.end_limit' });
    // The same wall time in UTC is two hours later: beyond the limit.
    expect(validateQps({ ...valid, timezone: 'UTC', end: '2025-04-01T12:15:00' }, NOW)).toEqual({
      end: 'qps.end_limit',
    });
    // Several broken rules: each field keeps its own message.
    expect(validateQps({ ...valid, metrics: [], ids: [], end: '2025-04-02T00:00:00' }, NOW)).toEqual({
      metrics: 'qps.metric_required',
      ids: 'qps.filter_required',
      end: 'qps.end_limit',
    });
  });
});

describe('DataViewer link', () => {
  it('opens the same partners by hour for the days of the range (end at midnight stops the day before)', () => {
    expect(
      dataViewerLink('en', 'demand', { ...valid, start: '2025-03-31T12:00:00', end: '2025-04-02T00:00:00' }),
    ).toBe(
      '/en/reports/dataviewer?start=2025-03-31&end=2025-04-01&tz=Europe/Madrid&dims=hour,demand_partner&metrics=revenue,bid_requests,bids,timeouts,errors&f=demand_partner:include:1,2&run=1',
    );
    expect(dataViewerLink('es', 'supply', { ...valid, ids: [7] })).toBe(
      '/es/reports/dataviewer?start=2025-03-31&end=2025-04-01&tz=Europe/Madrid&dims=hour,supply_endpoint&metrics=revenue,ad_requests,bid_requests,timeouts,errors&f=supply_endpoint:include:7&run=1',
    );
    expect(dataViewerLink('en', 'demand', { ...valid, ids: [] })).toBeNull();
  });
});

describe('interval labels', () => {
  const t = (key: string, p?: Record<string, string | number>) => `${key}${p ? JSON.stringify(p) : ''}`;
  it('names minutes, hours and the day', () => {
    expect(intervalLabel(15, t)).toBe('qps.minutes{"count":15}');
    expect(intervalLabel(180, t)).toBe('qpsui.interval.hours{"count":3}');
    expect(intervalLabel(1440, t)).toBe('qpsui.interval.day');
  });
});
