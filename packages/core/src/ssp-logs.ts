/**
 * SSP logs (issue 24; screens `/process/ssp-logs-tool` and `/utils/ssp/logs-data/parametrization`,
 * docs/decisions/035-ssp-logs.md): sampled auction logs, one row per bid request the exchange sent
 * to a demand partner, with the OpenRTB 2.6 BidRequest and BidResponse, the partner's latency and
 * the auction's outcome; and the one sampling setting that decides what gets logged.
 *
 *   GET /v1/ssp-logs?request_id=&publisher_id=&partner_id=&outcome=&from=&to=&sort=&page=&page_size=
 *   GET /v1/ssp-logs/export?…the same…&format=csv|xlsx          (without the JSON)
 *   GET /v1/ssp-logs/lookups                                     publishers and partners for the filters
 *   GET /v1/ssp-logs/status                                      the sampling status the tools screen shows
 *   GET /v1/ssp-logs/{id}                                        one log with its request and response
 *   GET /v1/ssp-logs/parametrization                             the setting, with its version
 *   PUT /v1/ssp-logs/parametrization                             change it (version; 409 when stale)
 *   GET /v1/ssp-logs/parametrization/history                     its changes (audit log)
 * ACL: `/v1/ssp-logs` read for the logs; `/v1/ssp-logs/parametrization` read to see the setting and
 * write to change it.
 */
import { z } from 'zod';
import { idText } from './ids.ts';

export const SSP_LOGS_RESOURCE = '/v1/ssp-logs';
export const SSP_LOGS_PARAMETRIZATION_RESOURCE = '/v1/ssp-logs/parametrization';

/** How an auction ended for the partner the row logs (labels `ssp_logs.outcome.*`). */
export const SSP_LOG_OUTCOMES = ['won', 'lost', 'no_bid', 'below_floor', 'timeout', 'error'] as const;
export type SspLogOutcome = (typeof SSP_LOG_OUTCOMES)[number];

export const SSP_LOG_SORTS = ['time', 'latency'] as const;
export const SSP_LOG_DEFAULT_SORT = '-time';
export const SSP_LOG_PAGE_SIZES = [25, 50, 100] as const;
export const SSP_LOG_PAGE_SIZE = 25;
/** Export file base name: `ssp_logs_YYYY-MM-DD_HHmmss.csv`. */
export const SSP_LOGS_EXPORT_NAME = 'ssp_logs';
/** The most rows one export writes. */
export const SSP_LOGS_EXPORT_MAX = 50_000;

/** Sampled logs are pruned after this many days (the job ssp-logs-prune). */
export const SSP_LOGS_RETENTION_DAYS = 7;

// ---------------------------------------------------------------------------------------------
// The sampling setting

/** The sample rate slider (spec 9: 0-100 with marks at 20, 40, 60, 80). */
export const SAMPLE_RATE_MIN = 0;
export const SAMPLE_RATE_MAX = 100;
export const SAMPLE_RATE_MARKS = [20, 40, 60, 80] as const;
/** A sampling run lasts from 15 minutes to 24 hours, or until a date-time at most 7 days ahead. */
export const DURATION_MIN_MINUTES = 15;
export const DURATION_MAX_MINUTES = 1440;
export const DURATION_PRESETS = [15, 30, 60, 120, 360, 720, 1440] as const;
export const UNTIL_MAX_DAYS = 7;
/** At most this many partners named in a scope. */
export const MAX_SCOPE_PARTNERS = 100;
export const PARTNER_SCOPES = ['all', 'partners'] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];
export const DURATION_MODES = ['minutes', 'until'] as const;
export type DurationMode = (typeof DURATION_MODES)[number];

/**
 * What the simulated ad server offers each in-scope partner per minute: the sampler logs each of
 * these bid requests with the sample rate's probability (docs/decisions/035-ssp-logs.md).
 */
export const SAMPLER_REQUESTS_PER_PARTNER_MINUTE = 40;
/** A sampler run that fell behind catches up at most this many minutes (the rest is skipped, as a real log shipper drops). */
export const SAMPLER_MAX_CATCH_UP_MINUTES = 10;

const MINUTE = 60_000;

/** A date-time with its zone (`2026-01-31T10:00:00Z`, `…+01:00`), as the API takes instants. */
export function isInstant(text: unknown): text is string {
  return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && Number.isFinite(Date.parse(text));
}

export const parametrizationFieldsSchema = z.strictObject({
  active: z.boolean({ error: 'error.invalid_value' }),
  sample_rate_pct: z
    .number({ error: 'ssp_logs.param.rate_range' })
    .min(SAMPLE_RATE_MIN, 'ssp_logs.param.rate_range')
    .max(SAMPLE_RATE_MAX, 'ssp_logs.param.rate_range')
    .refine((n) => Number.isInteger(n), 'ssp_logs.param.rate_range'),
  duration_mode: z.enum(DURATION_MODES, { error: 'ssp_logs.param.duration_mode' }),
  /** For `minutes`: how long from the moment sampling starts. */
  duration_minutes: z
    .number({ error: 'ssp_logs.param.duration_range' })
    .min(DURATION_MIN_MINUTES, 'ssp_logs.param.duration_range')
    .max(DURATION_MAX_MINUTES, 'ssp_logs.param.duration_range')
    .refine((n) => Number.isInteger(n), 'ssp_logs.param.duration_range')
    .nullable()
    .default(null),
  /** For `until`: the instant sampling stops. */
  until: z
    .string({ error: 'ssp_logs.param.until_invalid' })
    .refine((v) => isInstant(v), 'ssp_logs.param.until_invalid')
    .nullable()
    .default(null),
  partner_scope: z.enum(PARTNER_SCOPES, { error: 'ssp_logs.param.scope_required' }),
  partner_ids: z.array(z.number({ error: 'ssp_logs.param.partner_unknown' }).int('ssp_logs.param.partner_unknown').min(1, 'ssp_logs.param.partner_unknown').max(2_147_483_647, 'ssp_logs.param.partner_unknown'), { error: 'ssp_logs.param.partner_unknown' })
    .max(MAX_SCOPE_PARTNERS, 'ssp_logs.param.too_many_partners')
    .default([]),
});
export type ParametrizationFields = z.output<typeof parametrizationFieldsSchema>;
export type ParametrizationInput = z.input<typeof parametrizationFieldsSchema>;

type ParamShape = Partial<Record<keyof ParametrizationFields, unknown>>;
const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

/** The cross-field rules: a duration of the chosen kind, partners when the scope names them, no active sampling at 0 %. */
function withParamRules<T extends z.ZodType<ParamShape>>(schema: T) {
  return schema
    .refine((v) => !(v.duration_mode === 'minutes' && (v.duration_minutes === null || v.duration_minutes === undefined)), { path: ['duration_minutes'], message: 'ssp_logs.param.duration_range', when: isObject })
    .refine((v) => !(v.duration_mode === 'until' && (v.until === null || v.until === undefined)), { path: ['until'], message: 'ssp_logs.param.until_invalid', when: isObject })
    .refine((v) => !(v.partner_scope === 'partners' && (!Array.isArray(v.partner_ids) || v.partner_ids.length === 0)), { path: ['partner_ids'], message: 'ssp_logs.param.partners_required', when: isObject })
    .refine((v) => !(v.active === true && v.sample_rate_pct === 0), { path: ['sample_rate_pct'], message: 'ssp_logs.param.rate_zero_active', when: isObject });
}

/** What the form checks. */
export const parametrizationInputSchema = withParamRules(parametrizationFieldsSchema);
/** What PUT /v1/ssp-logs/parametrization takes: the fields and the version the editor read. */
export const parametrizationBodySchema = withParamRules(
  parametrizationFieldsSchema.extend({
    version: z.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(2_147_483_647, 'error.invalid_value'),
  }),
);
export type ParametrizationBody = z.output<typeof parametrizationBodySchema>;

/**
 * The rules that need the clock (both sides check them with their own `now`): an `until` in the
 * future and at most {@link UNTIL_MAX_DAYS} days ahead. Field errors by field name.
 */
export function parametrizationClockErrors(v: Pick<ParametrizationFields, 'duration_mode' | 'until'>, now: number): Record<string, string> {
  if (v.duration_mode !== 'until' || !v.until || !isInstant(v.until)) return {};
  const at = Date.parse(v.until);
  if (at <= now + MINUTE) return { until: 'ssp_logs.param.until_past' };
  if (at > now + UNTIL_MAX_DAYS * 86_400_000) return { until: 'ssp_logs.param.until_too_far' };
  return {};
}

/** When a sampling run started at `startedAt` with these fields ends (ISO). */
export function samplingEndsAt(v: Pick<ParametrizationFields, 'duration_mode' | 'duration_minutes' | 'until'>, startedAt: number): string {
  if (v.duration_mode === 'until' && v.until) return new Date(Date.parse(v.until)).toISOString();
  return new Date(startedAt + (v.duration_minutes ?? DURATION_MIN_MINUTES) * MINUTE).toISOString();
}

/** The setting as the API answers it. */
export interface SamplingSetting extends ParametrizationFields {
  version: number;
  /** When the current (or last) run started and ends. */
  started_at: string | null;
  ends_at: string | null;
  /** Sampling now: active and not past its end. */
  sampling: boolean;
  /** Rows the current (or last) run logged. */
  sampled_rows: number;
  /** The last minute the sampler logged (ISO, the minute's start). */
  last_sampled_minute: string | null;
  /** The partners of the scope with their names. */
  partners: { id: number; name: string }[];
  updated_at: string | null;
  updated_by: { id: number | null; name: string | null };
}

/** What the tools screen shows about sampling (readable with `/v1/ssp-logs` read). */
export interface SamplingStatus {
  sampling: boolean;
  sample_rate_pct: number;
  partner_scope: PartnerScope;
  partner_count: number;
  started_at: string | null;
  ends_at: string | null;
  sampled_rows: number;
  retention_days: number;
  /** Rows kept now, and the oldest and newest. */
  rows: number;
  oldest: string | null;
  newest: string | null;
}

// ---------------------------------------------------------------------------------------------
// The list

const page = z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1);
const pageSize = z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100, 'error.invalid_value');
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), idText.optional());
const instant = z.preprocess((v) => (v === '' ? undefined : v), z.string().refine((v) => isInstant(v), 'ssp_logs.window_invalid').optional());

const listFields = z.strictObject({
  /** Exact OpenRTB BidRequest.id. */
  request_id: z.string().trim().max(100, 'error.too_long').default(''),
  publisher_id: optionalId,
  partner_id: optionalId,
  outcome: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SSP_LOG_OUTCOMES, { error: 'error.invalid_value' }).optional()),
  /** The time window: from (inclusive) to (exclusive), instants with a zone. */
  from: instant,
  to: instant,
  sort: z
    .string()
    .max(40)
    .default(SSP_LOG_DEFAULT_SORT)
    .refine((v) => (SSP_LOG_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
});
const windowRule = <T extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(s: T) =>
  s.refine((v) => !(v.from && v.to && Date.parse(v.from) >= Date.parse(v.to)), { path: ['to'], message: 'ssp_logs.window_order' });

export const sspLogListQuerySchema = windowRule(listFields.extend({ page, page_size: pageSize.default(SSP_LOG_PAGE_SIZE) }));
export type SspLogListQuery = z.output<typeof sspLogListQuerySchema>;
export const sspLogExportQuerySchema = windowRule(listFields.extend({ format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv') }));
export type SspLogExportQuery = z.output<typeof sspLogExportQuerySchema>;

export function parseSspLogSort(sort: string): { field: (typeof SSP_LOG_SORTS)[number]; desc: boolean } {
  const field = sort.replace(/^-/, '');
  return { field: (SSP_LOG_SORTS as readonly string[]).includes(field) ? (field as 'time' | 'latency') : 'time', desc: sort.startsWith('-') };
}

/** A log as the list answers it (no JSON). */
export interface SspLogRow {
  id: number;
  logged_at: string;
  request_id: string;
  imp_id: string;
  publisher: { id: number; name: string };
  /** The site's domain or the app's bundle. */
  inventory: string;
  environment: 'site' | 'app';
  media_type: 'banner' | 'video' | 'native';
  partner: { id: number; name: string };
  endpoint: string;
  region: string;
  deal_id: string | null;
  latency_ms: number;
  outcome: SspLogOutcome;
  /** CPM as decimal text (4 places) and its currency; null without a bid. */
  bid_price: string | null;
  bid_currency: string | null;
  clearing_price: string | null;
  floor: string | null;
  /** demo | sampler */
  source: string;
}

/** One log with the OpenRTB pair. */
export interface SspLogDetail extends SspLogRow {
  bid_request: Record<string, unknown>;
  /** Null when the partner did not answer with a bid (no bid, timeout, error). */
  bid_response: Record<string, unknown> | null;
}

export interface SspLogsAnswer {
  items: SspLogRow[];
  total: number;
  page: number;
  page_size: number;
}

export interface SspLogLookups {
  publishers: { id: number; name: string }[];
  partners: { id: number; name: string; status: string }[];
}
