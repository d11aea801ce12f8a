/**
 * The demand partners' overview (GET /v1/partners/demand/overview): its figures against raw SQL
 * over the fact table and the 1-minute QPS series, the 90% warning, sorting, paging, the day
 * "today" covers, money hidden without a money permission, validation and the ACL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewAnswer } from '@backoffice/core/partner-overview';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';

// Two days ending 2025-04-02 00:00 UTC: "now" is clamped to the end of the loaded data.
const END = Date.UTC(2025, 3, 2);
const iso = (ms: number) => new Date(ms).toISOString();

describe('demand partners overview', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(t.app.ctx.database, { endMs: END, days: 2, scale: 0.1, qpsDays: 2, seed: 5 });
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 180_000);
  afterAll(async () => t?.close());

  const get = async (qs: string, headers = admin) => {
    const res = await t.app.inject({ url: `/v1/partners/demand/overview?${qs}`, headers });
    return { res, data: res.statusCode === 200 ? body<OverviewAnswer>(res).data : (null as unknown as OverviewAnswer) };
  };

  it('lists every live SSP-side partner with figures that agree with the raw facts and minutes', async () => {
    const { res, data } = await get('timezone=UTC&page_size=200');
    expect(res.statusCode, res.body).toBe(200);
    const live = await query<{ id: number }>(t.app.ctx.database, `SELECT id FROM demand_partners WHERE side = 'ssp' AND status = 'live'`);
    expect(live.length).toBeGreaterThan(3);
    expect(data.total).toBe(live.length);
    expect(data.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(live.map((r) => Number(r.id)).sort((a, b) => a - b));
    // At UTC midnight the day holds no whole hour: the whole day before is shown.
    expect(data.as_of).toBe(iso(END));
    expect([data.today_start, data.today_end]).toEqual([iso(END - 86_400_000), iso(END)]);

    // Independent figures: the hourly fact table (not the rollup) and the 1-minute series.
    const row = data.rows.find((r) => r.current_qps !== null && r.revenue_today !== '0.000000')!;
    const [fact] = await query<{ revenue: string; cost: string; breq: number; bids: number; wins: number; timeouts: number }>(
      t.app.ctx.database,
      `SELECT sum(revenue_micros)::text AS revenue, sum(cost_micros)::text AS cost, sum(bid_requests)::float8 AS breq,
              sum(bids)::float8 AS bids, sum(wins)::float8 AS wins, sum(timeouts)::float8 AS timeouts
       FROM stats_hourly WHERE demand_partner_id = $1 AND ts >= $2 AND ts < $3`,
      [row.id, data.today_start, data.today_end],
    );
    const micros = BigInt(fact!.revenue);
    expect(row.revenue_today).toBe(`${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`);
    expect(row.bid_rate).toBeCloseTo(fact!.bids / fact!.breq, 4);
    expect(row.win_rate).toBeCloseTo(fact!.wins / fact!.bids, 4);
    expect(row.timeout_pct).toBeCloseTo(fact!.timeouts / fact!.breq, 4);
    expect(row.margin_pct).toBeCloseTo(Number(micros - BigInt(fact!.cost)) / Number(micros), 4);
    const [minutes] = await query<{ req: number; n: number }>(
      t.app.ctx.database,
      `SELECT sum(requests)::float8 AS req, count(*)::int AS n FROM qps_minute WHERE kind = 1 AND entity_id = $1 AND ts >= $2 AND ts < $3`,
      [row.id, iso(END - 5 * 60_000), iso(END)],
    );
    expect(minutes!.n).toBe(5);
    expect(row.current_qps).toBeCloseTo(minutes!.req / 300, 1);
    expect(row.cap_usage).toBeCloseTo(minutes!.req / 300 / row.qps_cap, 3);

    // The sparkline: 96 quarter hours of the last day, the last one from the 15-minute rollup.
    expect(row.spark).toHaveLength(96);
    const [last] = await query<{ qps: number }>(
      t.app.ctx.database,
      `SELECT sum(requests)::float8 / 900 AS qps FROM qps_minute WHERE kind = 1 AND entity_id = $1 AND ts >= $2 AND ts < $3`,
      [row.id, iso(END - 15 * 60_000), iso(END)],
    );
    expect(row.spark[95]).toBeCloseTo(last!.qps, 0);

    // The summary covers every listed partner.
    expect(data.summary.partners).toBe(live.length);
    expect(data.summary.qps_cap).toBe(data.rows.reduce((n, r) => n + r.qps_cap, 0));
    expect(data.summary.warnings).toBe(data.rows.filter((r) => r.warning).length);
  });

  it('warns over 90% of the cap, sorts by usage first and filters to the warnings', async () => {
    const { data } = await get('timezone=UTC&page_size=200');
    for (const r of data.rows) expect(r.warning).toBe(r.cap_usage !== null && r.cap_usage > 0.9);
    const usages = data.rows.map((r) => r.cap_usage ?? -1);
    expect(usages).toEqual([...usages].sort((a, b) => b - a));
    // Make one partner run hot: its cap just over its current QPS.
    const cool = data.rows.find((r) => !r.warning && r.current_qps !== null && r.current_qps > 10)!;
    await query(t.app.ctx.database, `UPDATE demand_partners SET qps_cap = $2 WHERE id = $1`, [cool.id, Math.ceil(cool.current_qps! / 0.95)]);
    const hot = await get('timezone=UTC&warning=true&page_size=200');
    expect(hot.data.rows.map((r) => r.id)).toContain(cool.id);
    expect(hot.data.rows.every((r) => r.warning)).toBe(true);
    expect(hot.data.total).toBe(hot.data.summary.warnings);
    expect(hot.data.summary.partners).toBe(data.summary.partners);
    await query(t.app.ctx.database, `UPDATE demand_partners SET qps_cap = $2 WHERE id = $1`, [cool.id, cool.qps_cap]);
  });

  it('sorts by any column both ways, pages and searches', async () => {
    for (const field of ['name', 'qps_cap', 'current_qps', 'revenue_today', 'bid_rate', 'win_rate', 'timeout_pct', 'margin_pct'] as const) {
      for (const desc of [false, true]) {
        const { res, data } = await get(`timezone=UTC&page_size=200&sort=${desc ? '-' : ''}${field}`);
        expect(res.statusCode, res.body).toBe(200);
        const values = data.rows.map((r) => (field === 'revenue_today' ? Number(r[field]) : r[field])).filter((v) => v !== null);
        const sorted = [...values].sort((a, b) =>
          typeof a === 'string' ? (a as string).toLowerCase().localeCompare((b as string).toLowerCase()) : (a as number) - (b as number),
        );
        if (field !== 'name') expect(values, field).toEqual(desc ? sorted.reverse() : sorted);
      }
    }
    const all = (await get('timezone=UTC&sort=name&page_size=200')).data.rows.map((r) => r.id);
    const page2 = (await get('timezone=UTC&sort=name&page_size=3&page=2')).data;
    expect(page2.rows.map((r) => r.id)).toEqual(all.slice(3, 6));
    expect(page2.total).toBe(all.length);
    const name = (await get('timezone=UTC&sort=name&page_size=1')).data.rows[0]!.name;
    const found = (await get(`timezone=UTC&search=${encodeURIComponent(name.slice(1, 5).toUpperCase())}`)).data;
    expect(found.rows.map((r) => r.name)).toContain(name);
    expect(found.rows.every((r) => r.name.toLowerCase().includes(name.slice(1, 5).toLowerCase()))).toBe(true);
    // Past the end: no rows, the summary still there.
    const beyond = (await get('timezone=UTC&page=50')).data;
    expect(beyond.rows).toEqual([]);
    expect(beyond.summary.partners).toBe(all.length);
  });

  it('counts "today" from local midnight in the time zone asked for', async () => {
    // 02:00 in Madrid (UTC+2): today is the two whole hours since local midnight.
    const { data } = await get('timezone=Europe/Madrid');
    expect([data.today_start, data.today_end]).toEqual([iso(END - 2 * 3_600_000), iso(END)]);
  });

  it('hides money from a person without a money permission and refuses to sort by it', async () => {
    const [role] = await query<{ id: number }>(t.app.ctx.database, `INSERT INTO roles (name, acl) VALUES ('PARTNERS_ONLY', '{"/v1/partners/demand":["read"]}') RETURNING id`);
    const [user] = await query<{ id: number }>(t.app.ctx.database, `INSERT INTO users (mail, name, password_hash) VALUES ('partners@adtech.example', 'Partners Only', 'x') RETURNING id`);
    await query(t.app.ctx.database, `INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user!.id, role!.id]);
    const { token } = await t.app.sessions.issue(Number(user!.id));
    const headers = { authorization: `Bearer ${token}` };
    const { res, data } = await get('timezone=UTC', headers);
    expect(res.statusCode).toBe(200);
    expect(data.money_visible).toBe(false);
    expect(data.summary.revenue_today).toBeNull();
    expect(data.rows.every((r) => r.revenue_today === null && r.margin_pct === null)).toBe(true);
    expect(data.rows.some((r) => r.bid_rate !== null)).toBe(true);
    const file = await t.app.inject({ url: '/v1/partners/demand/overview/export?timezone=UTC', headers });
    expect(file.body.replace(/^\ufeff/, '').split('\r\n')[0]).not.toMatch(/Revenue|Margin/);
    const refused = await get('sort=-revenue_today', headers);
    expect(refused.res.statusCode).toBe(400);
    expect(body(refused.res).errors).toEqual({ sort: 'resource.sort_unknown' });
  });

  it('exports every filtered partner as CSV and XLSX, in the sort asked for, with translated titles', async () => {
    const all = (await get('timezone=UTC&sort=name&page_size=200')).data;
    const csv = await t.app.inject({ url: '/v1/partners/demand/overview/export?timezone=UTC&sort=name&page_size=2&format=csv', headers: admin });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="demand_partners_overview_\d{4}-\d{2}-\d{2}_\d{6}\.csv"$/);
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Partner,ID,Type,QPS now,QPS cap,QPS vs cap,Over the warning threshold,Revenue today (USD),Bid rate,Win rate,Timeout %,Margin %');
    expect(lines).toHaveLength(all.total + 1);
    expect(lines.slice(1).map((l) => Number(l.split(',')[1]))).toEqual(all.rows.map((r) => r.id));
    const first = all.rows[0]!;
    expect(lines[1]).toContain(`,${first.revenue_today},`);
    const es = await t.app.inject({ url: '/v1/partners/demand/overview/export?timezone=UTC&warning=true', headers: { ...admin, 'accept-language': 'es' } });
    expect(es.body.replace(/^\ufeff/, '').split('\r\n')[0]).toMatch(/^Socio,ID,/);
    const xlsx = await t.app.inject({ url: '/v1/partners/demand/overview/export?timezone=UTC&format=xlsx', headers: admin });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await t.app.inject({ url: '/v1/partners/demand/overview/export?format=pdf', headers: admin })).statusCode).toBe(400);
  });

  it('refuses bad input with translated field errors and people without the partners permission', async () => {
    for (const [qs, field, key] of [
      ['sort=power', 'sort', 'resource.sort_unknown'],
      ['timezone=Mars/Olympus', 'timezone', 'report.timezone_invalid'],
      ['page=0', 'page', 'error.invalid_value'],
      ['page_size=201', 'page_size', 'error.invalid_value'],
      ['colour=red', 'colour', undefined],
    ] as const) {
      const { res } = await get(qs);
      expect(res.statusCode, qs).toBe(400);
      if (key) expect(body(res).errors?.[field], qs).toBe(key);
      expect(body(res).text, qs).toBeTruthy();
    }
    const es = await get('sort=power', { ...admin, 'accept-language': 'es' });
    expect(body(es.res).text).not.toBe(body((await get('sort=power')).res).text);
    const marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
    expect((await get('timezone=UTC', marketing)).res.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/partners/demand/overview' })).statusCode).toBe(401);
  });
});
