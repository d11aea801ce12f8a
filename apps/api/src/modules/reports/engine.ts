/**
 * The report engine: plans which table answers a report (the smallest rollup that covers its
 * dimensions and filters, else the hourly fact), covers the date range with the aligned time
 * blocks of that table that read the fewest rows, and builds one parameterised SQL statement that groups, totals
 * (the sums of the groups' sums), sorts and pages on the server.
 *
 * SQL safety: identifiers (tables, columns, expressions) come only from the allow-lists in
 * @backoffice/core/reports and ../../reports-data/rollups.ts; every user value is a parameter.
 */
import {
  DIMENSION_DEFS,
  isEntityDimension,
  isEnumDimension,
  isTimeDimension,
  isUtcZone,
  METRIC_DEFS,
  OPEN_AUCTION_DEAL_ID,
  filterValueId,
  type BaseMetric,
  type Dimension,
  type FilterDimension,
  type Metric,
  type ReportFilter,
  type TimeDimension,
} from '@backoffice/core/reports';
import {
  DIM_COLUMNS,
  FACT_TABLE,
  DAY_MS,
  HOUR_MS,
  LEVEL_ORIGIN_MS,
  LEVELS,
  ROLLUPS,
  type RollupDef,
} from '../../reports-data/rollups.ts';

/** Metric sums (source columns). */
const BASE_COLUMN: Record<BaseMetric, string> = {
  ad_requests: 'ad_requests',
  bid_requests: 'bid_requests',
  bids: 'bids',
  wins: 'wins',
  impressions: 'impressions',
  clicks: 'clicks',
  revenue: 'revenue_micros',
  cost: 'cost_micros',
  timeouts: 'timeouts',
  errors: 'errors',
};

export const ENTITY_TABLES: Record<string, string> = {
  publisher: 'publishers',
  site: 'sites',
  ad_unit: 'ad_units',
  supply_endpoint: 'supply_endpoints',
  demand_partner: 'demand_partners',
  deal: 'deals',
};

export interface ReportSpec {
  startMs: number;
  endMs: number;
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: ReportFilter[];
  sort: { field: string; dir: 'asc' | 'desc' }[];
}

/** Row counts per table and level (from the load state), for choosing the cheapest source. */
export interface SourceStats {
  factRows: number;
  /** Hours covered by the data set (to turn counts into rows per bucket). */
  hours: number;
  rollups: Record<string, number[]>;
}

export interface Segment {
  lvl: number;
  fromMs: number;
  toMs: number;
}

export interface Plan {
  table: string;
  isFact: boolean;
  segments: Segment[];
  estimatedRows: number;
}

const FACT_SOURCE: RollupDef = { table: FACT_TABLE, dims: Object.keys(DIM_COLUMNS) as FilterDimension[] };

/**
 * Covers [from, to) (hour-aligned) exactly with aligned blocks of the given levels, choosing the
 * cover with the fewest estimated rows (`rowsPerBlock` of each level; a small cost per block breaks
 * ties towards fewer, coarser blocks). Blocks of a level above 0 are whole UTC days, so the hours
 * before the first and after the last whole day are always hours; the whole days in between are
 * chosen by dynamic programming over days. Adjacent blocks of one level become one segment.
 */
export function decompose(
  fromMs: number,
  toMs: number,
  levels: readonly number[],
  rowsPerBlock: (lvl: number) => number = () => 1,
): Segment[] {
  if (fromMs >= toMs) return [];
  const out: Segment[] = [];
  const push = (lvl: number, a: number, b: number) => {
    const last = out[out.length - 1];
    if (last && last.lvl === lvl && last.toMs === a) last.toMs = b;
    else out.push({ lvl, fromMs: a, toMs: b });
  };
  const dayLevels = levels.filter((l) => l !== 0 && LEVELS[l]);
  const firstDay = Math.ceil(fromMs / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(toMs / DAY_MS) * DAY_MS;
  if (dayLevels.length === 0 || firstDay >= lastDay) {
    if (levels.includes(0)) push(0, fromMs, toMs);
    return out;
  }
  const EPSILON = 1e-3;
  const n = (lastDay - firstDay) / DAY_MS;
  const cost = new Float64Array(n + 1).fill(Infinity);
  const choice = new Int16Array(n + 1).fill(-1);
  cost[0] = 0;
  // A whole day read as hours (level 0) is a choice too, when it is cheaper or the only one.
  const hourDay = levels.includes(0) ? 24 * rowsPerBlock(0) + EPSILON : Infinity;
  const options = dayLevels.map((lvl) => ({ lvl, days: LEVELS[lvl]!.ms / DAY_MS, cost: rowsPerBlock(lvl) + EPSILON }));
  for (let i = 1; i <= n; i++) {
    if (cost[i - 1]! + hourDay < cost[i]!) {
      cost[i] = cost[i - 1]! + hourDay;
      choice[i] = 0;
    }
    const endMs = firstDay + i * DAY_MS;
    for (const o of options) {
      if (o.days > i) continue;
      const startMs = endMs - o.days * DAY_MS;
      if ((startMs - LEVEL_ORIGIN_MS) % (o.days * DAY_MS) !== 0) continue;
      const c = cost[i - o.days]! + o.cost;
      if (c < cost[i]!) {
        cost[i] = c;
        choice[i] = o.lvl;
      }
    }
  }
  if (!Number.isFinite(cost[n]!)) {
    if (levels.includes(0)) push(0, fromMs, toMs);
    return out;
  }
  const blocks: Segment[] = [];
  for (let i = n; i > 0; ) {
    const lvl = choice[i]!;
    const span = lvl === 0 ? 1 : LEVELS[lvl]!.ms / DAY_MS;
    blocks.push({ lvl, fromMs: firstDay + (i - span) * DAY_MS, toMs: firstDay + i * DAY_MS });
    i -= span;
  }
  if (fromMs < firstDay) push(0, fromMs, firstDay);
  for (const b of blocks.reverse()) push(b.lvl, b.fromMs, b.toMs);
  if (lastDay < toMs) push(0, lastDay, toMs);
  return out;
}

/**
 * The levels a time grouping may read in a zone (a block must lie within one bucket). Blocks are
 * UTC-aligned: in another zone only hours qualify when the report groups by time.
 */
export function levelsFor(timeDim: TimeDimension | null, timezone: string): number[] {
  if (!timeDim) return LEVELS.map((l) => l.lvl);
  if (timeDim === 'hour' || !isUtcZone(timezone)) return [0];
  // In UTC, days are level-1 blocks and ISO weeks are level-2 blocks (aligned on a Monday).
  if (timeDim === 'week') return [0, 1, 2];
  return [0, 1];
}

/** Chooses the table and time blocks that answer a report with the fewest rows read. */
export function planReport(spec: ReportSpec, stats: SourceStats | null): Plan {
  const timeDim = (spec.dimensions.find(isTimeDimension) as TimeDimension | undefined) ?? null;
  const needed = new Set<FilterDimension>();
  for (const d of spec.dimensions) if (!isTimeDimension(d)) needed.add(d as FilterDimension);
  for (const f of spec.filters) needed.add(f.dimension);
  const fromMs = Math.floor(spec.startMs / HOUR_MS) * HOUR_MS;
  const toMs = Math.ceil(spec.endMs / HOUR_MS) * HOUR_MS;
  const hours = Math.max(1, stats?.hours ?? 1);
  const allowed = levelsFor(timeDim, spec.timezone);

  let best: Plan | null = null;
  for (const source of [...ROLLUPS, FACT_SOURCE]) {
    if (![...needed].every((d) => source.dims.includes(d))) continue;
    const isFact = source.table === FACT_TABLE;
    const counts = stats?.rollups[source.table];
    // A data set built before a rollup or a level existed has no rows in it: its statistics do not
    // list it (until the server's start builds it, see completeRollupLevels).
    if (!isFact && stats && !counts) continue;
    const levels = isFact ? [0] : allowed.filter((l) => !counts || counts[l] !== undefined);
    const rowsPerBlock = (lvl: number) => {
      const rowsAtLevel = isFact ? (stats?.factRows ?? 1e9) : (counts?.[lvl] ?? 1e9);
      return rowsAtLevel / Math.max(1, hours / (LEVELS[lvl]!.ms / HOUR_MS));
    };
    const segments = decompose(fromMs, toMs, levels, rowsPerBlock);
    let estimate = 0;
    for (const s of segments) estimate += rowsPerBlock(s.lvl) * ((s.toMs - s.fromMs) / LEVELS[s.lvl]!.ms);
    if (!best || estimate < best.estimatedRows)
      best = { table: source.table, isFact, segments, estimatedRows: estimate };
  }
  return best!;
}

/**
 * Whether each source row of a planned report is one group of its own: then the report needs no
 * aggregation. A rollup holds one row per block and combination of its dimensions, so this holds
 * when every block is one bucket of the report's time dimension (hours, UTC days or ISO weeks of
 * one level only) and every dimension of the rollup is grouped or pinned to one value by an
 * include filter. (A partner's devices by hour in one country, from the partner x country x device
 * rollup: 656 rows for a week, summed once at load instead of on every run.)
 */
export function rowsAreGroups(spec: ReportSpec, plan: Plan): boolean {
  if (plan.isFact || plan.segments.length === 0) return false;
  const lvl = plan.segments[0]!.lvl;
  if (plan.segments.some((s) => s.lvl !== lvl)) return false;
  const timeDim = spec.dimensions.find(isTimeDimension);
  const bucketLevel = timeDim === 'hour' ? 0 : timeDim === 'day' ? 1 : timeDim === 'week' ? 2 : null;
  if (bucketLevel !== lvl || !isUtcZone(spec.timezone)) return false;
  const source = ROLLUPS.find((r) => r.table === plan.table);
  if (!source) return false;
  return source.dims.every(
    (d) =>
      spec.dimensions.includes(d) ||
      spec.filters.some((f) => f.dimension === d && f.op === 'include' && f.values.length === 1),
  );
}

// ---------------------------------------------------------------------------------------------
// SQL

export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Base sums a metric needs. */
function baseNeeds(metric: Metric): BaseMetric[] {
  const def = METRIC_DEFS[metric];
  if (def.difference) return [def.difference.minuend, def.difference.subtrahend];
  if (def.ratio) {
    const num =
      def.ratio.numerator === 'margin'
        ? (['revenue', 'cost'] as BaseMetric[])
        : [def.ratio.numerator as BaseMetric];
    return [...num, def.ratio.denominator];
  }
  return [metric as BaseMetric];
}

const sumRef = (m: BaseMetric) => `g.s_${BASE_COLUMN[m]}`;

/** Numeric SQL expression of a metric over the grouped sums (for sorting), and its output. */
export function metricExpr(metric: Metric): {
  sortExpr: string;
  outExpr: string;
  rawExpr: string;
  /** The raw cell as a bigint, for counts and money (integer micro-units); ratios have none. */
  intExpr?: string;
  codec: CellCodec;
} {
  const def = METRIC_DEFS[metric];
  if (def.kind === 'count') {
    const e = `COALESCE(${sumRef(metric as BaseMetric)}, 0)`;
    return { sortExpr: e, outExpr: `${e}::float8`, rawExpr: e, intExpr: e, codec: NUMBER };
  }
  if (metric === 'revenue' || metric === 'cost') {
    const e = `COALESCE(${sumRef(metric)}, 0)`;
    return { sortExpr: e, outExpr: `round(${e} / 1000000.0, 6)::text`, rawExpr: `${e}::text`, intExpr: e, codec: MICROS };
  }
  if (metric === 'margin') {
    const e = `(COALESCE(${sumRef('revenue')}, 0) - COALESCE(${sumRef('cost')}, 0))`;
    return { sortExpr: e, outExpr: `round(${e} / 1000000.0, 6)::text`, rawExpr: `${e}::text`, intExpr: e, codec: MICROS };
  }
  const r = def.ratio!;
  const num =
    r.numerator === 'margin'
      ? `(${sumRef('revenue')} - ${sumRef('cost')})`
      : sumRef(r.numerator as BaseMetric);
  const den = sumRef(r.denominator);
  // eCPM: revenue (micro-units) / impressions x 1000 / 1e6 = revenue / (impressions x 1000).
  const scaledDen = metric === 'ecpm' ? `(${den} * 1000.0)` : `${den}::numeric`;
  const e = `CASE WHEN COALESCE(${den}, 0) = 0 THEN NULL ELSE ${num}::numeric / ${scaledDen} END`;
  const out = `round(${e}, 6)::text`;
  return { sortExpr: e, outExpr: out, rawExpr: out, codec: PLAIN };
}

const PLAIN: CellCodec = { kind: 'plain' };
const NUMBER: CellCodec = { kind: 'number' };
const MICROS: CellCodec = { kind: 'micros' };

/**
 * How the paged answer hands over a cell (raw, so the database neither formats dates nor divides
 * money; the service turns them into the API's values, see service.ts `decodeCell`):
 * `time` epoch seconds of the bucket's local wall time, `enum` the 1-based position in `values`,
 * `micros` an integer of micro-units as a decimal string, `number` an integer (counts, ids) given
 * as a number, `plain` as is (names, ratios as decimal text).
 */
export type CellCodec =
  | { kind: 'time'; dim: TimeDimension }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'micros' }
  | { kind: 'number' }
  | { kind: 'plain' };

export interface BuiltQuery {
  text: string;
  params: unknown[];
  plan: Plan;
  /** Output keys of dimension columns, in order. */
  dimKeys: string[];
  /** Paged answer: how each cell of a row (dimension keys, then metrics) is handed over. */
  rowCodecs: CellCodec[];
  /** Paged answer: the same for the totals (metrics). */
  totalCodecs: CellCodec[];
}

interface BuildOptions {
  /** Label of the open-auction deal (id 0) in the caller's language. */
  openAuctionLabel: string;
  page?: { limit: number; offset: number };
  /** Export: rows only (no totals), no paging. */
  rowsOnly?: boolean;
  /**
   * With rowsOnly: one text column `line` per row, the row already written as a CSV line by the
   * database (quoted where needed, exact decimals, no line end), so that an export only joins.
   */
  csvLine?: boolean;
}

/** A CSV field (RFC 4180): quoted only when it holds `"`, `,`, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The same for a text expression in SQL. */
function csvQuoted(expr: string): string {
  return `CASE WHEN ${expr} ~ '[",\r\n]' THEN '"' || replace(${expr}, '"', '""') || '"' ELSE ${expr} END`;
}

/** The date_trunc unit of a time dimension (its buckets are local to the report's zone). */
export function timeUnit(dim: TimeDimension): 'hour' | 'day' | 'week' | 'month' {
  return dim === 'hour' ? 'hour' : dim === 'day' ? 'day' : dim === 'week' ? 'week' : 'month';
}

function timeBucket(dim: TimeDimension, tzParam: string): string {
  return `date_trunc('${timeUnit(dim)}', ts AT TIME ZONE ${tzParam})`;
}

function timeLabel(dim: TimeDimension, col: string): string {
  const fmt = dim === 'hour' ? 'YYYY-MM-DD HH24:00' : dim === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  return `to_char(${col}, '${fmt}')`;
}

/** Builds the statement for a planned report. */
export function buildReportSql(spec: ReportSpec, plan: Plan, opts: BuildOptions): BuiltQuery {
  const params = new Params();
  // Hours in UTC are the stored hours themselves (every source row starts on a UTC hour): the rows
  // are grouped by `ts` with no zone arithmetic per source row, and turned into wall time after.
  const utcHours = spec.dimensions.includes('hour') && isUtcZone(spec.timezone);
  // The zone is a parameter too (only when a time dimension uses it: unused parameters have no type).
  const tz = spec.dimensions.some(isTimeDimension) && !utcHours ? `${params.add(spec.timezone)}::text` : '';
  const dims = spec.dimensions;
  const bases = new Set<BaseMetric>();
  for (const m of spec.metrics) for (const b of baseNeeds(m)) bases.add(b);

  // Source rows: the table's time blocks with the filters applied.
  const filterSql: string[] = [];
  for (const f of spec.filters) {
    const ids = f.values.map((v) => filterValueId(f.dimension, v)).filter((v): v is number => v !== null);
    const col = DIM_COLUMNS[f.dimension];
    const p = params.add(ids);
    const type = isEnumDimension(f.dimension) ? 'int2' : 'int4';
    filterSql.push(
      f.op === 'include' ? `${col} = ANY(${p}::${type}[])` : `NOT (${col} = ANY(${p}::${type}[]))`,
    );
  }
  const srcCols = [
    ...dims.map((d) =>
      isTimeDimension(d)
        ? `${utcHours ? 'ts' : timeBucket(d, tz)} AS "${d}"`
        : `${DIM_COLUMNS[d as FilterDimension]} AS "${d}"`,
    ),
    ...[...bases].map((b) => BASE_COLUMN[b]),
  ];
  if (srcCols.length === 0) srcCols.push('1 AS one');
  const parts = plan.segments.map((s) => {
    const where = [
      ...(plan.isFact ? [] : [`lvl = ${s.lvl}`]),
      `ts >= ${params.add(new Date(s.fromMs).toISOString())}::timestamptz`,
      `ts < ${params.add(new Date(s.toMs).toISOString())}::timestamptz`,
      ...filterSql,
    ];
    return `SELECT ${srcCols.join(', ')} FROM ${plan.table} WHERE ${where.join(' AND ')}`;
  });
  const src =
    parts.length > 0
      ? parts.join('\n  UNION ALL\n  ')
      : `SELECT ${srcCols.join(', ')} FROM ${plan.table} WHERE false`;

  const groupCols = dims.map((d) => `src."${d}"`);
  // The groups' sums (when each source row is a group, its columns as they are: rollups' sums are
  // bigints, as sum_int8's).
  const rowGroups = !opts.rowsOnly && dims.length > 0 && rowsAreGroups(spec, plan);
  const sumCols = [...bases].map((b) =>
    rowGroups ? `src.${BASE_COLUMN[b]} AS s_${BASE_COLUMN[b]}` : `sum_int8(src.${BASE_COLUMN[b]}) AS s_${BASE_COLUMN[b]}`,
  );
  const dimNames = dims.map((d) => `"${d}"`);
  // An export names its entities before grouping (hash joins on the source rows, the name a
  // trailing group key): the grouped rows then come out already in the dimensions' order, with no
  // lookup per output row and no second sort of a million named rows.
  const namesInGroup = !!opts.rowsOnly;
  const groupJoins: string[] = [];
  const groupNames: string[] = [];

  // Output columns.
  const joins: string[] = [];
  const outDims: string[] = [];
  // Sort expressions are built when used: a parameter no statement uses would have no type.
  const sortable: Record<string, () => string> = {};
  const dimKeys: string[] = [];
  const once = <T>(f: () => T): (() => T) => {
    let v: T | undefined;
    return () => (v ??= f());
  };
  /** Text expressions of the CSV fields, in column order (NULL = empty field). */
  const csvCells: string[] = [];
  /** The paged answer's raw cells and how each is decoded. */
  const rawDims: string[] = [];
  const dimCodecs: CellCodec[] = [];
  for (const d of dims) {
    if (isTimeDimension(d)) {
      // Epoch seconds of the bucket's wall time (of the UTC hour itself for utcHours).
      rawDims.push(`extract(epoch FROM g."${d}")::int8`);
      dimCodecs.push({ kind: 'time', dim: d });
      const wall = utcHours ? `(g."${d}" AT TIME ZONE 'UTC')` : `g."${d}"`;
      outDims.push(`${timeLabel(d, wall)} AS "${d}"`);
      if (opts.csvLine) csvCells.push(timeLabel(d, wall));
      sortable[d] = () => `g."${d}"`;
      dimKeys.push(d);
    } else if (isEntityDimension(d)) {
      const alias = `e_${d}`;
      let nameRef = `${alias}.name`;
      if (namesInGroup) {
        // The CSV form of each name is computed once per entity, not once per exported row
        // (OFFSET 0 keeps the subquery from being pulled up into the per-row join).
        const table = opts.csvLine
          ? `(SELECT id, name, ${csvQuoted('name')} AS csv FROM ${ENTITY_TABLES[d]} OFFSET 0)`
          : ENTITY_TABLES[d];
        groupJoins.push(`LEFT JOIN ${table} ${alias} ON ${alias}.id = src."${d}"`);
        // A CSV line needs the name only to sort by it (narrower rows to sort otherwise).
        if (!opts.csvLine || spec.sort.some((x) => x.field === d)) groupNames.push(`${alias}.name AS "${d}__name"`);
        if (opts.csvLine) groupNames.push(`${alias}.csv AS "${d}__csv"`);
        nameRef = `g."${d}__name"`;
      } else joins.push(`LEFT JOIN ${ENTITY_TABLES[d]} ${alias} ON ${alias}.id = g."${d}"`);
      const name = once(() =>
        d === 'deal'
          ? `CASE WHEN g."${d}" = ${OPEN_AUCTION_DEAL_ID} THEN ${params.add(opts.openAuctionLabel)}::text ELSE COALESCE(${nameRef}, '#' || g."${d}") END`
          : `COALESCE(${nameRef}, '#' || g."${d}")`,
      );
      if (!opts.csvLine) outDims.push(`${name()} AS "${d}"`, `g."${d}"::int4 AS "${d}_id"`);
      if (!opts.rowsOnly) {
        rawDims.push(name(), `g."${d}"`);
        dimCodecs.push(PLAIN, NUMBER);
      }
      if (opts.csvLine) {
        const csvName =
          d === 'deal'
            ? `CASE WHEN g."${d}" = ${OPEN_AUCTION_DEAL_ID} THEN ${params.add(csvField(opts.openAuctionLabel))}::text ELSE COALESCE(g."${d}__csv", '#' || g."${d}") END`
            : `COALESCE(g."${d}__csv", '#' || g."${d}")`;
        csvCells.push(csvName, `g."${d}"`);
      }
      sortable[d] = once(() => `lower(${name()})`);
      dimKeys.push(d, `${d}_id`);
    } else {
      const values = DIMENSION_DEFS[d].values!;
      const label = once(() => `(${params.add([...values])}::text[])[g."${d}"]`);
      if (opts.csvLine) csvCells.push(`(${params.add(values.map(csvField))}::text[])[g."${d}"]`);
      else if (opts.rowsOnly) outDims.push(`${label()} AS "${d}"`);
      rawDims.push(`g."${d}"`);
      dimCodecs.push({ kind: 'enum', values });
      sortable[d] = label;
      dimKeys.push(d);
    }
  }
  const outMetrics: string[] = [];
  const rawMetrics: string[] = [];
  /** The metrics' raw cells as bigints (undefined for a ratio). */
  const intMetrics: (string | undefined)[] = [];
  const totalCodecs: CellCodec[] = [];
  for (const m of spec.metrics) {
    const { sortExpr, outExpr, rawExpr, intExpr, codec } = metricExpr(m);
    outMetrics.push(`${outExpr} AS "${m}"`);
    rawMetrics.push(rawExpr);
    intMetrics.push(intExpr);
    totalCodecs.push(codec);
    // Counts as exact integers (not through float8); money and ratios are already decimal text.
    if (opts.csvLine)
      csvCells.push(
        METRIC_DEFS[m].kind === 'count'
          ? sortExpr
          : m === 'revenue' || m === 'cost' || m === 'margin'
            ? // Exactly round(x / 1e6, 6) for integer micro-units (scale 6), without a division.
              `(${sortExpr} * 0.000001)`
            : outExpr,
      );
    sortable[m] = () => sortExpr;
  }

  // Sort: what was asked, then every dimension (a stable order pages correctly).
  const timeDim = dims.find(isTimeDimension);
  const requested =
    spec.sort.length > 0
      ? spec.sort
      : timeDim
        ? [{ field: timeDim, dir: 'asc' as const }]
        : spec.metrics.length > 0
          ? [{ field: spec.metrics[0]!, dir: 'desc' as const }]
          : [];
  const order: string[] = requested
    .filter((s) => sortable[s.field])
    .map((s) => `${sortable[s.field]!()} ${s.dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  for (const d of dims) if (!order.some((o) => o.startsWith(`g."${d}" `))) order.push(`g."${d}" ASC`);
  const orderBy = order.length > 0 ? `ORDER BY ${order.join(', ')}` : '';

  let text: string;
  if (dims.length === 0) {
    // Metrics only: one row (when there is any data), and it is also the totals.
    text = `WITH src AS (\n  ${src}\n), g AS (SELECT ${[...sumCols, 'count(*) AS n_src'].join(', ')} FROM src)
SELECT ${outMetrics.join(', ')}, g.n_src::float8 AS total_rows FROM g`;
  } else if (opts.rowsOnly) {
    const select = opts.csvLine
      ? `concat(${csvCells.join(`, ',', `)}) AS line`
      : [...outDims, ...outMetrics].join(', ');
    const groupBy = [...groupCols, ...groupNames.map((n) => n.replace(/ AS .*$/, ''))];
    text = `WITH src AS (\n  ${src}\n), g AS (SELECT ${[...groupCols, ...groupNames, ...sumCols].join(', ')} FROM src ${groupJoins.join(' ')} GROUP BY ${groupBy.join(', ')})
SELECT ${select} FROM g ${joins.join(' ')} ${orderBy}`;
  } else {
    const page = opts.page ?? { limit: 100, offset: 0 };
    // Sort and cut the page on the grouped sums first (names joined only when sorting by them),
    // then name the page's rows only. The answer is ONE row of two text cells: `rows`, the page
    // as a two-dimensional text array ({{dimension keys…, metrics…},…}, parsed by the service),
    // and `result`, JSON {"totals": [metrics…], "total_rows": n}. Handing over a few hundred rows
    // of ten cells each costs more than computing them on PGlite (its protocol decodes every cell
    // in JavaScript); of one-cell forms, an array of text arrays is built in about two thirds of
    // the time of JSON arrays on both databases (json_build_array per row is the costly part).
    const sortJoins = joins.filter((j) =>
      requested.some((r) => isEntityDimension(r.field) && j.includes(`e_${r.field} `)),
    );
    // The totals are the sums of the groups' sums (exact integers), not a GROUPING SETS pass:
    // one plain hash aggregate is about a fifth faster on a 90-day report. Totals and the row
    // count come from one pass over the groups.
    const sumNames = [...bases].map((b) => `s_${BASE_COLUMN[b]}`);
    // A page of integers only (time buckets, enum positions, counts, micro-units: no names, no
    // ratios) is a bigint array: its output needs no quoting and no text cast per cell (Q3 of the
    // bench on PGlite: about 1 ms less). Its text form is read by the same parser.
    // (The dimensions' raw cells are integers but for entity names.)
    const intPage = !dims.some(isEntityDimension) && intMetrics.every((e) => e !== undefined);
    const pageRow = intPage
      ? `ARRAY[${[...rawDims, ...intMetrics].map((c) => `(${c})::int8`).join(', ')}]`
      : `ARRAY[${[...rawDims, ...rawMetrics].map((c) => `(${c})::text`).join(', ')}]`;
    text = `WITH src AS (\n  ${src}\n), g AS MATERIALIZED (
  SELECT ${[...groupCols, ...sumCols].join(', ')}
  FROM src${rowGroups ? '' : ` GROUP BY ${dimNames.join(', ')}`}
), pg AS (
  SELECT g.* FROM g ${sortJoins.join(' ')} ${orderBy} LIMIT ${params.add(page.limit)} OFFSET ${params.add(page.offset)}
), t AS (
  SELECT ${[...sumNames.map((n) => `sum_int8(${n}) AS ${n}`), 'count(*) AS n'].join(', ')} FROM g
)
SELECT (SELECT array_agg(${pageRow} ${orderBy}) FROM pg g ${joins.join(' ')})::text AS rows,
json_build_object(
  'totals', (SELECT json_build_array(${rawMetrics.join(', ')}) FROM t g),
  'total_rows', (SELECT n FROM t)
)::text AS result`;
  }
  return { text, params: params.values, plan, dimKeys, rowCodecs: [...dimCodecs, ...totalCodecs], totalCodecs };
}
