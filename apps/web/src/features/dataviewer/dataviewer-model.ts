/**
 * The DataViewer's builder state and what it turns into: the query/export body, the saved
 * definition, the URL (core/dataviewer-link) and the validation messages, with the same rules
 * as the API (core/reports `reportQuerySchema`).
 *
 * A range may hold date-times (`YYYY-MM-DD HH:mm`, from a QPS drill-down link); the date picker
 * shows its days and a note with the exact times until the person picks other dates.
 */
import type { SelectOption } from '@backoffice/core/inputs';
import { browserTimeZone } from '../../lib/time-zone-choice.ts';
import { dataviewerSearch, type ParsedDataviewerLink } from '@backoffice/core/dataviewer-link';
import { isDatePreset, presetRange, resolveRange, type DatePreset, type DateRangeValue } from '@backoffice/core/dates';
import {
  isEnumDimension,
  isTimeDimension,
  isValidTimeZone,
  reportQuerySchema,
  type Dimension,
  type FilterDimension,
  type Metric,
  type ReportFilter,
} from '@backoffice/core/reports';

export type SortDir = 'asc' | 'desc';
export interface SortState {
  field: string;
  dir: SortDir;
}

export interface FilterState {
  /** Stable key for the list in the form. */
  key: string;
  dimension: FilterDimension;
  op: 'include' | 'exclude';
  /** Chosen values with their labels (ids for entities, codes for enums). */
  values: SelectOption[];
}

export interface ReportRange {
  start: string;
  end: string;
  preset?: DatePreset;
}

export interface BuilderState {
  range: ReportRange | null;
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: FilterState[];
  sort: SortState[];
}

/** What the API receives (query without paging, export, saved definition with a range). */
export interface ReportDefinitionBody {
  range?: { start: string; end: string };
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: ReportFilter[];
  sort: SortState[];
}

/** The stored definition of a saved DataViewer (a preset instead of fixed dates when one was picked). */
export interface SavedDefinitionBody extends Omit<ReportDefinitionBody, 'range'> {
  range?: { start: string; end: string };
  preset?: string;
}

/** Page size of the result table (rows are fetched page by page as the table scrolls). */
export const PAGE_SIZE = 500;
/** The chart reads at most this many rows (two dimensions at most, so this covers hours x 2 values…). */
export const CHART_MAX_ROWS = 5000;


export function emptyState(timezone = browserTimeZone()): BuilderState {
  return { range: null, timezone, dimensions: [], metrics: [], filters: [], sort: [] };
}

let filterSeq = 0;
export function newFilterKey(): string {
  filterSeq += 1;
  return `f${filterSeq}`;
}

/** Does the range carry times (not whole days)? */
export const hasTimes = (range: ReportRange | null): boolean => !!range && (range.start.length > 10 || range.end.length > 10);

/** The date picker's value: the days of the range (an exclusive midnight end shows the day before). */
export function pickerValue(range: ReportRange | null): DateRangeValue | null {
  if (!range) return null;
  const start = range.start.slice(0, 10);
  let end = range.end.slice(0, 10);
  if (range.end.length > 10 && /\s00:00$/.test(range.end) && end > start) {
    const d = new Date(`${end}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 1);
    end = d.toISOString().slice(0, 10);
  }
  return { start, end, ...(range.preset ? { preset: range.preset } : {}) };
}

/** The body of the query (plus limit/offset) and of the export. */
export function toDefinition(state: BuilderState): ReportDefinitionBody {
  return {
    ...(state.range ? { range: { start: state.range.start, end: state.range.end } } : {}),
    timezone: state.timezone,
    dimensions: [...state.dimensions],
    metrics: [...state.metrics],
    filters: state.filters.map((f) => ({ dimension: f.dimension, op: f.op, values: f.values.map((v) => v.id) })),
    sort: state.sort.filter((s) => state.dimensions.includes(s.field as Dimension) || state.metrics.includes(s.field as Metric)),
  };
}

/** What a saved DataViewer stores: a picked preset is kept as the preset, so it moves with time. */
export function toSavedDefinition(state: BuilderState): SavedDefinitionBody {
  const { range, ...rest } = toDefinition(state);
  if (state.range?.preset) return { ...rest, preset: state.range.preset };
  return range ? { ...rest, range } : rest;
}

export function queryBody(def: ReportDefinitionBody, limit: number, offset: number) {
  return { ...def, limit, offset };
}

/** The order the API uses when none is asked for: the time dimension ascending, else the first metric descending. */
export function effectiveSort(def: Pick<ReportDefinitionBody, 'dimensions' | 'metrics' | 'sort'>): SortState[] {
  if (def.sort.length > 0) return def.sort;
  const time = def.dimensions.find(isTimeDimension);
  if (time) return [{ field: time, dir: 'asc' }];
  if (def.metrics[0]) return [{ field: def.metrics[0], dir: 'desc' }];
  return [];
}

export type FieldErrors = Partial<Record<'range' | 'timezone' | 'dimensions' | 'metrics' | 'sort' | `filter:${string}`, string>>;

/**
 * The API's rules applied in the browser: i18n keys per field (the first issue of each), or
 * null when the report can run. Filter errors are keyed by the filter's `key`.
 */
export function validateState(state: BuilderState): FieldErrors | null {
  const def = toDefinition(state);
  const result = reportQuerySchema.safeParse(queryBody(def, PAGE_SIZE, 0));
  if (result.success) return null;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const [head, index] = issue.path;
    let field: keyof FieldErrors;
    if (head === 'filters' && typeof index === 'number') field = `filter:${state.filters[index]?.key ?? index}`;
    else if (head === 'range' || head === 'timezone' || head === 'dimensions' || head === 'metrics' || head === 'sort') field = head;
    else field = 'dimensions';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The first message of a validation result, in field order (for a toast). */
export function firstError(errors: FieldErrors): string | undefined {
  return errors.range ?? errors.timezone ?? errors.dimensions ?? errors.metrics ?? Object.values(errors)[0];
}

/** Labels the app knows without asking the server (enum codes); entity ids keep their id until resolved. */
export function filterStateFrom(
  f: { dimension: FilterDimension; op: 'include' | 'exclude'; values: readonly (string | number)[] },
  label: (dimension: FilterDimension, value: string | number) => string,
): FilterState {
  return {
    key: newFilterKey(),
    dimension: f.dimension,
    op: f.op,
    values: f.values.map((v) => ({ id: v, value: label(f.dimension, v) })),
  };
}

/** Builder state of a saved definition opened now (a preset is recomputed for today). */
export function stateFromDefinition(
  def: {
    range?: { start: string; end: string } | undefined;
    preset?: string | undefined;
    timezone?: string | undefined;
    dimensions?: readonly Dimension[] | undefined;
    metrics?: readonly Metric[] | undefined;
    filters?: readonly ReportFilter[] | undefined;
    sort?: readonly SortState[] | undefined;
  },
  label: (dimension: FilterDimension, value: string | number) => string,
  now: Date = new Date(),
): BuilderState {
  const timezone = def.timezone && isValidTimeZone(def.timezone) ? def.timezone : 'UTC';
  let range: ReportRange | null = null;
  if (def.preset && isDatePreset(def.preset)) {
    range = { ...presetRange(def.preset, now, timezone), preset: def.preset };
  } else if (def.range) {
    range = { start: def.range.start, end: def.range.end };
  }
  return {
    range,
    timezone,
    dimensions: [...(def.dimensions ?? [])],
    metrics: [...(def.metrics ?? [])],
    filters: (def.filters ?? []).map((f) => filterStateFrom(f, label)),
    sort: [...(def.sort ?? [])],
  };
}

/** The saved range the date input re-applies when a saved DataViewer opens (its `report` parameter). */
export function savedRange(def: { range?: { start: string; end: string }; preset?: string; timezone?: string }, now = new Date()): DateRangeValue | null {
  if (def.preset && isDatePreset(def.preset)) return resolveRange({ ...presetRange(def.preset, now, def.timezone), preset: def.preset }, now, def.timezone);
  if (def.range) return { start: def.range.start.slice(0, 10), end: def.range.end.slice(0, 10) };
  return null;
}

/** Builder state of a drill-down link (missing parts take the defaults). */
export function stateFromLink(
  link: ParsedDataviewerLink,
  label: (dimension: FilterDimension, value: string | number) => string,
  now: Date = new Date(),
  defaultTimeZone = browserTimeZone(),
): BuilderState {
  const timezone = link.timezone && isValidTimeZone(link.timezone) ? link.timezone : defaultTimeZone;
  return {
    range: link.range
      ? { ...link.range }
      : link.preset
        ? { ...presetRange(link.preset, now, timezone), preset: link.preset }
        : null,
    timezone,
    dimensions: link.dimensions,
    metrics: link.metrics,
    filters: link.filters.map((f) => filterStateFrom(f, label)),
    sort: link.sort,
  };
}

/** The address of a report (what the URL shows after a run). */
export function linkSearch(state: BuilderState, run: boolean): string {
  const def = toDefinition(state);
  return dataviewerSearch({
    range: state.range?.preset ? null : def.range,
    preset: state.range?.preset ?? null,
    timezone: def.timezone,
    dimensions: def.dimensions,
    metrics: def.metrics,
    filters: def.filters,
    sort: def.sort,
    run,
  });
}

/** Do two definitions ask the same thing (unsaved-changes check)? */
export function sameDefinition(a: SavedDefinitionBody, b: SavedDefinitionBody): boolean {
  const norm = (d: SavedDefinitionBody) =>
    JSON.stringify({
      range: d.preset ? null : (d.range ?? null),
      preset: d.preset ?? null,
      timezone: d.timezone,
      dimensions: d.dimensions,
      metrics: d.metrics,
      filters: d.filters.map((f) => ({ dimension: f.dimension, op: f.op, values: f.values.map(String) })),
      sort: d.sort,
    });
  return norm(a) === norm(b);
}

/** Which dimensions the chart uses: the time dimension (x axis) and one more (series), or the first two. */
export function chartDimensions(dimensions: readonly Dimension[]): Dimension[] {
  const time = dimensions.find(isTimeDimension);
  const others = dimensions.filter((d) => !isTimeDimension(d));
  if (time) return others[0] ? [time, others[0]] : [time];
  return others.slice(0, 2);
}

/** Filter values of an entity dimension that still need their names from the server. */
export function unresolvedIds(filters: readonly FilterState[]): Map<FilterDimension, number[]> {
  const out = new Map<FilterDimension, number[]>();
  for (const f of filters) {
    if (isEnumDimension(f.dimension)) continue;
    const ids = f.values.filter((v) => v.value === String(v.id)).map((v) => Number(v.id));
    if (ids.length) out.set(f.dimension, [...(out.get(f.dimension) ?? []), ...ids]);
  }
  return out;
}
