/**
 * The scheduler's pure rules (`/utils/scheduler`, docs/decisions/031-scheduler.md), shared by the
 * form and the API: a job's cron expression (five fields, validated with croner, which handles
 * time zones and daylight-saving changes), its next runs in the job's IANA zone, the expression in
 * words (cronstrue, English and Spanish), and the task types with their parameter schemas.
 *
 * Daylight saving (croner's "fixed-time" rule): a job at a fixed time that falls in a spring-forward
 * gap (02:30 in Madrid on 2026-03-29) runs when the clock jumps (03:00 local); a fixed time that
 * occurs twice in the autumn (02:30 on 2026-10-25) runs once, at its first occurrence. Interval jobs
 * (a wildcard or step in the hour, "every hour") follow the clock: they skip the missing hour and run
 * in both repeated ones.
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import 'cronstrue/locales/es.js';
import { z } from 'zod';
import { BILLING_SIDES } from './billing-api.ts';
import { SCHEDULE_FORMATS, SCHEDULE_RANGE_PRESETS } from './dataviewer-schedules.ts';
import { isValidTimeZone } from './time-zones.ts';

export const CRON_MAX_LENGTH = 100;
/** How many upcoming runs the form and the detail page show. */
export const NEXT_RUNS_SHOWN = 5;
export const DEFAULT_JOB_TIMEZONE = 'Europe/Madrid';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** What started a run: its schedule, "run now", or "retry" of a failed run. */
export const RUN_TRIGGERS = ['schedule', 'manual', 'retry'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const SCHEDULER_ERRORS = {
  cronRequired: 'scheduler.cron_required',
  cronInvalid: 'scheduler.cron_invalid',
  cronNever: 'scheduler.cron_never',
  timezoneInvalid: 'scheduler.timezone_invalid',
  alreadyRunning: 'scheduler.already_running',
  notFailed: 'scheduler.run_not_failed',
  paused: 'scheduler.job_paused',
} as const;

function cronOf(expr: string, timezone?: string): Cron {
  // Five fields only (minute hour day month weekday), as crontab and pg-boss; `paused` so that
  // nothing is ever scheduled in this process: croner is used as a calculator.
  return new Cron(expr, { timezone, paused: true, mode: '5-part' });
}

/** What is wrong with a cron expression (a message key), or null when it is valid. */
export function cronProblem(expr: unknown): string | null {
  if (typeof expr !== 'string' || expr.trim() === '') return SCHEDULER_ERRORS.cronRequired;
  const text = expr.trim();
  if (text.length > CRON_MAX_LENGTH || text.split(/\s+/).length !== 5) return SCHEDULER_ERRORS.cronInvalid;
  try {
    // A valid pattern that never matches (30 February) has no next run.
    return cronOf(text, 'UTC').nextRun() === null ? SCHEDULER_ERRORS.cronNever : null;
  } catch {
    return SCHEDULER_ERRORS.cronInvalid;
  }
}

/**
 * The next `count` runs strictly after `afterMs`, as ISO instants (UTC), of a valid expression in
 * an IANA zone; empty when the expression or the zone is not valid.
 */
export function nextRuns(expr: string, timezone: string, afterMs: number, count = NEXT_RUNS_SHOWN): string[] {
  if (cronProblem(expr) !== null || !isValidTimeZone(timezone)) return [];
  return cronOf(expr.trim(), timezone)
    .nextRuns(count, new Date(afterMs))
    .map((d) => d.toISOString());
}

/** The runs after `fromMs` and before `toMs` (at most `max`), as ISO instants: a window of history. */
export function runsBetween(expr: string, timezone: string, fromMs: number, toMs: number, max = 1000): string[] {
  if (cronProblem(expr) !== null || !isValidTimeZone(timezone)) return [];
  const cron = cronOf(expr.trim(), timezone);
  const out: string[] = [];
  for (let at = cron.nextRun(new Date(fromMs)); at && at.getTime() < toMs && out.length < max; at = cron.nextRun(at)) out.push(at.toISOString());
  return out;
}

/** The next run strictly after `afterMs` (epoch ms), or null. */
export function nextRunAfter(expr: string, timezone: string, afterMs: number): number | null {
  const [first] = nextRuns(expr, timezone, afterMs, 1);
  return first ? Date.parse(first) : null;
}

/** The expression in words ("At 07:00, Monday through Friday"), in English or Spanish; null when invalid. */
export function cronInWords(expr: string, locale: string): string | null {
  if (cronProblem(expr) !== null) return null;
  try {
    return cronstrue.toString(expr.trim(), { locale: locale === 'es' ? 'es' : 'en', use24HourTimeFormat: true, verbose: false });
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Task types and their parameters

/**
 * The system's real tasks a job can run. The API's registry (apps/api/src/modules/scheduler/
 * tasks.ts) gives each a run function; `discrepancy.run` is declared here so that jobs can be
 * defined for it, and its run function plugs into that registry.
 */
export const TASK_TYPES = ['dataviewer.send', 'discrepancy.run', 'firewall.expire', 'billing.build_rows', 'ads_txt.check'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

const id = (key: string) =>
  z
    .number({ error: key })
    .int(key)
    .min(1, key)
    .max(2_147_483_647, key);

const dataviewerSendParams = z.strictObject({
  dataviewer_id: id('scheduler.params.dataviewer_required'),
  recipients: z
    .array(z.string().trim().toLowerCase().email('scheduler.params.recipient_invalid'), { error: 'scheduler.params.recipients_required' })
    .min(1, 'scheduler.params.recipients_required')
    .max(20, 'scheduler.params.recipients_too_many'),
  format: z.enum(SCHEDULE_FORMATS, { error: 'scheduler.params.format_invalid' }).default('xlsx'),
  range_preset: z.enum(SCHEDULE_RANGE_PRESETS, { error: 'scheduler.params.range_invalid' }).default('yesterday'),
});

const discrepancyRunParams = z
  .strictObject({
    /** Days before the run's local date (0 today, -1 yesterday), or a fixed `date`. */
    date_offset: z.number({ error: 'scheduler.params.date_offset_invalid' }).int('scheduler.params.date_offset_invalid').min(-31, 'scheduler.params.date_offset_invalid').max(0, 'scheduler.params.date_offset_invalid').nullable().default(-1),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'scheduler.params.date_invalid')
      .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'scheduler.params.date_invalid')
      .nullable()
      .default(null),
    /** Demand partner (network) ids; empty: every network. */
    network_ids: z.array(id('scheduler.params.network_invalid')).max(200, 'scheduler.params.network_invalid').default([]),
  })
  .refine((v) => (v.date_offset === null) !== (v.date === null), { message: 'scheduler.params.date_required', path: ['date'] });

const firewallExpireParams = z.strictObject({});

const billingBuildParams = z.strictObject({
  side: z.enum(BILLING_SIDES, { error: 'scheduler.params.side_invalid' }),
  /** The month whose rows are built, relative to the run's local date. */
  month: z.enum(['previous', 'current'], { error: 'scheduler.params.month_invalid' }).default('previous'),
});

const adsTxtParams = z.strictObject({
  /** One publisher's properties, or (null) every publisher that is not archived. */
  publisher_id: id('scheduler.params.publisher_invalid').nullable().default(null),
});

export const TASK_PARAMS = {
  'dataviewer.send': dataviewerSendParams,
  'discrepancy.run': discrepancyRunParams,
  'firewall.expire': firewallExpireParams,
  'billing.build_rows': billingBuildParams,
  'ads_txt.check': adsTxtParams,
} as const satisfies Record<TaskType, z.ZodType>;

export type TaskParams<T extends TaskType> = z.output<(typeof TASK_PARAMS)[T]>;

/** How the form shows a parameter (label `scheduler.param.<task>.<key>`; enum labels `….<value>`). */
export interface ParamField {
  key: string;
  kind: 'ref' | 'emails' | 'enum' | 'number' | 'date' | 'ids';
  /** `ref`: the resource whose autocomplete picks it. */
  ref?: string;
  options?: readonly string[];
  /** Number bounds. */
  min?: number;
  max?: number;
  /** The form may leave it empty. */
  optional?: boolean;
}

export const TASK_PARAM_FIELDS: Record<TaskType, readonly ParamField[]> = {
  'dataviewer.send': [
    { key: 'dataviewer_id', kind: 'ref', ref: 'saved_dataviewers' },
    { key: 'recipients', kind: 'emails' },
    { key: 'format', kind: 'enum', options: SCHEDULE_FORMATS },
    { key: 'range_preset', kind: 'enum', options: SCHEDULE_RANGE_PRESETS },
  ],
  'discrepancy.run': [
    { key: 'date_offset', kind: 'number', min: -31, max: 0, optional: true },
    { key: 'date', kind: 'date', optional: true },
    { key: 'network_ids', kind: 'ids', optional: true },
  ],
  'firewall.expire': [],
  'billing.build_rows': [
    { key: 'side', kind: 'enum', options: BILLING_SIDES },
    { key: 'month', kind: 'enum', options: ['previous', 'current'] },
  ],
  'ads_txt.check': [{ key: 'publisher_id', kind: 'number', min: 1, optional: true }],
};

/** A new job's parameters for a task type (the schema's defaults). */
export function defaultParams(task: TaskType): Record<string, unknown> {
  const parsed = TASK_PARAMS[task].safeParse({});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  return task === 'billing.build_rows' ? { side: 'performance', month: 'previous' } : task === 'dataviewer.send' ? { recipients: [], format: 'xlsx', range_preset: 'yesterday' } : {};
}

export const isTaskType = (v: unknown): v is TaskType => typeof v === 'string' && (TASK_TYPES as readonly string[]).includes(v);

/** The local month (`YYYY-MM`) a billing build covers, for a run at `runMs` in `timezone`. */
export function billingMonthOf(which: 'previous' | 'current', runMs: number, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).formatToParts(new Date(runMs));
  let year = Number(parts.find((p) => p.type === 'year')!.value);
  let month = Number(parts.find((p) => p.type === 'month')!.value);
  if (which === 'previous') {
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return `${year}-${String(month).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Runs (the API's answers)

export interface SchedulerRun {
  id: number;
  job_id: number;
  trigger: RunTrigger;
  status: RunStatus;
  scheduled_for: string | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  progress: number;
  attempts: number;
  error: string | null;
  retry_of: number | null;
  requested_by: { id: number | null; name: string | null };
  /** Only in the one-run answer (GET /v1/scheduler-api/runs/:id). */
  log?: string;
  result?: unknown;
}

export interface SchedulerPreview {
  valid: boolean;
  error: string | null;
  words: string | null;
  next_runs: string[];
}

/** The cron preview the form shows (the API answers the same from GET …/preview). */
export function previewOf(expr: string, timezone: string, nowMs: number, locale: string): SchedulerPreview {
  const problem = cronProblem(expr) ?? (isValidTimeZone(timezone) ? null : SCHEDULER_ERRORS.timezoneInvalid);
  if (problem) return { valid: false, error: problem, words: null, next_runs: [] };
  return { valid: true, error: null, words: cronInWords(expr, locale), next_runs: nextRuns(expr, timezone, nowMs) };
}
