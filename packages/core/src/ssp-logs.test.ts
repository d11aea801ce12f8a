import { describe, expect, it } from 'vitest';
import { parametrizationClockErrors, parametrizationInputSchema, samplingEndsAt, sspLogListQuerySchema } from './ssp-logs.ts';

const errorsOf = (input: Record<string, unknown>) => {
  const r = parametrizationInputSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};
const ok = { active: true, sample_rate_pct: 20, duration_mode: 'minutes', duration_minutes: 60, until: null, partner_scope: 'all', partner_ids: [] };

describe('ssp logs parametrization rules', () => {
  it('takes a valid setting and refuses each bad field with its key', () => {
    expect(errorsOf(ok)).toEqual({});
    expect(errorsOf({ ...ok, sample_rate_pct: 101 })).toEqual({ sample_rate_pct: 'ssp_logs.param.rate_range' });
    expect(errorsOf({ ...ok, sample_rate_pct: 33.3 })).toEqual({ sample_rate_pct: 'ssp_logs.param.rate_range' });
    expect(errorsOf({ ...ok, sample_rate_pct: 0 })).toEqual({ sample_rate_pct: 'ssp_logs.param.rate_zero_active' });
    expect(errorsOf({ ...ok, active: false, sample_rate_pct: 0 })).toEqual({});
    expect(errorsOf({ ...ok, duration_minutes: 10 })).toEqual({ duration_minutes: 'ssp_logs.param.duration_range' });
    expect(errorsOf({ ...ok, duration_mode: 'until' })).toEqual({ until: 'ssp_logs.param.until_invalid' });
    expect(errorsOf({ ...ok, partner_scope: 'partners' })).toEqual({ partner_ids: 'ssp_logs.param.partners_required' });
    // Every error at once, so the form shows them together.
    expect(Object.keys(errorsOf({ ...ok, sample_rate_pct: 500, duration_minutes: 2, partner_scope: 'partners' })).sort()).toEqual(['duration_minutes', 'partner_ids', 'sample_rate_pct']);
  });

  it('checks an end date against the clock, and computes the end of a run', () => {
    const now = Date.UTC(2026, 2, 10, 10, 0, 0);
    expect(parametrizationClockErrors({ duration_mode: 'until', until: '2026-03-10T09:59:00Z' }, now)).toEqual({ until: 'ssp_logs.param.until_past' });
    expect(parametrizationClockErrors({ duration_mode: 'until', until: '2026-03-18T10:00:00Z' }, now)).toEqual({ until: 'ssp_logs.param.until_too_far' });
    expect(parametrizationClockErrors({ duration_mode: 'until', until: '2026-03-11T10:00:00+01:00' }, now)).toEqual({});
    expect(samplingEndsAt({ duration_mode: 'minutes', duration_minutes: 90, until: null }, now)).toBe('2026-03-10T11:30:00.000Z');
    expect(samplingEndsAt({ duration_mode: 'until', duration_minutes: null, until: '2026-03-11T10:00:00+01:00' }, now)).toBe('2026-03-11T09:00:00.000Z');
  });

  it('reads the list query: a window needs zoned instants in order', () => {
    expect(sspLogListQuerySchema.safeParse({ from: '2026-03-10T10:00:00Z', to: '2026-03-10T11:00:00Z' }).success).toBe(true);
    expect(sspLogListQuerySchema.safeParse({ from: '2026-03-10 10:00' }).success).toBe(false);
    expect(sspLogListQuerySchema.safeParse({ from: '2026-03-10T11:00:00Z', to: '2026-03-10T11:00:00Z' }).success).toBe(false);
    expect(sspLogListQuerySchema.parse({ publisher_id: '', outcome: '' })).toMatchObject({ publisher_id: undefined, outcome: undefined, sort: '-time', page: 1, page_size: 25 });
  });
});
