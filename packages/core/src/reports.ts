/**
 * Reports (screens: "Reports and graphs", "Home"; spec section 5 "Reports and graphs").
 * The dimension and metric catalogue with its i18n keys, the allow-lists the API builds SQL from,
 * rate metrics as ratios of sums, the request schemas of the DataViewer, saved DataViewers, QPS
 * graphs and the dashboard, their limits, and the time-zone arithmetic both sides share.
 * Pure TypeScript (Intl only): used by the web forms and by the API routes.
 */
import { z } from 'zod';
import { DASHBOARD_SECTIONS } from './dashboard.ts';
import { idList, idNumber, idParamsSchema, lookupIdsText } from './ids.ts';
import { isValidTimeZone, zonedTimeToEpoch, type WallTime } from './time-zones.ts';

export * from './dashboard.ts';
export * from './time-zones.ts';

// ---------------------------------------------------------------------------------------------
// Enumerated dimension values. The database stores their position + 1 (smallint): APPEND ONLY.

/**
 * The ACL resource of saved DataViewers and their schedules. Opening them needs 'read' on
 * /v1/reports (which covers this path); saving, changing, sharing, deleting, scheduling and
 * sending need 'write' on this resource (docs/decisions/010-read-and-write-actions.md).
 */
export const DATAVIEWERS_RESOURCE = '/v1/reports/dataviewers';

export const COUNTRIES = [
  'US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'PT', 'IE', 'SE', 'NO', 'DK', 'FI', 'PL', 'AT', 'CH', 'CZ',
  'RO', 'GR', 'CA', 'MX', 'BR', 'AR', 'CO', 'CL', 'PE', 'JP', 'KR', 'IN', 'ID', 'TH', 'VN', 'PH', 'AU', 'NZ',
  'ZA', 'TR', 'AE', 'SA',
] as const;
export const DEVICES = ['desktop', 'phone', 'tablet', 'ctv'] as const;
export const OPERATING_SYSTEMS = ['windows', 'macos', 'linux', 'ios', 'android', 'tvos', 'roku', 'tizen', 'other'] as const;
export const FORMATS = ['banner', 'video', 'native', 'audio'] as const;
export const SIZES = [
  '300x250', '728x90', '320x50', '300x600', '160x600', '970x250', '320x100', '336x280', '640x360', '1280x720',
  '1920x1080', 'fluid',
] as const;
export const ENVIRONMENTS = ['web', 'app', 'ctv'] as const;

// ---------------------------------------------------------------------------------------------
// Dimensions

export const TIME_DIMENSIONS = ['hour', 'day', 'week', 'month'] as const;
export type TimeDimension = (typeof TIME_DIMENSIONS)[number];
export const ENTITY_DIMENSIONS = ['publisher', 'site', 'ad_unit', 'supply_endpoint', 'demand_partner', 'deal'] as const;
export type EntityDimension = (typeof ENTITY_DIMENSIONS)[number];
export const ENUM_DIMENSIONS = ['country', 'device', 'os', 'format', 'size', 'environment'] as const;
export type EnumDimension = (typeof ENUM_DIMENSIONS)[number];

export const DIMENSIONS = [...TIME_DIMENSIONS, ...ENTITY_DIMENSIONS, ...ENUM_DIMENSIONS] as const;
export type Dimension = (typeof DIMENSIONS)[number];
/** Every dimension but time can be filtered (the date range filters time). */
export const FILTER_DIMENSIONS = [...ENTITY_DIMENSIONS, ...ENUM_DIMENSIONS] as const;
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number];

export type DimensionGroup = 'time' | 'supply' | 'demand' | 'context';

export interface DimensionDef {
  key: Dimension;
  group: DimensionGroup;
  kind: 'time' | 'entity' | 'enum';
  /** i18n key of the column title. */
  label: string;
  /** Enumerated values (kind enum); the database stores index + 1. */
  values?: readonly string[];
}

const dim = (key: Dimension, group: DimensionGroup, kind: DimensionDef['kind'], values?: readonly string[]): DimensionDef => ({
  key,
  group,
  kind,
  label: `report.dimension.${key}`,
  ...(values ? { values } : {}),
});

export const DIMENSION_DEFS: Readonly<Record<Dimension, DimensionDef>> = {
  hour: dim('hour', 'time', 'time'),
  day: dim('day', 'time', 'time'),
  week: dim('week', 'time', 'time'),
  month: dim('month', 'time', 'time'),
  publisher: dim('publisher', 'supply', 'entity'),
  site: dim('site', 'supply', 'entity'),
  ad_unit: dim('ad_unit', 'supply', 'entity'),
  supply_endpoint: dim('supply_endpoint', 'supply', 'entity'),
  demand_partner: dim('demand_partner', 'demand', 'entity'),
  deal: dim('deal', 'demand', 'entity'),
  country: dim('country', 'context', 'enum', COUNTRIES),
  device: dim('device', 'context', 'enum', DEVICES),
  os: dim('os', 'context', 'enum', OPERATING_SYSTEMS),
  format: dim('format', 'context', 'enum', FORMATS),
  size: dim('size', 'context', 'enum', SIZES),
  environment: dim('environment', 'context', 'enum', ENVIRONMENTS),
};

export const isTimeDimension = (d: string): d is TimeDimension => (TIME_DIMENSIONS as readonly string[]).includes(d);
export const isEntityDimension = (d: string): d is EntityDimension => (ENTITY_DIMENSIONS as readonly string[]).includes(d);
export const isEnumDimension = (d: string): d is EnumDimension => (ENUM_DIMENSIONS as readonly string[]).includes(d);

/** The deal id that stands for "no deal" (open auction); its label is `report.deal.open_auction`. */
export const OPEN_AUCTION_DEAL_ID = 0;

// ---------------------------------------------------------------------------------------------
// Metrics

export const BASE_METRICS = [
  'ad_requests', 'bid_requests', 'bids', 'wins', 'impressions', 'clicks', 'revenue', 'cost', 'timeouts', 'errors',
] as const;
export type BaseMetric = (typeof BASE_METRICS)[number];
export const DERIVED_METRICS = ['margin', 'bid_rate', 'win_rate', 'fill_rate', 'render_rate', 'ctr', 'ecpm', 'margin_pct'] as const;
export type DerivedMetric = (typeof DERIVED_METRICS)[number];
export const METRICS = [...BASE_METRICS, ...DERIVED_METRICS] as const;
export type Metric = (typeof METRICS)[number];

/**
 * count: integer (JSON number). money: exact decimal string with 6 decimals (sums of integer
 * micro-units). ratio: decimal string with 6 decimals, a fraction (0.25 = 25 %).
 */
export type MetricKind = 'count' | 'money' | 'ratio';

export interface MetricDef {
  key: Metric;
  kind: MetricKind;
  label: string;
  /** Derived metrics: a ratio of sums (never an average of ratios) or a difference of sums. */
  ratio?: { numerator: BaseMetric | 'margin'; denominator: BaseMetric; /** multiplies the ratio, e.g. 1000 for eCPM */ factor: number };
  difference?: { minuend: BaseMetric; subtrahend: BaseMetric };
}

const metric = (key: Metric, kind: MetricKind, extra: Partial<MetricDef> = {}): MetricDef => ({
  key,
  kind,
  label: `report.metric.${key}`,
  ...extra,
});

export const METRIC_DEFS: Readonly<Record<Metric, MetricDef>> = {
  ad_requests: metric('ad_requests', 'count'),
  bid_requests: metric('bid_requests', 'count'),
  bids: metric('bids', 'count'),
  wins: metric('wins', 'count'),
  impressions: metric('impressions', 'count'),
  clicks: metric('clicks', 'count'),
  revenue: metric('revenue', 'money'),
  cost: metric('cost', 'money'),
  timeouts: metric('timeouts', 'count'),
  errors: metric('errors', 'count'),
  margin: metric('margin', 'money', { difference: { minuend: 'revenue', subtrahend: 'cost' } }),
  bid_rate: metric('bid_rate', 'ratio', { ratio: { numerator: 'bids', denominator: 'bid_requests', factor: 1 } }),
  win_rate: metric('win_rate', 'ratio', { ratio: { numerator: 'wins', denominator: 'bids', factor: 1 } }),
  fill_rate: metric('fill_rate', 'ratio', { ratio: { numerator: 'impressions', denominator: 'ad_requests', factor: 1 } }),
  render_rate: metric('render_rate', 'ratio', { ratio: { numerator: 'impressions', denominator: 'wins', factor: 1 } }),
  ctr: metric('ctr', 'ratio', { ratio: { numerator: 'clicks', denominator: 'impressions', factor: 1 } }),
  ecpm: metric('ecpm', 'money', { ratio: { numerator: 'revenue', denominator: 'impressions', factor: 1000 } }),
  margin_pct: metric('margin_pct', 'ratio', { ratio: { numerator: 'margin', denominator: 'revenue', factor: 1 } }),
};

/** Decimals of money and ratio values in answers (money is stored in integer micro-units). */
export const RESULT_DECIMALS = 6;
export const MONEY_MICROS = 1_000_000;
/** Money metrics: shown with the currency; reports are in this currency. */
export const REPORT_CURRENCY = 'USD';

/** Metrics that reveal money: hidden from callers without money permissions (dashboard tiles). */
export const MONEY_METRICS: readonly Metric[] = ['revenue', 'cost', 'margin', 'margin_pct', 'ecpm'];

// ---------------------------------------------------------------------------------------------
// Limits

export const REPORT_LIMITS = {
  /** Longest date range of a report, in days. */
  maxRangeDays: 366,
  /** Longest range when grouping by hour, in days. */
  maxHourRangeDays: 93,
  maxDimensions: 6,
  maxFilters: 20,
  maxFilterValues: 1000,
  maxSort: 3,
  /** Page size of the DataViewer table (the whole result goes through export). */
  maxPageSize: 100_000,
  defaultPageSize: 100,
  /** Dimension value look-up (autocomplete, spec section 9: default limit 10). */
  lookupDefaultLimit: 10,
  lookupMaxLimit: 100,
  maxSavedNameLength: 120,
} as const;

/** QPS graph rules (spec section 5 "Graph"). */
export const QPS_GRAPHS = ['demand', 'supply'] as const;
export type QpsGraph = (typeof QPS_GRAPHS)[number];
export const QPS_METRICS = ['qps', 'bid_qps', 'timeouts_ps', 'errors_ps', 'latency_p95'] as const;
export type QpsMetric = (typeof QPS_METRICS)[number];
/** One bucket of a QPS series as the API answers it (`t` ISO instant; metrics per second, p95 in ms). */
export interface QpsPoint {
  t: string;
  cap: number | null;
  qps?: number;
  bid_qps?: number;
  timeouts_ps?: number;
  errors_ps?: number;
  latency_p95?: number;
}
export const QPS_LIMITS = {
  /** Interval (bucket) of at least 15 minutes (spec). */
  minIntervalMinutes: 15,
  maxIntervalMinutes: 24 * 60,
  /** Interval choices offered by the screen (minutes). */
  intervals: [15, 30, 60, 180, 360, 720, 1440] as const,
  /**
   * The end-date limit (spec: "end date cannot exceed a limit"): the end may be at most this many
   * minutes after the current time (the current, still filling, bucket is allowed).
   */
  maxEndAheadMinutes: 15,
  /** Longest span of one graph, in days. */
  maxRangeDays: 31,
  /** At most this many partners or endpoints in one graph. */
  maxFilterValues: 10,
} as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Parses `YYYY-MM-DD` or `YYYY-MM-DD HH:mm[:ss]` (also with T): {wall, dateOnly} or null. */
export function parseReportDate(text: unknown): { wall: WallTime; dateOnly: boolean } | null {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  let m = DATE_RE.exec(s);
  let wall: WallTime;
  let dateOnly = false;
  if (m) {
    wall = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0 };
    dateOnly = true;
  } else {
    m = DATE_TIME_RE.exec(s);
    if (!m) return null;
    wall = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: Number(m[5]), second: m[6] ? Number(m[6]) : 0 };
  }
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.hour > 23 || wall.minute > 59 || wall.second > 59) return null;
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  if (check.getUTCDate() !== wall.day || check.getUTCMonth() !== wall.month - 1) return null;
  return { wall, dateOnly };
}

/**
 * A report range in a zone as UTC instants [startMs, endMs). A date-only end is inclusive (the
 * whole day, as date pickers mean it); a date-time end is exclusive.
 */
export function resolveReportRange(range: { start: string; end: string }, tz: string): { startMs: number; endMs: number } | null {
  const s = parseReportDate(range.start);
  const e = parseReportDate(range.end);
  if (!s || !e) return null;
  const startMs = zonedTimeToEpoch(s.wall, tz);
  let endWall = e.wall;
  if (e.dateOnly) {
    const next = new Date(Date.UTC(e.wall.year, e.wall.month - 1, e.wall.day + 1));
    endWall = { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 };
  }
  return { startMs, endMs: zonedTimeToEpoch(endWall, tz) };
}

// ---------------------------------------------------------------------------------------------
// Request schemas. Message keys (report.*) become the envelope message and field errors.

export const REPORT_ERRORS = {
  datesMandatory: 'report.dates_mandatory',
  dimensionOrMetricRequired: 'report.dimension_or_metric_required',
  exportEmpty: 'report.export_empty',
  dateInvalid: 'report.date_invalid',
  rangeOrder: 'report.range_order',
  rangeTooLong: 'report.range_too_long',
  hourRangeTooLong: 'report.hour_range_too_long',
  timezoneInvalid: 'report.timezone_invalid',
  dimensionUnknown: 'report.dimension_unknown',
  dimensionDuplicate: 'report.dimension_duplicate',
  timeDimensionSingle: 'report.time_dimension_single',
  tooManyDimensions: 'report.too_many_dimensions',
  metricUnknown: 'report.metric_unknown',
  filterDimensionInvalid: 'report.filter_dimension_invalid',
  filterOpInvalid: 'report.filter_op_invalid',
  filterValuesRequired: 'report.filter_values_required',
  filterValueInvalid: 'report.filter_value_invalid',
  tooManyFilters: 'report.too_many_filters',
  sortFieldInvalid: 'report.sort_field_invalid',
  sortDirInvalid: 'report.sort_dir_invalid',
  limitInvalid: 'report.limit_invalid',
  offsetInvalid: 'report.offset_invalid',
  nameRequired: 'report.name_required',
  notFound: 'report.not_found',
  formatInvalid: 'report.export_format_invalid',
} as const;

const rangeSchema = z
  .object({
    start: z.string({ error: REPORT_ERRORS.datesMandatory }).min(1, REPORT_ERRORS.datesMandatory),
    end: z.string({ error: REPORT_ERRORS.datesMandatory }).min(1, REPORT_ERRORS.datesMandatory),
  })
  .strict();

/** A filter value: an entity id (positive integer, also as a numeric string; 0 = open-auction deal) or an enum code. */
const filterValue = z.union([z.number(), z.string().max(200)], { error: REPORT_ERRORS.filterValueInvalid });

export const reportFilterSchema = z
  .object({
    dimension: z.enum(FILTER_DIMENSIONS, { error: REPORT_ERRORS.filterDimensionInvalid }),
    op: z.enum(['include', 'exclude'], { error: REPORT_ERRORS.filterOpInvalid }),
    values: z
      .array(filterValue, { error: REPORT_ERRORS.filterValuesRequired })
      .min(1, REPORT_ERRORS.filterValuesRequired)
      .max(REPORT_LIMITS.maxFilterValues, REPORT_ERRORS.filterValueInvalid),
  })
  .strict();
export type ReportFilter = z.infer<typeof reportFilterSchema>;

/** Normalises a filter value to the id the database stores, or null when it is not valid for the dimension. */
export function filterValueId(dimension: FilterDimension, value: string | number): number | null {
  if (isEnumDimension(dimension)) {
    const values = DIMENSION_DEFS[dimension].values!;
    const i = values.indexOf(String(value) as never);
    return i < 0 ? null : i + 1;
  }
  const n = typeof value === 'number' ? value : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647) return null;
  if (n === 0 && dimension !== 'deal') return null;
  return n;
}

const sortSchema = z
  .object({
    field: z.string({ error: REPORT_ERRORS.sortFieldInvalid }).max(40, REPORT_ERRORS.sortFieldInvalid),
    dir: z.enum(['asc', 'desc'], { error: REPORT_ERRORS.sortDirInvalid }).default('desc'),
  })
  .strict();

/** The report definition (what a saved DataViewer stores): everything but paging. */
export const reportDefinitionShape = {
  range: rangeSchema.optional(),
  timezone: z.string().default('UTC'),
  dimensions: z.array(z.enum(DIMENSIONS, { error: REPORT_ERRORS.dimensionUnknown })).default([]),
  metrics: z.array(z.enum(METRICS, { error: REPORT_ERRORS.metricUnknown })).default([]),
  filters: z.array(reportFilterSchema).max(REPORT_LIMITS.maxFilters, REPORT_ERRORS.tooManyFilters).default([]),
  sort: z.array(sortSchema).max(REPORT_LIMITS.maxSort, REPORT_ERRORS.sortFieldInvalid).default([]),
};

interface DefinitionLike {
  range?: { start: string; end: string } | undefined;
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: ReportFilter[];
  sort: { field: string; dir: 'asc' | 'desc' }[];
}

/** Cross-field rules of a report definition (shared by the query, the export and saved DataViewers). */
function checkDefinition(v: DefinitionLike, ctx: z.RefinementCtx, requireRange: boolean): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!v.range) {
    if (requireRange) issue(['range'], REPORT_ERRORS.datesMandatory);
  } else if (!isValidTimeZone(v.timezone)) {
    issue(['timezone'], REPORT_ERRORS.timezoneInvalid);
  } else {
    const s = parseReportDate(v.range.start);
    const e = parseReportDate(v.range.end);
    if (!s) issue(['range', 'start'], REPORT_ERRORS.dateInvalid);
    if (!e) issue(['range', 'end'], REPORT_ERRORS.dateInvalid);
    if (s && e) {
      const r = resolveReportRange(v.range, v.timezone)!;
      const days = (r.endMs - r.startMs) / 86_400_000;
      if (r.endMs <= r.startMs) issue(['range'], REPORT_ERRORS.rangeOrder);
      else if (days > REPORT_LIMITS.maxRangeDays + 1 / 24) issue(['range'], REPORT_ERRORS.rangeTooLong);
      else if (v.dimensions.includes('hour') && days > REPORT_LIMITS.maxHourRangeDays + 1 / 24) issue(['range'], REPORT_ERRORS.hourRangeTooLong);
    }
  }
  if (!isValidTimeZone(v.timezone) && !v.range) issue(['timezone'], REPORT_ERRORS.timezoneInvalid);
  if (v.dimensions.length === 0 && v.metrics.length === 0) issue(['dimensions'], REPORT_ERRORS.dimensionOrMetricRequired);
  if (v.dimensions.length > REPORT_LIMITS.maxDimensions) issue(['dimensions'], REPORT_ERRORS.tooManyDimensions);
  if (new Set(v.dimensions).size !== v.dimensions.length) issue(['dimensions'], REPORT_ERRORS.dimensionDuplicate);
  if (new Set(v.metrics).size !== v.metrics.length) issue(['metrics'], REPORT_ERRORS.metricUnknown);
  if (new Set(v.dimensions).size === v.dimensions.length && v.dimensions.filter(isTimeDimension).length > 1) issue(['dimensions'], REPORT_ERRORS.timeDimensionSingle);
  v.filters.forEach((f, i) => {
    f.values.forEach((value, j) => {
      if (filterValueId(f.dimension, value) === null) issue(['filters', i, 'values', j], REPORT_ERRORS.filterValueInvalid);
    });
  });
  const fields = new Set<string>([...v.dimensions, ...v.metrics]);
  v.sort.forEach((s, i) => {
    if (!fields.has(s.field)) issue(['sort', i, 'field'], REPORT_ERRORS.sortFieldInvalid);
  });
}

/** POST /v1/reports/dataviewer/query */
export const reportQuerySchema = z
  .object({
    ...reportDefinitionShape,
    limit: z.number({ error: REPORT_ERRORS.limitInvalid }).int(REPORT_ERRORS.limitInvalid).min(1, REPORT_ERRORS.limitInvalid).max(REPORT_LIMITS.maxPageSize, REPORT_ERRORS.limitInvalid).default(REPORT_LIMITS.defaultPageSize),
    offset: z.number({ error: REPORT_ERRORS.offsetInvalid }).int(REPORT_ERRORS.offsetInvalid).min(0, REPORT_ERRORS.offsetInvalid).default(0),
  })
  .strict()
  .superRefine((v, ctx) => checkDefinition(v, ctx, true));
export type ReportQueryInput = z.input<typeof reportQuerySchema>;
export type ReportQuery = z.output<typeof reportQuerySchema> & { range: { start: string; end: string } };

/** POST /v1/reports/dataviewer/export (the whole result; no paging). */
export const reportExportSchema = z
  .object({ ...reportDefinitionShape })
  .strict()
  .superRefine((v, ctx) => checkDefinition(v, ctx, true));
export type ReportExport = z.output<typeof reportExportSchema> & { range: { start: string; end: string } };

export const exportFormatQuerySchema = z
  .object({ format: z.enum(['csv', 'xlsx'], { error: REPORT_ERRORS.formatInvalid }).default('csv') })
  .strict();

/** GET /v1/reports/dimensions/:dimension/values?search=&limit= */
export const dimensionValuesParamsSchema = z.object({ dimension: z.enum(FILTER_DIMENSIONS, { error: REPORT_ERRORS.filterDimensionInvalid }) }).strict();
export const dimensionValuesQuerySchema = z
  .object({
    search: z.string().max(100).default(''),
    limit: z.coerce.number().int().min(1).max(REPORT_LIMITS.lookupMaxLimit).default(REPORT_LIMITS.lookupDefaultLimit),
    /** Resolve these ids (comma separated) to names instead of searching (to show saved filters). */
    ids: lookupIdsText.optional(),
  })
  .strict();

/** A saved DataViewer's stored definition (the date range is optional: it may be a preset). */
export const savedDefinitionSchema = z
  .object({
    ...reportDefinitionShape,
    /** A date preset (today, last7days, …) the screen resolves when the DataViewer is opened. */
    preset: z.string().max(40).optional(),
  })
  .strict()
  .superRefine((v, ctx) => checkDefinition(v, ctx, false));
export type SavedDefinition = z.output<typeof savedDefinitionSchema>;

/**
 * A saved DataViewer as the API answers it: the rows of the resource layer's list
 * (`savedDataviewers`, resources/saved-dataviewers.ts: id, name, owner_id and its label, dates)
 * with the owner, the roles it is shared with and whether the caller may change it; `definition`
 * when one is opened by id (and in the answers of a save or a change).
 */
export interface SavedDataviewerView<Definition = SavedDefinition> {
  id: number;
  name: string;
  owner_id: number;
  /** The owner's name (the layer's reference label). */
  owner_id_label: string | null;
  owner: { id: number; name: string };
  shared_roles: { id: number; name: string }[];
  shared_role_ids: number[];
  created_at: string;
  updated_at: string;
  can_edit: boolean;
  definition?: Definition;
}

const savedName = z
  .string({ error: REPORT_ERRORS.nameRequired })
  .trim()
  .min(1, REPORT_ERRORS.nameRequired)
  .max(REPORT_LIMITS.maxSavedNameLength, REPORT_ERRORS.nameRequired);
const roleIds = z.array(idNumber).max(100);

export const dataviewerCreateSchema = z
  .object({ name: savedName, definition: savedDefinitionSchema, shared_role_ids: roleIds.default([]) })
  .strict();
export const dataviewerUpdateSchema = z
  .object({ name: savedName.optional(), definition: savedDefinitionSchema.optional(), shared_role_ids: roleIds.optional() })
  .strict();
/** `{ id }` path parameters (the strict id of ids.ts; re-exported where the routes import it). */
export { idParamsSchema };

// ---------------------------------------------------------------------------------------------
// QPS graphs

export const QPS_ERRORS = {
  metricRequired: 'qps.metric_required',
  filterRequired: 'qps.filter_required',
  intervalTooShort: 'qps.interval_too_short',
  intervalInvalid: 'qps.interval_invalid',
  endLimit: 'qps.end_limit',
  rangeTooLong: 'qps.range_too_long',
  datesMandatory: 'qps.dates_mandatory',
  graphInvalid: 'qps.graph_invalid',
  entityUnknown: 'qps.entity_unknown',
} as const;

export const qpsParamsSchema = z.object({ graph: z.enum(QPS_GRAPHS, { error: QPS_ERRORS.graphInvalid }) }).strict();

const csvOrArray = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v), z.array(item));

/** GET (query string, comma lists) or POST (JSON) /v1/graphs/qps/:graph */
export const qpsQuerySchema = z
  .object({
    start: z.string({ error: QPS_ERRORS.datesMandatory }).min(1, QPS_ERRORS.datesMandatory),
    end: z.string({ error: QPS_ERRORS.datesMandatory }).min(1, QPS_ERRORS.datesMandatory),
    timezone: z.string().default('UTC'),
    interval: z.coerce.number({ error: QPS_ERRORS.intervalInvalid }).int(QPS_ERRORS.intervalInvalid).default(QPS_LIMITS.minIntervalMinutes),
    metrics: csvOrArray(z.enum(QPS_METRICS, { error: QPS_ERRORS.metricRequired })).default([]),
    /** Ids of the demand partners (graph demand) or supply endpoints (graph supply). */
    ids: idList.default([]),
  })
  .strict()
  .superRefine((v, ctx) => {
    const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (v.metrics.length === 0) issue(['metrics'], QPS_ERRORS.metricRequired);
    if (v.ids.length === 0) issue(['ids'], QPS_ERRORS.filterRequired);
    if (v.ids.length > QPS_LIMITS.maxFilterValues) issue(['ids'], QPS_ERRORS.filterRequired);
    if (v.interval < QPS_LIMITS.minIntervalMinutes) issue(['interval'], QPS_ERRORS.intervalTooShort);
    else if (v.interval > QPS_LIMITS.maxIntervalMinutes || v.interval % QPS_LIMITS.minIntervalMinutes !== 0 || 1440 % v.interval !== 0) issue(['interval'], QPS_ERRORS.intervalInvalid);
    if (!isValidTimeZone(v.timezone)) issue(['timezone'], REPORT_ERRORS.timezoneInvalid);
    else {
      const r = resolveReportRange({ start: v.start, end: v.end }, v.timezone);
      if (!r) issue(['start'], REPORT_ERRORS.dateInvalid);
      else if (r.endMs <= r.startMs) issue(['end'], REPORT_ERRORS.rangeOrder);
      else if (r.endMs - r.startMs > QPS_LIMITS.maxRangeDays * 86_400_000) issue(['end'], QPS_ERRORS.rangeTooLong);
    }
  });
export type QpsQuery = z.output<typeof qpsQuerySchema>;

/** The end-date rule, checked on the server against its clock: end <= now + maxEndAheadMinutes. */
export function qpsEndAllowed(endMs: number, nowMs: number): boolean {
  return endMs <= nowMs + QPS_LIMITS.maxEndAheadMinutes * 60_000;
}

// ---------------------------------------------------------------------------------------------
// Dashboard

export const dashboardQuerySchema = z
  .object({
    timezone: z.string().refine(isValidTimeZone, REPORT_ERRORS.timezoneInvalid).default('UTC'),
    sections: csvOrArray(z.enum(DASHBOARD_SECTIONS)).optional(),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Answers (shapes shared with the web app)

export interface ReportColumn {
  key: string;
  kind: 'dimension' | 'metric';
  /** time | entity | enum for dimensions; count | money | ratio for metrics */
  type: string;
  label: string;
  /** Entity dimensions: the row field that holds the id (the name is under `key`). */
  idKey?: string;
}

export type ReportCell = string | number | null;
export type ReportRow = Record<string, ReportCell>;

/**
 * A page of a report as the API sends it: each row is an array of cells in the order of `fields`
 * (each dimension's label, then its id for entity dimensions, then the metrics). Without a key
 * per cell, a page is half the bytes of one made of objects (80 KB → 40 KB for 656 rows of six
 * cells), to write, send and parse. `reportRows` turns the rows into objects keyed by field.
 */
export interface ReportAnswer {
  columns: ReportColumn[];
  fields: string[];
  rows: ReportCell[][];
  totals: ReportRow;
  total_rows: number;
  /** Which table answered (for the curious and the benchmark). */
  source: string;
  currency: string;
  /**
   * Demand partners of this page whose own reports (manual stats, uploads, Amazon imports;
   * decision 034) cover days of the range, keyed by partner id: how many days and what they
   * reported. The report's figures stay the warehouse's; billing uses the reported ones, and the
   * screen marks these partners "Manual". Only when the report groups by demand partner.
   */
  manual?: Record<string, ReportedFigures>;
}

/** What a partner reported for the days of a report's range it covers. */
export interface ReportedFigures {
  days: number;
  impressions: string;
  /** Decimal text, in the report's currency (USD). */
  revenue: string;
}

/** A page of a report with its rows as objects keyed by field (what screens work with). */
export interface ReportResult extends Omit<ReportAnswer, 'rows' | 'fields'> {
  rows: ReportRow[];
}

/** The rows of an answer as objects keyed by field. */
export function reportRows(answer: Pick<ReportAnswer, 'fields' | 'rows'>): ReportRow[] {
  const { fields } = answer;
  return answer.rows.map((cells) => {
    const row: ReportRow = {};
    for (let i = 0; i < fields.length; i++) row[fields[i]!] = cells[i] ?? null;
    return row;
  });
}

/** An answer with its rows as objects. */
export function fromReportAnswer(answer: ReportAnswer): ReportResult {
  const { fields: _fields, rows: _rows, ...rest } = answer;
  return { ...rest, rows: reportRows(answer) };
}

/** Label key of a column (dimension or metric). */
export function columnLabel(key: string): string {
  if ((METRICS as readonly string[]).includes(key)) return `report.metric.${key}`;
  return `report.dimension.${key}`;
}
