/**
 * The Amazon CSV importer (`/v1/amazon`) through the HTTP API: the spec's CSV rules (the .csv
 * extension, 'Please, provide a valid CSV.'; comma or semicolon detected; rows with an empty value
 * dropped; the accepted date formats); each row's errors in the preview with their keys; a mapped
 * column the file lacks; mappings saved by name (list, load, overwrite with its version, delete);
 * importing refused while a row has an error; the same file again changes nothing (also two at
 * once); an overlapping file asks first and replaces only its days; undo puts back what it
 * replaced, once; the imports list; the ACL and the audit entries.
 */
import { translate } from '@backoffice/core/i18n/catalogues';
import type { AmazonImport, AmazonImportResult, AmazonImportsAnswer, AmazonMapping, AmazonPreview, ReplacedDay, StatsAnswer } from '@backoffice/core/partner-stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

const BASE = '/v1/amazon';
type Headers = Record<string, string>;
const COLUMNS = { date: 'Date', impressions: 'Impressions', revenue: 'Earnings (USD)', currency: null, ad_unit: 'Slot Name' };
const HEADER = 'Date,Slot Name,Slot UUID,Ad Size,Impressions,Clicks,Earnings (USD),eCPM (USD)';
const line = (day: string, slot: string, imps: number, earnings: string) => `${day},${slot},uuid-${slot},300x250,${imps},12,${earnings},1.50`;

/** Three days, two slots each (the slots of a day are summed). */
const FILE_A = [
  HEADER,
  line('2025-05-01', 'top', 1000, '1.50'),
  line('2025-05-01', 'mpu', 2000, '3.25'),
  line('2025-05-02', 'top', 1100, '1.65'),
  line('2025-05-02', 'mpu', 2100, '3.40'),
  line('2025-05-03', 'top', 900, '1.20'),
  line('2025-05-03', 'mpu', 1900, '2.90'),
].join('\n');

describe('amazon csv import', () => {
  let t: TestApp;
  let tech: Headers;
  let reader: Headers;
  let none: Headers;
  let amazon: number;
  let orion: number;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    const [co] = await query<{ id: number }>(db(), `SELECT id FROM companies ORDER BY id LIMIT 1`);
    const rows = await query<{ id: number; name: string }>(
      db(),
      `INSERT INTO demand_partners (name, side, type, company_id, endpoint_url, reporting) VALUES
         ('Amazon TAM Test', 'ssp', 'amazon', $1, 'https://aax.amazon-adsystem.example/e/rtb', 'manual'),
         ('Orion Test Network', 'ssp', 'network', $1, 'https://rtb.orion-test.example/bid', 'manual')
       RETURNING id, name`,
      [co?.id ?? null],
    );
    [amazon, orion] = rows.map((r) => Number(r.id)) as [number, number];
    tech = (await userWithAcl(t.app, 'ines.tech@adtech.example', { '/v1/amazon': ['read', 'write'], '/v1/stats-manual': ['read'] })).headers;
    reader = (await userWithAcl(t.app, 'amazon.reader@adtech.example', { '/v1/amazon': ['read'], '/v1/stats-manual': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'amazon.none@adtech.example', { '/v1/stats-manual': ['read'] })).headers;
  });
  afterAll(async () => t?.close());

  const preview = (content: string, extra: Record<string, unknown> = {}, headers = tech) =>
    t.app.inject({ method: 'POST', url: `${BASE}/preview`, headers, payload: { file_name: 'aps.csv', content, columns: COLUMNS, demand_partner_id: amazon, ...extra } });
  const importFile = (content: string, extra: Record<string, unknown> = {}, headers = tech) =>
    t.app.inject({ method: 'POST', url: `${BASE}/imports`, headers, payload: { file_name: 'aps.csv', content, columns: COLUMNS, demand_partner_id: amazon, mapping_name: 'APS default', ...extra } });
  const figures = async () => {
    const res = await t.app.inject({ url: `/v1/stats-manual?partner=${amazon}&sort=day`, headers: reader });
    return body<StatsAnswer>(res).data.items.map((s) => [s.day, s.impressions, s.revenue, s.source, s.import_id]);
  };

  it("refuses a file without the csv extension with 'Please, provide a valid CSV.'", async () => {
    for (const name of ['aps.xlsx', 'aps.txt', 'aps']) {
      const res = await preview(FILE_A, { file_name: name });
      expect(res.statusCode).toBe(400);
      expect(body(res).message).toBe('upload.csv.invalid');
      expect(translate('en', 'upload.csv.invalid')).toBe('Please, provide a valid CSV.');
    }
    expect(body(await importFile(FILE_A, { file_name: 'aps.xlsx' })).message).toBe('upload.csv.invalid');
  });

  it('detects comma or semicolon, drops rows with an empty value and sums the slots per day', async () => {
    const comma = body<AmazonPreview>(await preview(FILE_A)).data;
    expect(comma.delimiter).toBe(',');
    expect(comma.days).toEqual([
      { day: '2025-05-01', impressions: 3000, revenue: '4.750000', currency: 'USD', rows: 2 },
      { day: '2025-05-02', impressions: 3200, revenue: '5.050000', currency: 'USD', rows: 2 },
      { day: '2025-05-03', impressions: 2800, revenue: '4.100000', currency: 'USD', rows: 2 },
    ]);
    expect(comma.already_imported).toBeNull();
    expect(comma.replaces).toEqual([]);
    // Semicolons with a decimal comma, a BOM, CRLF, and a row with an empty value (dropped).
    const semi = '\uFEFFDate;Slot Name;Impressions;Earnings (USD)\r\n2025-05-01;top;1000;1,50\r\n2025-05-01;mpu;2000;3,25\r\n2025-05-02;top;;1,65\r\n';
    const res = await preview(semi, { columns: { ...COLUMNS } });
    expect(res.statusCode, res.body).toBe(200);
    const p = body<AmazonPreview>(res).data;
    expect(p.delimiter).toBe(';');
    expect(p.dropped).toBe(1);
    expect(p.days).toEqual([{ day: '2025-05-01', impressions: 3000, revenue: '4.750000', currency: 'USD', rows: 2 }]);
  });

  it("shows each row's errors with their keys, accepts the spec's date formats, and refuses to import while a row is wrong", async () => {
    const content = [
      HEADER,
      line('2025-05-04 00:00', 'top', 10, '1.00'),
      line('2025-05-04T00:00:00', 'mpu', 10, '1.00'),
      line('04/05/2025', 'top', 10, '1.00'),
      line('2999-01-01', 'top', 10, '1.00'),
      line('2025-05-05', 'top', -10, '1.00'),
      line('2025-05-05', 'top', 10, 'n/a'),
      line('2025-05-05', 'top', 10.5, '1.00'),
      line('2025-05-05', 'top', 10, '-2.00'),
    ].join('\n');
    const res = await preview(content);
    expect(res.statusCode, res.body).toBe(200);
    const p = body<AmazonPreview>(res).data;
    expect(p.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, {}],
      [3, {}],
      [4, { date: 'stats.date_invalid' }],
      [5, { date: 'stats.date_future' }],
      [6, { impressions: 'stats.negative' }],
      [7, { revenue: 'stats.number_invalid' }],
      [8, { impressions: 'stats.impressions_whole' }],
      [9, { revenue: 'stats.negative' }],
    ]);
    expect(p.invalid).toBe(6);
    expect(p.days).toEqual([{ day: '2025-05-04', impressions: 20, revenue: '2.000000', currency: 'USD', rows: 2 }]);
    const before = await figures();
    const refused = await importFile(content);
    expect(refused.statusCode).toBe(422);
    expect(body(refused).message).toBe('amazon.rows_invalid');
    expect(await figures()).toEqual(before);
    // A currency column with something else than USD.
    const cur = await preview('Date,Impressions,Earnings,Currency\n2025-05-04,10,1.00,EUR\n', { columns: { date: 'Date', impressions: 'Impressions', revenue: 'Earnings', currency: 'Currency', ad_unit: null } });
    expect(body<AmazonPreview>(cur).data.rows[0]!.errors).toEqual({ currency: 'stats.currency_invalid' });
  });

  it('answers which mapped column the file lacks, and refuses a file without rows or a partner that is not Amazon', async () => {
    const missing = await preview('Day,Impressions,Earnings (USD)\n2025-05-01,1,1\n');
    expect(missing.statusCode).toBe(400);
    expect(body(missing).message).toBe('amazon.column_missing');
    expect(body(missing).errors).toEqual({ 'columns.date': 'amazon.column_missing' });
    const empty = await preview(`${HEADER}\n`);
    expect(body(empty).message).toBe('amazon.file_empty');
    const twice = await preview(FILE_A, { columns: { ...COLUMNS, revenue: 'Impressions' } });
    expect(twice.statusCode).toBe(400);
    expect(body(twice).errors?.['columns.revenue']).toBe('amazon.map.twice');
    const notAmazon = await preview(FILE_A, { demand_partner_id: orion });
    expect(notAmazon.statusCode).toBe(400);
    expect(body(notAmazon).errors?.demand_partner_id).toBe('amazon.partner_invalid');
  });

  it('saves mappings by name: list, load, overwrite only with its version, delete', async () => {
    const save = (payload: unknown) => t.app.inject({ method: 'PUT', url: `${BASE}/mappings`, headers: tech, payload: payload as object });
    const created = await save({ name: 'APS default', columns: COLUMNS });
    expect(created.statusCode, created.body).toBe(200);
    const m = body<AmazonMapping>(created).data;
    expect(m).toMatchObject({ name: 'APS default', columns: COLUMNS, version: 1, updated_by: 'ines.tech' });
    const list = body<AmazonMapping[]>(await t.app.inject({ url: `${BASE}/mappings`, headers: reader })).data;
    expect(list.map((x) => [x.name, x.columns])).toEqual([['APS default', COLUMNS]]);
    const clash = await save({ name: 'aps DEFAULT', columns: { ...COLUMNS, ad_unit: null } });
    expect(clash.statusCode).toBe(409);
    expect(body(clash).message).toBe('amazon.mapping_exists');
    const over = await save({ name: 'APS default', columns: { ...COLUMNS, ad_unit: null }, version: 1 });
    expect(over.statusCode).toBe(200);
    expect(body<AmazonMapping>(over).data.version).toBe(2);
    const stale = await save({ name: 'APS default', columns: COLUMNS, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    expect((await save({ name: '  ', columns: COLUMNS })).statusCode).toBe(400);
    const other = body<AmazonMapping>(await save({ name: 'Semicolon export', columns: COLUMNS })).data;
    const del = await t.app.inject({ method: 'DELETE', url: `${BASE}/mappings/${other.id}`, headers: tech });
    expect(del.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/mappings/${other.id}`, headers: tech })).statusCode).toBe(404);
    const audit = await query<{ action: string }>(db(), `SELECT action FROM audit_log WHERE entity = 'amazon_csv_mapping' ORDER BY id`);
    expect(audit.map((a) => a.action)).toEqual(['amazon.mapping_create', 'amazon.mapping_update', 'amazon.mapping_create', 'amazon.mapping_delete']);
  });

  let firstImport: AmazonImport;
  it('imports a file once: the same file again (also two at once) changes nothing', async () => {
    const answers = await Promise.all([1, 2].map(() => importFile(FILE_A)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const results = answers.map((a) => body<AmazonImportResult>(a).data);
    expect(results.filter((r) => !r.already)).toHaveLength(1);
    expect(new Set(results.map((r) => r.import.id)).size).toBe(1);
    firstImport = results[0]!.import;
    expect(firstImport).toMatchObject({ rows: 6, days: 3, first_day: '2025-05-01', last_day: '2025-05-03', inserted: 3, replaced: 0, state: 'imported', mapping_name: 'APS default', created_by: 'ines.tech' });
    const stored = await figures();
    expect(stored).toEqual([
      ['2025-05-01', 3000, '4.75', 'amazon_csv', firstImport.id],
      ['2025-05-02', 3200, '5.05', 'amazon_csv', firstImport.id],
      ['2025-05-03', 2800, '4.10', 'amazon_csv', firstImport.id],
    ]);
    // The same bytes with CRLF line endings and a BOM are the same file.
    const again = await importFile(`\uFEFF${FILE_A.replace(/\n/g, '\r\n')}\r\n`);
    expect(again.statusCode).toBe(200);
    expect(body(again).message).toBe('amazon.already_imported');
    expect(body<AmazonImportResult>(again).data.already).toBe(true);
    expect(await figures()).toEqual(stored);
    const p = body<AmazonPreview>(await preview(FILE_A)).data;
    expect(p.already_imported?.id).toBe(firstImport.id);
    expect(p.unchanged).toBe(3);
    const imports = await query<{ n: string }>(db(), 'SELECT count(*)::text AS n FROM partner_stat_imports');
    expect(imports[0]!.n).toBe('1');
  });

  let second: AmazonImport;
  it('an overlapping file asks first (409 with the days) and then replaces only its days', async () => {
    const overlap = [HEADER, line('2025-05-03', 'top', 900, '1.20'), line('2025-05-03', 'mpu', 1900, '3.10'), line('2025-05-04', 'top', 700, '0.90')].join('\n');
    const p = body<AmazonPreview>(await preview(overlap)).data;
    expect(p.replaces.map((d) => [d.day, d.current.revenue, d.next.revenue])).toEqual([['2025-05-03', '4.10', '4.30']]);
    const asked = await importFile(overlap);
    expect(asked.statusCode).toBe(409);
    expect(body(asked).message).toBe('amazon.replace_confirm');
    expect(body<{ days: ReplacedDay[] }>(asked).data.days.map((d) => d.day)).toEqual(['2025-05-03']);
    expect((await figures()).map((f) => f[0])).toEqual(['2025-05-01', '2025-05-02', '2025-05-03']);
    const done = await importFile(overlap, { replace: true });
    expect(done.statusCode, done.body).toBe(200);
    second = body<AmazonImportResult>(done).data.import;
    expect(second).toMatchObject({ days: 2, inserted: 1, replaced: 1 });
    expect(await figures()).toEqual([
      ['2025-05-01', 3000, '4.75', 'amazon_csv', firstImport.id],
      ['2025-05-02', 3200, '5.05', 'amazon_csv', firstImport.id],
      ['2025-05-03', 2800, '4.30', 'amazon_csv', second.id],
      ['2025-05-04', 700, '0.90', 'amazon_csv', second.id],
    ]);
  });

  it('undo removes an import’s days and puts back what it replaced, once; imports are listed with who, when, rows and days', async () => {
    const undo = () => t.app.inject({ method: 'POST', url: `${BASE}/imports/${second.id}/undo`, headers: tech });
    const [a, b] = await Promise.all([undo(), undo()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(body([a, b].find((r) => r.statusCode === 409)!).message).toBe('amazon.undo_already');
    expect(await figures()).toEqual([
      ['2025-05-01', 3000, '4.75', 'amazon_csv', firstImport.id],
      ['2025-05-02', 3200, '5.05', 'amazon_csv', firstImport.id],
      ['2025-05-03', 2800, '4.10', 'amazon_csv', firstImport.id],
    ]);
    const list = body<AmazonImportsAnswer>(await t.app.inject({ url: `${BASE}/imports`, headers: reader })).data;
    expect(list.total).toBe(2);
    expect(list.items.map((i) => [i.id, i.state, i.undone_by])).toEqual([
      [second.id, 'undone', 'ines.tech'],
      [firstImport.id, 'imported', null],
    ]);
    const audit = await query<{ action: string }>(db(), `SELECT action FROM audit_log WHERE entity = 'demand_partner_stats' AND entity_id = $1 ORDER BY id`, [String(amazon)]);
    expect(audit.map((x) => x.action)).toEqual(['amazon.import', 'amazon.import', 'amazon.import_undo']);
    // Undone, the same file imports again.
    const re = await importFile([HEADER, line('2025-05-03', 'top', 900, '1.20'), line('2025-05-03', 'mpu', 1900, '3.10'), line('2025-05-04', 'top', 700, '0.90')].join('\n'), { replace: true });
    expect(body<AmazonImportResult>(re).data.already).toBe(false);
  });

  it('serves an example APS report that previews without errors', async () => {
    const res = await t.app.inject({ url: `${BASE}/example.csv`, headers: reader });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.split('\n')[0]).toBe(HEADER);
    const p = body<AmazonPreview>(await preview(res.body, { file_name: 'aps_earnings_example.csv' })).data;
    expect(p.invalid).toBe(0);
    expect(p.days).toHaveLength(5);
  });

  it('enforces the ACL: read to preview and list, write to import, undo and save mappings', async () => {
    expect((await t.app.inject({ url: `${BASE}/imports`, headers: none })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${BASE}/mappings`, headers: none })).statusCode).toBe(403);
    expect((await preview(FILE_A, {}, none)).statusCode).toBe(403);
    expect((await preview(FILE_A, {}, reader)).statusCode).toBe(200);
    expect((await importFile(FILE_A, {}, reader)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `${BASE}/mappings`, headers: reader, payload: { name: 'x', columns: COLUMNS } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/imports/${firstImport.id}/undo`, headers: reader })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${BASE}/imports` })).statusCode).toBe(401);
  });
});
