/** QPS graphs: validation rules (spec section 5 "Graph"), series against the raw minutes, cap line, annotations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';

// Two days ending 2025-04-02 00:00 UTC: the story's cap cut is on 2025-04-01 at 13:58 Madrid (11:58 UTC).
const END = Date.UTC(2025, 3, 2);

interface Graph {
  series: { id: number; name: string; points: { t: string; cap: number; qps?: number; bid_qps?: number; timeouts_ps?: number; latency_p95?: number }[] }[];
  annotations: { t: string; entity_id: number; message: string; params: { from: number; to: number }; actor: { name: string } | null }[];
}

describe('QPS graphs', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(t.app.ctx.database, { endMs: END, days: 2, scale: 0.1, qpsDays: 2, seed: 5 });
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 180_000);
  afterAll(async () => t?.close());

  const get = (graph: string, qs: string, headers = admin) => t.app.inject({ url: `/v1/graphs/qps/${graph}?${qs}`, headers });
  const ok = 'start=2025-04-01 00:00&end=2025-04-02 00:00&timezone=UTC&interval=15&metrics=qps,bid_qps&ids=1';

  it.each([
    ['start=2025-04-01&end=2025-04-02&ids=1', 'qps.metric_required'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps', 'qps.filter_required'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps&ids=1&interval=10', 'qps.interval_too_short'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps&ids=1&interval=20', 'qps.interval_invalid'],
    ['end=2025-04-02&metrics=qps&ids=1', 'qps.dates_mandatory'],
    ['start=2025-01-01&end=2025-04-02&metrics=qps&ids=1', 'qps.range_too_long'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps,power&ids=1', 'qps.metric_required'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps&ids=1,2,3,4,5,6,7,8,9,10,11', 'qps.filter_required'],
    ['start=2025-04-01&end=2025-04-02&metrics=qps&ids=999', 'qps.entity_unknown'],
  ])('rejects %s with %s', async (qs, key) => {
    const res = await get('demand', qs);
    expect(res.statusCode).toBe(400);
    expect(body(res).message).toBe(key);
    expect(body(res).text).toBeTruthy();
  });

  it('limits the end date to now (plus the current bucket) and the graph to demand|supply', async () => {
    const future = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 16);
    const past = new Date(Date.now() - 20 * 3600_000).toISOString().slice(0, 16);
    const res = await get('demand', `start=${past}&end=${future}&metrics=qps&ids=1`);
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ message: 'qps.end_limit', text: 'The end date cannot be later than now' });
    const es = await get('demand', `start=${past}&end=${future}&metrics=qps&ids=1`, { ...admin, 'accept-language': 'es' });
    expect(body(es).text).toBe('La fecha de fin no puede ser posterior a ahora');
    expect(body(await get('other', ok)).message).toBe('qps.graph_invalid');
  });

  it('needs the graphs permission', async () => {
    const finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    expect((await get('demand', ok, finance)).statusCode).toBe(403);
    const lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    expect((await get('demand', ok, lead)).statusCode).toBe(200);
  });

  it('answers the series from the minutes, the cap line and the cap-change annotation', async () => {
    const res = await get('demand', 'start=2025-04-01 00:00&end=2025-04-02 00:00&timezone=UTC&interval=60&metrics=qps,bid_qps,timeouts_ps,latency_p95&ids=1,2');
    expect(res.statusCode, res.body).toBe(200);
    const g = body<Graph>(res).data;
    expect(g.series.map((s) => s.name)).toEqual(['Nimbus Exchange', 'BlueOrbit DSP']);
    const nimbus = g.series[0]!;
    expect(nimbus.points).toHaveLength(24);
    // Independent: hour 10 UTC from the raw 1-minute rows.
    const [raw] = await query<{ req: number; bids: number; cap: number; p95: number }>(
      t.app.ctx.database,
      `SELECT sum(requests)::float8 AS req, sum(bids)::float8 AS bids, max(latency_p95_ms) AS p95,
              (array_agg(cap_qps ORDER BY ts DESC))[1] AS cap
       FROM qps_minute WHERE kind = 1 AND entity_id = 1 AND ts >= '2025-04-01T10:00Z' AND ts < '2025-04-01T11:00Z'`,
    );
    const p10 = nimbus.points.find((p) => p.t === '2025-04-01T10:00:00.000Z')!;
    expect(p10.qps).toBeCloseTo(raw!.req / 3600, 2);
    expect(p10.bid_qps).toBeCloseTo(raw!.bids / 3600, 2);
    expect(p10.latency_p95).toBe(Number(raw!.p95));
    expect(p10.cap).toBe(Number(raw!.cap));
    // The story: the cap is cut at 11:58 UTC; after it outgoing QPS sits on the new (lower) cap.
    const before = nimbus.points.find((p) => p.t === '2025-04-01T10:00:00.000Z')!;
    const after = nimbus.points.find((p) => p.t === '2025-04-01T15:00:00.000Z')!;
    expect(after.cap).toBeLessThan(before.cap / 2);
    expect(after.qps!).toBeLessThanOrEqual(after.cap + 0.01);
    expect(after.qps!).toBeLessThan(before.qps! * 0.6);
    const cut = g.annotations.find((a) => a.entity_id === 1 && a.t.startsWith('2025-04-01T11:58'));
    expect(cut).toMatchObject({ message: 'qps.annotation.cap_change', actor: { name: 'Priya Natarajan' } });
    expect(cut!.params.to).toBe(after.cap);
    expect(Object.keys(p10)).not.toContain('errors_ps');
  });

  it('buckets by local time and serves supply endpoints (POST variant)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/graphs/qps/supply',
      headers: admin,
      payload: { start: '2025-04-01', end: '2025-04-01', timezone: 'Europe/Madrid', interval: 1440, metrics: ['qps', 'errors_ps'], ids: [1, 7] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const g = body<Graph>(res).data;
    expect(g.series.map((s) => s.points.length)).toEqual([1, 1]);
    expect(g.series[0]!.points[0]!.t).toBe('2025-03-31T22:00:00.000Z');
    expect(g.series[1]!.points[0]!.qps).toBeGreaterThan(0);
  });
});
