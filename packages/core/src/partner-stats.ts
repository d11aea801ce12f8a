/**
 * Partner-reported daily figures (issue 24; screens `/utils/ssp/stats-manual` and `/utils/amazon_csv`,
 * docs/decisions/034-partner-reported-figures.md): what a demand partner without an API (reporting
 * `manual`) says it bought per day, entered by hand, uploaded as CSV/XLSX, or imported from an Amazon
 * Publisher Services earnings CSV. One figure per partner and day; billing bills them instead of the
 * warehouse's revenue for those days (marked `manual`).
 *
 *   GET    /v1/stats-manual?partner=&from=&to=&source=&sort=&page=&page_size=   the figures, paged, with totals
 *   GET    /v1/stats-manual/export?…the same…&format=csv|xlsx
 *   GET    /v1/stats-manual/partners                                              the partners that report by hand
 *   POST   /v1/stats-manual                                                       enter days (409 lists the days it would replace unless replace)
 *   GET    /v1/amazon/mappings, PUT /v1/amazon/mappings, DELETE /v1/amazon/mappings/{id}
 *   POST   /v1/amazon/preview                                                     a file read with a mapping: rows, errors, days, overlap
 *   POST   /v1/amazon/imports                                                     import it (idempotent by file hash; 409 before replacing days)
 *   GET    /v1/amazon/imports, POST /v1/amazon/imports/{id}/undo
 *   GET    /v1/amazon/example.csv                                                 a sample APS earnings report
 * ACL `/v1/stats-manual` and `/v1/amazon`: read to see, write to change.
 */
import { z } from 'zod';
import { fromMicros, toMicros } from './billing.ts';
import { parseDateTime } from './date-time.ts';
import { isIsoDate } from './dates.ts';
import { detectDelimiter, dropRowsWithEmptyValues, type CsvDelimiter } from './files.ts';
import { idText } from './ids.ts';

/** Where a figure came from (labels `stats.source.*`). */
export const STAT_SOURCES = ['manual', 'upload', 'amazon_csv'] as const;
export type StatSource = (typeof STAT_SOURCES)[number];
/** How a demand partner's figures reach us: its API (the warehouse) or someone entering them. */
export const REPORTING_MODES = ['api', 'manual'] as const;
export type ReportingMode = (typeof REPORTING_MODES)[number];
/** The currencies a figure may be in: the SSP warehouse's and billing's (USD). */
export const STAT_CURRENCIES = ['USD'] as const;
export const STAT_CURRENCY = 'USD';
export const MAX_IMPRESSIONS = 1_000_000_000_000;
/** The largest revenue of one partner's day (USD). */
export const MAX_DAY_REVENUE = 100_000_000;
/** Days one request may enter; rows one Amazon file may have. */
export const MAX_ENTRIES = 1000;
export const MAX_FILE_ROWS = 20_000;
export const MAX_FILE_CHARS = 4_000_000;
export const EARLIEST_DAY = '2000-01-01';

export const STATS_SORTS = ['day', 'partner', 'impressions', 'revenue', 'source', 'updated_at'] as const;
export const STATS_DEFAULT_SORT = '-day';
export const STATS_PAGE_SIZES = [10, 25, 50, 100] as const;
export const STATS_PAGE_SIZE = 25;
/** Export base names: `manual_stats_YYYY-MM-DD_HHmmss.csv`. */
export const STATS_EXPORT_NAME = 'manual_stats';
export const AMAZON_IMPORTS_EXPORT_NAME = 'amazon_imports';

// ---------------------------------------------------------------------------------------------
// Cell rules, shared by the forms, the upload preview and the API

export type CellError =
  | 'stats.date_invalid'
  | 'stats.date_future'
  | 'stats.number_invalid'
  | 'stats.negative'
  | 'stats.impressions_whole'
  | 'stats.too_large'
  | 'stats.currency_invalid'
  | 'stats.required';

export type CellResult<T> = { ok: true; value: T } | { ok: false; error: CellError };

/**
 * A day: `YYYY-MM-DD`, or one of the spec's date-times (`YYYY-MM-DD HH:mm`, with a `T`, with or
 * without seconds) whose day is taken. Not in the future (`today`, UTC) and not before 2000.
 */
export function parseStatDay(text: unknown, today: string): CellResult<string> {
  if (text === null || text === undefined || String(text).trim() === '') return { ok: false, error: 'stats.required' };
  const raw = String(text).trim();
  let day: string | null = null;
  if (isIsoDate(raw)) day = raw;
  else {
    const parts = parseDateTime(raw);
    if (parts) day = (raw as string).slice(0, 10);
  }
  if (!day || day < EARLIEST_DAY) return { ok: false, error: 'stats.date_invalid' };
  if (day > today) return { ok: false, error: 'stats.date_future' };
  return { ok: true, value: day };
}

/**
 * A number as a file or a person writes it: optional `$`, spaces, thousands separators; a decimal
 * comma when there is no dot and the comma is followed by 1-2 or 4+ digits or the file is
 * semicolon-separated (`12,5` on a `;` file). Answers the canonical decimal text.
 */
export function normaliseNumber(text: unknown, decimalComma = false): CellResult<string> {
  if (text === null || text === undefined) return { ok: false, error: 'stats.required' };
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) return { ok: false, error: 'stats.number_invalid' };
    return normaliseNumber(String(text), false);
  }
  let s = String(text).trim().replace(/^\$|^US\$|\s?(USD|\$)$/i, '').replace(/[\s\u00a0]/g, '');
  if (s === '') return { ok: false, error: 'stats.required' };
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-')) {
    negative = true;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  if (s.includes('.') && s.includes(',')) {
    // Both: the last one is the decimal mark.
    s = s.lastIndexOf('.') > s.lastIndexOf(',') ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (s.includes(',')) {
    const thousands = /^\d{1,3}(,\d{3})+$/.test(s);
    s = decimalComma || !thousands ? s.replace(',', '.') : s.replace(/,/g, '');
  }
  if (!/^\d+(\.\d+)?$/.test(s)) return { ok: false, error: 'stats.number_invalid' };
  s = s.replace(/^0+(?=\d)/, '');
  if (negative && /[1-9]/.test(s)) return { ok: false, error: 'stats.negative' };
  return { ok: true, value: s };
}

export function parseImpressions(text: unknown, decimalComma = false): CellResult<number> {
  const n = normaliseNumber(text, decimalComma);
  if (!n.ok) return n;
  if (!/^\d+$/.test(n.value)) return { ok: false, error: 'stats.impressions_whole' };
  const v = Number(n.value);
  if (v > MAX_IMPRESSIONS) return { ok: false, error: 'stats.too_large' };
  return { ok: true, value: v };
}

/** Revenue as decimal text with 6 places at most (rounded half away from zero beyond). */
export function parseRevenue(text: unknown, decimalComma = false): CellResult<string> {
  const n = normaliseNumber(text, decimalComma);
  if (!n.ok) return n;
  const [int, frac = ''] = n.value.split('.');
  if (int!.length > 10) return { ok: false, error: 'stats.too_large' };
  // Round to micro-units: one more digit decides.
  const digits = frac.padEnd(7, '0');
  let micros = BigInt(int!) * 1_000_000n + BigInt(digits.slice(0, 6));
  if (Number(digits[6]) >= 5) micros += 1n;
  if (micros > BigInt(MAX_DAY_REVENUE) * 1_000_000n) return { ok: false, error: 'stats.too_large' };
  return { ok: true, value: fromMicros(micros, 6) };
}

export function parseCurrency(text: unknown): CellResult<string> {
  const s = text === null || text === undefined ? '' : String(text).trim().toUpperCase();
  if (s === '') return { ok: true, value: STAT_CURRENCY };
  if (s === '$' || s === 'US$') return { ok: true, value: 'USD' };
  return (STAT_CURRENCIES as readonly string[]).includes(s) ? { ok: true, value: s } : { ok: false, error: 'stats.currency_invalid' };
}

/** Revenue text for display and for comparing two figures: 2 to 6 decimals, trailing zeros cut. */
export function revenueText(value: string): string {
  return fromMicros(toMicros(value), 6).replace(/(\.\d{2}\d*?)0+$/, '$1');
}

// ---------------------------------------------------------------------------------------------
// Entering days (the form and the manual upload)

const dayText = z.string({ error: 'stats.required' }).trim().refine(isIsoDate, 'stats.date_invalid');
const revenueSchema = z
  .string({ error: 'stats.required' })
  .trim()
  .min(1, 'stats.required')
  .refine((v) => /^\d+(\.\d{1,6})?$/.test(v), 'stats.number_invalid')
  .refine((v) => !/^\d+(\.\d{1,6})?$/.test(v) || toMicros(v) <= BigInt(MAX_DAY_REVENUE) * 1_000_000n, 'stats.too_large');

export const statEntrySchema = z.strictObject({
  day: dayText,
  demand_partner_id: z.number({ error: 'stats.partner_required' }).int().min(1, 'stats.partner_required').max(2_147_483_647),
  impressions: z
    .number({ error: 'stats.number_invalid' })
    .min(0, 'stats.negative')
    .refine(Number.isInteger, 'stats.impressions_whole')
    .refine((v) => v <= MAX_IMPRESSIONS, 'stats.too_large'),
  revenue: revenueSchema,
  currency: z.enum(STAT_CURRENCIES, { error: 'stats.currency_invalid' }).default('USD'),
});
export type StatEntry = z.infer<typeof statEntrySchema>;

export const enterStatsBodySchema = z.strictObject({
  entries: z.array(statEntrySchema).min(1, 'stats.entries_required').max(MAX_ENTRIES, 'stats.too_many_rows'),
  /** manual (the form) or upload (a CSV/XLSX read in the browser). */
  source: z.enum(['manual', 'upload'], { error: 'error.invalid_value' }).default('manual'),
  /** Replace the days that already have other figures (after the person confirmed). */
  replace: z.boolean({ error: 'error.invalid_value' }).default(false),
});
export type EnterStatsBody = z.infer<typeof enterStatsBodySchema>;

/** The days of a request that repeat (same partner and day twice), as indexes of the later ones. */
export function duplicateEntries(entries: readonly { day: string; demand_partner_id: number }[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  entries.forEach((e, i) => {
    const k = `${e.demand_partner_id}|${e.day}`;
    if (seen.has(k)) out.push(i);
    seen.add(k);
  });
  return out;
}

/** Two figures of a day are the same when impressions, revenue (to the micro-unit) and currency are. */
export function sameFigures(
  a: { impressions: number | string; revenue: string; currency: string },
  b: { impressions: number | string; revenue: string; currency: string },
): boolean {
  return Number(a.impressions) === Number(b.impressions) && toMicros(a.revenue) === toMicros(b.revenue) && a.currency === b.currency;
}

// ---------------------------------------------------------------------------------------------
// Lists

const csvIds = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return [];
    const ids = v.split(',').map((x) => x.trim()).filter(Boolean);
    if (ids.some((x) => !/^\d{1,9}$/.test(x))) {
      ctx.addIssue({ code: 'custom', message: 'error.invalid_value' });
      return z.NEVER;
    }
    return ids.map(Number);
  });
const optionalDay = z.string().trim().optional().refine((v) => !v || isIsoDate(v), 'stats.date_invalid');
const sortSchema = z
  .string()
  .trim()
  .optional()
  .default(STATS_DEFAULT_SORT)
  .refine((v) => (STATS_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'error.invalid_value');

export const statsListQuerySchema = z.object({
  /** Part of the partner's name. */
  search: z.string().trim().max(200, 'error.too_long').optional().default(''),
  partner: csvIds,
  from: optionalDay,
  to: optionalDay,
  source: z.enum(STAT_SOURCES, { error: 'error.invalid_value' }).optional(),
  sort: sortSchema,
  page: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100_000).default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100).default(STATS_PAGE_SIZE),
});
export type StatsListQuery = z.infer<typeof statsListQuerySchema>;
export const statsExportQuerySchema = statsListQuerySchema.omit({ page: true, page_size: true }).extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});

export interface PartnerStat {
  id: number;
  day: string;
  demand_partner_id: number;
  partner: string;
  impressions: number;
  revenue: string;
  currency: string;
  source: StatSource;
  import_id: number | null;
  updated_by: string | null;
  updated_at: string;
  version: number;
}
export interface StatsAnswer {
  items: PartnerStat[];
  total: number;
  page: number;
  page_size: number;
  totals: { impressions: number; revenue: string; currency: string; days: number };
}

export interface ManualPartner {
  id: number;
  name: string;
  type: string;
  reporting: ReportingMode;
  last_day: string | null;
}

/** A day a request would replace: what is there now and what would come. */
export interface ReplacedDay {
  day: string;
  demand_partner_id: number;
  partner: string;
  current: { impressions: number; revenue: string; currency: string; source: StatSource };
  next: { impressions: number; revenue: string; currency: string };
}

export interface EnterStatsResult {
  inserted: number;
  replaced: number;
  unchanged: number;
}

// ---------------------------------------------------------------------------------------------
// Amazon Publisher Services earnings CSV

/** Our fields a file's columns map to; the optional ones may be left unmapped. */
export const AMAZON_FIELDS = ['date', 'impressions', 'revenue', 'currency', 'ad_unit'] as const;
export type AmazonField = (typeof AMAZON_FIELDS)[number];
export const AMAZON_REQUIRED_FIELDS = ['date', 'impressions', 'revenue'] as const;

/** The columns of an APS earnings report (`Earnings (USD)` in USD); the sample file and the guess use them. */
export const APS_COLUMNS = ['Date', 'Slot Name', 'Slot UUID', 'Ad Size', 'Impressions', 'Clicks', 'Earnings (USD)', 'eCPM (USD)'] as const;

export const amazonMappingColumnsSchema = z
  .strictObject({
    date: z.string().trim().min(1, 'amazon.map.required').max(200),
    impressions: z.string().trim().min(1, 'amazon.map.required').max(200),
    revenue: z.string().trim().min(1, 'amazon.map.required').max(200),
    currency: z.string().trim().max(200).nullable().default(null),
    ad_unit: z.string().trim().max(200).nullable().default(null),
  })
  .superRefine((v, ctx) => {
    const used = new Map<string, string>();
    for (const f of AMAZON_FIELDS) {
      const col = v[f];
      if (!col) continue;
      if (used.has(col)) ctx.addIssue({ code: 'custom', path: [f], message: 'amazon.map.twice' });
      used.set(col, f);
    }
  });
export type AmazonMappingColumns = z.infer<typeof amazonMappingColumnsSchema>;

export const amazonMappingBodySchema = z.strictObject({
  name: z.string({ error: 'amazon.mapping_name_required' }).trim().min(1, 'amazon.mapping_name_required').max(80, 'error.too_long'),
  columns: amazonMappingColumnsSchema,
  /** The version shown when overwriting a mapping of that name (absent: a new name). */
  version: z.number().int().min(1).optional(),
});
export type AmazonMappingBody = z.infer<typeof amazonMappingBodySchema>;

export interface AmazonMapping {
  id: number;
  name: string;
  columns: AmazonMappingColumns;
  version: number;
  updated_by: string | null;
  updated_at: string;
}

const fileFields = {
  file_name: z.string({ error: 'upload.csv.invalid' }).trim().min(1, 'upload.csv.invalid').max(255),
  content: z.string({ error: 'amazon.file_empty' }).max(MAX_FILE_CHARS, 'amazon.file_too_large'),
  columns: amazonMappingColumnsSchema,
  demand_partner_id: z.number({ error: 'stats.partner_required' }).int().min(1, 'stats.partner_required').max(2_147_483_647),
};
export const amazonPreviewBodySchema = z.strictObject(fileFields);
export const amazonImportBodySchema = z.strictObject({
  ...fileFields,
  mapping_name: z.string().trim().max(80).nullable().default(null),
  replace: z.boolean({ error: 'error.invalid_value' }).default(false),
});
export type AmazonPreviewBody = z.infer<typeof amazonPreviewBodySchema>;
export type AmazonImportBody = z.infer<typeof amazonImportBodySchema>;

export interface AmazonRow {
  /** The line in the file (1 is the header). */
  line: number;
  raw: Record<string, string>;
  day: string | null;
  impressions: number | null;
  revenue: string | null;
  currency: string | null;
  ad_unit: string | null;
  errors: Partial<Record<AmazonField, CellError>>;
}
export interface AmazonDay {
  day: string;
  impressions: number;
  revenue: string;
  currency: string;
  rows: number;
}

export interface ReadAmazonFile {
  delimiter: CsvDelimiter;
  headers: string[];
  rows: AmazonRow[];
  /** Rows left out because a value was empty (spec 5). */
  dropped: number;
  /** Rows with an error. */
  invalid: number;
  /** The valid rows summed per day. */
  days: AmazonDay[];
}

export interface AmazonPreview extends ReadAmazonFile {
  file_hash: string;
  /** The same file was imported for this partner already (importing changes nothing). */
  already_imported: { id: number; created_at: string; created_by: string | null } | null;
  /** Days that have other figures now and that the import would replace. */
  replaces: ReplacedDay[];
  unchanged: number;
  /** Only the first rows travel back; `rows_total` counts them all. */
  rows_total: number;
}

export interface AmazonImport {
  id: number;
  demand_partner_id: number;
  partner: string;
  file_name: string;
  file_hash: string;
  mapping_name: string | null;
  rows: number;
  days: number;
  first_day: string;
  last_day: string;
  inserted: number;
  replaced: number;
  state: 'imported' | 'undone';
  created_by: string | null;
  created_at: string;
  undone_by: string | null;
  undone_at: string | null;
}
export interface AmazonImportResult {
  import: AmazonImport;
  /** The same file was imported already: nothing changed. */
  already: boolean;
}
export interface AmazonImportsAnswer {
  items: AmazonImport[];
  total: number;
  page: number;
  page_size: number;
}
export const amazonImportsQuerySchema = z.object({
  page: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100_000).default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100).default(10),
});
export const importIdParamsSchema = z.object({ id: idText });

/** Header names compared loosely: case, spaces, punctuation. */
const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A first mapping for a file's headers (APS names, then ours), for a person to check. */
export function guessAmazonColumns(headers: readonly string[]): Partial<Record<AmazonField, string>> {
  const find = (...names: string[]) => headers.find((h) => names.some((n) => loose(h) === loose(n))) ?? headers.find((h) => names.some((n) => loose(h).startsWith(loose(n))));
  const out: Partial<Record<AmazonField, string>> = {};
  const date = find('Date', 'Day', 'Fecha');
  const imps = find('Impressions', 'Paid Impressions', 'Impresiones');
  const rev = find('Earnings (USD)', 'Earnings', 'Revenue', 'Ingresos');
  const cur = find('Currency', 'Moneda');
  const unit = find('Slot Name', 'Slot', 'Ad Unit', 'Ad unit name');
  if (date) out.date = date;
  if (imps) out.impressions = imps;
  if (rev) out.revenue = rev;
  if (cur) out.currency = cur;
  if (unit) out.ad_unit = unit;
  return out;
}

/**
 * Reads an APS earnings file already split into records (header names as keys) with a mapping:
 * rows with any empty value are dropped (spec 5), each remaining row is checked (date, numbers,
 * currency) and the valid ones are summed per day. A mapped column the file lacks is an error of
 * the whole file (`amazon.column_missing`, thrown as { field, column }).
 */
export function readAmazonRecords(
  headers: readonly string[],
  records: readonly Record<string, string>[],
  columns: AmazonMappingColumns,
  opts: { delimiter: CsvDelimiter; today: string; firstLine?: number },
): ReadAmazonFile {
  for (const f of AMAZON_FIELDS) {
    const col = columns[f];
    if (col && !headers.includes(col)) throw new AmazonColumnMissing(f, col);
  }
  const firstLine = opts.firstLine ?? 2;
  const lines = new Map(records.map((r, i) => [r, i + firstLine]));
  const kept = dropRowsWithEmptyValues(records);
  const decimalComma = opts.delimiter === ';';
  const rows: AmazonRow[] = kept.map((raw) => {
    const errors: AmazonRow['errors'] = {};
    const day = parseStatDay(raw[columns.date], opts.today);
    const imps = parseImpressions(raw[columns.impressions], decimalComma);
    const rev = parseRevenue(raw[columns.revenue], decimalComma);
    const cur = columns.currency ? parseCurrency(raw[columns.currency]) : { ok: true as const, value: STAT_CURRENCY };
    if (!day.ok) errors.date = day.error;
    if (!imps.ok) errors.impressions = imps.error;
    if (!rev.ok) errors.revenue = rev.error;
    if (!cur.ok) errors.currency = cur.error;
    return {
      line: lines.get(raw) ?? 0,
      raw,
      day: day.ok ? day.value : null,
      impressions: imps.ok ? imps.value : null,
      revenue: rev.ok ? rev.value : null,
      currency: cur.ok ? cur.value : null,
      ad_unit: columns.ad_unit ? (raw[columns.ad_unit] ?? null) : null,
      errors,
    };
  });
  const byDay = new Map<string, { impressions: number; micros: bigint; currency: string; rows: number }>();
  for (const r of rows) {
    if (Object.keys(r.errors).length > 0) continue;
    const d = byDay.get(r.day!) ?? { impressions: 0, micros: 0n, currency: r.currency!, rows: 0 };
    d.impressions += r.impressions!;
    d.micros += toMicros(r.revenue!);
    d.rows += 1;
    byDay.set(r.day!, d);
  }
  const days = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, d]) => ({ day, impressions: d.impressions, revenue: fromMicros(d.micros, 6), currency: d.currency, rows: d.rows }));
  return {
    delimiter: opts.delimiter,
    headers: [...headers],
    rows,
    dropped: records.length - kept.length,
    invalid: rows.filter((r) => Object.keys(r.errors).length > 0).length,
    days,
  };
}

export class AmazonColumnMissing extends Error {
  constructor(
    readonly field: AmazonField,
    readonly column: string,
  ) {
    super(`column ${column} (${field}) is not in the file`);
  }
}

/** The delimiter of a CSV text (spec 9: comma or semicolon, detected). */
export const csvDelimiterOf = (text: string): CsvDelimiter => detectDelimiter(text);

/** The file's identity for "already imported": its text with the BOM and line endings normalised. */
export function normaliseFileText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').replace(/\n+$/, '');
}

/** A sample APS earnings report of the last days before `today` (the "download an example" link). */
export function sampleApsCsv(today: string, days = 5): string {
  const lines: string[] = [APS_COLUMNS.join(',')];
  const slots = [
    ['homepage_leaderboard_728x90', '4f1c2b9e-2a51-4d7e-9c1e-6b1a0f3d7a21', '728x90'],
    ['article_mpu_300x250', '9b7e5d1c-8e44-4b0a-a0f2-1c5d7e9b3f42', '300x250'],
  ] as const;
  const base = Date.parse(`${today}T00:00:00Z`);
  for (let d = days; d >= 1; d -= 1) {
    const day = new Date(base - d * 86_400_000).toISOString().slice(0, 10);
    slots.forEach(([name, uuid, size], i) => {
      const imps = 182_000 + d * 7_310 + i * 41_250;
      const clicks = Math.round(imps / 1900);
      const micros = BigInt(imps) * BigInt(1_420_000 + i * 380_000 + d * 11_000) / 1000n;
      const ecpm = (Number(micros) / imps / 1000).toFixed(2);
      lines.push([day, name, uuid, size, imps, clicks, fromMicros(micros, 2), ecpm].join(','));
    });
  }
  return `${lines.join('\n')}\n`;
}
