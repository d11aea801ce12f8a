/**
 * Loads a generated data set into the database: the entities (with the generator's ids), the
 * hourly facts and the 1-minute QPS series (COPY from a blob on PGlite, array-unnest batches on
 * node-postgres), the cap-change audit records, then the rollups and the load state.
 * Replaces whatever warehouse data was there.
 */
import type { Database } from '../db/client.ts';
import {
  DEMO_STORY_SOURCE,
  FACT_COLUMNS,
  generateHours,
  QPS_COLUMNS,
  QPS_KIND,
  Scenario,
  endpointCap,
  type FactRow,
  type GenerateOptions,
  type QpsRow,
} from './generator.ts';
import { ENV } from './catalog.ts';
import { demoDealTerms, type DealTerms } from './deal-terms.ts';
import { rebuildQpsRollup, rebuildRollups } from './rollups.ts';
import { exec, query } from './sql.ts';

export interface LoadProgress {
  phase: 'entities' | 'facts' | 'rollups' | 'done';
  done: number;
  total: number;
  factRows: number;
  qpsRows: number;
  detail?: string;
}

export interface LoadResult {
  factRows: number;
  qpsRows: number;
  rollups: Record<string, number[]>;
  startMs: number;
  endMs: number;
  storyMs: number;
  loadMs: number;
  rollupMs: number;
}

const FACT_TYPES = ['timestamptz', ...Array(6).fill('int4'), ...Array(6).fill('int2'), ...Array(8).fill('int4'), 'int8', 'int8'];
const QPS_TYPES = ['timestamptz', 'int2', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int2'];

/** Writes rows (first column: epoch ms) with the fastest path of the driver. */
async function writeRows(database: Database, table: string, columns: readonly string[], types: string[], rows: number[][]): Promise<void> {
  if (rows.length === 0) return;
  if (database.kind === 'pglite') {
    const parts: string[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      parts[i] = `${new Date(r[0]!).toISOString()},${r.slice(1).join(',')}`;
    }
    await database.pglite!.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`, [], {
      blob: new Blob([parts.join('\n'), '\n']),
    });
    return;
  }
  const arrays: unknown[][] = columns.map(() => new Array(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    arrays[0]![i] = new Date(r[0]!).toISOString();
    for (let c = 1; c < columns.length; c++) arrays[c]![i] = r[c];
  }
  const unnest = types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
  await database.pool!.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
}

/** Upserts rows given as column arrays (entities). */
async function upsert(database: Database, table: string, columns: string[], types: string[], values: unknown[][], update: string[]): Promise<void> {
  if (values[0]!.length === 0) return;
  const unnest = types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
  const set = update.map((c) => `${c} = EXCLUDED.${c}`).join(', ');
  await query(database, `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest}) ON CONFLICT (id) DO UPDATE SET ${set}`, values);
  await query(database, `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1))`);
}

async function loadEntities(database: Database, scenario: Scenario): Promise<void> {
  const { catalog } = scenario;
  const col = <T>(items: T[], f: (x: T) => unknown) => items.map(f);
  const p = catalog.partners;
  await upsert(database, 'demand_partners', ['id', 'name', 'type', 'status', 'qps_cap'], ['int4', 'text', 'text', 'text', 'int4'],
    [col(p, (x) => x.id), col(p, (x) => x.name), col(p, (x) => x.type), col(p, () => 'live'), col(p, (x) => scenario.currentPartnerCap(x.id))],
    ['name', 'type', 'status', 'qps_cap']);
  const e = catalog.endpoints;
  await upsert(database, 'supply_endpoints', ['id', 'name', 'region', 'qps_cap'], ['int4', 'text', 'text', 'int4'],
    [col(e, (x) => x.id), col(e, (x) => x.name), col(e, (x) => x.region), col(e, (x) => endpointCap(scenario, x.id))],
    ['name', 'region', 'qps_cap']);
  const pubs = catalog.publishers;
  // A publisher's sellers.json domain: its first web site (every generated publisher has one).
  const domainOf = new Map<number, string>();
  for (const site of catalog.sites) if (site.environmentId === ENV.web && !domainOf.has(site.publisherId)) domainOf.set(site.publisherId, site.name);
  await upsert(database, 'publishers', ['id', 'name', 'seller_id', 'seller_domain'], ['int4', 'text', 'text', 'text'],
    [col(pubs, (x) => x.id), col(pubs, (x) => x.name), col(pubs, (x) => x.sellerId), col(pubs, (x) => domainOf.get(x.id) ?? null)], ['name', 'seller_id', 'seller_domain']);
  const s = catalog.sites;
  await upsert(database, 'sites', ['id', 'publisher_id', 'name', 'environment_id'], ['int4', 'int4', 'text', 'int2'],
    [col(s, (x) => x.id), col(s, (x) => x.publisherId), col(s, (x) => x.name), col(s, (x) => x.environmentId)],
    ['publisher_id', 'name', 'environment_id']);
  const u = catalog.adUnits;
  await upsert(database, 'ad_units', ['id', 'site_id', 'name', 'format_id', 'size_id'], ['int4', 'int4', 'text', 'int2', 'int2'],
    [col(u, (x) => x.id), col(u, (x) => x.siteId), col(u, (x) => x.name), col(u, (x) => x.formatId), col(u, (x) => x.sizeId)],
    ['site_id', 'name', 'format_id', 'size_id']);
  const d = catalog.deals;
  await upsert(database, 'deals', ['id', 'demand_partner_id', 'code', 'name', 'type'], ['int4', 'int4', 'text', 'text', 'text'],
    [col(d, (x) => x.id), col(d, (x) => x.partnerId), col(d, (x) => x.code), col(d, (x) => x.name), col(d, (x) => x.type)],
    ['demand_partner_id', 'code', 'name', 'type']);
  await loadDealTerms(database, scenario);

  // The cap changes, as the audit log would have recorded them (QPS graph annotations).
  await query(database, `DELETE FROM audit_log WHERE entity IN ('demand_partner', 'supply_endpoint') AND after->>'source' = $1`, [DEMO_STORY_SOURCE]);
  for (const c of scenario.capChanges) {
    const actor = await query<{ id: number }>(database, `SELECT id FROM users WHERE lower(mail) LIKE $1 ORDER BY id LIMIT 1`, [`${c.actor}@%`]);
    await query(
      database,
      `INSERT INTO audit_log (at, actor_id, ip, action, entity, entity_id, before, after) VALUES ($1, $2, $3, 'update', $4, $5, $6, $7)`,
      [
        new Date(c.atMs).toISOString(),
        actor[0]?.id ?? null,
        '10.0.0.12',
        c.kind === 'demand' ? 'demand_partner' : 'supply_endpoint',
        String(c.entityId),
        JSON.stringify({ qps_cap: c.from }),
        JSON.stringify({ qps_cap: c.to, source: DEMO_STORY_SOURCE }),
      ],
    );
  }
}

/** Demo IP of the deals' past edits (reloads replace them). */
const DEAL_EDIT_IP = '10.0.0.14';

/**
 * The demo deals' terms (floor, auction type, dates, status, targeting: deal-terms.ts) in one
 * statement, and a floor raise in some deals' history (by the demand lead, as the form would have
 * audited it).
 */
async function loadDealTerms(database: Database, scenario: Scenario): Promise<void> {
  const { terms, edits } = demoDealTerms(scenario.catalog, scenario.startMs, scenario.opts.endMs);
  const col = <T>(f: (x: DealTerms) => T) => terms.map(f);
  await query(
    database,
    `UPDATE deals d SET bidfloor = t.bidfloor, bidfloorcur = t.cur, auction_type = t.at, start_date = t.start_date, end_date = t.end_date,
       status = t.status, guaranteed_impressions = t.imps, publisher_ids = t.pubs, ad_unit_ids = t.units, wseat = t.wseat, wadomain = t.wadomain, notes = t.notes
     FROM unnest($1::int4[], $2::numeric[], $3::text[], $4::int2[], $5::date[], $6::date[], $7::text[], $8::int8[], $9::jsonb[], $10::jsonb[], $11::jsonb[], $12::jsonb[], $13::text[])
       AS t(id, bidfloor, cur, at, start_date, end_date, status, imps, pubs, units, wseat, wadomain, notes)
     WHERE d.id = t.id`,
    [
      col((t) => t.id),
      col((t) => t.bidfloor),
      col((t) => t.bidfloorcur),
      col((t) => t.auctionType),
      col((t) => t.startDate),
      col((t) => t.endDate),
      col((t) => t.status),
      col((t) => t.guaranteedImpressions),
      col((t) => JSON.stringify(t.publisherIds)),
      col((t) => JSON.stringify(t.adUnitIds)),
      col((t) => JSON.stringify(t.wseat)),
      col((t) => JSON.stringify(t.wadomain)),
      col((t) => t.notes),
    ],
  );
  const ids = terms.map((t) => t.id);
  await query(database, `DELETE FROM audit_log WHERE entity = 'deal' AND ip = $1 AND entity_id = ANY($2::text[])`, [DEAL_EDIT_IP, ids.map(String)]);
  if (edits.length === 0) return;
  const [lead] = await query<{ id: number }>(database, `SELECT id FROM users WHERE lower(mail) LIKE 'demand.lead@%' ORDER BY id LIMIT 1`);
  await query(
    database,
    `INSERT INTO audit_log (at, actor_id, ip, action, entity, entity_id, before, after)
     SELECT e.at, $1, $2, 'deal.update', 'deal', e.id, jsonb_build_object('bidfloor', e.before), jsonb_build_object('bidfloor', e.after)
       FROM unnest($3::timestamptz[], $4::text[], $5::text[], $6::text[]) AS e(at, id, before, after)`,
    [
      lead?.id ?? null,
      DEAL_EDIT_IP,
      edits.map((e) => new Date(e.atMs).toISOString()),
      edits.map((e) => String(e.dealId)),
      edits.map((e) => e.before),
      edits.map((e) => e.after),
    ],
  );
}

/** Generates and loads a data set. */
export async function loadDataset(
  database: Database,
  opts: GenerateOptions,
  onProgress?: (p: LoadProgress) => void,
  batchRows = 50_000,
): Promise<LoadResult> {
  const t0 = Date.now();
  const scenario = new Scenario(opts);
  onProgress?.({ phase: 'entities', done: 0, total: 1, factRows: 0, qpsRows: 0 });
  await exec(database, 'TRUNCATE stats_hourly, qps_minute, qps_15m');
  await loadEntities(database, scenario);

  const hours = opts.days * 24;
  let factRows = 0;
  let qpsRows = 0;
  let factBuf: FactRow[] = [];
  let qpsBuf: QpsRow[] = [];
  let h = 0;
  for (const batch of generateHours(opts, scenario)) {
    h++;
    for (const r of batch.rows) factBuf.push(r);
    for (const r of batch.qps) qpsBuf.push(r);
    if (factBuf.length >= batchRows || h === hours) {
      await writeRows(database, 'stats_hourly', FACT_COLUMNS, FACT_TYPES, factBuf);
      factRows += factBuf.length;
      factBuf = [];
    }
    if (qpsBuf.length >= batchRows || h === hours) {
      await writeRows(database, 'qps_minute', QPS_COLUMNS, QPS_TYPES, qpsBuf);
      qpsRows += qpsBuf.length;
      qpsBuf = [];
    }
    onProgress?.({ phase: 'facts', done: h, total: hours, factRows: factRows + factBuf.length, qpsRows: qpsRows + qpsBuf.length });
  }
  // Rows written after the BRIN index was built sit in unsummarized ranges, which every time-range
  // scan must read in full (days of rows for an hour's chunk of an export): summarize them.
  await query(database, `SELECT brin_summarize_new_values('stats_hourly_ts_brin'::regclass)`);
  await exec(database, 'ANALYZE stats_hourly');
  await exec(database, 'ANALYZE qps_minute');
  const loadMs = Date.now() - t0;

  const t1 = Date.now();
  const rollups = await rebuildRollups(database, null, (detail, done, total) =>
    onProgress?.({ phase: 'rollups', done, total, factRows, qpsRows, detail }),
  );
  await rebuildQpsRollup(database);
  const rollupMs = Date.now() - t1;
  const result: LoadResult = {
    factRows,
    qpsRows,
    rollups,
    startMs: scenario.startMs,
    endMs: opts.endMs,
    storyMs: scenario.storyMs,
    loadMs,
    rollupMs,
  };
  await query(
    database,
    `INSERT INTO stats_state (key, value, updated_at) VALUES ('dataset', $1, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [JSON.stringify({ ...result, seed: opts.seed, days: opts.days, scale: opts.scale, qpsDays: opts.qpsDays, loadedAt: new Date().toISOString() })],
  );
  onProgress?.({ phase: 'done', done: 1, total: 1, factRows, qpsRows });
  return result;
}

export { QPS_KIND };
