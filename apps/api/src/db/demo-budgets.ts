/**
 * Demo budgets (`/partners/perf-budgets-companies`) and the performance side's spend they are
 * measured against. The demo warehouse is the SSP side's (reports-data/generator.ts), so the
 * performance-side partners that demo-partners.ts adds have no revenue there: this writes a modest
 * hourly revenue for the live and testing ones over the loaded range (one fact row per partner and
 * hour, on inventory the warehouse already has) and adds those rows to every rollup, so reports,
 * the dashboard and the budgets read the same figures. Then budgets for the current, previous and
 * next month, sized from that spend so that the screen shows each case whatever the day it is
 * seeded: on track, ahead and over budget (alert), behind, budgets in EUR (not compared) and a
 * month not started. Runs once, after seedDemoPartners. `npm run data:generate` reloads the
 * warehouse without this spend (the budgets then show none).
 */
import { addMonthsTo, decimalToMicros, elapsedOfMonth, microsToDecimal, monthBounds, monthOfInstant } from '@backoffice/core/budgets';
import { COUNTRIES } from '@backoffice/core/reports';
import { FACT_COLUMNS, HOUR_MS, trafficIndex } from '../reports-data/generator.ts';
import { createRng, hashSeed } from '../reports-data/prng.ts';
import { DIM_COLUMNS, LEVEL_ORIGIN_SQL, LEVELS, ROLLUPS, SUM_COLUMNS, datasetState } from '../reports-data/rollups.ts';
import { transaction, type QueryFn } from '../reports-data/sql.ts';
import type { Database } from './client.ts';

/** Average revenue per hour (USD) of each performance-side partner with traffic. */
const HOURLY_REVENUE: Record<string, number> = {
  'Tramuntana Performance': 38,
  'Garbí Affiliates': 21,
  'Levante Leads': 9,
};

type Target = { pace: number } | { usage: number } | { amount: string };
interface DemoBudget {
  partner: string;
  /** Months from the current one. */
  offset: -1 | 0 | 1;
  currency: 'USD' | 'EUR';
  target: Target;
  notes?: string;
  /** An earlier amount, as a share of the final one: the row then has an edit in its history. */
  raisedFrom?: number;
}

const BUDGETS: DemoBudget[] = [
  { partner: 'Tramuntana Performance', offset: 0, currency: 'USD', target: { pace: 1.03 }, notes: 'Native and display, FR and ES; reviewed in the monthly call.' },
  { partner: 'Tramuntana Performance', offset: -1, currency: 'USD', target: { usage: 0.97 } },
  { partner: 'Tramuntana Performance', offset: 1, currency: 'USD', target: { amount: '30000' }, notes: 'Provisional until the Q1 plan is signed.' },
  { partner: 'Garbí Affiliates', offset: 0, currency: 'USD', target: { usage: 1.12 }, notes: 'Black Friday push: the client asked to keep delivering over the cap.', raisedFrom: 0.8 },
  { partner: 'Garbí Affiliates', offset: -1, currency: 'EUR', target: { amount: '2500' }, notes: 'Invoiced in euros.' },
  // Levante's previous month has none: the e2e test creates it.
  { partner: 'Levante Leads', offset: 0, currency: 'USD', target: { pace: 0.62 }, notes: 'Still in testing: low volumes expected.' },
  { partner: 'Cierzo Installs', offset: 0, currency: 'EUR', target: { amount: '8000' }, notes: 'Starts when the integration goes live.' },
];

const FACT_TYPES = ['int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int2', 'int2', 'int2', 'int2', 'int2', 'int2', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int8', 'int8'];

/** An amount to the hundred (at least 500) near `micros`: rounded half up, or down when `down`. */
function roundAmount(micros: bigint, down: boolean): string {
  const hundred = 100_000_000n;
  const n = down ? micros / hundred : (micros + hundred / 2n) / hundred;
  return microsToDecimal((n < 5n ? 5n : n) * hundred);
}

/**
 * Adds fact rows already in `demo_perf_facts` to every rollup at every level: their sums are added
 * to the groups that exist and new groups inserted (a block's sum is the sum of its hours, so this
 * is what a rebuild would write, without reading the rest of the warehouse).
 */
async function addToRollups(q: QueryFn): Promise<void> {
  const metrics = SUM_COLUMNS.join(', ');
  for (const r of ROLLUPS) {
    const dims = r.dims.map((d) => DIM_COLUMNS[d]);
    const same = (a: string, b: string) => [`${a}.ts = ${b}.ts`, ...dims.map((c) => `${a}.${c} = ${b}.${c}`)].join(' AND ');
    for (const level of LEVELS) {
      const bucket = level.from === null ? 'ts' : `date_bin('${level.interval}', ts, ${LEVEL_ORIGIN_SQL})`;
      await q(
        `WITH added AS (
           SELECT ${bucket} AS ts, ${dims.join(', ')}, ${SUM_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
             FROM demo_perf_facts GROUP BY 1, ${dims.join(', ')}
         ), updated AS (
           UPDATE ${r.table} t SET ${SUM_COLUMNS.map((c) => `${c} = t.${c} + a.${c}`).join(', ')}
             FROM added a WHERE t.lvl = ${level.lvl} AND ${same('t', 'a')}
           RETURNING t.ts, ${dims.map((c) => `t.${c}`).join(', ')}
         )
         INSERT INTO ${r.table} (lvl, ts, ${dims.join(', ')}, ${metrics})
         SELECT ${level.lvl}, a.ts, ${dims.map((c) => `a.${c}`).join(', ')}, ${SUM_COLUMNS.map((c) => `a.${c}`).join(', ')}
           FROM added a WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE ${same('u', 'a')})`,
      );
    }
  }
}

/** Writes the performance partners' hourly revenue; answers what each partner spent per month (micro-units). */
async function writePerformanceSpend(q: QueryFn, partners: { id: number; name: string }[], range: { startMs: number; endMs: number }): Promise<Map<string, bigint>> {
  const spent = new Map<string, bigint>();
  const withTraffic = partners.filter((p) => HOURLY_REVENUE[p.name] !== undefined);
  if (withTraffic.length === 0) return spent;
  // Inventory the warehouse already has (Spanish traffic where there is some), open auction.
  const es = COUNTRIES.indexOf('ES') + 1;
  const tupleSql = (where: string) =>
    `SELECT DISTINCT publisher_id, site_id, ad_unit_id, supply_endpoint_id, country_id, device_id, os_id, format_id, size_id, environment_id
       FROM stats_hourly WHERE deal_id = 0 ${where} ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 LIMIT 24`;
  let tuples = await q<Record<string, number>>(tupleSql(`AND country_id = ${es}`));
  if (tuples.length === 0) tuples = await q<Record<string, number>>(tupleSql(''));
  if (tuples.length === 0) return spent;
  const dims = ['publisher_id', 'site_id', 'ad_unit_id', 'supply_endpoint_id', 'country_id', 'device_id', 'os_id', 'format_id', 'size_id', 'environment_id'];

  const columns: number[][] = FACT_COLUMNS.map(() => []);
  for (const [i, p] of withTraffic.entries()) {
    const rng = createRng(hashSeed('demo-budgets', p.name));
    for (let t = range.startMs, h = 0; t < range.endMs; t += HOUR_MS, h++) {
      const revenueMicros = Math.round(HOURLY_REVENUE[p.name]! * (0.35 + trafficIndex(t)) * rng.noise(0.2) * 1_000_000);
      const impressions = Math.max(1, Math.round(revenueMicros / 1_000_000 / 1.35 * 1000));
      const wins = Math.round(impressions * 1.03);
      const bids = Math.round(wins * 2.4);
      const bidRequests = bids * 4;
      const tuple = tuples[(i * 7 + h) % tuples.length]!;
      const row = [
        t,
        tuple.publisher_id!, tuple.site_id!, tuple.ad_unit_id!, tuple.supply_endpoint_id!, p.id, 0,
        ...dims.slice(4).map((d) => tuple[d]!),
        Math.round(bidRequests * 1.05), bidRequests, bids, wins, impressions, Math.round(impressions * 0.004),
        Math.round(bidRequests * 0.01), Math.round(bidRequests * 0.002), revenueMicros, Math.round(revenueMicros * 0.7),
      ];
      row.forEach((v, c) => columns[c]!.push(v));
      const key = `${p.id}:${monthOfInstant(t)}`;
      spent.set(key, (spent.get(key) ?? 0n) + BigInt(revenueMicros));
    }
  }
  await q('CREATE TEMP TABLE demo_perf_facts (LIKE stats_hourly) ON COMMIT DROP');
  await q(
    `INSERT INTO demo_perf_facts (${FACT_COLUMNS.join(', ')})
     SELECT to_timestamp(f.ts / 1000.0), ${FACT_COLUMNS.slice(1).map((c) => `f.${c}`).join(', ')} FROM unnest($1::int8[], ${FACT_TYPES.map((type, i) => `$${i + 2}::${type}[]`).join(', ')})
       AS f(ts, ${FACT_COLUMNS.slice(1).join(', ')})`,
    columns,
  );
  await q('INSERT INTO stats_hourly SELECT * FROM demo_perf_facts');
  await addToRollups(q);
  return spent;
}

export async function seedDemoBudgets(database: Database): Promise<void> {
  const state = (await datasetState(database)) as { startMs?: number; endMs?: number } | null;
  await transaction(database, async (q) => {
    const marker = await q(`INSERT INTO settings (key, value) VALUES ('demo_budgets_seeded', $1) ON CONFLICT DO NOTHING RETURNING key`, [new Date().toISOString()]);
    if (marker.length === 0) return;
    const partners = await q<{ id: number; name: string; company_id: number | null }>(
      `SELECT id, name, company_id FROM demand_partners WHERE side = 'performance' AND company_id IS NOT NULL ORDER BY id`,
    );
    if (partners.length === 0) return;
    const asOfMs = state?.endMs ?? Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const spent = state?.startMs !== undefined && state.endMs !== undefined ? await writePerformanceSpend(q, partners, { startMs: state.startMs, endMs: state.endMs }) : new Map<string, bigint>();
    const [admin] = await q<{ id: number }>(`SELECT id FROM users WHERE mail LIKE 'admin@%' ORDER BY id LIMIT 1`);
    const current = monthOfInstant(asOfMs);
    for (const [i, b] of BUDGETS.entries()) {
      const partner = partners.find((p) => p.name === b.partner);
      if (!partner) continue;
      const month = addMonthsTo(current, b.offset);
      const used = spent.get(`${partner.id}:${month}`) ?? 0n;
      let amount: string;
      if ('amount' in b.target) amount = b.target.amount;
      else if (used === 0n) amount = '20000.00';
      else if ('usage' in b.target) amount = roundAmount((used * 1000n) / BigInt(Math.round(b.target.usage * 1000)), b.target.usage > 1);
      else {
        const { elapsedMs, monthMs } = elapsedOfMonth(month, asOfMs);
        amount = roundAmount((used * BigInt(monthMs) * 1000n) / (BigInt(Math.max(elapsedMs, 1)) * BigInt(Math.round(b.target.pace * 1000))), false);
      }
      // Set up a few days before the month starts (or before now, for next month's).
      const createdAt = new Date(Math.min(monthBounds(month).startMs, asOfMs) - (10 - i) * 86_400_000).toISOString();
      const first = b.raisedFrom ? roundAmount((decimalToMicros(amount) * BigInt(Math.round(b.raisedFrom * 100))) / 100n, true) : amount;
      const [row] = await q<Record<string, unknown>>(
        `INSERT INTO budgets (company_id, month, amount, currency, notes, version, created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT DO NOTHING
         RETURNING id, company_id, month, amount::text AS amount, currency, notes, version, created_at, updated_at`,
        [partner.company_id, month, amount, b.currency, b.notes ?? null, b.raisedFrom ? 2 : 1, createdAt, b.raisedFrom ? new Date(asOfMs - 2 * 86_400_000).toISOString() : createdAt, admin?.id ?? null],
      );
      if (!row) continue;
      const audit = (at: string, action: string, before: unknown, after: unknown) =>
        q(`INSERT INTO audit_log (at, actor_id, ip, action, entity, entity_id, before, after) VALUES ($1, $2, '10.20.0.41', $3, 'budget', $4, $5, $6)`, [
          at,
          admin?.id ?? null,
          action,
          String(row.id),
          before === null ? null : JSON.stringify(before),
          JSON.stringify(after),
        ]);
      const fields = { id: row.id, company_id: row.company_id, month, currency: b.currency, notes: row.notes };
      await audit(createdAt, 'budget.create', null, { ...fields, amount: first, version: 1 });
      if (b.raisedFrom) await audit(new Date(asOfMs - 2 * 86_400_000).toISOString(), 'budget.update', { ...fields, amount: first, version: 1 }, { ...fields, amount, version: 2 });
    }
  });
}
