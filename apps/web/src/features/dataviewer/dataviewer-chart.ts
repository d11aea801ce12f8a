/**
 * The DataViewer chart's data: a line per series over a time dimension, bars otherwise. With two
 * dimensions, one series per value of the second dimension: the top 10 by the metric and the
 * rest summed (exactly, for counts and money; ratios cannot be summed, so they have no "rest").
 * Without a time dimension the x axis keeps the top 25 values of the first dimension.
 */
import type { MetricKind, ReportRow } from '@backoffice/core/reports';
import { sumDecimals } from './dataviewer-format.ts';

export const TOP_SERIES = 10;
export const TOP_CATEGORIES = 25;
export const REST_KEY = '__rest__';

export interface ChartData {
  kind: 'line' | 'bar';
  categories: string[];
  series: { key: string; name: string; data: (number | null)[] }[];
}

export interface ChartInput {
  rows: readonly ReportRow[];
  /** The x axis dimension (a time dimension, or the first one). */
  x: string;
  xIsTime: boolean;
  /** The series dimension, if there are two. */
  series?: string;
  metric: string;
  metricKind: MetricKind;
  /** Label of a category or series value (translated enum codes…). */
  label: (dimension: string, value: string) => string;
  /** Name of the single series without a second dimension, and of the rest. */
  metricName: string;
  restName: string;
  /** How many categories a bar chart keeps (default TOP_CATEGORIES; fewer on a phone). */
  maxCategories?: number;
}

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** Ranks values by their exact total (counts/money) or by their largest value (ratios). */
function rank(groups: Map<string, ReportRow[]>, metric: string, kind: MetricKind): string[] {
  const score = new Map<string, number>();
  for (const [key, rows] of groups) {
    if (kind === 'ratio') score.set(key, Math.max(...rows.map((r) => num(r[metric]) ?? -Infinity)));
    else score.set(key, Number(sumDecimals(rows.map((r) => r[metric] ?? null))));
  }
  return [...groups.keys()].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0));
}

function groupBy(rows: readonly ReportRow[], field: string): Map<string, ReportRow[]> {
  const out = new Map<string, ReportRow[]>();
  for (const r of rows) {
    const key = String(r[field] ?? '');
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}

export function buildChartData(input: ChartInput): ChartData {
  const { rows, x, xIsTime, series, metric, metricKind } = input;
  const kind = xIsTime ? 'line' : 'bar';
  const byX = groupBy(rows, x);
  let categories = xIsTime ? [...byX.keys()].sort() : rank(byX, metric, metricKind);
  if (!xIsTime) categories = categories.slice(0, input.maxCategories ?? TOP_CATEGORIES);
  const categoryLabels = categories.map((c) => (xIsTime ? c : input.label(x, c)));

  if (!series) {
    const data = categories.map((c) => {
      const list = byX.get(c) ?? [];
      return list.length === 1 ? num(list[0]![metric]) : metricKind === 'ratio' ? null : Number(sumDecimals(list.map((r) => r[metric] ?? null)));
    });
    return { kind, categories: categoryLabels, series: [{ key: metric, name: input.metricName, data }] };
  }

  const bySeries = groupBy(rows, series);
  const ranked = rank(bySeries, metric, metricKind);
  const top = ranked.slice(0, TOP_SERIES);
  const rest = ranked.slice(TOP_SERIES);
  const out: ChartData['series'] = top.map((value) => {
    const cells = new Map((bySeries.get(value) ?? []).map((r) => [String(r[x] ?? ''), num(r[metric])]));
    return { key: value, name: input.label(series, value), data: categories.map((c) => cells.get(c) ?? (metricKind === 'ratio' ? null : 0)) };
  });
  if (rest.length > 0 && metricKind !== 'ratio') {
    const restSet = new Set(rest);
    const data = categories.map((c) =>
      Number(sumDecimals((byX.get(c) ?? []).filter((r) => restSet.has(String(r[series] ?? ''))).map((r) => r[metric] ?? null))),
    );
    out.push({ key: REST_KEY, name: input.restName, data });
  }
  return { kind, categories: categoryLabels, series: out };
}
