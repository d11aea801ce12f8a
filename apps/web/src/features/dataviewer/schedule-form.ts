/**
 * The schedule form's rules, on the shared core schema (the API validates the same way): values
 * ↔ request body, field errors as i18n keys, the text that describes a schedule, run times shown
 * in the schedule's zone.
 */
import {
  SCHEDULE_LIMITS,
  scheduleSettingsSchema,
  type ScheduleRunStatus,
  type ScheduleSettings,
} from '@backoffice/core/dataviewer-schedules';
import { isCompanyMail } from '@backoffice/core/mail';
import { isValidTimeZone, wallTimeOf } from '@backoffice/core/reports';

export interface ScheduleLastRun {
  at: string;
  status: ScheduleRunStatus;
  rows: number | null;
  error: string | null;
  range: { start: string; end: string } | null;
}

/** A schedule as the API answers it. */
export interface Schedule extends ScheduleSettings {
  id: number;
  dataviewer_id: number;
  next_run_at: string | null;
  last_run: ScheduleLastRun | null;
  created_by: { id: number; name: string };
  can_edit: boolean;
}

/** The form holds exactly the settings the API takes (core/dataviewer-schedules). */
export type ScheduleFormValues = ScheduleSettings;

export type ScheduleField = keyof ScheduleFormValues;

/** A new schedule: weekdays at 08:00 in the DataViewer's zone, yesterday's data, to the person creating it. */
export function newScheduleValues(timezone: string | null | undefined, mail: string | null | undefined, domains: readonly string[]): ScheduleFormValues {
  const me = (mail ?? '').trim().toLowerCase();
  return {
    frequency: 'daily',
    weekday: 1,
    month_day: 1,
    time: '08:00',
    timezone: timezone && isValidTimeZone(timezone) ? timezone : 'UTC',
    range_preset: 'yesterday',
    format: 'csv',
    recipients: me && isCompanyMail(me, domains) ? [me] : [],
    enabled: true,
  };
}

/** The form values of a stored schedule (day fields it does not use keep a sensible default). */
export function scheduleToValues(s: ScheduleSettings): ScheduleFormValues {
  return {
    frequency: s.frequency,
    weekday: s.weekday ?? 1,
    month_day: s.month_day ?? 1,
    time: s.time,
    timezone: s.timezone,
    range_preset: s.range_preset,
    format: s.format,
    recipients: [...s.recipients],
    enabled: s.enabled,
  };
}

/** The request body: only the day field the frequency uses. */
export function valuesToBody(v: ScheduleFormValues): ScheduleSettings {
  return {
    frequency: v.frequency,
    weekday: v.frequency === 'weekly' ? v.weekday : null,
    month_day: v.frequency === 'monthly' ? v.month_day : null,
    time: v.time,
    timezone: v.timezone,
    range_preset: v.range_preset,
    format: v.format,
    recipients: v.recipients.map((r) => r.trim()).filter(Boolean),
    enabled: v.enabled,
  };
}

/** Field → message key: `recipients.3` errors are shown on the recipients field. */
export function fieldErrors(errors: Record<string, string>): Partial<Record<ScheduleField, string>> {
  const out: Partial<Record<ScheduleField, string>> = {};
  for (const [path, key] of Object.entries(errors)) {
    const field = path.split('.')[0] as ScheduleField;
    if (!(field in out)) out[field] = key;
  }
  return out;
}

/** The form's errors by field (empty when the schedule can be saved). */
export function validateSchedule(v: ScheduleFormValues, domains: readonly string[]): Partial<Record<ScheduleField, string>> {
  const result = scheduleSettingsSchema(domains).safeParse(valuesToBody(v));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    if (!(path in errors)) errors[path] = issue.message;
  }
  return fieldErrors(errors);
}

/** Recipients typed into the tags input: split on commas, semicolons and spaces, lowercased, unique, at most the limit. */
export function tidyRecipients(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of list) {
    for (const part of item.split(/[\s,;]+/)) {
      const mail = part.trim().toLowerCase();
      if (mail && !out.includes(mail)) out.push(mail);
    }
  }
  return out.slice(0, SCHEDULE_LIMITS.maxRecipients);
}

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "Every Monday at 08:00" (the zone is shown beside it). */
export function describeSchedule(s: Pick<ScheduleSettings, 'frequency' | 'weekday' | 'month_day' | 'time'>, t: Translate): string {
  if (s.frequency === 'weekly') return t('dvs.summary.weekly', { weekday: t(`dvs.weekday.${s.weekday ?? 1}`), time: s.time });
  if (s.frequency === 'monthly') return t('dvs.summary.monthly', { day: s.month_day ?? 1, time: s.time });
  return t('dvs.summary.daily', { time: s.time });
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** An instant as `YYYY-MM-DD HH:mm` in a zone (the zone the schedule runs in). */
export function formatInZone(iso: string | null, timezone: string): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const w = wallTimeOf(ms, isValidTimeZone(timezone) ? timezone : 'UTC');
  return `${w.year}-${p2(w.month)}-${p2(w.day)} ${p2(w.hour)}:${p2(w.minute)}`;
}

export const STATUS_COLORS: Record<ScheduleRunStatus, string> = { ok: 'success', empty: 'warning', error: 'error' };

/** The zones offered: the schedule's own, the browser's, then every zone the runtime knows. */
export function timeZoneOptions(current: string, browser: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, browser, 'UTC', ...all].filter((z) => z && isValidTimeZone(z)))];
}
