/**
 * The DataViewer's URL contract: drill-down links from other screens (dashboard, QPS graph)
 * open `/{lang}/reports/dataviewer` with a report already filled in, and the DataViewer keeps
 * its URL in sync when a person runs a report, so the address can be copied.
 *
 * Parameters (all optional):
 * - `start`, `end`: `YYYY-MM-DD` (the end day is included) or `YYYY-MM-DD HH:mm` (an end
 *   date-time is exclusive), local to `tz`;
 * - `preset`: a date preset (`yesterday`, `last7days`, …) resolved when the link is opened
 *   (used when there is no `start`/`end`);
 * - `tz`: IANA time zone;
 * - `dims`, `metrics`: comma lists, in column order;
 * - `f` (repeated): `dimension:include|exclude:v1,v2`;
 * - `sort`: `field:asc|desc` (repeated or comma separated, at most 3);
 * - `run=1`: run the report at once.
 *
 * Example: `dataviewerSearch({ range: { start: '2025-03-01', end: '2025-03-01' }, dimensions:
 * ['country'], metrics: ['revenue'], filters: [{ dimension: 'demand_partner', op: 'include',
 * values: [1] }], run: true })` is
 * `?start=2025-03-01&end=2025-03-01&dims=country&metrics=revenue&f=demand_partner%3Ainclude%3A1&run=1`.
 *
 * Parsing is forgiving (a link is user input): unknown dimensions, metrics, filters and sort
 * fields are dropped, dates that do not parse are dropped, so the screen can show the rest and
 * its own validation messages.
 */
import { isDatePreset, type DatePreset } from './dates.ts';
import {
  DIMENSIONS,
  FILTER_DIMENSIONS,
  METRICS,
  REPORT_LIMITS,
  filterValueId,
  isEnumDimension,
  parseReportDate,
  type Dimension,
  type FilterDimension,
  type Metric,
} from './reports.ts';

export interface DataviewerLinkFilter {
  dimension: FilterDimension;
  op: 'include' | 'exclude';
  values: (string | number)[];
}

export interface DataviewerLinkSort {
  field: string;
  dir: 'asc' | 'desc';
}

/** What a link carries: a report definition (every part optional) and whether to run it. */
export interface DataviewerLink {
  range?: { start: string; end: string } | null;
  preset?: DatePreset | null;
  timezone?: string | null;
  dimensions?: readonly string[];
  metrics?: readonly string[];
  filters?: readonly { dimension: string; op: 'include' | 'exclude'; values: readonly (string | number)[] }[];
  sort?: readonly DataviewerLinkSort[];
  run?: boolean;
}

/** A parsed link: only known names and valid values. */
export interface ParsedDataviewerLink {
  range: { start: string; end: string } | null;
  preset: DatePreset | null;
  timezone: string | null;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: DataviewerLinkFilter[];
  sort: DataviewerLinkSort[];
  run: boolean;
  /** Whether the search held any DataViewer parameter at all. */
  present: boolean;
}

export const DATAVIEWER_LINK_PARAMS = ['start', 'end', 'preset', 'tz', 'dims', 'metrics', 'f', 'sort', 'run'] as const;

/** The query string (with its leading `?`, or '' when empty) for a DataViewer link. */
export function dataviewerSearch(def: DataviewerLink): string {
  const p = new URLSearchParams();
  if (def.range?.start && def.range.end) {
    p.set('start', def.range.start);
    p.set('end', def.range.end);
  } else if (def.preset) {
    p.set('preset', def.preset);
  }
  if (def.timezone) p.set('tz', def.timezone);
  if (def.dimensions?.length) p.set('dims', def.dimensions.join(','));
  if (def.metrics?.length) p.set('metrics', def.metrics.join(','));
  for (const f of def.filters ?? []) {
    if (f.values.length === 0) continue;
    p.append('f', `${f.dimension}:${f.op}:${f.values.map(String).join(',')}`);
  }
  for (const s of def.sort ?? []) p.append('sort', `${s.field}:${s.dir}`);
  if (def.run) p.set('run', '1');
  const text = p.toString();
  return text ? `?${text}` : '';
}

const list = (value: string | null): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** Reads a DataViewer link's parameters; unknown or malformed parts are left out. */
export function parseDataviewerSearch(search: URLSearchParams): ParsedDataviewerLink {
  const present = DATAVIEWER_LINK_PARAMS.some((name) => search.has(name));
  const start = search.get('start')?.trim() ?? '';
  const end = search.get('end')?.trim() ?? '';
  const range = parseReportDate(start) && parseReportDate(end) ? { start: normaliseDate(start), end: normaliseDate(end) } : null;
  const presetText = search.get('preset');
  const preset = !range && isDatePreset(presetText) ? presetText : null;
  const tz = search.get('tz')?.trim() || null;

  const dimensions = unique(list(search.get('dims')).filter((d): d is Dimension => (DIMENSIONS as readonly string[]).includes(d))).slice(
    0,
    REPORT_LIMITS.maxDimensions,
  );
  const metrics = unique(list(search.get('metrics')).filter((m): m is Metric => (METRICS as readonly string[]).includes(m)));

  const filters: DataviewerLinkFilter[] = [];
  for (const raw of search.getAll('f')) {
    const [dimension = '', op = '', ...rest] = raw.split(':');
    if (!(FILTER_DIMENSIONS as readonly string[]).includes(dimension)) continue;
    if (op !== 'include' && op !== 'exclude') continue;
    const dim = dimension as FilterDimension;
    const values = unique(list(rest.join(':')))
      .filter((v) => filterValueId(dim, v) !== null)
      .map((v) => (isEnumDimension(dim) ? v : Number(v)))
      .slice(0, REPORT_LIMITS.maxFilterValues);
    if (values.length === 0) continue;
    filters.push({ dimension: dim, op, values });
    if (filters.length >= REPORT_LIMITS.maxFilters) break;
  }

  const fields = new Set<string>([...dimensions, ...metrics]);
  const sort: DataviewerLinkSort[] = [];
  for (const raw of search.getAll('sort').flatMap((s) => list(s))) {
    const [field = '', dir = 'desc'] = raw.split(':');
    if (!fields.has(field) || (dir !== 'asc' && dir !== 'desc')) continue;
    if (sort.some((s) => s.field === field)) continue;
    sort.push({ field, dir });
    if (sort.length >= REPORT_LIMITS.maxSort) break;
  }

  return { range, preset, timezone: tz, dimensions, metrics, filters, sort, run: search.get('run') === '1', present };
}

/** `2025-03-01T10:00` and `2025-03-01 10:00:00` become `2025-03-01 10:00`; dates stay. */
function normaliseDate(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return text;
  if (!m[2]) return m[1]!;
  return m[3] && m[3] !== '00' ? `${m[1]} ${m[2]}:${m[3]}` : `${m[1]} ${m[2]}`;
}
