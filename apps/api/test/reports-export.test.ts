/**
 * DataViewer export: every row, in the report's order, with exact strings, whichever way the
 * export runs (time chunks aggregated by the database, one chunk, or a cursor), compared with the
 * query API and with an independent computation from the raw fact rows; CSV quoting of names; time
 * chunks never split a bucket (DST, half-hour zones); XLSX cells match the CSV.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS, fromReportAnswer, resolveReportRange, type Dimension, type Metric, type ReportAnswer } from '@backoffice/core/reports';
import { exportChunks, streamReportCsv, streamReportValues, toSpec, type ReportDefinition } from '../src/modules/reports/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { entityNames, loadReportsFixture, rawFacts, referenceReport, type RawFact } from './reports-fixtures.ts';

const ALL_METRICS = [...METRICS] as Metric[];
const H = 3_600_000;

/** RFC 4180 parser (quoted fields may hold commas, quotes and line breaks); records end in CRLF. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      if (c === '\r' || c === '\n' || c === '"') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
      field += c;
      i++;
    }
  }
  expect(field, 'the file ends with CRLF').toBe('');
  expect(row).toEqual([]);
  return out;
}

describe('reports: DataViewer export', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let facts: RawFact[];
  let names: Awaited<ReturnType<typeof entityNames>>;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.ctx.database;
    await loadReportsFixture(db);
    // Names that CSV must quote: a comma, quotes, a line break.
    await query(db, `UPDATE demand_partners SET name = 'Nimbus, "Prime" Exchange' WHERE id = 1`);
    await query(db, `UPDATE demand_partners SET name = E'Two\\r\\nLines' WHERE id = 2`);
    await query(db, `UPDATE ad_units SET name = '"quoted"' WHERE id IN (SELECT min(id) FROM ad_units)`);
    facts = await rawFacts(db);
    names = await entityNames(db);
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 180_000);
  afterAll(async () => t?.close());

  const exportCsv = async (payload: object, headers = admin) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=csv', payload, headers });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    return parseCsv(res.body.slice(1));
  };
  /** The same report through the query API (one page holds it all), as CSV fields. */
  const queryFields = async (payload: object, headers = admin) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/query', payload: { ...payload, limit: 100_000 }, headers });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const data = fromReportAnswer(body<ReportAnswer>(res).data);
    expect(data.rows.length).toBe(data.total_rows);
    const keys = data.columns.flatMap((c) => (c.idKey ? [c.key, c.idKey] : [c.key]));
    return data.rows.map((r) => keys.map((k) => (r[k] === null || r[k] === undefined ? '' : String(r[k]))));
  };
  /** Every way the export can run gives the same text. */
  const allPaths = async (def: ReportDefinition, locale: 'en' | 'es' = 'en') => {
    const spec = toSpec(def);
    const run = async (chunkRows: number | null | undefined) => {
      let text = '';
      let rows = 0;
      const n = await streamReportCsv(t.app.ctx.database, spec, locale, async (chunk, r) => {
        text += chunk;
        rows += r;
      }, chunkRows === undefined ? {} : { chunkRows });
      expect(n).toBe(rows);
      return text;
    };
    const values = async (chunkRows: number | null) => {
      const out: unknown[][] = [];
      await streamReportValues(t.app.ctx.database, spec, locale, async (rows) => void out.push(...rows), { chunkRows, batchSize: 7 });
      return out;
    };
    return { tiny: await run(40), default: await run(undefined), cursor: await run(null), values: await values(40), valuesCursor: await values(null) };
  };

  const madrid = { range: { start: '2025-03-27', end: '2025-03-31' }, timezone: 'Europe/Madrid' };

  it('exports every row with exact strings, equal to the raw facts and in the query API order', async () => {
    const def = { ...madrid, dimensions: ['hour', 'demand_partner', 'country', 'deal'] as Dimension[], metrics: ALL_METRICS, filters: [], sort: [] };
    const es = { ...admin, 'accept-language': 'es' };
    const lines = await exportCsv(def, es);
    expect(lines[0]).toEqual(['Hora', 'Socio de demanda', 'Socio de demanda ID', 'País', 'Deal', 'Deal ID', ...lines[0]!.slice(6)]);
    const rows = lines.slice(1);
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows).toEqual(await queryFields(def, es));

    // Independent computation (BigInt micro-units) from the raw facts.
    const r = resolveReportRange(def.range, def.timezone)!;
    const ref = referenceReport(facts, { ...names, deal: new Map([...names.deal!, [0, 'Subasta abierta']]) }, { ...def, filters: [], startMs: r.startMs, endMs: r.endMs });
    const refByKey = new Map(ref.rows.map((x) => [JSON.stringify([x.row.hour, x.row.demand_partner_id, x.row.country, x.row.deal_id]), x.row]));
    expect(rows.length).toBe(ref.rows.length);
    for (const f of rows) {
      const want = refByKey.get(JSON.stringify([f[0], Number(f[2]), f[3], Number(f[5])]));
      expect(want, f.join('|')).toBeDefined();
      expect(f.slice(0, 6)).toEqual([want!.hour, want!.demand_partner, String(want!.demand_partner_id), want!.country, want!.deal, String(want!.deal_id)]);
      expect(f.slice(6)).toEqual(ALL_METRICS.map((m) => (want![m] === null ? '' : String(want![m]))));
    }
    // The names that need quoting came through.
    expect(rows.some((f) => f[1] === 'Nimbus, "Prime" Exchange')).toBe(true);
    expect(rows.some((f) => f[1] === 'Two\r\nLines')).toBe(true);
    expect(rows.some((f) => f[4] === 'Subasta abierta')).toBe(true);
  });

  it('gives the same bytes through time chunks, one chunk or a cursor, for every sort', async () => {
    const cases: ReportDefinition[] = [
      // Default sort (time first): chunked; a zone with a DST change inside the range.
      { ...madrid, dimensions: ['hour', 'ad_unit', 'device'], metrics: ['impressions', 'revenue', 'ecpm'], filters: [], sort: [] },
      { ...madrid, dimensions: ['day', 'publisher'], metrics: ALL_METRICS, filters: [], sort: [] },
      // Time descending: chunks in reverse.
      { range: { start: '2025-03-20', end: '2025-03-31' }, timezone: 'Asia/Kolkata', dimensions: ['day', 'demand_partner'], metrics: ['revenue', 'impressions'], filters: [], sort: [{ field: 'day', dir: 'desc' }] },
      // Not time first: one cursor whatever the chunk size.
      { ...madrid, dimensions: ['hour', 'demand_partner'], metrics: ['revenue'], filters: [{ dimension: 'country', op: 'exclude', values: ['ES'] }], sort: [{ field: 'revenue', dir: 'desc' }] },
      { ...madrid, dimensions: ['ad_unit', 'country'], metrics: ['impressions', 'cost'], filters: [], sort: [{ field: 'ad_unit', dir: 'asc' }] },
      // Metrics only: one line.
      { ...madrid, dimensions: [], metrics: ['revenue', 'ecpm', 'impressions'], filters: [], sort: [] },
    ];
    for (const def of cases) {
      const out = await allPaths(def);
      const expected = (await queryFields(def)).map((f) => `${f.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')}\r\n`).join('');
      expect(expected.length, JSON.stringify(def)).toBeGreaterThan(0);
      expect(out.tiny, JSON.stringify(def)).toBe(expected);
      expect(out.default).toBe(expected);
      expect(out.cursor).toBe(expected);
      // The XLSX rows (values), chunked or through a cursor.
      expect(out.values).toEqual(out.valuesCursor);
      expect(out.values.map((r) => r.map((v) => (v === null ? '' : String(v))))).toEqual(await queryFields(def));
    }
  });

  it('cuts time chunks only where the time bucket changes', async () => {
    const db = t.app.ctx.database;
    const cuts = async (def: Omit<ReportDefinition, 'metrics' | 'filters'>) => {
      const spec = toSpec({ ...def, metrics: ['revenue'], filters: [] });
      // Chunks of one estimated row: a cut at every bucket change.
      const chunks = (await exportChunks(db, spec, 1000, 1))!;
      expect(chunks[0]!.startMs).toBe(spec.startMs);
      expect(chunks.at(-1)!.endMs).toBe(spec.endMs);
      for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startMs).toBe(chunks[i - 1]!.endMs);
      return chunks.slice(1).map((c) => new Date(c.startMs).toISOString());
    };
    // Madrid, autumn DST change: local 02:00-03:00 happens twice (00:00 and 01:00 UTC), one bucket.
    const hours = await cuts({ range: { start: '2025-10-26', end: '2025-10-26' }, timezone: 'Europe/Madrid', dimensions: ['hour'], sort: [] });
    expect(hours).not.toContain('2025-10-26T01:00:00.000Z');
    expect(hours).toContain('2025-10-26T00:00:00.000Z');
    expect(hours.length).toBe(23);
    const days = await cuts({ range: { start: '2025-10-25', end: '2025-10-27' }, timezone: 'Europe/Madrid', dimensions: ['day'], sort: [] });
    expect(days).toEqual(['2025-10-25T22:00:00.000Z', '2025-10-26T23:00:00.000Z']);
    // Half-hour zone: local midnight is 18:30 UTC, so a day's first data hour starts at 19:00 UTC
    // (the range starts at the hour before, 18:00 UTC = 23:30 of the previous local day).
    const kolkata = await cuts({ range: { start: '2025-03-01', end: '2025-03-03' }, timezone: 'Asia/Kolkata', dimensions: ['day'], sort: [{ field: 'day', dir: 'asc' }] });
    expect(kolkata).toEqual(['2025-02-28T19:00:00.000Z', '2025-03-01T19:00:00.000Z', '2025-03-02T19:00:00.000Z']);
    // Not sorted by time first, or no time dimension: no chunks.
    expect(await exportChunks(db, toSpec({ ...madrid, dimensions: ['day', 'country'], metrics: ['revenue'], filters: [], sort: [{ field: 'revenue', dir: 'desc' }] }), 1000, 1)).toBeNull();
    expect(await exportChunks(db, toSpec({ ...madrid, dimensions: ['country'], metrics: ['revenue'], filters: [], sort: [] }), 1000, 1)).toBeNull();
    // A single bucket too big for one chunk (a month of a million rows): a cursor instead.
    expect(await exportChunks(db, toSpec({ range: { start: '2025-03-01', end: '2025-04-30' }, timezone: 'UTC', dimensions: ['month', 'ad_unit'], metrics: ['revenue'], filters: [], sort: [] }), 2_000_000)).toBeNull();
  });

  it('writes XLSX cells equal to the CSV (numbers for metrics and ids)', async () => {
    const def = { ...madrid, dimensions: ['day', 'demand_partner', 'device'], metrics: ['impressions', 'revenue', 'ecpm'], filters: [], sort: [] };
    const csv = await exportCsv(def);
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewer/export?format=xlsx', payload: def, headers: admin });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.actualRowCount).toBe(csv.length);
    csv.forEach((fields, i) => {
      const cells = (sheet.getRow(i + 1).values as unknown[]).slice(1);
      if (i === 0) expect(cells).toEqual(fields);
      // (XML keeps no CR: a CRLF inside a name reads back as LF.)
      else expect(cells).toEqual([fields[0], fields[1]!.replace(/\r\n/g, '\n'), Number(fields[2]), fields[3], Number(fields[4]), Number(fields[5]), fields[6] === '' ? undefined : Number(fields[6])]);
    });
  });

  it('exports the whole fixture at the finest grain: every row, revenue adding up exactly', async () => {
    const def = { range: { start: '2025-02-25', end: '2025-04-01' }, timezone: 'UTC', dimensions: ['hour', 'ad_unit', 'country', 'device', 'demand_partner'] as Dimension[], metrics: ['impressions', 'revenue'] as Metric[], filters: [], sort: [] };
    const rows = (await exportCsv(def)).slice(1);
    const r = resolveReportRange(def.range, def.timezone)!;
    const ref = referenceReport(facts, names, { ...def, startMs: r.startMs, endMs: r.endMs });
    expect(rows.length).toBe(ref.rows.length);
    let micros = 0n;
    for (const f of rows) micros += BigInt(f[8]!.replace('.', ''));
    expect(`${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`).toBe(ref.totals.revenue);
    expect(r.endMs - r.startMs).toBeGreaterThan(30 * 24 * H);
  }, 60_000);
});
