/**
 * DataViewer schedules: who may see and change them, their validation, and one run (report →
 * CSV/XLSX attachment → mail → recorded result and next run).
 */
import {
  nextRunAt,
  scheduleRange,
  scheduleSettingsSchema,
  SCHEDULE_ERRORS,
  SCHEDULE_LIMITS,
  type ScheduleFormat,
  type ScheduleFrequency,
  type ScheduleRangePreset,
  type ScheduleSettings,
  type ScheduleUpdate,
} from '@backoffice/core/dataviewer-schedules';
import { exportFileName } from '@backoffice/core/export-name';
import { isLocale, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import type { SavedDefinition } from '@backoffice/core/reports';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { createMailer } from '../../lib/mailer.ts';
import { issuesToErrors } from '../../plugins/validation.ts';
import type { Caller } from '../../plugins/auth.ts';
import { claimForSend, claimNextDue, findDataviewer, finishRun, type DataviewerRef, type RunRecord, type ScheduleRow } from './repo.ts';
import { renderReportFile } from './report-file.ts';
import { canEditDataviewer, canSeeDataviewer } from '../dataviewers/access.ts';

// ---------------------------------------------------------------------------------------------
// Access (the same rules as saved DataViewers: owner and ADMIN change, shared roles open)

export const canSee = (caller: Caller, dv: DataviewerRef) => canSeeDataviewer(caller, dv);
export const canEdit = (caller: Caller, dv: DataviewerRef) => canEditDataviewer(caller, dv);

// ---------------------------------------------------------------------------------------------
// Validation

export function settingsOf(row: ScheduleRow): ScheduleSettings {
  return {
    frequency: row.frequency as ScheduleFrequency,
    weekday: row.weekday,
    month_day: row.monthDay,
    time: row.timeOfDay,
    timezone: row.timezone,
    range_preset: row.rangePreset as ScheduleRangePreset,
    format: row.format as ScheduleFormat,
    recipients: row.recipients,
    enabled: row.enabled,
  };
}

/** Field errors of zod issues; a dvs.* key set on the schema wins over the generic required/type keys. */
export function scheduleErrors(issues: Parameters<typeof issuesToErrors>[0]): Record<string, string> {
  const errors = issuesToErrors(issues);
  for (const issue of issues) {
    if (typeof issue.message === 'string' && issue.message.startsWith('dvs.')) errors[issue.path.join('.') || '_'] = issue.message;
  }
  return errors;
}

/** The first domain key (dvs.*) leads the envelope, like the reports routes. */
export function validationError(errors: Record<string, string>): AppError {
  const key = Object.values(errors).find((k) => k.startsWith('dvs.')) ?? 'error.validation';
  return new AppError(400, key, { errors });
}

/** Validates a complete schedule (create, or the merge of an update with the stored one). */
export function checkSettings(input: unknown, domains: readonly string[]): ScheduleSettings {
  const result = scheduleSettingsSchema(domains).safeParse(input);
  if (!result.success) throw validationError(scheduleErrors(result.error.issues));
  return result.data;
}

export function mergeUpdate(row: ScheduleRow, patch: ScheduleUpdate): Record<string, unknown> {
  return { ...settingsOf(row), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
}

/** Column values of settings, with the next run computed from `nowMs` (null while paused). */
export function settingsColumns(s: ScheduleSettings, nowMs: number) {
  return {
    frequency: s.frequency,
    weekday: s.weekday,
    monthDay: s.month_day,
    timeOfDay: s.time,
    timezone: s.timezone,
    rangePreset: s.range_preset,
    format: s.format,
    recipients: s.recipients,
    enabled: s.enabled,
    nextRunAt: s.enabled ? new Date(nextRunAt(s, nowMs)) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The answer

export interface ScheduleView extends ScheduleSettings {
  id: number;
  dataviewer_id: number;
  locale: string;
  next_run_at: string | null;
  last_run: { at: string; status: string; rows: number | null; error: string | null; range: { start: string; end: string } | null } | null;
  created_by: { id: number; name: string };
  created_at: string;
  updated_at: string;
  can_edit: boolean;
}

export function view(row: ScheduleRow & { createdByName: string }, editable: boolean): ScheduleView {
  return {
    id: row.id,
    dataviewer_id: row.dataviewerId,
    ...settingsOf(row),
    locale: row.locale,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    last_run: row.lastRunAt
      ? { at: row.lastRunAt.toISOString(), status: row.lastStatus ?? 'error', rows: row.lastRows, error: row.lastError, range: row.lastRange ?? null }
      : null,
    created_by: { id: row.createdById, name: row.createdByName },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    can_edit: editable,
  };
}

// ---------------------------------------------------------------------------------------------
// Running a schedule

/** A due occurrence is reported for the time it was due, unless it is this stale (server down). */
const STALE_OCCURRENCE_MS = 3600_000;

export function scheduleSummary(s: ScheduleSettings, locale: Locale): string {
  const when =
    s.frequency === 'daily'
      ? translate(locale, 'dvs.summary.daily', { time: s.time })
      : s.frequency === 'weekly'
        ? translate(locale, 'dvs.summary.weekly', { time: s.time, weekday: translate(locale, `dvs.weekday.${s.weekday}`) })
        : translate(locale, 'dvs.summary.monthly', { time: s.time, day: s.month_day ?? 1 });
  return `${when} (${s.timezone})`;
}

const CONTENT_TYPES: Record<ScheduleFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Runs the report of a claimed schedule as of `runMs` and mails it. Never throws: a failure is the
 * run's result (status error with the message), so the schedule moves on to its next occurrence.
 */
export async function sendSchedule(ctx: AppContext, row: ScheduleRow, runMs: number, log: FastifyBaseLogger): Promise<RunRecord> {
  const at = new Date();
  const settings = settingsOf(row);
  const locale: Locale = isLocale(row.locale) ? row.locale : 'en';
  const range = scheduleRange(settings.range_preset, runMs, settings.timezone);
  try {
    const dv = await findDataviewer(ctx.database.db, row.dataviewerId);
    if (!dv) throw new AppError(404, SCHEDULE_ERRORS.dataviewerNotFound);
    const def = dv.definition as SavedDefinition;
    const file = await renderReportFile(
      ctx.database,
      { range, timezone: settings.timezone, dimensions: def.dimensions, metrics: def.metrics, filters: def.filters, sort: def.sort },
      locale,
      settings.format,
      SCHEDULE_LIMITS.maxAttachmentBytes,
    );
    if (file.tooLarge) throw new AppError(422, SCHEDULE_ERRORS.attachmentTooLarge);
    const rangeText = range.start === range.end ? range.start : `${range.start} – ${range.end}`;
    const params = { name: dv.name, range: rangeText, timezone: settings.timezone, rows: file.rows };
    const footer = translate(locale, 'dvs.mail.footer', { owner: dv.ownerName, schedule: scheduleSummary(settings, locale) });
    const mailer = createMailer(ctx.config);
    const subject = translate(locale, 'dvs.mail.subject', params);
    if (!file.content) {
      await mailer.send({ to: settings.recipients, subject, text: `${translate(locale, 'dvs.mail.empty', params)}\n\n${footer}\n` });
      return { at, status: 'empty', rows: 0, error: null, range };
    }
    const filename = exportFileName('dataviewer', settings.format, new Date(runMs), settings.timezone);
    await mailer.send({
      to: settings.recipients,
      subject,
      text: `${translate(locale, 'dvs.mail.body', params)}\n\n${footer}\n`,
      attachments: [{ filename, contentType: CONTENT_TYPES[settings.format], content: file.content }],
    });
    return { at, status: 'ok', rows: file.rows, error: null, range };
  } catch (err) {
    const error = err instanceof AppError ? err.key : err instanceof Error ? err.message : String(err);
    log.error({ err, scheduleId: row.id }, 'dataviewer schedule: run failed');
    return { at, status: 'error', rows: null, error: error.slice(0, 1000), range };
  }
}

/** The next occurrence after now, from the schedule as it is stored. */
const nextFromNow = (row: ScheduleRow) => new Date(nextRunAt(settingsOf(row), Date.now()));

/** Sends every due schedule this instance can claim; returns what it did. */
export async function runDueSchedules(ctx: AppContext, instance: string, log: FastifyBaseLogger, max = 50) {
  const done: { id: number; status: string; rows: number | null }[] = [];
  for (let i = 0; i < max; i++) {
    const row = await claimNextDue(ctx.database.db, instance);
    if (!row) break;
    const dueMs = row.nextRunAt!.getTime();
    const runMs = Date.now() - dueMs > STALE_OCCURRENCE_MS ? Date.now() : dueMs;
    const run = await sendSchedule(ctx, row, runMs, log);
    await finishRun(ctx.database.db, row.id, instance, run, nextFromNow);
    done.push({ id: row.id, status: run.status, rows: run.rows });
  }
  return done;
}

/** "Send now": runs one schedule as of now without moving its next run. */
export async function sendNow(ctx: AppContext, id: number, instance: string, log: FastifyBaseLogger): Promise<RunRecord> {
  const row = await claimForSend(ctx.database.db, id, instance);
  if (!row) throw new AppError(409, SCHEDULE_ERRORS.busy);
  const run = await sendSchedule(ctx, row, Date.now(), log);
  await finishRun(ctx.database.db, id, instance, run, null);
  return run;
}
