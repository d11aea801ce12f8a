import { describe, expect, it } from 'vitest';
import {
  describeSchedule,
  fieldErrors,
  formatInZone,
  newScheduleValues,
  scheduleToValues,
  tidyRecipients,
  timeZoneOptions,
  validateSchedule,
  valuesToBody,
  type ScheduleFormValues,
} from './schedule-form.ts';

const DOMAINS = ['adtech.example', 'ssp.example'];
const t = (key: string, params?: Record<string, string | number>) => `${key}${params ? JSON.stringify(params) : ''}`;
const base = (): ScheduleFormValues => ({ ...newScheduleValues('Europe/Madrid', 'Lucia@AdTech.example', DOMAINS) });

describe('schedule form rules', () => {
  it('starts daily at 08:00 in the DataViewer zone, yesterday as CSV, to the person creating it', () => {
    expect(base()).toEqual({
      frequency: 'daily', weekday: 1, month_day: 1, time: '08:00', timezone: 'Europe/Madrid',
      range_preset: 'yesterday', format: 'csv', recipients: ['lucia@adtech.example'], enabled: true,
    });
    // Not a company mail, or an unknown zone: no recipient, UTC.
    expect(newScheduleValues('Nowhere/Zone', 'me@gmail.com', DOMAINS)).toMatchObject({ timezone: 'UTC', recipients: [] });
    expect(validateSchedule(base(), DOMAINS)).toEqual({});
  });

  it('shows each rule on its field', () => {
    expect(validateSchedule({ ...base(), recipients: [] }, DOMAINS)).toEqual({ recipients: 'dvs.recipients_required' });
    expect(validateSchedule({ ...base(), recipients: ['ana@gmail.com'] }, DOMAINS)).toEqual({ recipients: 'dvs.recipient_not_company' });
    expect(validateSchedule({ ...base(), recipients: ['ana@adtech.example', 'not-a-mail'] }, DOMAINS)).toEqual({ recipients: 'dvs.recipient_invalid' });
    const many = Array.from({ length: 21 }, (_, i) => `u${i}@adtech.example`);
    expect(validateSchedule({ ...base(), recipients: many }, DOMAINS)).toEqual({ recipients: 'dvs.recipients_too_many' });
    expect(validateSchedule({ ...base(), frequency: 'weekly', weekday: null }, DOMAINS)).toEqual({ weekday: 'dvs.weekday_required' });
    expect(validateSchedule({ ...base(), frequency: 'monthly', month_day: null }, DOMAINS)).toEqual({ month_day: 'dvs.month_day_required' });
    expect(validateSchedule({ ...base(), frequency: 'monthly', month_day: 0 }, DOMAINS)).toEqual({ month_day: 'dvs.month_day_required' });
    expect(validateSchedule({ ...base(), time: '7:5' }, DOMAINS)).toEqual({ time: 'dvs.time_invalid' });
    expect(validateSchedule({ ...base(), timezone: 'Mars/Base' }, DOMAINS)).toEqual({ timezone: 'dvs.timezone_invalid' });
    // A weekday left over from another frequency does not matter for a daily schedule.
    expect(validateSchedule({ ...base(), weekday: null, month_day: null }, DOMAINS)).toEqual({});
  });

  it('sends only the day field the frequency uses', () => {
    expect(valuesToBody({ ...base(), frequency: 'weekly', weekday: 5, month_day: 12 })).toMatchObject({ frequency: 'weekly', weekday: 5, month_day: null });
    expect(valuesToBody({ ...base(), frequency: 'monthly', weekday: 5, month_day: 12 })).toMatchObject({ frequency: 'monthly', weekday: null, month_day: 12 });
    expect(valuesToBody({ ...base(), weekday: 5, month_day: 12 })).toMatchObject({ frequency: 'daily', weekday: null, month_day: null });
    const stored = { ...valuesToBody(base()), weekday: null, month_day: null };
    expect(scheduleToValues(stored)).toMatchObject({ weekday: 1, month_day: 1 });
  });

  it('tidies typed recipients and keeps at most 20', () => {
    expect(tidyRecipients(['Ana@AdTech.example, bo@ssp.example;ana@adtech.example', ' c@adtech.example '])).toEqual(['ana@adtech.example', 'bo@ssp.example', 'c@adtech.example']);
    expect(tidyRecipients(Array.from({ length: 25 }, (_, i) => `u${i}@adtech.example`))).toHaveLength(20);
  });

  it('maps server errors to fields', () => {
    expect(fieldErrors({ 'recipients.2': 'dvs.recipient_not_company', time: 'dvs.time_invalid' })).toEqual({ recipients: 'dvs.recipient_not_company', time: 'dvs.time_invalid' });
  });

  it('describes a schedule and shows times in its zone', () => {
    expect(describeSchedule({ frequency: 'daily', weekday: null, month_day: null, time: '08:00' }, t)).toBe('dvs.summary.daily{"time":"08:00"}');
    expect(describeSchedule({ frequency: 'weekly', weekday: 3, month_day: null, time: '07:30' }, t)).toBe('dvs.summary.weekly{"weekday":"dvs.weekday.3","time":"07:30"}');
    expect(describeSchedule({ frequency: 'monthly', weekday: null, month_day: 31, time: '06:00' }, t)).toBe('dvs.summary.monthly{"day":31,"time":"06:00"}');
    expect(formatInZone('2025-03-30T06:00:00.000Z', 'Europe/Madrid')).toBe('2025-03-30 08:00');
    expect(formatInZone('2025-03-29T07:00:00.000Z', 'Europe/Madrid')).toBe('2025-03-29 08:00');
    expect(formatInZone(null, 'UTC')).toBeNull();
    expect(timeZoneOptions('Europe/Madrid', 'America/New_York').slice(0, 3)).toEqual(['Europe/Madrid', 'America/New_York', 'UTC']);
  });
});
