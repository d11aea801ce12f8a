/**
 * Impression logs (`/process/impressions-log`, issue 24, docs/decisions/032-impression-logs.md): a
 * person asks for an extract of the impression-level log of one network (demand partner) on one
 * day, with the columns they choose and at least one filter; a background job writes it as a
 * gzip CSV kept for a while in the storage adapter. The rules (spec 5, "Impression logs") are
 * written once here and used by the form and by the API:
 * - date, network and columns are mandatory (and the date is not in the future);
 * - filters must not be empty;
 * - the network must exist (checked by the API against demand_partners).
 */
import { z } from 'zod';
import { isIsoDate } from './dates.ts';
import { COUNTRIES, DEVICES, ENVIRONMENTS, FORMATS, SIZES } from './reports.ts';

/** The ACL resource (read to see and download, write to request, retry and process). */
export const IMPRESSION_LOGS_RESOURCE = '/v1/impressions-log';

/** The columns a person can put in an extract, in file order. */
export const IMPRESSION_LOG_COLUMNS = [
  'timestamp',
  'request_id',
  'publisher_id',
  'publisher',
  'site',
  'ad_unit',
  'environment',
  'country',
  'device',
  'os',
  'format',
  'size',
  'deal_id',
  'bid_price',
  'win_price',
  'revenue',
  'currency',
] as const;
export type ImpressionLogColumn = (typeof IMPRESSION_LOG_COLUMNS)[number];
/** What the form ticks first. */
export const DEFAULT_IMPRESSION_LOG_COLUMNS: readonly ImpressionLogColumn[] = ['timestamp', 'request_id', 'publisher', 'site', 'country', 'device', 'format', 'size', 'win_price', 'currency'];

/** The currency of the warehouse's prices (bid and win prices are CPMs, revenue per impression). */
export const IMPRESSION_LOG_CURRENCY = 'USD';

/** The filter fields: a list of values (any of them), or a minimum win price (CPM), or deal / open auction. */
export const LIST_FILTER_FIELDS = ['country', 'publisher', 'device', 'format', 'size', 'environment'] as const;
export type ListFilterField = (typeof LIST_FILTER_FIELDS)[number];
export const FILTER_FIELDS = [...LIST_FILTER_FIELDS, 'min_win_price', 'deal'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export const DEAL_FILTER_VALUES = ['deal', 'open'] as const;

export const MAX_FILTER_VALUES = 200;
/** The largest id a database integer holds. */
const MAX_ID = 2_147_483_647;

/** A CPM with at most 4 decimals (what the warehouse's prices carry). */
export function isCpm(text: string): boolean {
  return /^\d{1,6}(\.\d{1,4})?$/.test(text);
}

const values = <T extends readonly [string, ...string[]]>(allowed: T) =>
  z.array(z.enum(allowed, { error: 'impressions_log.filter_value_invalid' }), { error: 'impressions_log.filter_value_invalid' }).min(1, 'impressions_log.filter_value_required').max(MAX_FILTER_VALUES, 'impressions_log.filter_value_invalid');

export const impressionLogFilterSchema = z.discriminatedUnion(
  'field',
  [
    z.strictObject({ field: z.literal('country'), values: values(COUNTRIES) }),
    z.strictObject({
      field: z.literal('publisher'),
      values: z.array(z.number({ error: 'impressions_log.filter_value_invalid' }).int('impressions_log.filter_value_invalid').positive('impressions_log.filter_value_invalid').max(MAX_ID, 'impressions_log.filter_value_invalid'), { error: 'impressions_log.filter_value_invalid' }).min(1, 'impressions_log.filter_value_required').max(MAX_FILTER_VALUES, 'impressions_log.filter_value_invalid'),
    }),
    z.strictObject({ field: z.literal('device'), values: values(DEVICES) }),
    z.strictObject({ field: z.literal('format'), values: values(FORMATS) }),
    z.strictObject({ field: z.literal('size'), values: values(SIZES) }),
    z.strictObject({ field: z.literal('environment'), values: values(ENVIRONMENTS) }),
    z.strictObject({ field: z.literal('min_win_price'), value: z.string({ error: 'impressions_log.min_price_invalid' }).trim().refine(isCpm, 'impressions_log.min_price_invalid') }),
    z.strictObject({ field: z.literal('deal'), value: z.enum(DEAL_FILTER_VALUES, { error: 'impressions_log.filter_value_invalid' }) }),
  ],
  { error: 'impressions_log.filter_field_invalid' },
);
export type ImpressionLogFilter = z.infer<typeof impressionLogFilterSchema>;

/** Today in UTC (YYYY-MM-DD): the last day one can ask for (the log of today so far). */
export function utcDay(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The request's rules, with `today` the last allowed day (the API passes its clock's). */
export function impressionLogRequestSchema(today: string = utcDay()) {
  return z.strictObject({
    date: z
      .string({ error: 'impressions_log.date_required' })
      .trim()
      .nullish()
      .refine((v) => !!v, 'impressions_log.date_required')
      .refine((v) => !v || isIsoDate(v), 'impressions_log.date_invalid')
      .refine((v) => !v || !isIsoDate(v) || v <= today, 'impressions_log.date_future')
      .transform((v) => v!),
    network_id: z
      .number({ error: 'impressions_log.network_required' })
      .int('impressions_log.network_required')
      .positive('impressions_log.network_required')
      .max(MAX_ID, 'impressions_log.network_not_found')
      .nullish()
      .refine((v) => v != null, 'impressions_log.network_required')
      .transform((v) => v!),
    columns: z
      .array(z.enum(IMPRESSION_LOG_COLUMNS, { error: 'impressions_log.column_invalid' }), { error: 'impressions_log.columns_required' })
      .nullish()
      .refine((v) => !!v && v.length > 0, 'impressions_log.columns_required')
      .transform((v) => IMPRESSION_LOG_COLUMNS.filter((c) => v!.includes(c))),
    filters: z
      .array(impressionLogFilterSchema, { error: 'impressions_log.filters_required' })
      .max(FILTER_FIELDS.length, 'impressions_log.filter_duplicate')
      .nullish()
      .refine((v) => !!v && v.length > 0, 'impressions_log.filters_required')
      .refine((v) => !v || new Set(v.map((f) => f.field)).size === v.length, 'impressions_log.filter_duplicate')
      .transform((v) => v!),
  });
}
export type ImpressionLogRequestBody = z.output<ReturnType<typeof impressionLogRequestSchema>>;

// ---------------------------------------------------------------------------------------------
// Requests and their list

/** pending (waiting for a worker), running, done (file kept until it expires), failed, expired (file removed). */
export const IMPRESSION_LOG_STATUSES = ['pending', 'running', 'done', 'failed', 'expired'] as const;
export type ImpressionLogStatus = (typeof IMPRESSION_LOG_STATUSES)[number];

/** How long a finished extract's file is kept (then the cleanup job removes it). */
export const IMPRESSION_LOG_FILE_TTL_HOURS = 72;
/** How long a download link works once made (capped by the file's own expiry). */
export const DOWNLOAD_LINK_TTL_SECONDS = 15 * 60;

export const IMPRESSION_LOG_SORTS = ['requested_at', 'date', 'network', 'status', 'rows', 'bytes'] as const;
export const IMPRESSION_LOG_DEFAULT_SORT = '-requested_at';
export const IMPRESSION_LOG_PAGE_SIZES = [10, 25, 50, 100] as const;
export const IMPRESSION_LOG_PAGE_SIZE = 25;
export const IMPRESSION_LOGS_EXPORT_NAME = 'impression_logs';

const csvList = <T extends string>(allowed: readonly T[]) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []))
    .refine((v) => v.every((s) => (allowed as readonly string[]).includes(s)), 'error.invalid_value')
    .transform((v) => v as T[]);

export const impressionLogListFilterSchema = z.object({
  search: z.string().trim().max(200, 'error.invalid_value').optional().default(''),
  status: csvList(IMPRESSION_LOG_STATUSES),
  network_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  sort: z
    .string()
    .optional()
    .default(IMPRESSION_LOG_DEFAULT_SORT)
    .refine((v) => (IMPRESSION_LOG_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'error.invalid_value'),
});
export const impressionLogListQuerySchema = impressionLogListFilterSchema.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(IMPRESSION_LOG_PAGE_SIZE),
});
export const impressionLogExportQuerySchema = impressionLogListFilterSchema.extend({ format: z.enum(['csv', 'xlsx']) });

export interface ImpressionLogRequest {
  id: number;
  date: string;
  network_id: number;
  network: string;
  columns: ImpressionLogColumn[];
  filters: ImpressionLogFilter[];
  status: ImpressionLogStatus;
  /** Rows written so far (running) or in the file (done). */
  rows_done: number;
  /** The rows the extract will have (known once the job starts). */
  rows_total: number | null;
  /** 0..100 */
  progress: number;
  bytes: number | null;
  file_name: string | null;
  error: string | null;
  attempts: number;
  requested_by: string | null;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  version: number;
}

export interface ImpressionLogListAnswer {
  items: ImpressionLogRequest[];
  total: number;
  /** Requests waiting or running (the screen polls while any is). */
  active: number;
  page: number;
  page_size: number;
}

export interface ImpressionLogLink {
  url: string;
  expires_at: string;
  file_name: string;
}

/** Progress in percent from rows done of a total (0 while unknown, 100 when there is nothing). */
export function progressOf(status: ImpressionLogStatus, done: number, total: number | null): number {
  if (status === 'done' || status === 'expired') return 100;
  if (total === null) return 0;
  if (total === 0) return status === 'running' ? 99 : 0;
  return Math.min(99, Math.floor((done / total) * 100));
}

/** The base name of an extract's file: `impressions_log_<network>_<date>` (+ `_YYYY-MM-DD_HHmmss.csv.gz`). */
export function impressionLogFileBase(network: string, date: string): string {
  const slug = network
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return `impressions_log_${slug || 'network'}_${date}`;
}

/** What a filter reads like in a list ("country: ES, FR"; "win price ≥ 1.5"). */
export function describeFilter(f: ImpressionLogFilter, label: (key: string) => string, publisherName?: (id: number) => string): string {
  const name = label(`impressions_log.filter.${f.field}`);
  if (f.field === 'min_win_price') return `${name} ≥ ${f.value}`;
  if (f.field === 'deal') return `${name}: ${label(`impressions_log.deal.${f.value}`)}`;
  if (f.field === 'publisher') return `${name}: ${f.values.map((id) => publisherName?.(id) ?? String(id)).join(', ')}`;
  return `${name}: ${f.values.join(', ')}`;
}
