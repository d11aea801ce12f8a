/**
 * What a person picks on the QPS graph (partners or endpoints, metrics, range, zone, interval),
 * its URL form (a shareable link, read on load), the spec's rules checked with the API's own
 * schema (core/reports: qpsQuerySchema + qpsEndAllowed), the request sent, and the link to the
 * DataViewer for the same partners and days.
 *
 * Dates are wall times in the chosen zone, `YYYY-MM-DDTHH:mm:ss` (the DateTimeInput shape); the
 * API reads them in `timezone` too.
 */
import {
  QPS_ERRORS,
  QPS_LIMITS,
  QPS_METRICS,
  parseReportDate,
  qpsEndAllowed,
  qpsQuerySchema,
  resolveReportRange,
  wallTimeOf,
  zonedTimeToEpoch,
  type QpsGraph,
  type QpsMetric,
  type WallTime,
} from '@backoffice/core/reports';

export interface QpsState {
  /** Demand partner ids (graph demand) or supply endpoint ids (graph supply). */
  ids: number[];
  metrics: QpsMetric[];
  /** Wall time in `timezone`, `YYYY-MM-DDTHH:mm:ss` ('' when missing). */
  start: string;
  end: string;
  timezone: string;
  /** Minutes per bucket. */
  interval: number;
}

/** The company's zone (the demo story and the DataViewer's default are in Madrid). */
export const DEFAULT_QPS_TIMEZONE = 'Europe/Madrid';
export const DEFAULT_QPS_METRICS: readonly QpsMetric[] = ['qps', 'bid_qps'];
export const DEFAULT_QPS_HOURS = 24;
/** Query keys of the shareable link. */
export const QPS_URL_KEYS = ['ids', 'metrics', 'start', 'end', 'tz', 'interval'] as const;

const STEP_MS = QPS_LIMITS.minIntervalMinutes * 60_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** A wall time as `YYYY-MM-DDTHH:mm:ss`. */
export function formatWall(w: WallTime): string {
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** The wall time of an instant in a zone, `YYYY-MM-DDTHH:mm:ss`. */
export function wallString(epochMs: number, timezone: string): string {
  return formatWall(wallTimeOf(epochMs, timezone));
}

/** The instant of a wall-time text in a zone, or null when it does not parse. */
export function wallToEpoch(text: string, timezone: string): number | null {
  const parsed = parseReportDate(text);
  return parsed ? zonedTimeToEpoch(parsed.wall, timezone) : null;
}

/**
 * The last `hours` hours up to the current 15-minute bucket's end (the end may be at most 15
 * minutes after now, so the filling bucket is drawn too).
 */
export function lastHoursRange(
  nowMs: number,
  timezone: string,
  hours = DEFAULT_QPS_HOURS,
): { start: string; end: string } {
  const endMs = Math.ceil(nowMs / STEP_MS) * STEP_MS;
  return { start: wallString(endMs - hours * 3600_000, timezone), end: wallString(endMs, timezone) };
}

export function isValidZone(tz: string): boolean {
  if (!tz) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function defaultQpsState(nowMs: number, timezone = DEFAULT_QPS_TIMEZONE): QpsState {
  return {
    ids: [],
    metrics: [...DEFAULT_QPS_METRICS],
    ...lastHoursRange(nowMs, timezone),
    timezone,
    interval: QPS_LIMITS.minIntervalMinutes,
  };
}

const isMetric = (m: string): m is QpsMetric => (QPS_METRICS as readonly string[]).includes(m);

/** A date text from the link: normalised to `YYYY-MM-DDTHH:mm:ss` when it parses, else kept (the rules then say why). */
function dateFromUrl(text: string): string {
  const parsed = parseReportDate(text);
  return parsed ? formatWall(parsed.wall) : text;
}

/**
 * The state in a link. Missing keys take the defaults (last 24 hours in Madrid, 15 minutes, QPS
 * and bid QPS); `explicit` says the link chose something (then the graph is drawn at once, or its
 * rule messages shown). Unknown metrics and non-numeric ids are dropped.
 */
export function qpsStateFromSearch(
  search: URLSearchParams,
  nowMs: number,
): { state: QpsState; explicit: boolean } {
  const explicit = QPS_URL_KEYS.some((k) => search.has(k));
  const tz = search.get('tz') ?? DEFAULT_QPS_TIMEZONE;
  const state = defaultQpsState(nowMs, isValidZone(tz) ? tz : DEFAULT_QPS_TIMEZONE);
  state.timezone = tz;
  const ids = search.get('ids');
  if (ids !== null) {
    state.ids = [
      ...new Set(
        ids
          .split(',')
          .filter((s) => /^\d{1,9}$/.test(s))
          .map(Number)
          .filter((n) => n > 0),
      ),
    ];
  }
  const metrics = search.get('metrics');
  if (metrics !== null) state.metrics = [...new Set(metrics.split(',').filter(isMetric))];
  const start = search.get('start');
  const end = search.get('end');
  if (start !== null) state.start = dateFromUrl(start);
  if (end !== null) state.end = dateFromUrl(end);
  const interval = search.get('interval');
  if (interval !== null && /^\d{1,5}$/.test(interval)) state.interval = Number(interval);
  return { state, explicit };
}

/** A wall time for the link: minutes only when the seconds are zero (`2025-04-01T13:45`). */
function dateForUrl(text: string): string {
  return text.endsWith(':00') && text.length === 19 ? text.slice(0, 16) : text;
}

/** Percent-encodes a query value but keeps `, : /` readable (they are valid in a query). */
const readable = (text: string) =>
  encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/');

/** The link's query for a state, without '?' (keys in a stable order). */
export function qpsStateToSearch(state: QpsState): string {
  return [
    `ids=${state.ids.join(',')}`,
    `metrics=${state.metrics.join(',')}`,
    `start=${readable(dateForUrl(state.start))}`,
    `end=${readable(dateForUrl(state.end))}`,
    `tz=${readable(state.timezone)}`,
    `interval=${state.interval}`,
  ].join('&');
}

/** The API's query (GET /v1/graphs/qps/:graph): dates as `YYYY-MM-DD HH:mm[:ss]` in the zone. */
export function qpsRequest(state: QpsState) {
  return {
    start: dateForUrl(state.start).replace('T', ' '),
    end: dateForUrl(state.end).replace('T', ' '),
    timezone: state.timezone,
    interval: state.interval,
    metrics: state.metrics,
    ids: state.ids,
  };
}

export type QpsField = 'ids' | 'metrics' | 'start' | 'end' | 'timezone' | 'interval';
/** Message keys (qps.*, report.*) by field: the first broken rule of each. */
export type QpsErrors = Partial<Record<QpsField, string>>;

const FIELD_OF: Record<string, QpsField> = {
  ids: 'ids',
  metrics: 'metrics',
  start: 'start',
  end: 'end',
  timezone: 'timezone',
  interval: 'interval',
};

/** The spec's rules, as the API checks them (same schema; the end limit against this clock). */
export function validateQps(state: QpsState, nowMs: number): QpsErrors {
  const errors: QpsErrors = {};
  const put = (field: QpsField, key: string) => {
    errors[field] ??= key;
  };
  if (!state.start) put('start', QPS_ERRORS.datesMandatory);
  if (!state.end) put('end', QPS_ERRORS.datesMandatory);
  const parsed = qpsQuerySchema.safeParse(qpsRequest(state));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[String(issue.path[0])];
      if (field) put(field, issue.message);
    }
  }
  if (state.start && state.end && isValidZone(state.timezone)) {
    const range = resolveReportRange({ start: state.start, end: state.end }, state.timezone);
    if (range && !qpsEndAllowed(range.endMs, nowMs)) put('end', QPS_ERRORS.endLimit);
  }
  return errors;
}

export const hasErrors = (errors: QpsErrors) => Object.keys(errors).length > 0;

/**
 * The DataViewer (contract of the reports screen) for the same partners or endpoints and the
 * range's days, by hour: `/{lang}/reports/dataviewer?start=&end=&tz=&dims=hour,demand_partner&…&run=1`.
 * The DataViewer's end date is inclusive, so an end at midnight stops on the day before.
 */
export function dataViewerLink(lang: string, graph: QpsGraph, state: QpsState): string | null {
  if (state.ids.length === 0 || !isValidZone(state.timezone)) return null;
  const start = parseReportDate(state.start);
  const end = parseReportDate(state.end);
  if (!start || !end) return null;
  const day = (w: WallTime) => `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  let endDay = day(end.wall);
  if (!end.dateOnly && end.wall.hour === 0 && end.wall.minute === 0 && end.wall.second === 0) {
    const prev = new Date(Date.UTC(end.wall.year, end.wall.month - 1, end.wall.day - 1));
    endDay = prev.toISOString().slice(0, 10);
  }
  const startDay = day(start.wall);
  if (endDay < startDay) endDay = startDay;
  const dimension = graph === 'demand' ? 'demand_partner' : 'supply_endpoint';
  const metrics =
    graph === 'demand'
      ? 'revenue,bid_requests,bids,timeouts,errors'
      : 'revenue,ad_requests,bid_requests,timeouts,errors';
  const q = [
    `start=${startDay}`,
    `end=${endDay}`,
    `tz=${readable(state.timezone)}`,
    `dims=hour,${dimension}`,
    `metrics=${metrics}`,
    `f=${dimension}:include:${state.ids.join(',')}`,
    'run=1',
  ];
  return `/${lang}/reports/dataviewer?${q.join('&')}`;
}

/** "15 min", "3 h", "1 day". */
export function intervalLabel(
  minutes: number,
  t: (key: string, params?: Record<string, string | number>) => string,
): string {
  if (minutes === 1440) return t('qpsui.interval.day');
  if (minutes >= 60 && minutes % 60 === 0) return t('qpsui.interval.hours', { count: minutes / 60 });
  return t('qps.minutes', { count: minutes });
}
