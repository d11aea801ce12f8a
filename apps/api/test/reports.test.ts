/**
 * DataViewer API: every validation rule, and correctness against an independent computation from
 * the raw fact rows (exact decimals, rate metrics as ratios of sums, time zones across midnight and
 * a DST change, include/exclude filters, sort and pagination), export and dimension look-ups.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_DEFS, METRICS, fromReportAnswer, resolveReportRange, type Dimension, type Metric, type ReportAnswer } from '@backoffice/core/reports';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { entityNames, loadReportsFixture, rawFacts, referenceReport, rowKey, type RawFact, type RefSpec } from './reports-fixtures.ts';

const ALL_METRICS = [...METRICS] as Metric[];

describe('reports: DataViewer query, export and look-ups', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let facts: RawFact[];
  let names: Awaited<ReturnType<typeof entityNames>>;

  beforeAll(async () => {
    t = await createTestApp();
    await loadReportsFixture(t.app.ctx.database);
    facts = await rawFacts(t.app.ctx.database);
    names = await entityNames(t.app.ctx.database);
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 180_000);
  afterAll(async () => t?.close());

  const run = (payload: unknown, headers: Record<string, string> = admin) =>
    t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/query', payload: payload as object, headers });

  const base = { range: { start: '2025-03-29', end: '2025-03-31' }, timezone: 'Europe/Madrid' };

  describe('validation', () => {
    it("answers 'Dates are mandatory' without a range, in en and es", async () => {
      const en = await run({ dimensions: ['day'], metrics: ['revenue'] });
      expect(en.statusCode).toBe(400);
      expect(body(en)).toMatchObject({ status: 'error', message: 'report.dates_mandatory', text: 'Dates are mandatory' });
      const es = await run({ dimensions: ['day'], metrics: ['revenue'] }, { ...admin, 'accept-language': 'es' });
      expect(body(es).text).toBe('Las fechas son obligatorias');
      const half = await run({ range: { start: '2025-03-29' }, dimensions: ['day'] });
      expect(body(half).message).toBe('report.dates_mandatory');
    });

    it("answers 'At least one dimension or Metric is required'", async () => {
      const res = await run({ ...base, dimensions: [], metrics: [] });
      expect(res.statusCode).toBe(400);
      expect(body(res)).toMatchObject({ message: 'report.dimension_or_metric_required', text: 'At least one dimension or Metric is required' });
    });

    it.each([
      [{ ...base, range: { start: '2025-13-01', end: '2025-03-31' }, metrics: ['revenue'] }, 'report.date_invalid'],
      [{ ...base, range: { start: '2025-03-31', end: '2025-03-01' }, metrics: ['revenue'] }, 'report.range_order'],
      [{ ...base, range: { start: '2024-01-01', end: '2025-03-31' }, metrics: ['revenue'] }, 'report.range_too_long'],
      [{ ...base, range: { start: '2024-10-01', end: '2025-03-31' }, dimensions: ['hour'], metrics: ['revenue'] }, 'report.hour_range_too_long'],
      [{ ...base, timezone: 'Mars/Olympus', metrics: ['revenue'] }, 'report.timezone_invalid'],
      [{ ...base, dimensions: ['planet'], metrics: ['revenue'] }, 'report.dimension_unknown'],
      [{ ...base, dimensions: ['day', 'day'], metrics: ['revenue'] }, 'report.dimension_duplicate'],
      [{ ...base, dimensions: ['day', 'hour'], metrics: ['revenue'] }, 'report.time_dimension_single'],
      [{ ...base, dimensions: ['publisher', 'site', 'ad_unit', 'country', 'device', 'os', 'size'], metrics: ['revenue'] }, 'report.too_many_dimensions'],
      [{ ...base, metrics: ['profit'] }, 'report.metric_unknown'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'day', op: 'include', values: ['x'] }] }, 'report.filter_dimension_invalid'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'country', op: 'only', values: ['ES'] }] }, 'report.filter_op_invalid'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'country', op: 'include', values: [] }] }, 'report.filter_values_required'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'country', op: 'include', values: ['XX'] }] }, 'report.filter_value_invalid'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'publisher', op: 'include', values: ['abc'] }] }, 'report.filter_value_invalid'],
      [{ ...base, metrics: ['revenue'], filters: [{ dimension: 'publisher', op: 'include', values: [1], extra: 1 }] }, 'error.validation'],
      [{ ...base, metrics: ['revenue'], filters: Array.from({ length: 21 }, () => ({ dimension: 'country', op: 'include', values: ['ES'] })) }, 'report.too_many_filters'],
      [{ ...base, metrics: ['revenue'], sort: [{ field: 'clicks', dir: 'asc' }] }, 'report.sort_field_invalid'],
      [{ ...base, metrics: ['revenue'], sort: [{ field: 'revenue', dir: 'up' }] }, 'report.sort_dir_invalid'],
      [{ ...base, metrics: ['revenue'], limit: 100_001 }, 'report.limit_invalid'],
      [{ ...base, metrics: ['revenue'], offset: -1 }, 'report.offset_invalid'],
      [{ ...base, metrics: ['revenue'], sql: 'drop table users' }, 'error.validation'],
    ])('rejects %j with %s', async (payload, key) => {
      const res = await run(payload);
      expect(res.statusCode).toBe(400);
      const b = body(res);
      expect(b.message).toBe(key);
      expect(Object.values(b.errors ?? {})).toContain(key === 'error.validation' ? 'error.unknown_field' : key);
      expect(b.text).toBeTruthy();
    });

    it('needs a token and the reports permission', async () => {
      expect((await run({ ...base, metrics: ['revenue'] }, {})).statusCode).toBe(401);
      const marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
      const res = await run({ ...base, metrics: ['revenue'] }, marketing);
      expect(res.statusCode).toBe(403);
      const demand = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
      expect((await run({ ...base, metrics: ['revenue'] }, demand)).statusCode).toBe(200);
    });

    it('treats filter values as data, never as SQL', async () => {
      const res = await t.app.inject({ url: `/v1/reports/dimensions/publisher/values?search=${encodeURIComponent("x' OR 1=1 --")}`, headers: admin });
      expect(res.statusCode).toBe(200);
      expect(body<unknown[]>(res).data).toEqual([]);
    });
  });

  /** Runs the report through the API (all pages) and compares it with the reference. */
  async function compare(spec: Omit<RefSpec, 'startMs' | 'endMs'> & { range: { start: string; end: string } }, pageSize = 5000) {
    const r = resolveReportRange(spec.range, spec.timezone)!;
    const ref = referenceReport(facts, names, { ...spec, startMs: r.startMs, endMs: r.endMs });
    const res = await run({ range: spec.range, timezone: spec.timezone, dimensions: spec.dimensions, metrics: spec.metrics, filters: spec.filters, limit: pageSize });
    expect(res.statusCode, res.body).toBe(200);
    const answer = body<ReportAnswer>(res).data;
    // Each row's cells come in the order of `fields` (no key per cell).
    for (const cells of answer.rows) expect(cells).toHaveLength(answer.fields.length);
    const data = fromReportAnswer(answer);
    expect(data.total_rows).toBe(ref.rows.length);
    expect(data.totals).toEqual(ref.totals);
    const got = new Map(data.rows.map((row) => [rowKey(row, spec.dimensions), row]));
    expect(got.size).toBe(ref.rows.length);
    for (const { row } of ref.rows) expect(got.get(rowKey(row, spec.dimensions)), rowKey(row, spec.dimensions)).toEqual(row);
    return data;
  }

  describe('correctness against the raw facts', () => {
    it('day x demand partner in Europe/Madrid across midnight and the DST change, every metric', async () => {
      const data = await compare({ range: { start: '2025-03-28', end: '2025-04-01' }, timezone: 'Europe/Madrid', dimensions: ['day', 'demand_partner'], metrics: ALL_METRICS, filters: [] });
      expect(data.source).toBe('stats_r_partner');
      expect(data.columns.map((c) => c.key)).toEqual(['day', 'demand_partner', ...ALL_METRICS]);
    });

    it('hour x country in America/New_York with include and exclude filters', async () => {
      await compare({
        range: { start: '2025-03-30 18:00', end: '2025-03-31 06:00' },
        timezone: 'America/New_York',
        dimensions: ['hour', 'country'],
        metrics: ['bid_requests', 'bids', 'bid_rate', 'win_rate', 'revenue', 'ecpm'],
        filters: [
          { dimension: 'demand_partner', op: 'include', values: [1, '2', 3] },
          { dimension: 'country', op: 'exclude', values: ['US', 'GB'] },
        ],
      });
    });

    it('hour x device in UTC across midnight with two filters (hours grouped as stored), and its CSV labels', async () => {
      const def = {
        range: { start: '2025-03-29 21:00', end: '2025-03-30 03:00' },
        timezone: 'UTC',
        dimensions: ['hour', 'device'] as Dimension[],
        metrics: ['bid_requests', 'bids', 'impressions', 'revenue', 'margin', 'ecpm'] as Metric[],
        filters: [
          { dimension: 'demand_partner' as const, op: 'include' as const, values: [1, 2] },
          { dimension: 'country' as const, op: 'exclude' as const, values: ['US'] },
        ],
      };
      const data = await compare(def);
      const hours = [...new Set(data.rows.map((r) => r.hour))];
      expect(hours).toEqual(['2025-03-29 21:00', '2025-03-29 22:00', '2025-03-29 23:00', '2025-03-30 00:00', '2025-03-30 01:00', '2025-03-30 02:00']);
      const csv = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=csv', headers: admin, payload: def });
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.trim().split(/\r\n/).slice(1);
      expect(lines.map((l) => l.split(',')[0])).toEqual(data.rows.map((r) => r.hour));
    });

    it('a partner in one country by hour and device, and by day, country and device (each rollup row a group)', async () => {
      // The partner and country with the most fact rows in the range.
      const from = Date.UTC(2025, 2, 29, 20);
      const to = Date.UTC(2025, 2, 31, 4);
      const pairs = new Map<string, number>();
      for (const f of facts)
        if (f.ts >= from && f.ts < to) {
          const k = `${f.ids.demand_partner}:${f.ids.country}`;
          pairs.set(k, (pairs.get(k) ?? 0) + 1);
        }
      const [partner, country] = [...pairs].sort((a, b) => b[1] - a[1])[0]![0].split(':').map(Number) as [number, number];
      const hours = await compare({
        range: { start: '2025-03-29 20:00', end: '2025-03-31 04:00' },
        timezone: 'UTC',
        dimensions: ['hour', 'device'],
        metrics: ['bid_requests', 'bids', 'impressions', 'revenue', 'ecpm', 'win_rate'],
        filters: [
          { dimension: 'demand_partner', op: 'include', values: [partner] },
          { dimension: 'country', op: 'include', values: [DIMENSION_DEFS.country.values![country - 1]!] },
        ],
      });
      expect(hours.source).toBe('stats_r_partner_country_device');
      expect(hours.total_rows).toBeGreaterThan(20);
      const days = await compare({
        range: { start: '2025-03-10', end: '2025-03-30' },
        timezone: 'UTC',
        dimensions: ['day', 'country', 'device'],
        metrics: ['impressions', 'revenue', 'cost', 'margin_pct'],
        filters: [{ dimension: 'demand_partner', op: 'include', values: [1] }],
      });
      expect(days.source).toBe('stats_r_partner_country_device');
    });

    it('publisher x country for one partner over a month without a time dimension (coarse rollup blocks)', async () => {
      const data = await compare({
        range: { start: '2025-02-26', end: '2025-03-31' },
        timezone: 'UTC',
        dimensions: ['publisher', 'country'],
        metrics: ['impressions', 'revenue', 'cost', 'margin', 'margin_pct', 'fill_rate', 'render_rate', 'ctr'],
        filters: [{ dimension: 'demand_partner', op: 'include', values: [1] }],
      });
      expect(data.source).toBe('stats_r_partner_publisher');
    });

    it('week and month in UTC, and fine dimensions from the hourly fact', async () => {
      await compare({ range: { start: '2025-02-25', end: '2025-04-01' }, timezone: 'UTC', dimensions: ['week', 'environment'], metrics: ['ad_requests', 'revenue'], filters: [] });
      await compare({ range: { start: '2025-02-25', end: '2025-04-01' }, timezone: 'Asia/Tokyo', dimensions: ['month', 'device'], metrics: ['impressions', 'ecpm'], filters: [] });
      const data = await compare({
        range: { start: '2025-03-30', end: '2025-03-31' },
        timezone: 'Europe/Madrid',
        dimensions: ['ad_unit', 'size', 'deal'],
        metrics: ['wins', 'impressions', 'render_rate', 'revenue'],
        filters: [{ dimension: 'os', op: 'exclude', values: ['windows'] }],
      });
      expect(data.source).toBe('stats_hourly');
    });

    it('metrics only: one row that is also the totals', async () => {
      const data = await compare({ range: { start: '2025-03-01', end: '2025-03-31' }, timezone: 'Europe/Madrid', dimensions: [], metrics: ['revenue', 'cost', 'margin', 'margin_pct', 'timeouts', 'errors'], filters: [] });
      expect(data.rows).toEqual([data.totals]);
    });

    it('sorts and pages on the server', async () => {
      const spec = { range: { start: '2025-03-01', end: '2025-03-31' }, timezone: 'UTC', dimensions: ['publisher'] as Dimension[], metrics: ['revenue', 'impressions'] as Metric[], filters: [] };
      const r = resolveReportRange(spec.range, spec.timezone)!;
      const ref = referenceReport(facts, names, { ...spec, startMs: r.startMs, endMs: r.endMs });
      const sorted = ref.rows.map((x) => x.row).sort((a, b) => Number(b.revenue) - Number(a.revenue));
      const page = await run({ ...spec, sort: [{ field: 'revenue', dir: 'desc' }], limit: 7, offset: 7 });
      const data = fromReportAnswer(body<ReportAnswer>(page).data);
      expect(data.total_rows).toBe(sorted.length);
      expect(data.rows).toEqual(sorted.slice(7, 14));
      const byName = await run({ ...spec, sort: [{ field: 'publisher', dir: 'asc' }], limit: 5 });
      const names5 = fromReportAnswer(body<ReportAnswer>(byName).data).rows.map((x) => String(x.publisher));
      expect(names5).toEqual([...names5].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      const beyond = await run({ ...spec, limit: 10, offset: 100_000 });
      expect(body<{ rows: unknown[]; total_rows: number }>(beyond).data).toMatchObject({ rows: [], total_rows: sorted.length });
    });

    it('answers no rows (and zero totals) where there is no data', async () => {
      const res = await run({ range: { start: '2024-01-01', end: '2024-01-31' }, timezone: 'UTC', dimensions: ['day'], metrics: ['revenue', 'ecpm'] });
      expect(body(res).data).toMatchObject({ rows: [], total_rows: 0, totals: { revenue: '0.000000', ecpm: null } });
    });
  });

  describe('export', () => {
    const spec = { range: { start: '2025-03-20', end: '2025-03-31' }, timezone: 'Europe/Madrid', dimensions: ['day', 'demand_partner', 'country'], metrics: ['impressions', 'revenue', 'ecpm'] };

    it('streams the whole result as CSV with the dataviewer_YYYY-MM-DD_HHmmss name', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=csv', payload: spec, headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toMatch(/filename="dataviewer_\d{4}-\d{2}-\d{2}_\d{6}\.csv"/);
      const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(lines[0]).toBe('Day,Demand partner,Demand partner ID,Country,Impressions,Revenue,eCPM');
      const r = resolveReportRange(spec.range, spec.timezone)!;
      const ref = referenceReport(facts, names, { ...spec, dimensions: spec.dimensions as Dimension[], metrics: spec.metrics as Metric[], filters: [], startMs: r.startMs, endMs: r.endMs });
      expect(lines.length - 1).toBe(ref.rows.length);
      expect(ref.rows.length).toBeGreaterThan(100);
      // Every exported revenue adds up to the reference total exactly.
      const revenueMicros = lines.slice(1).reduce((sum, l) => sum + BigInt(l.split(',').at(-2)!.replace('.', '')), 0n);
      expect(`${revenueMicros / 1_000_000n}.${String(revenueMicros % 1_000_000n).padStart(6, '0')}`).toBe(ref.totals.revenue);
    });

    it('streams XLSX that opens with every row', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=xlsx', payload: spec, headers: { ...admin, 'accept-language': 'es' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/dataviewer_\d{4}-\d{2}-\d{2}_\d{6}\.xlsx/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0]!;
      expect(sheet.getRow(1).getCell(1).value).toBe('Día');
      const csv = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=csv', payload: spec, headers: admin });
      expect(sheet.actualRowCount).toBe(csv.body.trim().split('\r\n').length);
    });

    it("answers 'Export empty' when there is nothing to export", async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=csv', payload: { ...spec, range: { start: '2024-01-01', end: '2024-01-02' } }, headers: admin });
      expect(res.statusCode).toBe(422);
      expect(body(res)).toMatchObject({ message: 'report.export_empty', text: 'Export empty' });
      const bad = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=pdf', payload: spec, headers: admin });
      expect(body(bad).message).toBe('report.export_format_invalid');
      const noDates = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export', payload: { metrics: ['revenue'] }, headers: admin });
      expect(body(noDates).message).toBe('report.dates_mandatory');
    });
  });

  describe('dimension values (filter autocomplete)', () => {
    it('searches entities by name, prefix matches first, with a limit', async () => {
      const res = await t.app.inject({ url: '/v1/reports/dimensions/demand_partner/values?search=exch&limit=10', headers: admin });
      const values = body<{ id: number; value: string }[]>(res).data;
      expect(values.map((v) => v.value)).toEqual(['Nimbus Exchange', 'Lumen Exchange'].sort((a, b) => a.localeCompare(b)));
      const limited = await t.app.inject({ url: '/v1/reports/dimensions/publisher/values?search=a&limit=3', headers: admin });
      expect(body<unknown[]>(limited).data).toHaveLength(3);
      const byIds = await t.app.inject({ url: '/v1/reports/dimensions/demand_partner/values?ids=2,1', headers: admin });
      expect(body<{ id: number }[]>(byIds).data.map((v) => v.id).sort()).toEqual([1, 2]);
    });

    it('lists enumerated values translated, and the open auction among deals', async () => {
      const es = await t.app.inject({ url: '/v1/reports/dimensions/country/values?search=espa', headers: { ...admin, 'accept-language': 'es' } });
      expect(body<{ id: string; value: string }[]>(es).data).toEqual([{ id: 'ES', value: 'España (ES)' }]);
      const devices = await t.app.inject({ url: '/v1/reports/dimensions/device/values', headers: admin });
      expect(body<{ id: string }[]>(devices).data.map((d) => d.id)).toEqual(['desktop', 'phone', 'tablet', 'ctv']);
      const deals = await t.app.inject({ url: '/v1/reports/dimensions/deal/values?search=open', headers: admin });
      expect(body<{ id: number; value: string }[]>(deals).data[0]).toEqual({ id: 0, value: 'Open auction' });
      const bad = await t.app.inject({ url: '/v1/reports/dimensions/hour/values', headers: admin });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).message).toBe('report.filter_dimension_invalid');
    });
  });

  it('describes its catalogue and the loaded range', async () => {
    const res = await t.app.inject({ url: '/v1/reports/catalog', headers: admin });
    const data = body<{ dimensions: { key: string }[]; metrics: { key: string; kind: string }[]; data: { start: string; end: string } }>(res).data;
    expect(data.dimensions.map((d) => d.key)).toContain('environment');
    expect(data.metrics.find((m) => m.key === 'ecpm')?.kind).toBe('money');
    expect(data.data.end).toBe('2025-04-02T00:00:00.000Z');
  });
});
