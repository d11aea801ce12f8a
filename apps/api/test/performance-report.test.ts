/**
 * Performance report (GET /v1/reports/performance and its export) through the HTTP API: figures
 * against raw SQL sums over the hourly fact (not the rollup the report reads), the windows
 * compared (whole months; month to date against the same days and hours, UTC and Madrid), sort,
 * paging and filters, the rules' messages, the CSV and XLSX files, and the ACL.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { micros6, ratio6 } from './reports-fixtures.ts';

/** 41 days ending Thursday 10 April 2025 14:00 UTC: all of March, and February's last hours. */
const END = Date.UTC(2025, 3, 10, 14);
const DATA = { endMs: END, days: 41, scale: 0.15, qpsDays: 0, seed: 5 };

interface Row {
  id: number;
  name: string;
  side: string;
  [key: string]: string | number | null;
}
interface Answer {
  month: string;
  previous_month: string;
  mode: string;
  windows: { current: { start: string; end: string }; previous: { start: string; end: string } };
  data: { start: string; end: string } | null;
  partial_data: boolean;
  rows: Row[];
  totals: Record<string, string | number | null>;
  total_rows: number;
}

interface RawSums {
  rev: bigint;
  cost: bigint;
  imps: bigint;
  bidRequests: bigint;
  bids: bigint;
  wins: bigint;
  timeouts: bigint;
}

describe('performance report', () => {
  let t: TestApp;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(t.app.ctx.database, DATA);
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 240_000);
  afterAll(async () => t?.close());

  const get = async (qs: string, headers: Record<string, string> = admin) =>
    t.app.inject({ url: `/v1/reports/performance?${qs}`, headers });
  const report = async (qs: string) => {
    const res = await get(qs);
    expect(res.statusCode, res.body).toBe(200);
    return body<Answer>(res).data;
  };

  /** Per partner sums over [from, to) straight from the hourly fact (no rollup, no level). */
  async function rawSums(from: string, to: string): Promise<Map<number, RawSums>> {
    const rows = await query<Record<string, string>>(
      t.app.ctx.database,
      `SELECT demand_partner_id::text AS id, sum(revenue_micros)::text AS rev, sum(cost_micros)::text AS cost, sum(impressions)::text AS imps,
         sum(bid_requests)::text AS bid_requests, sum(bids)::text AS bids, sum(wins)::text AS wins, sum(timeouts)::text AS timeouts
       FROM stats_hourly WHERE ts >= $1 AND ts < $2 GROUP BY demand_partner_id`,
      [from, to],
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          rev: BigInt(r.rev!),
          cost: BigInt(r.cost!),
          imps: BigInt(r.imps!),
          bidRequests: BigInt(r.bid_requests!),
          bids: BigInt(r.bids!),
          wins: BigInt(r.wins!),
          timeouts: BigInt(r.timeouts!),
        },
      ]),
    );
  }
  const zero: RawSums = { rev: 0n, cost: 0n, imps: 0n, bidRequests: 0n, bids: 0n, wins: 0n, timeouts: 0n };
  const total = (m: Map<number, RawSums>): RawSums =>
    [...m.values()].reduce(
      (a, s) => ({
        rev: a.rev + s.rev,
        cost: a.cost + s.cost,
        imps: a.imps + s.imps,
        bidRequests: a.bidRequests + s.bidRequests,
        bids: a.bids + s.bids,
        wins: a.wins + s.wins,
        timeouts: a.timeouts + s.timeouts,
      }),
      zero,
    );
  const abs = (v: bigint) => (v < 0n ? -v : v);
  /** What a row (or the totals) should say, computed here from the raw sums with the reference arithmetic. */
  function expected(c: RawSums, p: RawSums) {
    return {
      revenue: micros6(c.rev),
      revenue_prev: micros6(p.rev),
      revenue_change: p.rev === 0n ? null : ratio6(c.rev - p.rev, abs(p.rev)),
      cost: micros6(c.cost),
      margin: micros6(c.rev - c.cost),
      margin_prev: micros6(p.rev - p.cost),
      margin_pct: ratio6(c.rev - c.cost, c.rev),
      impressions: Number(c.imps),
      impressions_prev: Number(p.imps),
      ecpm: ratio6(c.rev, c.imps * 1000n),
      bid_rate: ratio6(c.bids, c.bidRequests),
      win_rate: ratio6(c.wins, c.bids),
      timeout_rate: ratio6(c.timeouts, c.bidRequests),
      // Points: this month's rate minus last month's, exact.
      bid_rate_change:
        c.bidRequests === 0n || p.bidRequests === 0n
          ? null
          : ratio6(c.bids * p.bidRequests - p.bids * c.bidRequests, c.bidRequests * p.bidRequests),
    };
  }

  it('a past month: the whole month against the whole previous month, equal to the raw sums', async () => {
    const a = await report('month=2025-03&timezone=UTC&page_size=200');
    expect(a).toMatchObject({
      month: '2025-03',
      previous_month: '2025-02',
      mode: 'whole_month',
      windows: {
        current: { start: '2025-03-01T00:00:00.000Z', end: '2025-04-01T00:00:00.000Z' },
        previous: { start: '2025-02-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z' },
      },
      // February is only loaded from the 28th, 14:00: the comparison says it is incomplete.
      partial_data: true,
      data: { start: '2025-02-28T14:00:00.000Z', end: '2025-04-10T14:00:00.000Z' },
    });
    const cur = await rawSums('2025-03-01T00:00:00Z', '2025-04-01T00:00:00Z');
    const prev = await rawSums('2025-02-01T00:00:00Z', '2025-03-01T00:00:00Z');
    const ids = new Set([...cur.keys(), ...prev.keys()]);
    expect(a.total_rows).toBe(ids.size);
    expect(a.total_rows).toBeGreaterThan(10);
    expect(a.rows).toHaveLength(ids.size);
    for (const row of a.rows)
      expect(row, row.name).toMatchObject(expected(cur.get(row.id) ?? zero, prev.get(row.id) ?? zero));
    expect(a.totals).toMatchObject(expected(total(cur), total(prev)));
    // Default order: revenue, highest first.
    const revenues = a.rows.map((r) => Number(r.revenue));
    expect(revenues).toEqual([...revenues].sort((x, y) => y - x));
  });

  it('the current month: month to date against the same days and hours of last month (UTC and Madrid)', async () => {
    const utc = await report('month=2025-04&timezone=UTC&page_size=200');
    expect(utc.mode).toBe('month_to_date');
    // The data ends on the 10th at 14:00: the 1st to the 10th at 14:00, both months.
    expect(utc.windows).toEqual({
      current: { start: '2025-04-01T00:00:00.000Z', end: '2025-04-10T14:00:00.000Z' },
      previous: { start: '2025-03-01T00:00:00.000Z', end: '2025-03-10T14:00:00.000Z' },
    });
    expect(utc.partial_data).toBe(false);
    let cur = await rawSums(utc.windows.current.start, utc.windows.current.end);
    let prev = await rawSums(utc.windows.previous.start, utc.windows.previous.end);
    for (const row of utc.rows)
      expect(row, row.name).toMatchObject(expected(cur.get(row.id) ?? zero, prev.get(row.id) ?? zero));
    expect(utc.totals).toMatchObject(expected(total(cur), total(prev)));

    // Madrid: local months (April starts at 22:00 UTC on 31 March), 16:00 CEST against 16:00 CET.
    const madrid = await report('month=2025-04&timezone=Europe%2FMadrid&page_size=200');
    expect(madrid.windows).toEqual({
      current: { start: '2025-03-31T22:00:00.000Z', end: '2025-04-10T14:00:00.000Z' },
      previous: { start: '2025-02-28T23:00:00.000Z', end: '2025-03-10T15:00:00.000Z' },
    });
    cur = await rawSums(madrid.windows.current.start, madrid.windows.current.end);
    prev = await rawSums(madrid.windows.previous.start, madrid.windows.previous.end);
    expect(madrid.rows.length).toBeGreaterThan(10);
    expect(madrid.totals.revenue).not.toBe(utc.totals.revenue);
    for (const row of madrid.rows)
      expect(row, row.name).toMatchObject(expected(cur.get(row.id) ?? zero, prev.get(row.id) ?? zero));
    expect(madrid.totals).toMatchObject(expected(total(cur), total(prev)));
  });

  it('sorts and pages on the server, and filters by name and side', async () => {
    const all = await report('month=2025-03&sort=-revenue&page_size=200');
    const p1 = await report('month=2025-03&sort=-revenue&page_size=5&page=1');
    const p2 = await report('month=2025-03&sort=-revenue&page_size=5&page=2');
    expect(p1.total_rows).toBe(all.total_rows);
    expect([...p1.rows, ...p2.rows].map((r) => r.id)).toEqual(all.rows.slice(0, 10).map((r) => r.id));
    // The totals are the whole filtered result's, on every page.
    expect(p2.totals).toEqual(all.totals);
    const beyond = await report('month=2025-03&page_size=5&page=99');
    expect(beyond.rows).toEqual([]);
    expect(beyond.total_rows).toBe(all.total_rows);

    const byName = await report('month=2025-03&sort=name&page_size=200');
    const names = byName.rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    // A change: in the order of the figures shown, nothing to compare with (null) last.
    for (const field of ['margin_pct_change', 'ecpm_change', '-win_rate_prev']) {
      const desc = field.startsWith('-');
      const key = field.replace(/^-/, '');
      const sorted = await report(`month=2025-04&sort=${desc ? field : `-${field}`}&page_size=200`);
      const values = sorted.rows.map((r) => r[key]);
      const firstNull = values.indexOf(null);
      const numbers = (firstNull < 0 ? values : values.slice(0, firstNull)).map(Number);
      expect(numbers, field).toEqual([...numbers].sort((x, y) => y - x));
      if (firstNull >= 0) expect(values.slice(firstNull).every((v) => v === null)).toBe(true);
      const asc = await report(`month=2025-04&sort=${key}&page_size=200`);
      const ascNumbers = asc.rows
        .map((r) => r[key])
        .filter((v) => v !== null)
        .map(Number);
      expect(ascNumbers, `${key} ascending`).toEqual([...ascNumbers].sort((x, y) => x - y));
    }

    const nimbus = await report('month=2025-03&search=NIMBUS');
    expect(nimbus.rows.map((r) => r.name)).toEqual(['Nimbus Exchange']);
    expect(nimbus.totals.revenue).toBe(nimbus.rows[0]!.revenue);
    // LIKE wildcards are taken literally.
    expect((await report('month=2025-03&search=%25')).total_rows).toBe(0);

    // Two partners move to the performance side.
    const moved = all.rows.slice(0, 2).map((r) => r.id);
    await query(
      t.app.ctx.database,
      `UPDATE demand_partners SET side = 'performance' WHERE id = ANY($1::int4[])`,
      [moved],
    );
    const perf = await report('month=2025-03&side=performance');
    expect(perf.rows.map((r) => r.id).sort()).toEqual([...moved].sort());
    expect(perf.rows.every((r) => r.side === 'performance')).toBe(true);
    const ssp = await report('month=2025-03&side=ssp&page_size=200');
    expect(ssp.total_rows).toBe(all.total_rows - 2);
    const sum = (rows: Row[]) => rows.reduce((s, r) => s + BigInt(String(r.revenue).replace('.', '')), 0n);
    expect(sum(perf.rows) + sum(ssp.rows)).toBe(sum(all.rows));
    await query(t.app.ctx.database, `UPDATE demand_partners SET side = 'ssp' WHERE id = ANY($1::int4[])`, [
      moved,
    ]);
  });

  it('a month without data answers no rows, not an error', async () => {
    const a = await report('month=2024-06');
    expect(a).toMatchObject({ mode: 'whole_month', rows: [], total_rows: 0 });
    expect(a.totals.revenue).toBe('0.000000');
    expect(a.totals.revenue_change).toBeNull();
  });

  it('refuses a missing, malformed or future month and other bad input, with translated messages', async () => {
    const bad = async (qs: string, key: string, field: string, lang = 'en') => {
      const res = await get(qs, { ...admin, 'accept-language': lang });
      expect(res.statusCode, qs).toBe(400);
      const b = body(res);
      expect(b.message, qs).toBe(key);
      expect(b.errors?.[field], qs).toBe(key);
      return b.text;
    };
    expect(await bad('', 'perf_report.month_required', 'month')).toBe('Choose a month');
    expect(await bad('month=2025-13', 'perf_report.month_invalid', 'month', 'es')).toBe(
      'Escribe el mes como AAAA-MM (desde 2000)',
    );
    await bad('month=03-2025', 'perf_report.month_invalid', 'month');
    const now = new Date();
    const next = `${now.getUTCMonth() === 11 ? now.getUTCFullYear() + 1 : now.getUTCFullYear()}-${String(((now.getUTCMonth() + 1) % 12) + 1).padStart(2, '0')}`;
    expect(await bad(`month=${next}&timezone=UTC`, 'perf_report.month_future', 'month', 'es')).toBe(
      'El mes no puede ser posterior al mes actual',
    );
    // The current month is allowed.
    expect((await get(`month=${now.toISOString().slice(0, 7)}&timezone=UTC`)).statusCode).toBe(200);
    await bad('month=2025-03&side=supply', 'perf_report.side_invalid', 'side');
    await bad('month=2025-03&sort=-profit', 'perf_report.sort_invalid', 'sort');
    await bad('month=2025-03&page_size=1000', 'perf_report.page_invalid', 'page_size');
    await bad('month=2025-03&timezone=Mars%2FOlympus', 'report.timezone_invalid', 'timezone');
    const exportBad = await t.app.inject({
      url: '/v1/reports/performance/export?month=2025-03&format=pdf',
      headers: admin,
    });
    expect(exportBad.statusCode).toBe(400);
    expect(body(exportBad).message).toBe('report.export_format_invalid');
  });

  it('exports every filtered partner as CSV (exact decimals, windows in the titles) and as XLSX', async () => {
    const a = await report('month=2025-03&sort=name&page_size=200');
    const res = await t.app.inject({
      url: '/v1/reports/performance/export?month=2025-03&sort=name&page_size=2&format=csv',
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(
      /filename="performance_report_\d{4}-\d{2}-\d{2}_\d{6}\.csv"/,
    );
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).trimEnd().split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 6)).toEqual([
      'Demand partner',
      'Demand partner ID',
      'Side',
      'Revenue (2025-03)',
      'Revenue (2025-02)',
      'Revenue change %',
    ]);
    expect(header).toContain('Margin % change (points)');
    // Every partner, not a page, in the report's order.
    expect(lines).toHaveLength(a.total_rows + 1);
    const first = lines[1]!.split(',');
    const row = a.rows[0]!;
    expect(first.slice(0, 5)).toEqual([row.name, String(row.id), 'SSP', row.revenue, row.revenue_prev]);
    const col = (title: string) => first[header.indexOf(title)];
    // Rates and changes as percentages, exactly.
    const pct = (v: string | number | null | undefined) =>
      v === null || v === undefined ? '' : (Number(v) * 100).toFixed(4);
    expect(col('Margin % (2025-03)')).toBe(pct(row.margin_pct));
    expect(col('Revenue change %')).toBe(pct(row.revenue_change));

    const es = await t.app.inject({
      url: '/v1/reports/performance/export?month=2025-04&timezone=Europe%2FMadrid&format=csv',
      headers: { ...admin, 'accept-language': 'es' },
    });
    const esHeader = es.body.slice(1).split('\r\n')[0]!;
    expect(esHeader).toContain(
      'Ingresos (2025-04-01 00:00 – 2025-04-10 16:00),Ingresos (2025-03-01 00:00 – 2025-03-10 16:00),Ingresos: cambio %',
    );

    const x = await t.app.inject({
      url: '/v1/reports/performance/export?month=2025-03&sort=name&format=xlsx',
      headers: admin,
    });
    expect(x.statusCode).toBe(200);
    expect(String(x.headers['content-disposition'])).toMatch(
      /performance_report_\d{4}-\d{2}-\d{2}_\d{6}\.xlsx/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(a.total_rows + 1);
    expect(sheet.getRow(1).getCell(4).value).toBe('Revenue (2025-03)');
    expect(sheet.getRow(2).getCell(1).value).toBe(row.name);
    expect(sheet.getRow(2).getCell(4).value).toBe(Number(row.revenue));

    const empty = await t.app.inject({
      url: '/v1/reports/performance/export?month=2024-06&format=csv',
      headers: admin,
    });
    expect(empty.statusCode).toBe(422);
    expect(body(empty).message).toBe('report.export_empty');
  });

  it('needs the /v1/reports/performance permission', async () => {
    expect((await t.app.inject({ url: '/v1/reports/performance?month=2025-03' })).statusCode).toBe(401);
    const marketing = await signIn(t.app, 'marketing@adtech.example');
    const denied = await get('month=2025-03', marketing.headers);
    expect(denied.statusCode).toBe(403);
    expect(body(denied).message).toBe('auth.forbidden');
    expect(
      (
        await t.app.inject({
          url: '/v1/reports/performance/export?month=2025-03',
          headers: marketing.headers,
        })
      ).statusCode,
    ).toBe(403);
    // A demand lead holds /v1/reports, which covers it.
    const lead = await signIn(t.app, 'demand.lead@adtech.example');
    expect((await get('month=2025-03', lead.headers)).statusCode).toBe(200);
  });
});
