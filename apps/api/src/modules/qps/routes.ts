/**
 * QPS graphs (spec section 5 "Graph"; screens: /graphs/qps/{graph}):
 *   GET  /v1/graphs/qps/:graph?start=&end=&timezone=&interval=&metrics=a,b&ids=1,2
 *   POST /v1/graphs/qps/:graph  {start, end, timezone, interval, metrics[], ids[]}
 *   GET  /v1/graphs/qps/:graph/entities?search=&limit=&ids=   the picker's autocomplete
 * graph = demand (per demand partner) | supply (per supply endpoint). Metric(s) and partner(s) or
 * endpoint(s) are required, the interval is at least 15 minutes, and the end may be at most
 * QPS_LIMITS.maxEndAheadMinutes after now. Answers the series, the cap series and the audit-log
 * annotations (configuration changes of those partners or endpoints) in the range.
 *
 * The entities route answers the same `[{id, value}]` as /v1/reports/dimensions/…/values, but
 * under the graphs permission: a person who may see the graphs (tech supply/demand) need not
 * hold /v1/reports to pick what to draw.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage } from '@backoffice/core/i18n/catalogues';
import {
  QPS_ERRORS,
  QPS_LIMITS,
  dimensionValuesQuerySchema,
  qpsEndAllowed,
  qpsParamsSchema,
  qpsQuerySchema,
  resolveReportRange,
  wallTimeOf,
  zonedTimeToEpoch,
  type QpsGraph,
  type QpsPoint,
  type QpsQuery,
} from '@backoffice/core/reports';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { query } from '../../reports-data/sql.ts';
import { lookupValues } from '../reports/service.ts';
import { domainValidator } from '../reports/validation.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

export const GRAPHS_PERMISSION = { resource: '/v1/graphs', action: 'read' } as const;

const KIND: Record<QpsGraph, { kind: number; table: string; entity: 'demand_partner' | 'supply_endpoint' }> = {
  demand: { kind: 1, table: 'demand_partners', entity: 'demand_partner' },
  supply: { kind: 2, table: 'supply_endpoints', entity: 'supply_endpoint' },
};

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function qpsGraph(ctx: AppContext, graph: QpsGraph, q: QpsQuery, nowMs = Date.now()) {
  const range = resolveReportRange({ start: q.start, end: q.end }, q.timezone)!;
  if (!qpsEndAllowed(range.endMs, nowMs)) throw new AppError(400, QPS_ERRORS.endLimit, { errors: { end: QPS_ERRORS.endLimit } });
  const k = KIND[graph];
  const ids = [...new Set(q.ids)];
  const entities = await query<{ id: number; name: string; qps_cap: number }>(
    ctx.database,
    `SELECT id, name, qps_cap FROM ${k.table} WHERE id = ANY($1::int4[]) ORDER BY id`,
    [ids],
  );
  if (entities.length !== ids.length) throw new AppError(400, QPS_ERRORS.entityUnknown, { errors: { ids: QPS_ERRORS.entityUnknown } });

  // Buckets start at local midnight of the start day (whole days stay local days).
  const w = wallTimeOf(range.startMs, q.timezone);
  const originMs = zonedTimeToEpoch({ year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0 }, q.timezone);
  const rows = await query<{
    entity_id: number; b: string | Date; minutes: number; requests: number; bids: number; timeouts: number; errors: number;
    cap: number; latency: number;
  }>(
    ctx.database,
    `SELECT entity_id, date_bin(make_interval(mins => $1::int), ts, $2::timestamptz) AS b,
            sum(minutes)::float8 AS minutes, sum(requests)::float8 AS requests, sum(bids)::float8 AS bids,
            sum(timeouts)::float8 AS timeouts, sum(errors)::float8 AS errors,
            (array_agg(cap_last ORDER BY ts DESC))[1] AS cap, max(latency_p95_ms)::int4 AS latency
     FROM qps_15m
     WHERE kind = $3 AND entity_id = ANY($4::int4[]) AND ts >= $5::timestamptz AND ts < $6::timestamptz
     GROUP BY entity_id, b ORDER BY entity_id, b`,
    [q.interval, new Date(originMs).toISOString(), k.kind, ids, new Date(range.startMs).toISOString(), new Date(range.endMs).toISOString()],
  );
  const metrics = new Set(q.metrics);
  const series = entities.map((e) => ({ id: Number(e.id), name: e.name, current_cap: Number(e.qps_cap), points: [] as QpsPoint[] }));
  const byId = new Map(series.map((s) => [s.id, s]));
  for (const r of rows) {
    const s = byId.get(Number(r.entity_id));
    if (!s) continue;
    const secs = Number(r.minutes) * 60;
    const p: QpsPoint = { t: new Date(r.b).toISOString(), cap: r.cap === null ? null : Number(r.cap) };
    if (metrics.has('qps')) p.qps = round2(Number(r.requests) / secs);
    if (metrics.has('bid_qps')) p.bid_qps = round2(Number(r.bids) / secs);
    if (metrics.has('timeouts_ps')) p.timeouts_ps = round2(Number(r.timeouts) / secs);
    if (metrics.has('errors_ps')) p.errors_ps = round2(Number(r.errors) / secs);
    if (metrics.has('latency_p95')) p.latency_p95 = Number(r.latency);
    s.points.push(p);
  }

  // Configuration changes of these partners/endpoints from the audit log.
  const audits = await query<{ at: string | Date; entity_id: string; action: string; before: unknown; after: unknown; actor_id: number | null; actor_name: string | null }>(
    ctx.database,
    `SELECT a.at, a.entity_id, a.action, a.before, a.after, a.actor_id, u.name AS actor_name
     FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
     WHERE a.entity = $1 AND a.entity_id = ANY($2::text[]) AND a.at >= $3::timestamptz AND a.at < $4::timestamptz
     ORDER BY a.at`,
    [k.entity, ids.map(String), new Date(range.startMs).toISOString(), new Date(range.endMs).toISOString()],
  );
  const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : ((v ?? {}) as Record<string, unknown>));
  const annotations = audits.map((a) => {
    const before = json(a.before);
    const after = json(a.after);
    const capChange = 'qps_cap' in after && before.qps_cap !== after.qps_cap;
    return {
      t: new Date(a.at).toISOString(),
      entity_id: Number(a.entity_id),
      entity_name: byId.get(Number(a.entity_id))?.name ?? '',
      action: a.action,
      message: capChange ? 'qps.annotation.cap_change' : 'qps.annotation.config_change',
      params: capChange ? { from: Number(before.qps_cap ?? 0), to: Number(after.qps_cap) } : {},
      actor: a.actor_id === null ? null : { id: Number(a.actor_id), name: a.actor_name ?? '' },
    };
  });
  return {
    graph,
    interval: q.interval,
    timezone: q.timezone,
    start: new Date(range.startMs).toISOString(),
    end: new Date(range.endMs).toISOString(),
    metrics: q.metrics,
    series,
    annotations,
    limits: QPS_LIMITS,
  };
}

export async function qpsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const config = { auth: { permission: GRAPHS_PERMISSION } };
  app.get('/v1/graphs/qps/:graph', {
    config,
    schema: { tags: ['graphs'], summary: 'QPS series with the cap line and audit annotations', params: qpsParamsSchema, querystring: qpsQuerySchema },
    validatorCompiler: domainValidator,
  }, async (request) => ok(await qpsGraph(ctx, request.params.graph, request.query)));
  app.post('/v1/graphs/qps/:graph', {
    config,
    schema: { tags: ['graphs'], summary: 'QPS series (JSON body variant)', params: qpsParamsSchema, body: qpsQuerySchema },
    validatorCompiler: domainValidator,
  }, async (request) => ok(await qpsGraph(ctx, request.params.graph, request.body)));
  app.get('/v1/graphs/qps/:graph/entities', {
    config,
    schema: { tags: ['graphs'], summary: 'Partners or endpoints for the graph picker: [{id, value}]', params: qpsParamsSchema, querystring: dimensionValuesQuerySchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const { graph } = request.params;
    const q = request.query;
    const ids = q.ids !== undefined ? q.ids.split(',').filter(Boolean).map(Number).slice(0, 500) : undefined;
    const locale = localeFromAcceptLanguage(request.headers['accept-language']);
    return ok(await lookupValues(ctx.database, KIND[graph].entity, { search: q.search, limit: q.limit, ids }, locale));
  });
}
