import { describe, expect, it } from 'vitest';
import { nextRunAt, normalizeRecipients, recipientProblem, scheduleRange, scheduleSettingsSchema, SCHEDULE_ERRORS } from './dataviewer-schedules.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const DOMAINS = ['adtech.example', 'ssp.example'];
const daily = (time: string, timezone = 'Europe/Madrid') => ({ frequency: 'daily' as const, weekday: null, month_day: null, time, timezone });

describe('nextRunAt', () => {
  it('runs at the wall time of the zone, strictly after the given instant', () => {
    // 2025-03-10 07:00 UTC is 08:00 in Madrid (CET, +1).
    expect(iso(nextRunAt(daily('08:00'), Date.UTC(2025, 2, 10, 6, 0)))).toBe('2025-03-10T07:00:00.000Z');
    // Exactly at the run: the next one is tomorrow.
    expect(iso(nextRunAt(daily('08:00'), Date.UTC(2025, 2, 10, 7, 0)))).toBe('2025-03-11T07:00:00.000Z');
  });

  it('keeps the local time across the spring-forward change (Madrid, 2025-03-30)', () => {
    // 08:00 CET on the 29th (07:00Z), then 08:00 CEST on the 30th (06:00Z): 23 hours apart.
    const first = nextRunAt(daily('08:00'), Date.UTC(2025, 2, 29, 0, 0));
    const second = nextRunAt(daily('08:00'), first);
    expect(iso(first)).toBe('2025-03-29T07:00:00.000Z');
    expect(iso(second)).toBe('2025-03-30T06:00:00.000Z');
    expect(second - first).toBe(23 * 3600_000);
  });

  it('runs a time skipped by the jump when the clock jumps to it (02:30 → 03:30 CEST)', () => {
    const at = nextRunAt(daily('02:30'), Date.UTC(2025, 2, 29, 12, 0));
    expect(iso(at)).toBe('2025-03-30T01:30:00.000Z'); // 03:30 CEST
    expect(iso(nextRunAt(daily('02:30'), at))).toBe('2025-03-31T00:30:00.000Z'); // 02:30 CEST
  });

  it('runs a repeated time once, at its first occurrence (fall back, Madrid 2025-10-26)', () => {
    const first = nextRunAt(daily('02:30'), Date.UTC(2025, 9, 25, 12, 0));
    expect(iso(first)).toBe('2025-10-26T00:30:00.000Z'); // 02:30 CEST, the first one
    const next = nextRunAt(daily('02:30'), first);
    expect(iso(next)).toBe('2025-10-27T01:30:00.000Z'); // not 01:30Z on the 26th (the repeat)
    // Across the change, 08:00 local is 25 hours apart.
    const a = nextRunAt(daily('08:00'), Date.UTC(2025, 9, 25, 0, 0));
    expect(nextRunAt(daily('08:00'), a) - a).toBe(25 * 3600_000);
  });

  it('follows the zone of the schedule (New York changes on another date)', () => {
    // US spring forward 2025-03-09: 09:00 EST is 14:00Z, 09:00 EDT is 13:00Z.
    const s = daily('09:00', 'America/New_York');
    expect(iso(nextRunAt(s, Date.UTC(2025, 2, 8, 15, 0)))).toBe('2025-03-09T13:00:00.000Z');
    expect(iso(nextRunAt(s, Date.UTC(2025, 2, 7, 15, 0)))).toBe('2025-03-08T14:00:00.000Z');
  });

  it('weekly on a weekday, monthly on a day (clamped to short months)', () => {
    const weekly = { frequency: 'weekly' as const, weekday: 1, month_day: null, time: '07:30', timezone: 'UTC' };
    // 2025-03-12 is a Wednesday; the next Monday is the 17th.
    expect(iso(nextRunAt(weekly, Date.UTC(2025, 2, 12)))).toBe('2025-03-17T07:30:00.000Z');
    const monthly = { frequency: 'monthly' as const, weekday: null, month_day: 31, time: '06:00', timezone: 'Europe/Madrid' };
    // February has 28 days in 2025: the 31st runs on the 28th, then on March 31st (CEST, +2).
    const feb = nextRunAt(monthly, Date.UTC(2025, 1, 1));
    expect(iso(feb)).toBe('2025-02-28T05:00:00.000Z');
    expect(iso(nextRunAt(monthly, feb))).toBe('2025-03-31T04:00:00.000Z');
  });
});

describe('scheduleRange', () => {
  // 2025-03-03 is a Monday; 00:30 Madrid on the 3rd is still the 2nd in UTC.
  const run = Date.UTC(2025, 2, 2, 23, 30);
  it('is relative to the run in the schedule zone and ends yesterday', () => {
    expect(scheduleRange('yesterday', run, 'Europe/Madrid')).toEqual({ start: '2025-03-02', end: '2025-03-02' });
    expect(scheduleRange('yesterday', run, 'UTC')).toEqual({ start: '2025-03-01', end: '2025-03-01' });
    expect(scheduleRange('last_7_days', run, 'Europe/Madrid')).toEqual({ start: '2025-02-24', end: '2025-03-02' });
    expect(scheduleRange('last_30_days', run, 'Europe/Madrid')).toEqual({ start: '2025-02-01', end: '2025-03-02' });
    expect(scheduleRange('last_week', run, 'Europe/Madrid')).toEqual({ start: '2025-02-24', end: '2025-03-02' });
    expect(scheduleRange('last_month', run, 'Europe/Madrid')).toEqual({ start: '2025-02-01', end: '2025-02-28' });
    // On a Monday, week to date is last week; on the 1st, month to date is last month.
    expect(scheduleRange('week_to_date', run, 'Europe/Madrid')).toEqual({ start: '2025-02-24', end: '2025-03-02' });
    expect(scheduleRange('month_to_date', Date.UTC(2025, 2, 1, 8), 'UTC')).toEqual({ start: '2025-02-01', end: '2025-02-28' });
    expect(scheduleRange('month_to_date', Date.UTC(2025, 2, 20, 8), 'UTC')).toEqual({ start: '2025-03-01', end: '2025-03-19' });
  });
});

describe('schedule settings', () => {
  const schema = scheduleSettingsSchema(DOMAINS);
  const base = { frequency: 'daily', time: '08:00', timezone: 'Europe/Madrid', recipients: ['Ana@AdTech.example'] };
  const keys = (input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };

  it('accepts a complete schedule and normalises it', () => {
    const r = schema.parse({ ...base, weekday: 3, recipients: [' ana@adtech.example ', 'ANA@adtech.example', 'bo@ssp.example'] });
    expect(r).toMatchObject({ weekday: null, month_day: null, range_preset: 'yesterday', format: 'csv', enabled: true, recipients: ['ana@adtech.example', 'bo@ssp.example'] });
  });

  it('reports each rule with its key', () => {
    expect(keys({ ...base, frequency: 'hourly' })).toContain(`frequency:${SCHEDULE_ERRORS.frequencyInvalid}`);
    expect(keys({ ...base, frequency: 'weekly' })).toContain(`weekday:${SCHEDULE_ERRORS.weekdayRequired}`);
    expect(keys({ ...base, frequency: 'weekly', weekday: 8 })).toContain(`weekday:${SCHEDULE_ERRORS.weekdayRequired}`);
    expect(keys({ ...base, frequency: 'monthly' })).toContain(`month_day:${SCHEDULE_ERRORS.monthDayRequired}`);
    expect(keys({ ...base, frequency: 'monthly', month_day: 32 })).toContain(`month_day:${SCHEDULE_ERRORS.monthDayRequired}`);
    expect(keys({ ...base, time: '24:00' })).toContain(`time:${SCHEDULE_ERRORS.timeInvalid}`);
    expect(keys({ ...base, time: '8:00' })).toContain(`time:${SCHEDULE_ERRORS.timeInvalid}`);
    expect(keys({ ...base, timezone: 'Mars/Olympus' })).toContain(`timezone:${SCHEDULE_ERRORS.timezoneInvalid}`);
    expect(keys({ ...base, range_preset: 'forever' })).toContain(`range_preset:${SCHEDULE_ERRORS.rangeInvalid}`);
    expect(keys({ ...base, format: 'pdf' })).toContain(`format:${SCHEDULE_ERRORS.formatInvalid}`);
    expect(keys({ ...base, recipients: [] })).toContain(`recipients:${SCHEDULE_ERRORS.recipientsRequired}`);
    expect(keys({ ...base, recipients: ['  '] })).toContain(`recipients:${SCHEDULE_ERRORS.recipientsRequired}`);
    expect(keys({ ...base, recipients: ['not a mail'] })).toContain(`recipients.0:${SCHEDULE_ERRORS.recipientInvalid}`);
    expect(keys({ ...base, recipients: ['ana@gmail.com'] })).toContain(`recipients.0:${SCHEDULE_ERRORS.recipientNotCompany}`);
    const many = Array.from({ length: 21 }, (_, i) => `u${i}@adtech.example`);
    expect(keys({ ...base, recipients: many })).toContain(`recipients:${SCHEDULE_ERRORS.recipientsTooMany}`);
    expect(keys({ ...base, recipients: many.slice(0, 20) })).toEqual([]);
  });

  it('checks one recipient and normalises lists', () => {
    expect(recipientProblem('a@adtech.example', DOMAINS)).toBeNull();
    expect(recipientProblem('a@evil.adtech.example', DOMAINS)).toBe(SCHEDULE_ERRORS.recipientNotCompany);
    expect(recipientProblem('a@@adtech.example', DOMAINS)).toBe(SCHEDULE_ERRORS.recipientInvalid);
    expect(recipientProblem('a@adtech.example\r\nBcc: x@y.z', DOMAINS)).toBe(SCHEDULE_ERRORS.recipientInvalid);
    expect(normalizeRecipients(['B@x.y', 'b@x.y', '', 'c@x.y'])).toEqual(['b@x.y', 'c@x.y']);
  });
});
