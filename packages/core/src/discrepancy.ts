/**
 * Discrepancy review (issue 24, `/process/discrepancy`, docs/decisions/033-discrepancy-review.md):
 * the contract shared by the API and the screen, and the spec's rules (spec 5 "Discrepancy" and
 * "Uploads and dates", spec 9), checked alike in the browser and the API.
 *
 *   GET  /v1/discrepancy/networks?search=            the demand partners a request can name
 *   GET/PUT /v1/discrepancy/settings                 the tolerance (%), versioned (409 when stale)
 *   GET  /v1/discrepancy/requests?state=&sort=&page= the requests, with progress and counts
 *   GET  /v1/discrepancy/requests/export?format=     the same as CSV or XLSX
 *   POST /v1/discrepancy/requests                    a new request (date, networks, figures or CSV)
 *   GET  /v1/discrepancy/requests/{id}               one request
 *   GET  /v1/discrepancy/requests/{id}/rows?…        its compared rows (day x partner)
 *   GET  /v1/discrepancy/requests/{id}/rows/export   the same as CSV or XLSX
 *   POST /v1/discrepancy/requests/{id}/decisions     accept ours, theirs or a split, per row or in bulk
 *   POST /v1/discrepancy/requests/{id}/apply         write the accepted figures to the billing rows
 *   POST /v1/discrepancy/requests/{id}/retry         a failed request, again
 * ACL `/v1/discrepancy`: read to see, write for every change.
 *
 * A request for date D compares the month to date: from the 1st of D's month to D, per day and
 * partner, because a billing row (where the accepted figure goes) is a month's.
 */
import { z } from 'zod';
import { fromMicros, toMicros } from './billing.ts';
import { isIsoDate } from './dates.ts';
import { MAX_ID } from './ids.ts';

export const DISCREPANCY_RESOURCE = '/v1/discrepancy';
export const DISCREPANCY_STATES = ['queued', 'running', 'ready', 'reviewed', 'applied', 'failed'] as const;
export type DiscrepancyState = (typeof DISCREPANCY_STATES)[number];
export const DISCREPANCY_DECISIONS = ['ours', 'theirs', 'split'] as const;
export type DiscrepancyDecision = (typeof DISCREPANCY_DECISIONS)[number];

/** Spec 9: no report older than one month. */
export const DISCREPANCY_MAX_AGE_MONTHS = 1;
/** Default tolerance (%), a setting. */
export const DISCREPANCY_DEFAULT_TOLERANCE = '10';
export const DISCREPANCY_MAX_NETWORKS = 1000;
export const DISCREPANCY_MAX_FIGURES = 50_000;
export const DISCREPANCY_PAGE_SIZE = 50;
export const DISCREPANCY_PAGE_SIZES = [20, 50, 100, 200] as const;
export const DISCREPANCY_MAX_CSV_CHARS = 5_000_000;
export const discrepancyExportName = 'discrepancy_requests';
export const discrepancyRowsExportName = (id: number) => `discrepancy_${id}`;

const DAY_MS = 86_400_000;

/** The day one calendar month before `todayIso` (the 31st of March gives the 28th or 29th of February). */
export function oneMonthBefore(todayIso: string): string {
  const y = Number(todayIso.slice(0, 4));
  const m = Number(todayIso.slice(5, 7));
  const d = Number(todayIso.slice(8, 10));
  const py = m === 1 ? y - 1 : y;
  const pm = m === 1 ? 12 : m - 1;
  const last = new Date(Date.UTC(py, pm, 0)).getUTCDate();
  return `${py}-${String(pm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The date rule of spec 5: mandatory, YYYY-MM-DD, not older than one month, not in the future. */
export function discrepancyDateError(date: unknown, todayIso: string): string | null {
  if (date === undefined || date === null || date === '') return 'discrepancy.date.required';
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isIsoDate(date)) return 'discrepancy.date.format';
  if (date > todayIso) return 'discrepancy.date.future';
  if (date < oneMonthBefore(todayIso)) return 'discrepancy.date.too_old';
  return null;
}

/** Networks: at least one, none twice (existence is the API's, against the database). */
export function discrepancyNetworksError(ids: readonly number[]): string | null {
  if (ids.length === 0) return 'common.no_networks_added';
  if (new Set(ids).size !== ids.length) return 'discrepancy.networks.duplicate';
  if (ids.length > DISCREPANCY_MAX_NETWORKS) return 'discrepancy.networks.too_many';
  return null;
}

/** The days a request for `date` compares: the 1st of its month to the date itself. */
export function requestDays(date: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${date}T00:00:00Z`);
  for (let t = Date.parse(`${date.slice(0, 8)}01T00:00:00Z`); t <= end; t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The partner's figures: typed rows or a CSV (date, network id or name, impressions, revenue)

export interface FigureInput {
  date: string;
  /** The network's id or its name (case-insensitive). */
  network: string;
  impressions: string;
  revenue: string;
}
export interface Figure {
  date: string;
  network_id: number;
  impressions: number;
  /** Decimal text, up to 6 decimals. */
  revenue: string;
}
export interface FigureError {
  /** 1-based: the CSV line (the header is line 1) or the typed row's position. */
  line: number;
  field: 'date' | 'network' | 'impressions' | 'revenue';
  key: string;
}
export interface NetworkRef {
  id: number;
  name: string;
}

const HEADERS: Record<keyof FigureInput, string[]> = {
  date: ['date', 'day', 'fecha', 'dia', 'día'],
  network: ['network', 'network id', 'network_id', 'partner', 'demand partner', 'red', 'id_network'],
  impressions: ['impressions', 'imps', 'impresiones'],
  revenue: ['revenue', 'income', 'ingresos', 'amount', 'importe'],
};

/**
 * The header's columns (by their usual English and Spanish names, or positionally when the first
 * line names none of them: date, network, impressions, revenue). Null when a column is missing.
 */
export function figureColumns(header: readonly string[]): Record<keyof FigureInput, number> | null {
  const norm = header.map((h) => h.trim().toLowerCase());
  const cols = Object.fromEntries(Object.entries(HEADERS).map(([k, names]) => [k, norm.findIndex((h) => names.includes(h))])) as Record<keyof FigureInput, number>;
  if (Object.values(cols).every((c) => c >= 0)) return cols;
  return null;
}

/**
 * A CSV table (already split; the delimiter is core's `detectDelimiter`) as figure inputs: the
 * header names the columns; rows with any empty value are dropped (spec 5) and counted.
 */
export function figuresFromTable(table: readonly (readonly string[])[]): { inputs: (FigureInput & { line: number })[]; dropped: number } | null {
  const [header, ...rows] = table;
  if (!header) return null;
  const cols = figureColumns(header);
  if (!cols) return null;
  const inputs: (FigureInput & { line: number })[] = [];
  let dropped = 0;
  rows.forEach((cells, i) => {
    if (cells.every((c) => (c ?? '').trim() === '')) return; // a blank line is not a row
    const v = { date: cells[cols.date] ?? '', network: cells[cols.network] ?? '', impressions: cells[cols.impressions] ?? '', revenue: cells[cols.revenue] ?? '' };
    if (Object.values(v).some((x) => x.trim() === '')) {
      dropped += 1;
      return;
    }
    inputs.push({ line: i + 2, date: v.date.trim(), network: v.network.trim(), impressions: v.impressions.trim(), revenue: v.revenue.trim() });
  });
  return { inputs, dropped };
}

/** A revenue as the partner writes it: 1234.56, or with a decimal comma 1234,56 (no grouping). */
export function parseRevenue(text: string): string | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d{1,12}(\.\d{1,6})?$/.test(t)) return null;
  return fromMicros(toMicros(t), 6);
}

/**
 * Checks figure inputs against a request (its date and networks): each line's date within the
 * month to date, a network of the request (by id or name), whole impressions and a revenue; one
 * figure per day and network. Answers the figures and every line's errors.
 */
export function checkFigures(
  inputs: readonly (FigureInput & { line?: number })[],
  date: string,
  networks: readonly NetworkRef[],
): { figures: Figure[]; errors: FigureError[] } {
  const days = new Set(requestDays(date));
  const byId = new Map(networks.map((n) => [String(n.id), n.id]));
  const byName = new Map(networks.map((n) => [n.name.trim().toLowerCase(), n.id]));
  const seen = new Set<string>();
  const figures: Figure[] = [];
  const errors: FigureError[] = [];
  inputs.forEach((input, i) => {
    const line = input.line ?? i + 1;
    const before = errors.length;
    const d = input.date.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || !isIsoDate(d)) errors.push({ line, field: 'date', key: 'discrepancy.date.format' });
    else if (!days.has(d)) errors.push({ line, field: 'date', key: 'discrepancy.figures.date_outside' });
    const net = input.network.trim();
    const id = byId.get(net) ?? byName.get(net.toLowerCase());
    if (id === undefined) errors.push({ line, field: 'network', key: 'discrepancy.figures.network_not_requested' });
    const imp = input.impressions.trim();
    if (!/^\d{1,15}$/.test(imp)) errors.push({ line, field: 'impressions', key: 'discrepancy.figures.impressions_invalid' });
    const revenue = parseRevenue(input.revenue);
    if (revenue === null) errors.push({ line, field: 'revenue', key: 'discrepancy.figures.revenue_invalid' });
    if (errors.length > before) return;
    const key = `${d}|${id}`;
    if (seen.has(key)) {
      errors.push({ line, field: 'date', key: 'discrepancy.figures.duplicate' });
      return;
    }
    seen.add(key);
    figures.push({ date: d, network_id: id!, impressions: Number(imp), revenue: revenue! });
  });
  return { figures, errors };
}

// ---------------------------------------------------------------------------------------------
// Comparing: delta % = (ours − theirs) / ours, exact

/** Tolerance text ('10', '2.5') as basis points (hundredths of a percent). */
export function toBasisPoints(pct: string): bigint {
  const [i = '0', f = ''] = pct.trim().split('.');
  return BigInt(i || '0') * 100n + BigInt((f + '00').slice(0, 2));
}

/** delta % to 2 decimals (half away from zero), null when ours is 0 and theirs is not. */
export function deltaPct(ours: bigint, theirs: bigint): string | null {
  if (ours === 0n) return theirs === 0n ? '0.00' : null;
  const num = (ours - theirs) * 10_000n;
  const neg = (num < 0n) !== (ours < 0n);
  const a = num < 0n ? -num : num;
  const b = ours < 0n ? -ours : ours;
  const q = (a * 2n + b) / (b * 2n); // hundredths of a percent, half away from zero
  const text = `${q / 100n}.${String(q % 100n).padStart(2, '0')}`;
  return neg && q !== 0n ? `-${text}` : text;
}

/**
 * Beyond the tolerance: |ours − theirs| / ours > tolerance, in integers:
 * |ours − theirs| x 10000 > tolerance_bp x ours. With ours 0, any figure of theirs is beyond.
 */
export function beyondTolerance(ours: bigint, theirs: bigint, toleranceBp: bigint): boolean {
  const diff = ours > theirs ? ours - theirs : theirs - ours;
  if (ours === 0n) return diff !== 0n;
  return diff * 10_000n > toleranceBp * (ours < 0n ? -ours : ours);
}

/** A split: ours + (theirs − ours) x pct / 100, in micro-units, half away from zero. */
export function splitAmount(ours: bigint, theirs: bigint, pctBp: bigint): bigint {
  const num = (theirs - ours) * pctBp;
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + 10_000n) / 20_000n;
  return ours + (neg ? -q : q);
}

/**
 * `total` spread over parts in proportion to `weights` (largest remainder, exact: the parts add up
 * to the total). All weights 0: everything on the first part.
 */
export function distribute(total: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((s, w) => s + w, 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0n));
  const neg = total < 0n;
  const t = neg ? -total : total;
  const floors = weights.map((w) => (t * w) / sum);
  const rema = weights.map((w, i) => ({ i, r: t * w - floors[i]! * sum }));
  let left = t - floors.reduce((s, f) => s + f, 0n);
  rema.sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  for (const { i } of rema) {
    if (left <= 0n) break;
    floors[i]! += 1n;
    left -= 1n;
  }
  return floors.map((f) => (neg ? -f : f));
}

// ---------------------------------------------------------------------------------------------
// Schemas

const dateField = z
  .string({ error: 'discrepancy.date.required' })
  .trim()
  .min(1, 'discrepancy.date.required')
  .refine((v) => v === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v) && isIsoDate(v)), 'discrepancy.date.format');
const networkId = z.number({ error: 'discrepancy.network.not_found' }).int('discrepancy.network.not_found').min(1, 'discrepancy.network.not_found').max(MAX_ID, 'discrepancy.network.not_found');
const idemKey = z.string().trim().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/);
const ref = z.strictObject({ id: z.number().int().min(1).max(MAX_ID), version: z.number().int().min(1).max(MAX_ID) });
export const toleranceText = z.string().trim().regex(/^\d{1,2}(\.\d{1,2})?$|^100(\.0{1,2})?$/, 'discrepancy.tolerance_invalid');

const figureInput = z.strictObject({
  date: z.string().max(40),
  network: z.union([z.string().max(200), z.number().int().transform(String)]),
  impressions: z.union([z.string().max(40), z.number().int().min(0).transform(String)]),
  revenue: z.string().max(40),
});

export const discrepancyRequestSchema = z
  .strictObject({
    date: dateField,
    network_ids: z.array(networkId, { error: 'common.no_networks_added' }).min(1, 'common.no_networks_added').max(DISCREPANCY_MAX_NETWORKS, 'discrepancy.networks.too_many'),
    source: z.enum(['csv', 'typed']),
    figures: z.array(figureInput).max(DISCREPANCY_MAX_FIGURES).optional(),
    csv: z.strictObject({ file_name: z.string().trim().min(1).max(255), text: z.string().max(DISCREPANCY_MAX_CSV_CHARS) }).optional(),
    idempotency_key: idemKey,
  })
  .superRefine((v, ctx) => {
    if (new Set(v.network_ids).size !== v.network_ids.length) ctx.addIssue({ code: 'custom', path: ['network_ids'], message: 'discrepancy.networks.duplicate' });
    if (v.source === 'csv' && !v.csv) ctx.addIssue({ code: 'custom', path: ['csv'], message: 'upload.csv.invalid' });
    if (v.source === 'typed' && (!v.figures || v.figures.length === 0)) ctx.addIssue({ code: 'custom', path: ['figures'], message: 'discrepancy.figures.required' });
  });
export type DiscrepancyRequestInput = z.input<typeof discrepancyRequestSchema>;

export const discrepancyListQuerySchema = z.strictObject({
  state: z.enum(DISCREPANCY_STATES).optional(),
  /** A network's name (part of it), or a request's number. */
  search: z.string().trim().max(200).default(''),
  sort: z.enum(['created_at', '-created_at', 'date', '-date', 'flagged', '-flagged']).default('-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(DISCREPANCY_PAGE_SIZE),
  format: z.enum(['csv', 'xlsx']).optional(),
});
export type DiscrepancyListQuery = z.infer<typeof discrepancyListQuerySchema>;

export const discrepancyRowsQuerySchema = z.strictObject({
  filter: z.enum(['all', 'flagged', 'undecided']).default('all'),
  network_id: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  sort: z.enum(['day', '-day', 'network', '-network', 'delta', '-delta']).default('day'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(DISCREPANCY_PAGE_SIZE),
  format: z.enum(['csv', 'xlsx']).optional(),
});
export type DiscrepancyRowsQuery = z.infer<typeof discrepancyRowsQuerySchema>;

export const discrepancyDecisionSchema = z
  .strictObject({
    rows: z.array(ref).min(1, 'discrepancy.select_rows').max(DISCREPANCY_MAX_FIGURES),
    decision: z.enum(DISCREPANCY_DECISIONS),
    /** A split as a share of the way from ours to theirs (0–100 %, 2 decimals). */
    split_pct: toleranceText.optional(),
    /** A split as an agreed amount between ours and theirs (one row only). */
    amount: z.string().trim().regex(/^\d{1,12}(\.\d{1,6})?$/, 'discrepancy.split.amount_invalid').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.decision !== 'split') return;
    if (!v.split_pct && !v.amount) ctx.addIssue({ code: 'custom', path: ['split_pct'], message: 'discrepancy.split.required' });
    if (v.amount && v.rows.length !== 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'discrepancy.split.amount_one_row' });
  });
export type DiscrepancyDecisionInput = z.infer<typeof discrepancyDecisionSchema>;

export const discrepancyApplySchema = z.strictObject({ version: z.number().int().min(1).max(MAX_ID) });
export const discrepancySettingsSchema = z.strictObject({ tolerance_pct: toleranceText, version: z.number().int().min(0).max(MAX_ID) });

// ---------------------------------------------------------------------------------------------
// Answers

export interface DiscrepancyNetworkOption {
  id: number;
  name: string;
  side: 'ssp' | 'performance';
  currency: string;
}

export interface DiscrepancyApplyOutcome {
  network_id: number;
  name: string;
  /** Applied: the billing rows written; skipped: why (an i18n key) and the rows it names. */
  ok: boolean;
  reason?: string;
  rows: { id: number; product: string; state: string; before: string | null; after: string | null }[];
  delta: string;
}

export interface DiscrepancyRequestDto {
  id: number;
  date: string;
  from_date: string;
  month: string;
  state: DiscrepancyState;
  source: 'csv' | 'typed';
  file_name: string | null;
  tolerance_pct: string;
  networks: NetworkRef[];
  progress: { done: number; total: number };
  counts: { rows: number; flagged: number; undecided: number };
  error: string | null;
  attempts: number;
  created_by: string | null;
  created_at: string;
  finished_at: string | null;
  applied_at: string | null;
  applied_by: string | null;
  apply_result: DiscrepancyApplyOutcome[] | null;
  version: number;
  actions: { review: boolean; apply: boolean; retry: boolean };
}

export interface DiscrepancyRowDto {
  id: number;
  day: string;
  network_id: number;
  network: string;
  currency: string;
  ours_impressions: number;
  theirs_impressions: number;
  impressions_delta_pct: string | null;
  ours_revenue: string;
  theirs_revenue: string;
  revenue_delta_pct: string | null;
  flagged: boolean;
  decision: DiscrepancyDecision | null;
  accepted_revenue: string | null;
  decided_by: string | null;
  version: number;
}

export interface DiscrepancyListAnswer<T> {
  rows: T[];
  total: number;
  page: number;
  page_size: number;
}

export const DISCREPANCY_ACTIVE_STATES: readonly DiscrepancyState[] = ['queued', 'running'];
