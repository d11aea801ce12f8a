/**
 * Manual stats (`/v1/stats-manual`) through the HTTP API: the partners that report by hand; every
 * rule of an entered day with its key (nothing stored when one fails); replacing a day asks first
 * (409 listing the days) and replaces after `replace`; entering the same twice, also concurrently,
 * changes nothing; the list's filters, sort, totals and export; the figures in billing (through the
 * billing API) marked manual, exact to the micro-unit, and back to the warehouse's when removed;
 * the ACL (read vs write) and the audit entries.
 */
import type { BillingListAnswer, BillingRowDto } from '@backoffice/core/billing-api';
import { translate } from '@backoffice/core/i18n/catalogues';
import type { EnterStatsResult, ManualPartner, ReplacedDay, StatsAnswer } from '@backoffice/core/partner-stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { DEMO_MAPPING, seedPartnerStatsDemo } from '../src/modules/partner-stats/demo.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { userWithAcl } from './firewall-fixtures.ts';

const BASE = '/v1/stats-manual';
/** 12 days ending 10 April 2025: 1-9 April are whole days of the warehouse. */
const DATA = { endMs: Date.UTC(2025, 3, 10, 0), days: 12, scale: 0.04, qpsDays: 0, seed: 5 };
type Headers = Record<string, string>;

describe('manual stats', () => {
  let t: TestApp;
  let tech: Headers;
  let finance: Headers;
  let reader: Headers;
  let none: Headers;
  let orion: number;
  let ember: number;
  let nimbus: number;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(db(), DATA);
    const ps = await query<{ id: number; name: string }>(
      db(),
      `UPDATE demand_partners SET reporting = CASE WHEN name IN ('Orion Network', 'Ember Media', 'Amazon TAM') THEN 'manual' ELSE 'api' END
       WHERE side = 'ssp' RETURNING id, name`,
    );
    const id = (n: string) => Number(ps.find((p) => p.name === n)!.id);
    [orion, ember, nimbus] = [id('Orion Network'), id('Ember Media'), id('Nimbus Exchange')];
    tech = (await signIn(t.app, DEMO.tech)).headers;
    finance = (await signIn(t.app, DEMO.finance)).headers;
    reader = (await userWithAcl(t.app, 'stats.reader@adtech.example', { '/v1/stats-manual': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'stats.none@adtech.example', { '/v1/amazon': ['read'] })).headers;
  }, 240_000);
  afterAll(async () => t?.close());

  const enter = (payload: unknown, headers = tech) => t.app.inject({ method: 'POST', url: BASE, headers, payload: payload as object });
  const list = async (qs = '') => {
    const res = await t.app.inject({ url: `${BASE}${qs}`, headers: reader });
    expect(res.statusCode, res.body).toBe(200);
    return body<StatsAnswer>(res).data;
  };
  const day = (d: string, partner: number, impressions: number, revenue: string) => ({ day: d, demand_partner_id: partner, impressions, revenue, currency: 'USD' });
  const count = async () => Number((await query<{ n: string }>(db(), 'SELECT count(*)::text AS n FROM partner_stats'))[0]!.n);

  it('lists the SSP partners that report by hand', async () => {
    const res = await t.app.inject({ url: `${BASE}/partners`, headers: reader });
    expect(res.statusCode).toBe(200);
    const names = body<ManualPartner[]>(res).data.map((p) => p.name);
    expect(names).toEqual(['Amazon TAM', 'Ember Media', 'Orion Network']);
  });

  it('refuses every bad entry with its key, next to the entry, storing nothing', async () => {
    const before = await count();
    const cases: [unknown, string, string][] = [
      [day('2025-02-30', orion, 1, '1'), 'entries.0.day', 'stats.date_invalid'],
      [day('02/04/2025', orion, 1, '1'), 'entries.0.day', 'stats.date_invalid'],
      [day('2999-01-01', orion, 1, '1'), 'entries.0.day', 'stats.date_future'],
      [day('1999-12-31', orion, 1, '1'), 'entries.0.day', 'stats.date_invalid'],
      [day('2025-04-01', orion, -1, '1'), 'entries.0.impressions', 'stats.negative'],
      [day('2025-04-01', orion, 1.5, '1'), 'entries.0.impressions', 'stats.impressions_whole'],
      [day('2025-04-01', orion, 1, 'abc'), 'entries.0.revenue', 'stats.number_invalid'],
      [day('2025-04-01', orion, 1, '-3.00'), 'entries.0.revenue', 'stats.number_invalid'],
      [day('2025-04-01', orion, 1, '1.1234567'), 'entries.0.revenue', 'stats.number_invalid'],
      [day('2025-04-01', orion, 1, '100000001'), 'entries.0.revenue', 'stats.too_large'],
      [{ ...day('2025-04-01', orion, 1, '1'), currency: 'EUR' }, 'entries.0.currency', 'stats.currency_invalid'],
      [day('2025-04-01', nimbus, 1, '1'), 'entries.0.demand_partner_id', 'stats.partner_not_manual'],
      [day('2025-04-01', 999_999, 1, '1'), 'entries.0.demand_partner_id', 'stats.partner_not_manual'],
    ];
    for (const [entry, field, key] of cases) {
      const res = await enter({ entries: [entry] });
      expect(res.statusCode, `${JSON.stringify(entry)} ${res.body}`).toBe(400);
      expect(body(res).errors?.[field], JSON.stringify(entry)).toBe(key);
      expect(translate('en', key)).not.toBe(key);
      expect(translate('es', key)).not.toBe(translate('en', key));
    }
    const twice = await enter({ entries: [day('2025-04-01', orion, 1, '1'), day('2025-04-01', orion, 2, '2')] });
    expect(twice.statusCode).toBe(400);
    expect(body(twice).errors?.['entries.1.day']).toBe('stats.duplicate_day');
    const emptyList = await enter({ entries: [] });
    expect(emptyList.statusCode).toBe(400);
    expect(body(emptyList).errors?.entries).toBe('stats.entries_required');
    expect(await count()).toBe(before);
  });

  it('enters days; the same again changes nothing; other figures ask first (409 with the days) and replace after confirming', async () => {
    const first = await enter({ entries: [day('2025-04-02', orion, 120_000, '183.25'), day('2025-04-03', orion, 118_500, '179.5')] });
    expect(first.statusCode, first.body).toBe(200);
    expect(body<EnterStatsResult>(first).data).toEqual({ inserted: 2, replaced: 0, unchanged: 0 });
    expect(body(first).message).toBe('stats.saved');

    const again = await enter({ entries: [day('2025-04-02', orion, 120_000, '183.250'), day('2025-04-03', orion, 118_500, '179.50')] });
    expect(again.statusCode).toBe(200);
    expect(body<EnterStatsResult>(again).data).toEqual({ inserted: 0, replaced: 0, unchanged: 2 });
    expect(body(again).message).toBe('stats.nothing_changed');

    const other = await enter({ entries: [day('2025-04-03', orion, 118_500, '181.00'), day('2025-04-04', orion, 99_000, '150')] });
    expect(other.statusCode).toBe(409);
    expect(body(other).message).toBe('stats.replace_confirm');
    const asked = body<{ days: ReplacedDay[] }>(other).data.days;
    expect(asked).toEqual([
      { day: '2025-04-03', demand_partner_id: orion, partner: 'Orion Network', current: { impressions: 118_500, revenue: '179.50', currency: 'USD', source: 'manual' }, next: { impressions: 118_500, revenue: '181.00', currency: 'USD' } },
    ]);
    // Nothing was written: not even the new day of the refused request.
    expect((await list(`?partner=${orion}`)).items.map((s) => s.day)).toEqual(['2025-04-03', '2025-04-02']);

    const replaced = await enter({ entries: [day('2025-04-03', orion, 118_500, '181.00'), day('2025-04-04', orion, 99_000, '150')], replace: true });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(body<EnterStatsResult>(replaced).data).toEqual({ inserted: 1, replaced: 1, unchanged: 0 });
    const rows = (await list(`?partner=${orion}&sort=day`)).items;
    expect(rows.map((s) => [s.day, s.impressions, s.revenue, s.source, s.updated_by])).toEqual([
      ['2025-04-02', 120_000, '183.25', 'manual', 'Priya Natarajan'],
      ['2025-04-03', 118_500, '181.00', 'manual', 'Priya Natarajan'],
      ['2025-04-04', 99_000, '150.00', 'manual', 'Priya Natarajan'],
    ]);
    const audit = await query<{ action: string; before: unknown }>(db(), `SELECT action, before FROM audit_log WHERE entity = 'demand_partner_stats' AND entity_id = $1 ORDER BY id`, [String(orion)]);
    expect(audit.map((a) => a.action)).toEqual(['partner_stats.enter', 'partner_stats.enter']);
    expect(audit[1]!.before).toEqual([{ day: '2025-04-03', impressions: 118_500, revenue: '179.50', source: 'manual' }]);
  });

  it('two identical requests at once enter the days once', async () => {
    const payload = { entries: [day('2025-04-05', ember, 50_000, '61.75')], source: 'upload' };
    const answers = await Promise.all([1, 2, 3].map(() => enter(payload)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const results = answers.map((a) => body<EnterStatsResult>(a).data);
    expect(results.filter((r) => r.inserted === 1)).toHaveLength(1);
    expect(results.filter((r) => r.unchanged === 1)).toHaveLength(2);
    const rows = (await list(`?partner=${ember}`)).items;
    expect(rows.map((r) => [r.day, r.source, r.version])).toEqual([['2025-04-05', 'upload', 1]]);
  });

  it('filters by partner, days and source in the query; sorts; sums the filtered figures; exports them', async () => {
    const all = await list('');
    expect(all.total).toBe(4);
    expect(all.totals).toEqual({ impressions: 387_500, revenue: '576.00', currency: 'USD', days: 4 });
    const ranged = await list(`?from=2025-04-03&to=2025-04-04&sort=-revenue`);
    expect(ranged.items.map((s) => s.revenue)).toEqual(['181.00', '150.00']);
    expect((await list('?source=upload')).items.map((s) => s.partner)).toEqual(['Ember Media']);
    const paged = await list('?sort=day&page=2&page_size=3');
    expect(paged.items.map((s) => s.day)).toEqual(['2025-04-05']);
    expect((await t.app.inject({ url: `${BASE}?from=2025-13-01`, headers: reader })).statusCode).toBe(400);
    const csv = await t.app.inject({ url: `${BASE}/export?partner=${orion}&format=csv&sort=day`, headers: { ...reader, 'accept-language': 'es' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/manual_stats_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toContain('Día');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('2025-04-02');
    const xlsx = await t.app.inject({ url: `${BASE}/export?format=xlsx`, headers: reader });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx"/);
  });

  it('bills the reported days instead of the warehouse’s, marked manual, exact to the micro-unit; removed, the warehouse’s again', async () => {
    const compute = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: '2025-04' } });
    expect(compute.statusCode, compute.body).toBe(200);
    const rowsOf = async (partner: number) => {
      const res = await t.app.inject({ url: `/v1/billing/ssp/rows?kind=advertiser&month=2025-04&page_size=500`, headers: finance });
      expect(res.statusCode, res.body).toBe(200);
      return body<BillingListAnswer>(res).data.rows.filter((r: BillingRowDto) => r.counterparty.id === partner);
    };
    const orionRows = await rowsOf(orion);
    expect(orionRows.length).toBeGreaterThan(0);
    expect(orionRows.every((r) => r.revenue_source === 'manual')).toBe(true);
    // Warehouse of the month - warehouse of 2-4 April + reported 2-4 April (514.25), summed over the formats.
    const [wh] = await query<{ month: string; days: string }>(
      db(),
      `SELECT (SELECT sum(revenue_micros) FROM stats_hourly WHERE demand_partner_id = $1 AND ts >= '2025-04-01' AND ts < '2025-05-01')::text AS month,
              (SELECT sum(revenue_micros) FROM stats_hourly WHERE demand_partner_id = $1 AND ts >= '2025-04-02' AND ts < '2025-04-05')::text AS days`,
      [orion],
    );
    const expected = BigInt(wh!.month) - BigInt(wh!.days) + 514_250_000n;
    const billed = orionRows.reduce((s, r) => s + BigInt(Math.round(Number(r.revenue_network) * 1e6)), 0n);
    expect(billed).toBe(expected);
    // A partner reporting through its API keeps the warehouse's figure.
    const nimbusRows = await rowsOf(nimbus);
    expect(nimbusRows.every((r) => r.revenue_source === 'warehouse' && r.revenue_network === null)).toBe(true);

    // Removing Orion's days (as undoing would) brings the warehouse's figure back on recompute.
    await query(db(), 'DELETE FROM partner_stats WHERE demand_partner_id = $1', [orion]);
    expect((await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: '2025-04' } })).statusCode).toBe(200);
    expect((await rowsOf(orion)).every((r) => r.revenue_source === 'warehouse' && r.revenue_network === null)).toBe(true);
    // Entering a day updates the month's open rows at once (no recompute needed).
    expect((await enter({ entries: [day('2025-04-06', orion, 1000, '2.00')] })).statusCode).toBe(200);
    expect((await rowsOf(orion)).every((r) => r.revenue_source === 'manual')).toBe(true);
  });

  it('marks in a report grouped by demand partner the partners that reported days of its range, with what they reported', async () => {
    expect((await enter({ entries: [day('2025-04-07', ember, 100, '10.5'), day('2025-04-08', ember, 50, '1.25')], replace: true })).statusCode).toBe(200);
    const admin = (await signIn(t.app, DEMO.admin)).headers;
    const report = async (dimensions: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/reports/dataviewer/query',
        headers: admin,
        payload: { range: { start: '2025-04-07', end: '2025-04-08' }, timezone: 'UTC', dimensions, metrics: ['revenue'], limit: 500 },
      });
      expect(res.statusCode, res.body).toBe(200);
      return body<{ fields: string[]; rows: unknown[][]; manual?: Record<string, { days: number; impressions: string; revenue: string }> }>(res).data;
    };
    const byPartner = await report(['demand_partner']);
    const [stored] = await query<{ days: number; impressions: string; revenue: string }>(
      db(),
      `SELECT count(*)::int4 AS days, sum(impressions)::text AS impressions, sum(revenue)::text AS revenue
         FROM partner_stats WHERE demand_partner_id = $1 AND day BETWEEN '2025-04-07' AND '2025-04-08'`,
      [ember],
    );
    expect(byPartner.manual?.[String(ember)]).toEqual({ days: 2, impressions: stored!.impressions, revenue: '11.75' });
    expect(stored!.revenue).toBe('11.750000');
    // A partner that reports through its API is not marked; the warehouse's figures stay in the rows.
    expect(byPartner.manual?.[String(nimbus)]).toBeUndefined();
    const at = byPartner.fields.indexOf('demand_partner_id');
    expect(byPartner.rows.some((r) => Number(r[at]) === ember)).toBe(true);
    // Without the demand partner dimension nothing is marked.
    expect((await report(['day'])).manual).toBeUndefined();
  });

  it('seeds the demo cheaply and once: three manual partners with 30 days, Amazon from one import with its mapping', async () => {
    const started = Date.now();
    await seedPartnerStatsDemo(db());
    expect(Date.now() - started).toBeLessThan(3000);
    await seedPartnerStatsDemo(db());
    const perPartner = await query<{ name: string; days: string; sources: string }>(
      db(),
      `SELECT p.name, count(*)::text AS days, string_agg(DISTINCT s.source, ',' ORDER BY s.source) AS sources
       FROM partner_stats s JOIN demand_partners p ON p.id = s.demand_partner_id WHERE s.day >= (now() - interval '31 days')::date
       GROUP BY p.name ORDER BY p.name`,
    );
    expect(perPartner).toEqual([
      { name: 'Amazon TAM', days: '30', sources: 'amazon_csv' },
      { name: 'Ember Media', days: '30', sources: 'manual,upload' },
      { name: 'Orion Network', days: '30', sources: 'manual' },
    ]);
    const imports = await query<{ days: number; mapping_name: string }>(db(), 'SELECT days, mapping_name FROM partner_stat_imports');
    expect(imports).toEqual([{ days: 30, mapping_name: DEMO_MAPPING }]);
    expect((await query(db(), 'SELECT 1 FROM amazon_csv_mappings WHERE name = $1', [DEMO_MAPPING])).length).toBe(1);
  });

  it('enforces the ACL: read to see, write to enter', async () => {
    expect((await t.app.inject({ url: BASE, headers: none })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${BASE}/partners`, headers: none })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${BASE}/export`, headers: none })).statusCode).toBe(403);
    expect((await enter({ entries: [day('2025-04-07', orion, 1, '1')] }, reader)).statusCode).toBe(403);
    expect((await enter({ entries: [day('2025-04-07', orion, 1, '1')] }, none)).statusCode).toBe(403);
    const sspLead = (await signIn(t.app, DEMO.sspLead)).headers;
    expect((await t.app.inject({ url: BASE, headers: sspLead })).statusCode).toBe(200);
    expect((await enter({ entries: [day('2025-04-07', orion, 1, '1')] }, sspLead)).statusCode).toBe(403);
    expect((await t.app.inject({ url: BASE })).statusCode).toBe(401);
  });
});
