/**
 * Scheduled e-mailing of saved DataViewers (screens: "A report can be saved as a named
 * DataViewer, shared with roles, and scheduled to be e-mailed"). The rules are written once here
 * and used by the schedule form and by the API: frequency, time of day in an IANA zone, the date
 * range sent (a preset relative to the run), format, recipients (company mail only), and the
 * next-run computation, which follows the zone's wall clock across DST changes.
 */
import { z } from 'zod';
import { addDays, addMonths, daysInMonth, isoWeekday, startOfUnit, todayIn, type DateRange } from './dates.ts';
import { idText } from './ids.ts';
import { isCompanyMail } from './mail.ts';
import { isValidTimeZone, wallTimeOf, zonedTimeToEpoch } from './reports.ts';

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/**
 * The date range a run sends, in whole local days of the schedule's zone, always ending with the
 * day before the run (today is never complete when a report is mailed): "month to date" on the
 * 1st is therefore the whole previous month.
 */
export const SCHEDULE_RANGE_PRESETS = ['yesterday', 'last_7_days', 'last_30_days', 'week_to_date', 'last_week', 'month_to_date', 'last_month'] as const;
export type ScheduleRangePreset = (typeof SCHEDULE_RANGE_PRESETS)[number];

export const SCHEDULE_FORMATS = ['csv', 'xlsx'] as const;
export type ScheduleFormat = (typeof SCHEDULE_FORMATS)[number];

export const SCHEDULE_STATUSES = ['ok', 'empty', 'error'] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_STATUSES)[number];

export const SCHEDULE_LIMITS = {
  maxRecipients: 20,
  maxSchedulesPerDataviewer: 10,
  maxMailLength: 254,
  /** Attachments above this size are not mailed (most mail servers refuse 20-25 MB messages). */
  maxAttachmentBytes: 15 * 1024 * 1024,
} as const;

export const SCHEDULE_ERRORS = {
  frequencyInvalid: 'dvs.frequency_invalid',
  weekdayRequired: 'dvs.weekday_required',
  monthDayRequired: 'dvs.month_day_required',
  timeInvalid: 'dvs.time_invalid',
  timezoneInvalid: 'dvs.timezone_invalid',
  rangeInvalid: 'dvs.range_invalid',
  formatInvalid: 'dvs.format_invalid',
  recipientsRequired: 'dvs.recipients_required',
  recipientsTooMany: 'dvs.recipients_too_many',
  recipientInvalid: 'dvs.recipient_invalid',
  recipientNotCompany: 'dvs.recipient_not_company',
  enabledInvalid: 'dvs.enabled_invalid',
  tooManySchedules: 'dvs.too_many_schedules',
  notFound: 'dvs.not_found',
  busy: 'dvs.busy',
  attachmentTooLarge: 'dvs.attachment_too_large',
  dataviewerNotFound: 'report.not_found',
} as const;

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** A practical mail shape check (local@domain.tld, no spaces); the domain must also be a company one. */
const MAIL_RE = /^[^\s@<>(),;:"[\]\\]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** The fields of a schedule a person sets. */
export interface ScheduleSettings {
  frequency: ScheduleFrequency;
  /** ISO weekday, Monday = 1 … Sunday = 7 (weekly only). */
  weekday: number | null;
  /** Day of the month 1-31 (monthly only); past a short month's end it runs on its last day. */
  month_day: number | null;
  /** Local time of day `HH:mm`. */
  time: string;
  timezone: string;
  range_preset: ScheduleRangePreset;
  format: ScheduleFormat;
  recipients: string[];
  enabled: boolean;
}

/** Lowercased, trimmed, duplicates and empties removed, order kept. */
export function normalizeRecipients(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const mail = raw.trim().toLowerCase();
    if (mail && !out.includes(mail)) out.push(mail);
  }
  return out;
}

/** The message key of one recipient's problem, or null when it may receive the mail. */
export function recipientProblem(mail: string, domains: readonly string[]): string | null {
  const m = mail.trim().toLowerCase();
  if (m.length > SCHEDULE_LIMITS.maxMailLength || !MAIL_RE.test(m)) return SCHEDULE_ERRORS.recipientInvalid;
  if (!isCompanyMail(m, domains)) return SCHEDULE_ERRORS.recipientNotCompany;
  return null;
}

const fields = {
  frequency: z.enum(SCHEDULE_FREQUENCIES, { error: SCHEDULE_ERRORS.frequencyInvalid }),
  weekday: z.number({ error: SCHEDULE_ERRORS.weekdayRequired }).int(SCHEDULE_ERRORS.weekdayRequired).min(1, SCHEDULE_ERRORS.weekdayRequired).max(7, SCHEDULE_ERRORS.weekdayRequired).nullable(),
  month_day: z.number({ error: SCHEDULE_ERRORS.monthDayRequired }).int(SCHEDULE_ERRORS.monthDayRequired).min(1, SCHEDULE_ERRORS.monthDayRequired).max(31, SCHEDULE_ERRORS.monthDayRequired).nullable(),
  time: z.string({ error: SCHEDULE_ERRORS.timeInvalid }).regex(TIME_RE, SCHEDULE_ERRORS.timeInvalid),
  timezone: z.string({ error: SCHEDULE_ERRORS.timezoneInvalid }).refine(isValidTimeZone, SCHEDULE_ERRORS.timezoneInvalid),
  range_preset: z.enum(SCHEDULE_RANGE_PRESETS, { error: SCHEDULE_ERRORS.rangeInvalid }),
  format: z.enum(SCHEDULE_FORMATS, { error: SCHEDULE_ERRORS.formatInvalid }),
  recipients: z.array(z.string({ error: SCHEDULE_ERRORS.recipientInvalid }).max(SCHEDULE_LIMITS.maxMailLength, SCHEDULE_ERRORS.recipientInvalid), { error: SCHEDULE_ERRORS.recipientsRequired }).max(200, SCHEDULE_ERRORS.recipientsTooMany),
  enabled: z.boolean({ error: SCHEDULE_ERRORS.enabledInvalid }),
};

/** Cross-field rules of a complete schedule. */
function checkSchedule(v: Partial<ScheduleSettings>, ctx: z.RefinementCtx, domains: readonly string[]): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (v.frequency === 'weekly' && (v.weekday === null || v.weekday === undefined)) issue(['weekday'], SCHEDULE_ERRORS.weekdayRequired);
  if (v.frequency === 'monthly' && (v.month_day === null || v.month_day === undefined)) issue(['month_day'], SCHEDULE_ERRORS.monthDayRequired);
  if (v.recipients) {
    const list = normalizeRecipients(v.recipients);
    if (list.length === 0) issue(['recipients'], SCHEDULE_ERRORS.recipientsRequired);
    else if (list.length > SCHEDULE_LIMITS.maxRecipients) issue(['recipients'], SCHEDULE_ERRORS.recipientsTooMany);
    v.recipients.forEach((mail, i) => {
      if (mail.trim() === '') return;
      const problem = recipientProblem(mail, domains);
      if (problem) issue(['recipients', i], problem);
    });
  }
}

/** Settings as stored: the day fields only for the frequency that uses them, recipients normalised. */
function tidy<T extends Partial<ScheduleSettings>>(v: T): T {
  const out = { ...v };
  if (out.recipients) out.recipients = normalizeRecipients(out.recipients);
  if (out.frequency !== undefined) {
    if (out.frequency !== 'weekly') out.weekday = null;
    if (out.frequency !== 'monthly') out.month_day = null;
  }
  return out;
}

/** A complete schedule (create, and the merged result of an update). */
export function scheduleSettingsSchema(domains: readonly string[]) {
  return z
    .object({
      ...fields,
      weekday: fields.weekday.default(null),
      month_day: fields.month_day.default(null),
      range_preset: fields.range_preset.default('yesterday'),
      format: fields.format.default('csv'),
      enabled: fields.enabled.default(true),
    })
    .strict()
    .superRefine((v, ctx) => checkSchedule(v, ctx, domains))
    .transform((v) => tidy(v) as ScheduleSettings);
}

/** PATCH: any subset; the service validates the merged schedule with {@link scheduleSettingsSchema}. */
export const scheduleUpdateSchema = z
  .object({
    frequency: fields.frequency.optional(),
    weekday: fields.weekday.optional(),
    month_day: fields.month_day.optional(),
    time: fields.time.optional(),
    timezone: fields.timezone.optional(),
    range_preset: fields.range_preset.optional(),
    format: fields.format.optional(),
    recipients: fields.recipients.optional(),
    enabled: fields.enabled.optional(),
  })
  .strict();
export type ScheduleUpdate = z.output<typeof scheduleUpdateSchema>;

export const scheduleParamsSchema = z
  .object({
    id: idText,
    scheduleId: idText,
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Time arithmetic

function parseTime(time: string): { hour: number; minute: number } {
  const m = TIME_RE.exec(time);
  if (!m) throw new RangeError(`Not a time of day: ${time}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** Whether a schedule runs on a local calendar date. */
function runsOn(s: Pick<ScheduleSettings, 'frequency' | 'weekday' | 'month_day'>, date: string): boolean {
  if (s.frequency === 'daily') return true;
  if (s.frequency === 'weekly') return isoWeekday(date) === s.weekday;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return d === Math.min(s.month_day ?? 1, daysInMonth(y, m));
}

/**
 * The first run strictly after `afterMs`: the schedule's wall time on the next matching local
 * date. A time skipped by a DST jump runs at the same moment the clock jumps to (02:30 on a
 * spring-forward day runs at 03:30 local); a repeated time runs at its first occurrence, once.
 */
export function nextRunAt(s: Pick<ScheduleSettings, 'frequency' | 'weekday' | 'month_day' | 'time' | 'timezone'>, afterMs: number): number {
  const { hour, minute } = parseTime(s.time);
  const w = wallTimeOf(afterMs, s.timezone);
  let date = `${w.year}-${p2(w.month)}-${p2(w.day)}`;
  // A monthly schedule matches within 31 days; a few more cover the zone's date line moves.
  for (let i = 0; i < 40; i++, date = addDays(date, 1)) {
    if (!runsOn(s, date)) continue;
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const at = zonedTimeToEpoch({ year, month, day, hour, minute, second: 0 }, s.timezone);
    if (at > afterMs) return at;
  }
  throw new Error('no next run within 40 days');
}

/** The inclusive local dates a run at `runMs` sends (see {@link SCHEDULE_RANGE_PRESETS}). */
export function scheduleRange(preset: ScheduleRangePreset, runMs: number, timezone: string): DateRange {
  const yesterday = addDays(todayIn(new Date(runMs), timezone), -1);
  switch (preset) {
    case 'yesterday':
      return { start: yesterday, end: yesterday };
    case 'last_7_days':
      return { start: addDays(yesterday, -6), end: yesterday };
    case 'last_30_days':
      return { start: addDays(yesterday, -29), end: yesterday };
    case 'week_to_date':
      return { start: startOfUnit(yesterday, 'week'), end: yesterday };
    case 'last_week': {
      const start = addDays(startOfUnit(addDays(yesterday, 1), 'week'), -7);
      return { start, end: addDays(start, 6) };
    }
    case 'month_to_date':
      return { start: startOfUnit(yesterday, 'month'), end: yesterday };
    case 'last_month': {
      const start = addMonths(startOfUnit(addDays(yesterday, 1), 'month'), -1);
      return { start, end: addDays(addMonths(start, 1), -1) };
    }
  }
}
