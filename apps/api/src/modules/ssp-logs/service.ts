/**
 * SSP logs (docs/decisions/035-ssp-logs.md): the searches over the sampled logs, the sampling
 * setting (one row, versioned, audited) and the sampler that stands in for the ad server's log
 * shipping, and the retention.
 *
 * The sampler (job ssp-logs-sample, every minute) works whole minutes: under the setting's row
 * lock it logs each complete minute after `last_sampled_minute` (at most
 * SAMPLER_MAX_CATCH_UP_MINUTES behind now) up to the run's end, and moves `last_sampled_minute` in
 * the same transaction, so a retried or overlapping run never logs a minute twice; once past the
 * end it switches sampling off (audited as the system).
 */
import {
  DURATION_MIN_MINUTES,
  SAMPLER_MAX_CATCH_UP_MINUTES,
  SAMPLER_REQUESTS_PER_PARTNER_MINUTE,
  SSP_LOGS_RETENTION_DAYS,
  parametrizationClockErrors,
  parseSspLogSort,
  samplingEndsAt,
  type ParametrizationBody,
  type SamplingSetting,
  type SamplingStatus,
  type SspLogDetail,
  type SspLogExportQuery,
  type SspLogListQuery,
  type SspLogLookups,
  type SspLogRow,
} from '@backoffice/core/ssp-logs';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { insertLogRows, loadInventory, sampledMinute, scopePartners } from './generate.ts';

/** The audit entity of the setting (its history). */
export const SAMPLING_ENTITY = 'ssp_log_sampling';
const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------
// Logs

type Filters = Omit<SspLogListQuery, 'page' | 'page_size' | 'sort'> | Omit<SspLogExportQuery, 'format' | 'sort'>;

function whereOf(f: Filters): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (cond: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(cond(`$${params.length}`));
  };
  if (f.request_id) add((n) => `l.request_id = ${n}`, f.request_id);
  if (f.publisher_id !== undefined) add((n) => `l.publisher_id = ${n}::int`, f.publisher_id);
  if (f.partner_id !== undefined) add((n) => `l.partner_id = ${n}::int`, f.partner_id);
  if (f.outcome) add((n) => `l.outcome = ${n}`, f.outcome);
  if (f.from) add((n) => `l.logged_at >= ${n}::timestamptz`, f.from);
  if (f.to) add((n) => `l.logged_at < ${n}::timestamptz`, f.to);
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

const ROW_COLUMNS = `l.id, l.logged_at, l.request_id, l.imp_id, l.publisher_id, coalesce(p.name, '#' || l.publisher_id) AS publisher_name,
  l.inventory, l.environment, l.media_type, l.partner_id, coalesce(d.name, '#' || l.partner_id) AS partner_name, l.endpoint, l.region, l.deal_id,
  l.latency_ms, l.outcome, l.bid_price::text AS bid_price, l.bid_currency, l.clearing_price::text AS clearing_price, l.floor::text AS floor, l.source`;
const JOINS = 'LEFT JOIN publishers p ON p.id = l.publisher_id LEFT JOIN demand_partners d ON d.id = l.partner_id';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toRow(r: SqlRow): SspLogRow {
  return {
    id: Number(r.id),
    logged_at: iso(r.logged_at),
    request_id: String(r.request_id),
    imp_id: String(r.imp_id),
    publisher: { id: Number(r.publisher_id), name: String(r.publisher_name) },
    inventory: String(r.inventory),
    environment: r.environment === 'app' ? 'app' : 'site',
    media_type: String(r.media_type) as SspLogRow['media_type'],
    partner: { id: Number(r.partner_id), name: String(r.partner_name) },
    endpoint: String(r.endpoint),
    region: String(r.region),
    deal_id: r.deal_id === null ? null : String(r.deal_id),
    latency_ms: Number(r.latency_ms),
    outcome: String(r.outcome) as SspLogRow['outcome'],
    bid_price: r.bid_price === null ? null : String(r.bid_price),
    bid_currency: r.bid_currency === null ? null : String(r.bid_currency),
    clearing_price: r.clearing_price === null ? null : String(r.clearing_price),
    floor: r.floor === null ? null : String(r.floor),
    source: String(r.source),
  };
}

function orderOf(sort: string): string {
  const s = parseSspLogSort(sort);
  const dir = s.desc ? 'DESC' : 'ASC';
  return s.field === 'latency' ? `l.latency_ms ${dir}, l.id ${dir}` : `l.logged_at ${dir}, l.id ${dir}`;
}

/** A page of logs (newest first by default) and the total. */
export async function listLogs(database: Database, q: SspLogListQuery): Promise<{ items: SspLogRow[]; total: number }> {
  const w = whereOf(q);
  const offset = (q.page - 1) * q.page_size;
  const rows = await query(database, `SELECT ${ROW_COLUMNS} FROM ssp_auction_logs l ${JOINS} ${w.sql} ORDER BY ${orderOf(q.sort)} LIMIT ${q.page_size} OFFSET ${offset}`, w.params);
  const [count] = await query<{ n: string }>(database, `SELECT count(*)::text AS n FROM ssp_auction_logs l ${w.sql}`, w.params);
  return { items: rows.map(toRow), total: Number(count?.n ?? 0) };
}

/** The filtered logs for an export (without the JSON), at most `limit`. */
export async function exportLogs(database: Database, q: SspLogExportQuery, limit: number): Promise<SspLogRow[]> {
  const w = whereOf(q);
  const rows = await query(database, `SELECT ${ROW_COLUMNS} FROM ssp_auction_logs l ${JOINS} ${w.sql} ORDER BY ${orderOf(q.sort)} LIMIT ${limit}`, w.params);
  return rows.map(toRow);
}

export async function logOr404(database: Database, id: number): Promise<SspLogDetail> {
  const [r] = await query(database, `SELECT ${ROW_COLUMNS}, l.bid_request, l.bid_response FROM ssp_auction_logs l ${JOINS} WHERE l.id = $1`, [id]);
  if (!r) throw notFound('ssp_logs.not_found');
  return { ...toRow(r), bid_request: r.bid_request as Record<string, unknown>, bid_response: (r.bid_response ?? null) as Record<string, unknown> | null };
}

export async function lookups(database: Database): Promise<SspLogLookups> {
  const publishers = await query<{ id: number; name: string }>(database, `SELECT id, name FROM publishers WHERE side = 'ssp' ORDER BY lower(name), id LIMIT 2000`);
  const partners = await query<{ id: number; name: string; status: string }>(database, `SELECT id, name, status FROM demand_partners WHERE side = 'ssp' ORDER BY lower(name), id LIMIT 2000`);
  return { publishers, partners };
}

// ---------------------------------------------------------------------------------------------
// The setting

async function settingIn(q: QueryFn, now: number, lock = false): Promise<SamplingSetting> {
  const [r] = await q(
    `SELECT s.*, u.name AS updated_by_name FROM ssp_log_sampling s LEFT JOIN users u ON u.id = s.updated_by WHERE s.id = 1${lock ? ' FOR UPDATE OF s' : ''}`,
  );
  if (!r) throw notFound('resource.not_found');
  const ids = (r.partner_ids as number[]) ?? [];
  const names = ids.length > 0 ? await q<{ id: number; name: string }>('SELECT id, name FROM demand_partners WHERE id = ANY($1::int[]) ORDER BY lower(name)', [ids]) : [];
  const endsAt = r.ends_at ? iso(r.ends_at) : null;
  return {
    active: Boolean(r.active),
    sample_rate_pct: Number(r.sample_rate_pct),
    duration_mode: r.duration_mode === 'until' ? 'until' : 'minutes',
    duration_minutes: r.duration_minutes === null ? null : Number(r.duration_minutes),
    until: r.until ? iso(r.until) : null,
    partner_scope: r.partner_scope === 'partners' ? 'partners' : 'all',
    partner_ids: ids,
    version: Number(r.version),
    started_at: r.started_at ? iso(r.started_at) : null,
    ends_at: endsAt,
    sampling: Boolean(r.active) && endsAt !== null && Date.parse(endsAt) > now,
    sampled_rows: Number(r.sampled_rows),
    last_sampled_minute: r.last_sampled_minute ? iso(r.last_sampled_minute) : null,
    partners: names,
    updated_at: r.updated_at ? iso(r.updated_at) : null,
    updated_by: { id: r.updated_by === null ? null : Number(r.updated_by), name: r.updated_by_name === null ? null : String(r.updated_by_name) },
  };
}

export const getSetting = (database: Database, now: number) => settingIn((t, p) => query(database, t, p), now);

export async function samplingStatus(database: Database, now: number): Promise<SamplingStatus> {
  const s = await getSetting(database, now);
  const [c] = await query<{ n: string; oldest: Date | null; newest: Date | null }>(database, 'SELECT count(*)::text AS n, min(logged_at) AS oldest, max(logged_at) AS newest FROM ssp_auction_logs');
  return {
    sampling: s.sampling,
    sample_rate_pct: s.sample_rate_pct,
    partner_scope: s.partner_scope,
    partner_count: s.partner_ids.length,
    started_at: s.started_at,
    ends_at: s.ends_at,
    sampled_rows: s.sampled_rows,
    retention_days: SSP_LOGS_RETENTION_DAYS,
    rows: Number(c?.n ?? 0),
    oldest: c?.oldest ? iso(c.oldest) : null,
    newest: c?.newest ? iso(c.newest) : null,
  };
}

/** What the audit keeps of a setting (before / after). */
const audited = (s: Pick<SamplingSetting, 'active' | 'sample_rate_pct' | 'duration_mode' | 'duration_minutes' | 'until' | 'partner_scope' | 'partner_ids' | 'started_at' | 'ends_at' | 'version'>) => ({
  active: s.active,
  sample_rate_pct: s.sample_rate_pct,
  duration_mode: s.duration_mode,
  duration_minutes: s.duration_minutes,
  until: s.until,
  partner_scope: s.partner_scope,
  partner_ids: s.partner_ids,
  started_at: s.started_at,
  ends_at: s.ends_at,
  version: s.version,
});

/**
 * Changes the setting with the version the editor read (409 resource.conflict with the current
 * one when stale). Switching sampling on (or changing a running sample's duration) starts a run
 * now: `started_at` now, `ends_at` from the duration; the sampler's progress restarts.
 */
export async function updateSetting(database: Database, request: FastifyRequest, body: ParametrizationBody, now: number): Promise<SamplingSetting> {
  const caller = callerOf(request);
  const clock = parametrizationClockErrors(body, now);
  if (body.active && Object.keys(clock).length > 0) throw badRequest('error.validation', clock);
  const partnerIds = body.partner_scope === 'partners' ? [...new Set(body.partner_ids)].sort((a, b) => a - b) : [];
  const outcome = await transaction(database, async (q) => {
    if (partnerIds.length > 0) {
      const known = await scopePartners(q, partnerIds);
      if (known.length !== partnerIds.length) throw badRequest('error.validation', { partner_ids: 'ssp_logs.param.partner_unknown' });
    }
    const before = await settingIn(q, now, true);
    if (before.version !== body.version) return 'conflict' as const;
    const restart = body.active && (!before.sampling || before.duration_mode !== body.duration_mode || before.duration_minutes !== body.duration_minutes || before.until !== (body.until ? new Date(Date.parse(body.until)).toISOString() : null));
    const startedAt = restart ? new Date(now).toISOString() : before.started_at;
    const endsAt = restart ? samplingEndsAt(body, now) : body.active ? before.ends_at : before.sampling ? new Date(now).toISOString() : before.ends_at;
    await q(
      `UPDATE ssp_log_sampling SET active = $1, sample_rate_pct = $2, duration_mode = $3, duration_minutes = $4, until = $5::timestamptz,
              partner_scope = $6, partner_ids = $7::jsonb, started_at = $8::timestamptz, ends_at = $9::timestamptz,
              last_sampled_minute = CASE WHEN $10 THEN NULL ELSE last_sampled_minute END, sampled_rows = CASE WHEN $10 THEN 0 ELSE sampled_rows END,
              version = version + 1, updated_by = $11, updated_at = now()
        WHERE id = 1`,
      [
        body.active,
        body.sample_rate_pct,
        body.duration_mode,
        body.duration_mode === 'minutes' ? body.duration_minutes ?? DURATION_MIN_MINUTES : null,
        body.duration_mode === 'until' ? body.until : null,
        body.partner_scope,
        JSON.stringify(partnerIds),
        startedAt,
        endsAt,
        restart,
        caller.id,
      ],
    );
    const after = await settingIn(q, now);
    await auditIn(q, request, { action: 'ssp_logs.parametrization_update', entity: SAMPLING_ENTITY, entityId: 1, before: audited(before), after: audited(after) });
    return 'saved' as const;
  });
  const current = await getSetting(database, now);
  if (outcome === 'conflict')
    throw new AppError(409, 'resource.conflict', { data: { current }, params: { name: current.updated_by.name ?? '?', at: current.updated_at ?? '' } });
  return current;
}

// ---------------------------------------------------------------------------------------------
// The sampler and the retention

export interface SamplerResult {
  /** Minutes logged now. */
  minutes: number;
  rows: number;
  /** Sampling was switched off because its run ended. */
  ended: boolean;
  active: boolean;
}

/** One sampler run at `now` (idempotent per minute; see the file's comment). */
export async function runSampler(database: Database, now: number, perPartner = SAMPLER_REQUESTS_PER_PARTNER_MINUTE): Promise<SamplerResult> {
  return transaction(database, async (q) => {
    const s = await settingIn(q, now, true);
    if (!s.active || !s.started_at || !s.ends_at) return { minutes: 0, rows: 0, ended: false, active: false };
    const startedAt = Date.parse(s.started_at);
    const endsAt = Date.parse(s.ends_at);
    const firstMinute = Math.floor(startedAt / MINUTE) * MINUTE;
    const nextMinute = s.last_sampled_minute ? Date.parse(s.last_sampled_minute) + MINUTE : firstMinute;
    /** The minutes that are over (now) and that the run covers. */
    const lastMinute = Math.min(Math.floor(now / MINUTE) * MINUTE - MINUTE, Math.ceil(endsAt / MINUTE) * MINUTE - MINUTE);
    const from = Math.max(nextMinute, lastMinute - (SAMPLER_MAX_CATCH_UP_MINUTES - 1) * MINUTE);
    let rows = 0;
    let minutes = 0;
    if (from <= lastMinute) {
      const inv = await loadInventory(q, s.partner_scope === 'partners' ? s.partner_ids : null);
      for (let m = from; m <= lastMinute; m += MINUTE) {
        rows += await insertLogRows(q, sampledMinute(inv, m, s.sample_rate_pct, perPartner, { from: startedAt, to: endsAt }, 'sampler'));
        minutes++;
      }
      await q('UPDATE ssp_log_sampling SET last_sampled_minute = $1::timestamptz, sampled_rows = sampled_rows + $2 WHERE id = 1', [new Date(lastMinute).toISOString(), rows]);
    }
    const through = from <= lastMinute ? lastMinute : nextMinute - MINUTE;
    const done = now >= endsAt && through + MINUTE >= endsAt;
    if (done) {
      await q('UPDATE ssp_log_sampling SET active = false, version = version + 1, updated_at = now() WHERE id = 1');
      const after = await settingIn(q, now);
      await auditIn(q, null, { action: 'ssp_logs.sampling_ended', entity: SAMPLING_ENTITY, entityId: 1, before: audited(s), after: audited(after) });
    }
    return { minutes, rows, ended: done, active: !done };
  });
}

/** Deletes the logs older than the retention. */
export async function pruneLogs(database: Database, now: number, days = SSP_LOGS_RETENTION_DAYS): Promise<number> {
  const rows = await query<{ n: string }>(
    database,
    'WITH gone AS (DELETE FROM ssp_auction_logs WHERE logged_at < $1::timestamptz RETURNING 1) SELECT count(*)::text AS n FROM gone',
    [new Date(now - days * 86_400_000).toISOString()],
  );
  return Number(rows[0]?.n ?? 0);
}
