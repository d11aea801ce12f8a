/**
 * Scheduled jobs (`/utils/scheduler`, docs/decisions/031-scheduler.md) on the resource layer: a
 * name, a five-field cron expression in an IANA time zone, a task type with its parameters, the
 * owner (who created it) and whether it is enabled. The server sets the next run (from the
 * expression, null while paused) and the last run and its status (from the runs). Reads need
 * 'read' on '/v1/scheduler-api', changes 'write'; the API also requires the `scheduler` protected
 * area (the same action), so the ACL bypass marker opens neither.
 */
import { z } from 'zod';
import { cronProblem, DEFAULT_JOB_TIMEZONE, isTaskType, RUN_STATUSES, SCHEDULER_ERRORS, TASK_PARAMS, TASK_TYPES } from '../scheduler.ts';
import { isValidTimeZone } from '../time-zones.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';

export const SCHEDULER_ACL = '/v1/scheduler-api';
/** The protected area the API checks besides SCHEDULER_ACL (spec section 6). */
export const SCHEDULER_AREA = 'scheduler';

export const scheduledJobFieldsSchema = z.strictObject({
  name: z.string({ error: 'scheduler.name_required' }).trim().min(1, 'scheduler.name_required').max(120, 'error.too_long'),
  cron: z
    .string({ error: SCHEDULER_ERRORS.cronRequired })
    .trim()
    .superRefine((v, ctx) => {
      const problem = cronProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    // One space between fields, so equal schedules read the same.
    .transform((v) => v.split(/\s+/).join(' ')),
  timezone: z.string({ error: SCHEDULER_ERRORS.timezoneInvalid }).trim().refine(isValidTimeZone, SCHEDULER_ERRORS.timezoneInvalid).default(DEFAULT_JOB_TIMEZONE),
  task_type: z.enum(TASK_TYPES, { error: 'scheduler.task_type_required' }),
  params: z.record(z.string(), z.unknown(), { error: 'scheduler.params.invalid' }).default({}),
  enabled: z.boolean({ error: 'error.invalid_value' }).default(true),
});

/** The fields with the task type's own parameter rules (errors at `params.<key>`), parameters normalised. */
export const scheduledJobInput = scheduledJobFieldsSchema.transform((v, ctx) => {
  if (!isTaskType(v.task_type)) return z.NEVER;
  const parsed = TASK_PARAMS[v.task_type].safeParse(v.params);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message.startsWith('scheduler.') ? issue.message : 'scheduler.params.invalid', path: ['params', ...issue.path] as (string | number)[] });
    }
    return z.NEVER;
  }
  return { ...v, params: parsed.data as Record<string, unknown> };
});

export type ScheduledJobInput = z.input<typeof scheduledJobFieldsSchema>;

export const scheduledJobs = defineResource({
  name: 'scheduled_jobs',
  entity: 'scheduled_job',
  path: '/v1/scheduler-api/jobs',
  acl: SCHEDULER_ACL,
  schema: scheduledJobFieldsSchema,
  input: scheduledJobInput,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'scheduler.field.name', type: 'text', list: true, sort: true, filter: 'contains' },
    task_type: { label: 'scheduler.field.task_type', type: 'enum', options: TASK_TYPES, list: true, sort: true, filter: 'in' },
    cron: { label: 'scheduler.field.cron', type: 'text', list: true },
    timezone: { label: 'scheduler.field.timezone', type: 'text', list: true, filter: 'contains' },
    params: { label: 'scheduler.field.params', type: 'json' },
    enabled: { label: 'scheduler.field.enabled', type: 'boolean', list: true, filter: 'eq' },
    owner_id: { label: 'scheduler.field.owner', type: 'ref', ref: 'users', list: true, readOnly: true },
    last_run_at: { label: 'scheduler.field.last_run_at', type: 'datetime', list: true, sort: true, filter: 'range', readOnly: true },
    last_status: { label: 'scheduler.field.last_status', type: 'enum', options: RUN_STATUSES, list: true, sort: true, filter: 'in', readOnly: true },
    next_run_at: { label: 'scheduler.field.next_run_at', type: 'datetime', list: true, sort: true, filter: 'range', readOnly: true },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'scheduled_jobs',
});
