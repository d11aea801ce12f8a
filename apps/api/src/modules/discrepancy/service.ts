/**
 * Discrepancy review (issue 24; docs/decisions/033-discrepancy-review.md). The rules are core's
 * (`@backoffice/core/discrepancy`); this is where they meet the database.
 *
 * - `requestDiscrepancy` checks a request (date, networks that exist, the partner's figures typed
 *   or from a CSV), stores it `queued` with its figures and enqueues the job. The scheduler calls it
 *   too (with its own sender).
 * - `runDiscrepancy` (the pg-boss job) compares day by day: our figure per day and partner is
 *   billing's own SQL (`computeSql` of the advertiser kind, the day as its bounds), summed over the
 *   partner's products. Each day is one transaction that rewrites that day's rows and moves the
 *   progress on, so a retry or a restart resumes at the first day not done.
 * - `decideRows` records ours, theirs or a split per row (versions: 409 when stale); when every
 *   flagged row is decided the request is `reviewed`.
 * - `applyRequest` writes each partner's accepted revenue to its open billing rows of the month
 *   (revenue network), once: the request row is locked and an applied request answers its result.
 */
import { isAllowed, type Acl, type RoleRef } from '@backoffice/core/acl';
import { fromMicros, toMicros } from '@backoffice/core/billing';
import {
  beyondTolerance,
  checkFigures,
  deltaPct,
  discrepancyDateError,
  distribute,
  DISCREPANCY_DEFAULT_TOLERANCE,
  DISCREPANCY_RESOURCE,
  figuresFromTable,
  requestDays,
  splitAmount,
  toBasisPoints,
  type DiscrepancyApplyOutcome,
  type DiscrepancyDecisionInput,
  type DiscrepancyListQuery,
  type DiscrepancyNetworkOption,
  type DiscrepancyRequestDto,
  type DiscrepancyRowDto,
  type DiscrepancyRowsQuery,
  type DiscrepancyState,
  type Figure,
  type FigureInput,
  type NetworkRef,
} from '@backoffice/core/discrepancy';
import { detectDelimiter, uploadError } from '@backoffice/core/files';
import Papa from 'papaparse';
import type { SendOptions } from 'pg-boss';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditRows, type Who } from '../billing/actions.ts';
import { computeSql, type ComputedLine } from '../billing/compute.ts';

export const DISCREPANCY_QUEUE = 'discrepancy-run';
export type Sender = (queue: string, data: object, options?: SendOptions) => Promise<string | null>;

const DAY_MS = 86_400_000;
const SETTING_TOLERANCE = 'discrepancy.tolerance_pct';
const SETTING_VERSION = 'discrepancy.tolerance_version';

const todayOf = (ctx: Pick<AppContext, 'now'>) => new Date(ctx.now?.() ?? Date.now()).toISOString().slice(0, 10);
const exec = (database: Database | QueryFn) =>
  typeof database === 'function' ? database : <T,>(text: string, params?: unknown[]) => query<T>(database, text, params);

// ---------------------------------------------------------------------------------------------
// Settings: the tolerance, versioned

export interface DiscrepancySettings {
  tolerance_pct: string;
  version: number;
}

export async function readSettings(database: Database | QueryFn): Promise<DiscrepancySettings> {
  const rows = await exec(database)<{ key: string; value: string }>(`SELECT key, value FROM settings WHERE key = ANY($1::text[])`, [[SETTING_TOLERANCE, SETTING_VERSION]]);
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  return { tolerance_pct: byKey.get(SETTING_TOLERANCE) ?? DISCREPANCY_DEFAULT_TOLERANCE, version: Number(byKey.get(SETTING_VERSION) ?? 0) };
}

export async function writeSettings(database: Database, next: { tolerance_pct: string; version: number }, who: Who): Promise<DiscrepancySettings> {
  return transaction(database, async (q) => {
    // The version row is the lock: two saves of the same version, the second gets 409.
    await q(`INSERT INTO settings (key, value) VALUES ($1, '0') ON CONFLICT (key) DO NOTHING`, [SETTING_VERSION]);
    await q(`SELECT value FROM settings WHERE key = $1 FOR UPDATE`, [SETTING_VERSION]);
    const before = await readSettings(q);
    if (before.version !== next.version) throw new AppError(409, 'discrepancy.settings_changed', { data: before });
    const tolerance = fromMicros(toMicros(next.tolerance_pct), 2).replace(/\.00$/, '');
    const after = { tolerance_pct: tolerance, version: before.version + 1 };
    await q(
      `INSERT INTO settings (key, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [SETTING_TOLERANCE, after.tolerance_pct, SETTING_VERSION, String(after.version)],
    );
    await auditRows(q, who, 'discrepancy.settings', [{ id: 0, before, after }], 'discrepancy_settings');
    return after;
  });
}

// ---------------------------------------------------------------------------------------------
// Networks

export async function searchNetworks(database: Database, search: string, ids: number[] = [], limit = 20): Promise<DiscrepancyNetworkOption[]> {
  const rows = await query<{ id: number; name: string; side: 'ssp' | 'performance' }>(
    database,
    `(SELECT id, name, side FROM demand_partners WHERE ($1 = '' OR name ILIKE '%' || $1 || '%' OR id::text = $1) ORDER BY lower(name), id LIMIT $2)
     UNION SELECT id, name, side FROM demand_partners WHERE id = ANY($3::int4[])`,
    [search.replace(/[%_\\]/g, (c) => `\\${c}`), limit, ids],
  );
  return rows
    .map((r) => ({ id: Number(r.id), name: r.name, side: r.side, currency: r.side === 'performance' ? 'EUR' : 'USD' }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

// ---------------------------------------------------------------------------------------------
// Requesting

export interface RequestInput {
  date: string;
  network_ids: number[];
  source: 'csv' | 'typed';
  figures?: FigureInput[];
  csv?: { file_name: string; text: string };
  idempotency_key: string;
}

/** The CSV's figure inputs: extension (spec 5), delimiter detected, rows with an empty value dropped. */
export function readFiguresCsv(fileName: string, text: string): { inputs: (FigureInput & { line: number })[]; dropped: number; delimiter: string } {
  const bad = uploadError(fileName, 'csv');
  if (bad) throw badRequest(bad, { csv: bad });
  const clean = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(clean);
  const parsed = Papa.parse<string[]>(clean, { delimiter, skipEmptyLines: 'greedy' });
  const table = figuresFromTable(parsed.data);
  if (!table) throw badRequest('discrepancy.csv.columns', { csv: 'discrepancy.csv.columns' });
  return { ...table, delimiter };
}

/**
 * Creates a request and enqueues its job (the same idempotency key answers the same request).
 * Used by the route and by the scheduler; `send` enqueues (absent or not running: the request
 * waits `queued` and the periodic sweep of the job enqueues it).
 */
export async function requestDiscrepancy(
  ctx: Pick<AppContext, 'database' | 'now'>,
  input: RequestInput,
  actor: Who,
  send?: Sender,
): Promise<{ request: DiscrepancyRequestDto; created: boolean }> {
  const database = ctx.database;
  const dateError = discrepancyDateError(input.date, todayOf(ctx));
  if (dateError) throw badRequest(dateError, { date: dateError });
  if (input.network_ids.length === 0) throw badRequest('common.no_networks_added', { network_ids: 'common.no_networks_added' });
  if (new Set(input.network_ids).size !== input.network_ids.length) throw badRequest('discrepancy.networks.duplicate', { network_ids: 'discrepancy.networks.duplicate' });
  const existing = await query<{ id: number }>(database, `SELECT id FROM discrepancy_requests WHERE idem_key = $1`, [input.idempotency_key]);
  if (existing[0]) return { request: (await readRequest(database, Number(existing[0].id)))!, created: false };
  const networks = await query<NetworkRef>(database, `SELECT id, name FROM demand_partners WHERE id = ANY($1::int4[])`, [input.network_ids]);
  if (networks.length !== input.network_ids.length) {
    const known = new Set(networks.map((n) => Number(n.id)));
    throw new AppError(400, 'discrepancy.network.not_found', { errors: { network_ids: 'discrepancy.network.not_found' }, data: { missing: input.network_ids.filter((n) => !known.has(n)) } });
  }
  const refs = networks.map((n) => ({ id: Number(n.id), name: n.name }));
  let inputs: (FigureInput & { line?: number })[];
  let fileName: string | null = null;
  if (input.source === 'csv') {
    if (!input.csv) throw badRequest('upload.csv.invalid', { csv: 'upload.csv.invalid' });
    inputs = readFiguresCsv(input.csv.file_name, input.csv.text).inputs;
    fileName = input.csv.file_name;
  } else inputs = input.figures ?? [];
  if (inputs.length === 0) throw badRequest('discrepancy.figures.required', { figures: 'discrepancy.figures.required' });
  const { figures, errors } = checkFigures(inputs, input.date, refs);
  if (errors.length > 0) throw new AppError(400, 'discrepancy.figures.invalid', { errors: { figures: 'discrepancy.figures.invalid' }, data: { lines: errors } });
  const covered = new Set(figures.map((f) => f.network_id));
  const missing = refs.filter((n) => !covered.has(n.id));
  if (missing.length > 0)
    throw new AppError(400, 'discrepancy.figures.network_missing', { params: { name: missing.map((n) => n.name).join(', ') }, errors: { figures: 'discrepancy.figures.network_missing' } });

  const settings = await readSettings(database);
  const days = requestDays(input.date);
  const { id, created } = await transaction(database, async (q) => {
    const [row] = await q<{ id: number }>(
      `INSERT INTO discrepancy_requests (idem_key, date, from_date, month, network_ids, source, file_name, tolerance_pct, days_total, created_by)
       VALUES ($1, $2::date, $3::date, $4, $5::jsonb, $6, $7, $8::numeric, $9, $10)
       ON CONFLICT (idem_key) DO NOTHING RETURNING id`,
      [input.idempotency_key, input.date, days[0], input.date.slice(0, 7), JSON.stringify(refs.map((n) => n.id)), input.source, fileName, settings.tolerance_pct, days.length, actor.userId],
    );
    if (!row) {
      const [again] = await q<{ id: number }>(`SELECT id FROM discrepancy_requests WHERE idem_key = $1`, [input.idempotency_key]);
      return { id: Number(again!.id), created: false };
    }
    await insertFigures(q, Number(row.id), figures);
    await auditRows(q, actor, 'discrepancy.request', [{ id: Number(row.id), before: null, after: { date: input.date, networks: refs, source: input.source, file_name: fileName, figures: figures.length, tolerance_pct: settings.tolerance_pct } }], 'discrepancy_requests');
    return { id: Number(row.id), created: true };
  });
  if (created && send) await send(DISCREPANCY_QUEUE, { id }, { singletonKey: `discrepancy-${id}` }).catch(() => null);
  return { request: (await readRequest(database, id))!, created };
}

async function insertFigures(q: QueryFn, requestId: number, figures: Figure[]): Promise<void> {
  for (let i = 0; i < figures.length; i += 5000) {
    const chunk = figures.slice(i, i + 5000).map((f) => ({ d: f.date, n: f.network_id, i: f.impressions, r: f.revenue }));
    await q(
      `INSERT INTO discrepancy_figures (request_id, day, network_id, impressions, revenue)
       SELECT $1::int4, f.d::date, f.n, f.i, f.r::numeric FROM jsonb_to_recordset($2::jsonb) AS f(d text, n int, i int8, r text)`,
      [requestId, JSON.stringify(chunk)],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The job

interface RequestRow {
  id: number;
  date: string;
  from_date: string;
  month: string;
  network_ids: number[];
  tolerance_pct: string;
  state: DiscrepancyState;
  days_done: number;
  days_total: number;
}

/** Our figures of one day for the partners asked: billing's advertiser SQL over [day, day + 1). */
export async function oursOfDay(q: QueryFn, day: string, networkIds: readonly number[], sides: readonly string[] = ['ssp', 'performance']): Promise<Map<number, { impressions: bigint; revenue: bigint }>> {
  const startMs = Date.parse(`${day}T00:00:00Z`);
  const next = new Date(startMs + DAY_MS).toISOString().slice(0, 10);
  const wanted = new Set(networkIds);
  const out = new Map<number, { impressions: bigint; revenue: bigint }>();
  const add = (lines: ComputedLine[]) => {
    for (const l of lines) {
      const id = Number(l.counterparty_id);
      if (!wanted.has(id)) continue;
      const cur = out.get(id) ?? { impressions: 0n, revenue: 0n };
      cur.impressions += BigInt(l.impressions);
      cur.revenue += BigInt(l.billed_micros);
      out.set(id, cur);
    }
  };
  // The SSP's day is one block of the rollups' day level (level 1), the month's bounds the day's.
  const day1 = { table: 'stats_r_partner_geo', segments: [{ lvl: 1, fromMs: startMs, toMs: startMs + DAY_MS }] };
  if (sides.includes('ssp')) add(await q<ComputedLine>(computeSql('ssp', 'advertiser', { partners: day1 }), [`${day}T00:00:00Z`, `${next}T00:00:00Z`]));
  if (sides.includes('performance')) add(await q<ComputedLine>(computeSql('performance', 'advertiser'), [day, next]));
  return out;
}

/** A day's compared rows (as the insert below takes them): ours and theirs, delta %, flagged. */
export function compareDay(
  ours: Map<number, { impressions: bigint; revenue: bigint }>,
  theirs: { network_id: number; impressions: string; revenue: string }[],
  sides: Map<number, string>,
  tolerance: bigint,
) {
  return theirs.map((t) => {
    const n = Number(t.network_id);
    const o = ours.get(n) ?? { impressions: 0n, revenue: 0n };
    const ti = BigInt(t.impressions);
    const tr = toMicros(t.revenue);
    return {
      n,
      c: sides.get(n) === 'performance' ? 'EUR' : 'USD',
      oi: o.impressions.toString(),
      ti: ti.toString(),
      id: deltaPct(o.impressions, ti),
      or: fromMicros(o.revenue, 6),
      tr: fromMicros(tr, 6),
      rd: deltaPct(o.revenue, tr),
      f: beyondTolerance(o.revenue, tr, tolerance) || beyondTolerance(o.impressions, ti, tolerance),
    };
  });
}

/** Writes a day's compared rows of a request (replacing what the day had). */
export async function writeDayRows(q: QueryFn, id: number, day: string, rows: ReturnType<typeof compareDay>): Promise<void> {
  await q(`DELETE FROM discrepancy_rows WHERE request_id = $1 AND day = $2::date`, [id, day]);
  if (rows.length === 0) return;
  await q(
    `INSERT INTO discrepancy_rows (request_id, day, network_id, currency, ours_impressions, theirs_impressions, impressions_delta_pct,
       ours_revenue, theirs_revenue, revenue_delta_pct, flagged)
     SELECT $1::int4, $2::date, r.n, r.c, r.oi::int8, r.ti::int8, r.id::numeric, r."or"::numeric, r.tr::numeric, r.rd::numeric, r.f
     FROM jsonb_to_recordset($3::jsonb) AS r(n int, c text, oi text, ti text, id text, "or" text, tr text, rd text, f boolean)`,
    [id, day, JSON.stringify(rows)],
  );
}

/**
 * Runs (or resumes) a request: idempotent. A request not queued or running is left alone; days
 * already done are not redone; a failure marks the request failed with its reason (retry from the
 * screen) rather than leaving it running.
 */
export async function runDiscrepancy(database: Database, id: number): Promise<{ state: DiscrepancyState; days: number } | null> {
  const [req] = await query<RequestRow>(
    database,
    `UPDATE discrepancy_requests SET state = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()), error = NULL, updated_at = now()
     WHERE id = $1 AND state IN ('queued', 'running')
     RETURNING id, date::text, from_date::text, month, network_ids, tolerance_pct::text, state, days_done, days_total`,
    [id],
  );
  if (!req) return null;
  const days = requestDays(req.date);
  const networks = (req.network_ids as number[]).map(Number);
  const tolerance = toBasisPoints(req.tolerance_pct);
  try {
    const sides = new Map(
      (await query<{ id: number; side: string }>(database, `SELECT id, side FROM demand_partners WHERE id = ANY($1::int4[])`, [networks])).map((r) => [Number(r.id), r.side]),
    );
    for (let i = Number(req.days_done); i < days.length; i += 1) {
      const day = days[i]!;
      const still = await transaction(database, async (q) => {
        const [cur] = await q<{ state: string; days_done: number }>(`SELECT state, days_done FROM discrepancy_requests WHERE id = $1 FOR UPDATE`, [id]);
        if (!cur || cur.state !== 'running' || Number(cur.days_done) !== i) return false;
        await q('SET LOCAL max_parallel_workers_per_gather = 0');
        const ours = await oursOfDay(q, day, networks, [...new Set(sides.values())]);
        const theirs = await q<{ network_id: number; impressions: string; revenue: string }>(
          `SELECT network_id, impressions::text, revenue::text FROM discrepancy_figures WHERE request_id = $1 AND day = $2::date`,
          [id, day],
        );
        const rows = compareDay(ours, theirs, sides, tolerance);
        await writeDayRows(q, id, day, rows);
        await q(`UPDATE discrepancy_requests SET days_done = $2, updated_at = now() WHERE id = $1`, [id, i + 1]);
        return true;
      });
      if (!still) return null;
    }
    const [done] = await query<{ state: DiscrepancyState }>(
      database,
      `UPDATE discrepancy_requests SET finished_at = now(), updated_at = now(), version = version + 1,
         state = CASE WHEN EXISTS (SELECT 1 FROM discrepancy_rows WHERE request_id = $1 AND flagged AND decision IS NULL) THEN 'ready' ELSE 'reviewed' END
       WHERE id = $1 AND state = 'running' RETURNING state`,
      [id],
    );
    return done ? { state: done.state, days: days.length } : null;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await query(database, `UPDATE discrepancy_requests SET state = 'failed', error = $2, version = version + 1, updated_at = now() WHERE id = $1 AND state = 'running'`, [id, message.slice(0, 500)]);
    return { state: 'failed', days: days.length };
  }
}

/** A failed request, queued again (it resumes at the first day not done). */
export async function retryRequest(database: Database, id: number, who: Who, send?: Sender): Promise<DiscrepancyRequestDto> {
  const changed = await transaction(database, async (q) => {
    const [cur] = await q<{ state: string; error: string | null }>(`SELECT state, error FROM discrepancy_requests WHERE id = $1 FOR UPDATE`, [id]);
    if (!cur) throw notFound();
    if (cur.state === 'queued' || cur.state === 'running') return false; // a double click: already going
    if (cur.state !== 'failed') throw badRequest('discrepancy.not_retryable');
    await q(`UPDATE discrepancy_requests SET state = 'queued', version = version + 1, updated_at = now() WHERE id = $1`, [id]);
    await auditRows(q, who, 'discrepancy.retry', [{ id, before: { state: 'failed', error: cur.error }, after: { state: 'queued' } }], 'discrepancy_requests');
    return true;
  });
  if (changed && send) await send(DISCREPANCY_QUEUE, { id }, { singletonKey: `discrepancy-${id}` }).catch(() => null);
  return (await readRequest(database, id))!;
}

/** Requests queued for a while without a job (sent while jobs were off, or lost): their ids. */
export async function staleQueued(database: Database): Promise<number[]> {
  const rows = await query<{ id: number }>(
    database,
    `SELECT id FROM discrepancy_requests WHERE (state = 'queued' AND updated_at < now() - interval '1 minute')
       OR (state = 'running' AND updated_at < now() - interval '10 minutes') ORDER BY id LIMIT 20`,
  );
  return rows.map((r) => Number(r.id));
}

// ---------------------------------------------------------------------------------------------
// Reading

const REQUEST_SELECT = `r.id, r.date::text, r.from_date::text, r.month, r.network_ids, r.source, r.file_name, r.tolerance_pct::text, r.state,
  r.days_done, r.days_total, r.error, r.attempts, r.apply_result, r.version, r.created_at, r.finished_at, r.applied_at,
  cu.name AS created_by, au.name AS applied_by,
  (SELECT count(*) FROM discrepancy_rows x WHERE x.request_id = r.id)::int AS n_rows,
  (SELECT count(*) FROM discrepancy_rows x WHERE x.request_id = r.id AND x.flagged)::int AS n_flagged,
  (SELECT count(*) FROM discrepancy_rows x WHERE x.request_id = r.id AND x.flagged AND x.decision IS NULL)::int AS n_undecided,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name) ORDER BY d.name), '[]'::jsonb)
     FROM demand_partners d WHERE d.id IN (SELECT jsonb_array_elements_text(r.network_ids)::int)) AS networks`;
const REQUEST_FROM = `discrepancy_requests r LEFT JOIN users cu ON cu.id = r.created_by LEFT JOIN users au ON au.id = r.applied_by`;

type RawRequest = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

function toRequestDto(r: RawRequest): DiscrepancyRequestDto {
  const state = r.state as DiscrepancyState;
  return {
    id: Number(r.id),
    date: String(r.date),
    from_date: String(r.from_date),
    month: String(r.month),
    state,
    source: r.source as 'csv' | 'typed',
    file_name: (r.file_name as string | null) ?? null,
    tolerance_pct: String(r.tolerance_pct).replace(/\.00$/, ''),
    networks: (r.networks as NetworkRef[]).map((n) => ({ id: Number(n.id), name: n.name })),
    progress: { done: Number(r.days_done), total: Number(r.days_total) },
    counts: { rows: Number(r.n_rows), flagged: Number(r.n_flagged), undecided: Number(r.n_undecided) },
    error: (r.error as string | null) ?? null,
    attempts: Number(r.attempts),
    created_by: (r.created_by as string | null) ?? null,
    created_at: iso(r.created_at)!,
    finished_at: iso(r.finished_at),
    applied_at: iso(r.applied_at),
    applied_by: (r.applied_by as string | null) ?? null,
    apply_result: (r.apply_result as DiscrepancyApplyOutcome[] | null) ?? null,
    version: Number(r.version),
    actions: { review: state === 'ready' || state === 'reviewed', apply: state === 'reviewed', retry: state === 'failed' },
  };
}

export async function readRequest(database: Database | QueryFn, id: number): Promise<DiscrepancyRequestDto | null> {
  const [r] = await exec(database)<RawRequest>(`SELECT ${REQUEST_SELECT} FROM ${REQUEST_FROM} WHERE r.id = $1`, [id]);
  return r ? toRequestDto(r) : null;
}

const REQUEST_SORT: Record<string, string> = { created_at: 'r.created_at', date: 'r.date', flagged: 'n_flagged' };

export async function listRequests(database: Database, q: DiscrepancyListQuery, all = false): Promise<{ rows: DiscrepancyRequestDto[]; total: number }> {
  const desc = q.sort.startsWith('-');
  const order = `${REQUEST_SORT[q.sort.replace(/^-/, '')] ?? 'r.created_at'} ${desc ? 'DESC' : 'ASC'}, r.id ${desc ? 'DESC' : 'ASC'}`;
  const params: unknown[] = [q.state ?? null, q.search.replace(/[%_\\]/g, (c) => `\\${c}`)];
  const where = `($1::text IS NULL OR r.state = $1) AND ($2::text = '' OR r.id::text = $2 OR EXISTS (
    SELECT 1 FROM demand_partners d WHERE d.id IN (SELECT jsonb_array_elements_text(r.network_ids)::int) AND d.name ILIKE '%' || $2 || '%'))`;
  const [count] = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM discrepancy_requests r WHERE ${where}`, params);
  const page = all ? '' : `LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`;
  const rows = await query<RawRequest>(database, `SELECT * FROM (SELECT ${REQUEST_SELECT} FROM ${REQUEST_FROM} WHERE ${where}) r ORDER BY ${order} ${page}`, params);
  return { rows: rows.map(toRequestDto), total: Number(count!.n) };
}

const ROW_SELECT = `x.id, x.day::text, x.network_id, d.name AS network, x.currency, x.ours_impressions::text, x.theirs_impressions::text,
  x.impressions_delta_pct::text, x.ours_revenue::text, x.theirs_revenue::text, x.revenue_delta_pct::text, x.flagged, x.decision,
  x.accepted_revenue::text, u.name AS decided_by, x.version`;
const ROW_FROM = `discrepancy_rows x LEFT JOIN demand_partners d ON d.id = x.network_id LEFT JOIN users u ON u.id = x.decided_by`;
const ROW_SORT: Record<string, string> = { day: 'x.day', network: 'lower(d.name)', delta: 'abs(x.revenue_delta_pct)' };

function toRowDto(r: Record<string, unknown>): DiscrepancyRowDto {
  const six = (v: unknown) => fromMicros(toMicros(String(v)), 6);
  return {
    id: Number(r.id),
    day: String(r.day),
    network_id: Number(r.network_id),
    network: String(r.network ?? r.network_id),
    currency: String(r.currency),
    ours_impressions: Number(r.ours_impressions),
    theirs_impressions: Number(r.theirs_impressions),
    impressions_delta_pct: (r.impressions_delta_pct as string | null) ?? null,
    ours_revenue: six(r.ours_revenue),
    theirs_revenue: six(r.theirs_revenue),
    revenue_delta_pct: (r.revenue_delta_pct as string | null) ?? null,
    flagged: Boolean(r.flagged),
    decision: (r.decision as DiscrepancyRowDto['decision']) ?? null,
    accepted_revenue: r.accepted_revenue === null ? null : six(r.accepted_revenue),
    decided_by: (r.decided_by as string | null) ?? null,
    version: Number(r.version),
  };
}

export async function listRows(database: Database, id: number, q: DiscrepancyRowsQuery, all = false): Promise<{ rows: DiscrepancyRowDto[]; total: number }> {
  const where = `x.request_id = $1 AND ($2::text = 'all' OR ($2 = 'flagged' AND x.flagged) OR ($2 = 'undecided' AND x.flagged AND x.decision IS NULL))
    AND ($3::int4 IS NULL OR x.network_id = $3)`;
  const params = [id, q.filter, q.network_id ?? null];
  const desc = q.sort.startsWith('-');
  const order = `${ROW_SORT[q.sort.replace(/^-/, '')] ?? 'x.day'} ${desc ? 'DESC' : 'ASC'} NULLS LAST, x.day, lower(d.name), x.id`;
  const [count] = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM discrepancy_rows x WHERE ${where}`, params);
  const page = all ? '' : `LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`;
  const rows = await query<Record<string, unknown>>(database, `SELECT ${ROW_SELECT} FROM ${ROW_FROM} WHERE ${where} ORDER BY ${order} ${page}`, params);
  return { rows: rows.map(toRowDto), total: Number(count!.n) };
}

// ---------------------------------------------------------------------------------------------
// Review

export async function decideRows(database: Database, id: number, input: DiscrepancyDecisionInput, who: Who): Promise<{ request: DiscrepancyRequestDto; decided: number }> {
  const decided = await transaction(database, async (q) => {
    const [req] = await q<{ state: string }>(`SELECT state FROM discrepancy_requests WHERE id = $1 FOR UPDATE`, [id]);
    if (!req) throw notFound();
    if (req.state !== 'ready' && req.state !== 'reviewed') throw badRequest('discrepancy.not_reviewable');
    const ids = input.rows.map((r) => r.id);
    const rows = await q<Record<string, unknown>>(`SELECT ${ROW_SELECT} FROM ${ROW_FROM} WHERE x.request_id = $1 AND x.id = ANY($2::int4[]) ORDER BY x.id FOR UPDATE OF x`, [id, ids]);
    if (rows.length !== new Set(ids).size) throw notFound();
    const versions = new Map(input.rows.map((r) => [r.id, r.version]));
    const stale = rows.filter((r) => Number(r.version) !== versions.get(Number(r.id)));
    if (stale.length > 0) throw new AppError(409, 'discrepancy.row_changed', { data: stale.map(toRowDto) });
    const out = rows.map((raw) => {
      const r = toRowDto(raw);
      const ours = toMicros(r.ours_revenue);
      const theirs = toMicros(r.theirs_revenue);
      let accepted = ours;
      if (input.decision === 'theirs') accepted = theirs;
      if (input.decision === 'split') {
        if (input.amount) {
          accepted = toMicros(input.amount);
          const [lo, hi] = ours < theirs ? [ours, theirs] : [theirs, ours];
          if (accepted < lo || accepted > hi) throw badRequest('discrepancy.split.amount_between', { amount: 'discrepancy.split.amount_between' });
        } else accepted = splitAmount(ours, theirs, toBasisPoints(input.split_pct!));
      }
      return { id: r.id, before: { decision: r.decision, accepted_revenue: r.accepted_revenue }, after: { decision: input.decision, accepted_revenue: fromMicros(accepted, 6) } };
    });
    await q(
      `UPDATE discrepancy_rows x SET decision = e.decision, accepted_revenue = e.accepted::numeric, decided_by = $2, decided_at = now(), version = x.version + 1
       FROM jsonb_to_recordset($1::jsonb) AS e(id int, decision text, accepted text) WHERE x.id = e.id`,
      [JSON.stringify(out.map((o) => ({ id: o.id, decision: o.after.decision, accepted: o.after.accepted_revenue }))), who.userId],
    );
    await auditRows(q, who, 'discrepancy.decide', out.map((o) => ({ ...o, after: { ...o.after, request_id: id } })), 'discrepancy_rows');
    await q(
      `UPDATE discrepancy_requests SET version = version + 1, updated_at = now(),
         state = CASE WHEN EXISTS (SELECT 1 FROM discrepancy_rows WHERE request_id = $1 AND flagged AND decision IS NULL) THEN 'ready' ELSE 'reviewed' END
       WHERE id = $1`,
      [id],
    );
    return out.length;
  });
  return { request: (await readRequest(database, id))!, decided };
}

// ---------------------------------------------------------------------------------------------
// Apply

/**
 * Writes the accepted figures to the billing rows, once. Per partner, the difference accepted −
 * ours over the compared days is added to its month's figure: revenue_network = revenue_ours +
 * difference, spread over the partner's product rows in proportion to their revenue (largest
 * remainder, exact). A partner with any row no longer open is skipped and named; so is one without
 * rows. An applied request answers its stored result (`already`).
 */
export async function applyRequest(database: Database, id: number, version: number, who: Who): Promise<{ request: DiscrepancyRequestDto; already: boolean }> {
  const already = await transaction(database, async (q) => {
    const [req] = await q<{ state: string; version: number; month: string; network_ids: number[] }>(
      `SELECT state, version, month, network_ids FROM discrepancy_requests WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!req) throw notFound();
    if (req.state === 'applied') return true;
    if (Number(req.version) !== version) throw new AppError(409, 'discrepancy.changed', { data: await readRequest(q, id) });
    if (req.state !== 'reviewed') throw badRequest('discrepancy.not_appliable');
    const sums = await q<{ network_id: number; name: string; side: string; delta: string }>(
      `SELECT x.network_id, d.name, d.side, sum(coalesce(x.accepted_revenue, x.ours_revenue) - x.ours_revenue)::text AS delta
       FROM discrepancy_rows x JOIN demand_partners d ON d.id = x.network_id WHERE x.request_id = $1 GROUP BY x.network_id, d.name, d.side ORDER BY d.name`,
      [id],
    );
    const outcomes: DiscrepancyApplyOutcome[] = [];
    const audit: { id: number; before: unknown; after: unknown }[] = [];
    // Every billing row of the partners' month at once, locked in id order.
    const all = await q<{ id: number; counterparty_id: number; side: string; product: string; state: string; revenue_ours: string; revenue_network: string | null }>(
      `SELECT b.id, b.counterparty_id, b.side, b.product, b.state, b.revenue_ours::text, b.revenue_network::text
       FROM billing_rows b JOIN demand_partners d ON d.id = b.counterparty_id AND d.side = b.side
       WHERE b.kind = 'advertiser' AND b.month = $1 AND b.counterparty_type = 'demand_partner' AND b.counterparty_id = ANY($2::int4[])
       ORDER BY b.id FOR UPDATE OF b`,
      [req.month, sums.map((x) => Number(x.network_id))],
    );
    const byPartner = new Map<number, typeof all>();
    for (const r of all) byPartner.set(Number(r.counterparty_id), [...(byPartner.get(Number(r.counterparty_id)) ?? []), r]);
    const written: { id: number; value: string }[] = [];
    for (const s of sums) {
      const delta = toMicros(fromMicros(toMicros(s.delta), 6));
      const rows = byPartner.get(Number(s.network_id)) ?? [];
      const base = { network_id: Number(s.network_id), name: s.name, delta: fromMicros(delta, 6) };
      const listed = rows.map((r) => ({ id: Number(r.id), product: r.product, state: r.state, before: r.revenue_network, after: r.revenue_network }));
      if (rows.length === 0) {
        outcomes.push({ ...base, ok: false, reason: 'discrepancy.skip.no_billing_row', rows: [] });
        continue;
      }
      if (rows.some((r) => r.state !== 'open')) {
        outcomes.push({ ...base, ok: false, reason: 'discrepancy.skip.confirmed', rows: listed.filter((r) => r.state !== 'open') });
        continue;
      }
      const ours = rows.map((r) => toMicros(r.revenue_ours));
      const shares = distribute(delta, ours);
      const next = rows.map((_, i) => ours[i]! + shares[i]!);
      if (next.some((v) => v < 0n)) {
        outcomes.push({ ...base, ok: false, reason: 'discrepancy.skip.negative', rows: listed });
        continue;
      }
      if (delta === 0n && rows.every((r) => r.revenue_network === null)) {
        outcomes.push({ ...base, ok: false, reason: 'discrepancy.skip.unchanged', rows: listed });
        continue;
      }
      const values = next.map((v) => fromMicros(v, 6));
      rows.forEach((r, i) => {
        written.push({ id: Number(r.id), value: values[i]! });
        audit.push({ id: Number(r.id), before: { revenue_network: r.revenue_network }, after: { revenue_network: values[i]!, discrepancy_request: id } });
      });
      outcomes.push({ ...base, ok: true, rows: rows.map((r, i) => ({ id: Number(r.id), product: r.product, state: r.state, before: r.revenue_network, after: values[i]! })) });
    }
    if (written.length > 0)
      await q(
        `UPDATE billing_rows b SET revenue_network = w.value::numeric, version = b.version + 1, updated_by = $2, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS w(id int, value text) WHERE b.id = w.id`,
        [JSON.stringify(written), who.userId],
      );
    await auditRows(q, who, 'billing_rows.discrepancy', audit);
    await q(
      `UPDATE discrepancy_requests SET state = 'applied', apply_result = $2::jsonb, applied_by = $3, applied_at = now(), version = version + 1, updated_at = now() WHERE id = $1`,
      [id, JSON.stringify(outcomes), who.userId],
    );
    await auditRows(q, who, 'discrepancy.apply', [{ id, before: { state: 'reviewed' }, after: { state: 'applied', result: outcomes.map((o) => ({ network_id: o.network_id, ok: o.ok, reason: o.reason ?? null })) } }], 'discrepancy_requests');
    return false;
  });
  return { request: (await readRequest(database, id))!, already };
}

// ---------------------------------------------------------------------------------------------
// Dashboard

/** Requests ready for review and their flagged rows awaiting a decision (nothing for who cannot read them). */
export async function discrepancyWaiting(
  database: Database,
  who?: { roles: readonly RoleRef[]; acl: Acl },
): Promise<{ count: number; items: { id: number; date: string; undecided: number }[] }> {
  if (who && !isAllowed(who, { resource: DISCREPANCY_RESOURCE, action: 'read' })) return { count: 0, items: [] };
  const rows = await query<{ id: number; date: string; undecided: number }>(
    database,
    `SELECT r.id, r.date::text, (SELECT count(*) FROM discrepancy_rows x WHERE x.request_id = r.id AND x.flagged AND x.decision IS NULL)::int AS undecided
     FROM discrepancy_requests r WHERE r.state = 'ready' ORDER BY r.created_at DESC, r.id DESC LIMIT 20`,
  );
  return { count: rows.reduce((s, r) => s + Number(r.undecided), 0), items: rows.map((r) => ({ id: Number(r.id), date: r.date, undecided: Number(r.undecided) })) };
}
