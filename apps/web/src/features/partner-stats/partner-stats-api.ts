/**
 * The partner-reported figures' data (screens `/utils/ssp/stats-manual` and `/utils/amazon_csv`):
 * the list's view in the URL, the calls, and reading a manual upload (CSV/XLSX already parsed in
 * the browser) into entries with each row's errors, by core's rules (the API checks them again).
 */
import { isIsoDate } from '@backoffice/core/dates';
import {
  STATS_DEFAULT_SORT,
  STATS_PAGE_SIZE,
  STATS_PAGE_SIZES,
  STATS_SORTS,
  STAT_SOURCES,
  parseCurrency,
  parseImpressions,
  parseRevenue,
  parseStatDay,
  type CellError,
  type ManualPartner,
  type ReplacedDay,
  type StatEntry,
  type StatSource,
} from '@backoffice/core/partner-stats';
import type { CellValue, ParsedTable } from '../../components/table-file.ts';
import { FetchError } from '../../lib/fetch-client.ts';

export interface StatsView {
  search: string;
  partner: string[];
  from: string;
  to: string;
  source: StatSource | '';
  sort: string;
  page: number;
  pageSize: number;
}

export function readStatsView(params: URLSearchParams): StatsView {
  const page = Number(params.get('page'));
  const size = Number(params.get('page_size'));
  const sort = params.get('sort') ?? STATS_DEFAULT_SORT;
  const source = params.get('source') ?? '';
  const day = (k: string) => {
    const v = params.get(k) ?? '';
    return isIsoDate(v) ? v : '';
  };
  return {
    search: (params.get('q') ?? '').slice(0, 200),
    partner: (params.get('partner') ?? '').split(',').filter((x) => /^\d{1,9}$/.test(x)),
    from: day('from'),
    to: day('to'),
    source: (STAT_SOURCES as readonly string[]).includes(source) ? (source as StatSource) : '',
    sort: (STATS_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : STATS_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: (STATS_PAGE_SIZES as readonly number[]).includes(size) ? size : STATS_PAGE_SIZE,
  };
}

export function statsQuery(v: StatsView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort };
  if (v.search) q.search = v.search;
  if (v.partner.length > 0) q.partner = v.partner.join(',');
  if (v.from) q.from = v.from;
  if (v.to) q.to = v.to;
  if (v.source) q.source = v.source;
  if (withPage) {
    q.page = v.page;
    q.page_size = v.pageSize;
  }
  return q;
}

/** The days a 409 says would be replaced, or null for another error. */
export function replacedDaysOf(error: unknown): ReplacedDay[] | null {
  if (!(error instanceof FetchError) || error.httpStatus !== 409) return null;
  const data = (error.details.body as { data?: { days?: ReplacedDay[] } } | undefined)?.data;
  return Array.isArray(data?.days) ? data.days : null;
}

/** One row of a manual upload: its line, what it gives, and its errors by field. */
export interface UploadRow {
  line: number;
  entry: StatEntry | null;
  partnerText: string;
  cells: { day: string; impressions: string; revenue: string; currency: string };
  errors: Partial<Record<'day' | 'partner' | 'impressions' | 'revenue' | 'currency', CellError | 'stats.partner_unknown' | 'stats.duplicate_day'>>;
}

const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const HEADER_NAMES = {
  day: ['day', 'date', 'fecha', 'dia'],
  partner: ['partner', 'demandpartner', 'partnerid', 'demandpartnerid'],
  impressions: ['impressions', 'impresiones', 'imps'],
  revenue: ['revenue', 'ingresos', 'earnings', 'revenueusd'],
  currency: ['currency', 'moneda'],
} as const;

/** Which header holds each of our fields (by its usual names), and the required ones missing. */
export function uploadColumns(headers: readonly string[]): { columns: Partial<Record<keyof typeof HEADER_NAMES, string>>; missing: string[] } {
  const columns: Partial<Record<keyof typeof HEADER_NAMES, string>> = {};
  for (const [field, names] of Object.entries(HEADER_NAMES) as [keyof typeof HEADER_NAMES, readonly string[]][]) {
    const h = headers.find((x) => names.includes(loose(x)));
    if (h) columns[field] = h;
  }
  const missing = (['day', 'partner', 'impressions', 'revenue'] as const).filter((f) => !columns[f]);
  return { columns, missing };
}

const text = (v: CellValue | undefined) => (v === null || v === undefined ? '' : String(v).trim());

/** Reads a parsed upload into entries; a partner is named by its id or its name (case ignored). */
export function readUpload(table: ParsedTable, partners: readonly ManualPartner[], today: string, decimalComma = false): { rows: UploadRow[]; missing: string[] } {
  const { columns, missing } = uploadColumns(table.columns);
  if (missing.length > 0) return { rows: [], missing };
  const seen = new Set<string>();
  const rows = table.records.map((rec, i): UploadRow => {
    const cells = { day: text(rec[columns.day!]), impressions: text(rec[columns.impressions!]), revenue: text(rec[columns.revenue!]), currency: columns.currency ? text(rec[columns.currency]) : '' };
    const partnerText = text(rec[columns.partner!]);
    const errors: UploadRow['errors'] = {};
    const day = parseStatDay(cells.day, today);
    const imps = parseImpressions(cells.impressions, decimalComma);
    const rev = parseRevenue(cells.revenue, decimalComma);
    const cur = parseCurrency(cells.currency);
    const partner = partners.find((p) => String(p.id) === partnerText || p.name.toLowerCase() === partnerText.toLowerCase());
    if (!day.ok) errors.day = day.error;
    if (!partner) errors.partner = 'stats.partner_unknown';
    if (!imps.ok) errors.impressions = imps.error;
    if (!rev.ok) errors.revenue = rev.error;
    if (!cur.ok) errors.currency = cur.error;
    if (day.ok && partner) {
      const k = `${partner.id}|${day.value}`;
      if (seen.has(k)) errors.day = 'stats.duplicate_day';
      seen.add(k);
    }
    const ok = Object.keys(errors).length === 0;
    return {
      line: i + 2,
      partnerText,
      cells,
      errors,
      entry: ok ? { day: (day as { value: string }).value, demand_partner_id: partner!.id, impressions: (imps as { value: number }).value, revenue: (rev as { value: string }).value, currency: 'USD' } : null,
    };
  });
  return { rows, missing: [] };
}
