/**
 * Impression-log requests: asking for an extract, the job that writes it, retrying, processing what
 * is pending, the expiring download links and the cleanup of expired files
 * (docs/decisions/032-impression-logs.md).
 *
 * Job generations: a request's `attempt` is the generation of its job. Sending a job always goes
 * with bumping it (retry, process pending), and a job whose attempt is not the request's does
 * nothing, so a stale queued job never runs a second extract beside the new one. A job claims the
 * request (pending or running -> running, with a fresh run token) and restarts the file from
 * scratch: a job retried by pg-boss after a crash or a server restart (the heartbeat lapsed)
 * simply redoes it. Progress and the final state are written only while the run token is the
 * request's.
 */
import {
  IMPRESSION_LOG_FILE_TTL_HOURS,
  DOWNLOAD_LINK_TTL_SECONDS,
  impressionLogFileBase,
  impressionLogRequestSchema,
  progressOf,
  utcDay,
  type ImpressionLogColumn,
  type ImpressionLogFilter,
  type ImpressionLogLink,
  type ImpressionLogRequest,
  type ImpressionLogStatus,
} from '@backoffice/core/impression-logs';
import { exportTimestamp } from '@backoffice/core/export-name';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import type { FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { storageOf, type Storage } from '../../lib/storage.ts';
import { resolveJwtSecret } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { countRows, writeExtract } from './extract.ts';
import { ensureSample } from './sample.ts';

export const EXTRACT_QUEUE = 'impression-log-extract';
export const CLEANUP_QUEUE = 'impression-log-cleanup';

/** Sends a job; null when jobs do not run in this process (the request then stays pending). */
export type SendJob = (queue: string, data: object) => Promise<string | null>;

const nowOf = (ctx: AppContext) => ctx.now?.() ?? Date.now();

// ---------------------------------------------------------------------------------------------
// Reading

const SELECT = `
  SELECT r.id, r.log_date::text AS date, r.demand_partner_id AS network_id, dp.name AS network, r.columns, r.filters,
         r.status, r.rows_done::int AS rows_done, r.rows_total::int AS rows_total, r.bytes::float8 AS bytes, r.file_name, r.error,
         r.attempt AS attempts, u.name AS requested_by, r.requested_at, r.started_at, r.finished_at, r.expires_at, r.version
    FROM impression_log_requests r
    JOIN demand_partners dp ON dp.id = r.demand_partner_id
    LEFT JOIN users u ON u.id = r.requested_by`;

/** A request as the database answers it: the DTO's fields, times as the driver gives them, no progress. */
type Instant = Date | string;
type RequestRow = Omit<ImpressionLogRequest, 'progress' | 'requested_at' | 'started_at' | 'finished_at' | 'expires_at'> & {
  requested_at: Instant;
  started_at: Instant | null;
  finished_at: Instant | null;
  expires_at: Instant | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function toDto(r: RequestRow): ImpressionLogRequest {
  return {
    ...r,
    bytes: r.bytes === null ? null : Number(r.bytes),
    progress: progressOf(r.status, r.rows_done, r.rows_total),
    requested_at: iso(r.requested_at)!,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    expires_at: iso(r.expires_at),
  };
}

export async function findRequest(database: Database | QueryFn, id: number): Promise<ImpressionLogRequest | null> {
  const q: QueryFn = typeof database === 'function' ? database : (text, params) => query(database, text, params);
  const [row] = await q<RequestRow>(`${SELECT} WHERE r.id = $1`, [id]);
  return row ? toDto(row) : null;
}

export async function requestOr404(database: Database, id: number): Promise<ImpressionLogRequest> {
  const r = await findRequest(database, id);
  if (!r) throw notFound();
  return r;
}

export interface ListFilter {
  search: string;
  status: ImpressionLogStatus[];
  network_id?: number;
  sort: string;
}

const SORT_SQL: Record<string, string> = {
  requested_at: 'r.requested_at',
  date: 'r.log_date',
  network: 'lower(dp.name)',
  status: 'r.status',
  rows: 'r.rows_done',
  bytes: 'r.bytes',
};

export async function listRequests(database: Database, f: ListFilter, page: { limit: number; offset: number }) {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.search) {
    const like = p(`%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(dp.name ILIKE ${like} OR u.name ILIKE ${like} OR r.log_date::text LIKE ${like})`);
  }
  if (f.status.length > 0) where.push(`r.status = ANY(${p(f.status)}::text[])`);
  if (f.network_id) where.push(`r.demand_partner_id = ${p(f.network_id)}`);
  const desc = f.sort.startsWith('-');
  const col = SORT_SQL[f.sort.replace(/^-/, '')] ?? 'r.requested_at';
  const whereSql = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  const rows = await query<RequestRow>(
    database,
    `${SELECT}${whereSql} ORDER BY ${col} ${desc ? 'DESC' : 'ASC'} NULLS LAST, r.id ${desc ? 'DESC' : 'ASC'} LIMIT ${p(page.limit)} OFFSET ${p(page.offset)}`,
    params,
  );
  const countParams = params.slice(0, params.length - 2);
  const [counts] = await query<{ total: number; active: number }>(
    database,
    `SELECT count(*)::int AS total,
            (SELECT count(*)::int FROM impression_log_requests WHERE status IN ('pending', 'running')) AS active
       FROM impression_log_requests r
       JOIN demand_partners dp ON dp.id = r.demand_partner_id
       LEFT JOIN users u ON u.id = r.requested_by${whereSql}`,
    countParams,
  );
  return { items: rows.map(toDto), total: counts?.total ?? 0, active: counts?.active ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Asking, retrying, processing

/** Checks a request body with the core rules (the same the form uses); the network must exist. */
export async function checkRequestBody(database: Database, body: unknown, today: string) {
  const parsed = impressionLogRequestSchema(today).safeParse(body);
  if (!parsed.success) throw badRequest('error.validation', issuesToErrors(parsed.error.issues));
  const [network] = await query<{ id: number; name: string }>(database, `SELECT id, name FROM demand_partners WHERE id = $1`, [parsed.data.network_id]);
  if (!network) throw badRequest('error.validation', { network_id: 'impressions_log.network_not_found' });
  return { ...parsed.data, network };
}

export async function createRequest(
  ctx: AppContext,
  request: FastifyRequest,
  body: unknown,
  idempotencyKey: string | null,
  send: SendJob,
): Promise<{ item: ImpressionLogRequest; created: boolean }> {
  const { database } = ctx;
  const input = await checkRequestBody(database, body, utcDay(nowOf(ctx)));
  const userId = request.caller?.id ?? null;
  const out = await transaction(database, async (q) => {
    const [row] = await q<{ id: number }>(
      `INSERT INTO impression_log_requests (log_date, demand_partner_id, columns, filters, requested_by, idempotency_key)
       VALUES ($1::date, $2, $3::jsonb, $4::jsonb, $5, $6)
       ON CONFLICT (requested_by, idempotency_key) DO NOTHING
       RETURNING id`,
      [input.date, input.network.id, JSON.stringify(input.columns), JSON.stringify(input.filters), userId, idempotencyKey],
    );
    if (!row) {
      // The same click again: the request it made, and no second job.
      const [earlier] = await q<{ id: number }>(`SELECT id FROM impression_log_requests WHERE requested_by = $1 AND idempotency_key = $2`, [userId, idempotencyKey]);
      return { id: earlier!.id, created: false };
    }
    await auditIn(q, request, {
      action: 'impressions_log.request',
      entity: 'impression_log_request',
      entityId: row.id,
      after: { date: input.date, network_id: input.network.id, network: input.network.name, columns: input.columns, filters: input.filters },
    });
    return { id: row.id, created: true };
  });
  if (out.created) await send(EXTRACT_QUEUE, { id: out.id, attempt: 1 });
  return { item: (await findRequest(database, out.id))!, created: out.created };
}

/**
 * Runs a failed or expired request again (a new job generation). Idempotent: a request already
 * pending or running is answered as it is, without another job.
 */
export async function retryRequest(ctx: AppContext, request: FastifyRequest, id: number, send: SendJob): Promise<ImpressionLogRequest> {
  const { database } = ctx;
  const current = await requestOr404(database, id);
  if (current.status === 'pending' || current.status === 'running') return current;
  if (current.status === 'done') throw new AppError(409, 'impressions_log.not_retryable', { data: { current } });
  const attempt = await transaction(database, async (q) => {
    const [row] = await q<{ attempt: number }>(
      `UPDATE impression_log_requests
          SET status = 'pending', attempt = attempt + 1, error = NULL, rows_done = 0, rows_total = NULL, run_token = NULL,
              started_at = NULL, finished_at = NULL, version = version + 1
        WHERE id = $1 AND status IN ('failed', 'expired')
        RETURNING attempt`,
      [id],
    );
    if (!row) return null;
    await auditIn(q, request, { action: 'impressions_log.retry', entity: 'impression_log_request', entityId: id, before: { status: current.status, error: current.error }, after: { status: 'pending', attempt: row.attempt } });
    return row.attempt;
  });
  if (attempt !== null) await send(EXTRACT_QUEUE, { id, attempt });
  return (await findRequest(database, id))!;
}

/**
 * Sends a fresh job for every pending request (jobs were off, or their job was lost). Answers how
 * many; throws 'There is not pending process' when there is none.
 */
export async function processPending(ctx: AppContext, request: FastifyRequest, send: SendJob): Promise<{ queued: number; ids: number[] }> {
  const rows = await transaction(ctx.database, async (q) => {
    const bumped = await q<{ id: number; attempt: number }>(
      `UPDATE impression_log_requests SET attempt = attempt + 1, version = version + 1
        WHERE status = 'pending'
        RETURNING id, attempt`,
    );
    if (bumped.length > 0) {
      await auditIn(q, request, { action: 'impressions_log.process_pending', entity: 'impression_log_request', entityId: null, after: { ids: bumped.map((r) => r.id) } });
    }
    return bumped;
  });
  if (rows.length === 0) throw new AppError(409, 'impressions_log.no_pending');
  for (const r of rows) await send(EXTRACT_QUEUE, { id: r.id, attempt: r.attempt });
  return { queued: rows.length, ids: rows.map((r) => r.id).sort((a, b) => a - b) };
}

// ---------------------------------------------------------------------------------------------
// The job

class SupersededRun extends Error {
  constructor() {
    super('impression log run superseded');
  }
}

export interface ExtractJobData {
  id: number;
  attempt: number;
}

export interface ExtractOutcome {
  id: number;
  status: 'done' | 'failed' | 'skipped';
  rows?: number;
  bytes?: number;
  error?: string;
}

/** The storage key of a request's file (one per request: a rerun replaces it). */
export const storageKeyOf = (id: number) => `impression-logs/${id}.csv.gz`;

export interface ExtractOptions {
  storage?: Storage;
  pageRows?: number;
  /** Rows of a (day, network) sample (tests and the benchmark). */
  sampleTarget?: number;
}

/** The extract job's work. Never throws for a failed extract: the failure is recorded on the request. */
export async function runExtract(ctx: AppContext, data: ExtractJobData, opts: ExtractOptions = {}): Promise<ExtractOutcome> {
  const { database } = ctx;
  const token = crypto.randomUUID();
  const [claimed] = await query<{ log_date: string; demand_partner_id: number; columns: ImpressionLogColumn[]; filters: ImpressionLogFilter[]; network: string }>(
    database,
    `UPDATE impression_log_requests r
        SET status = 'running', run_token = $3, started_at = now(), finished_at = NULL, rows_done = 0, rows_total = NULL,
            bytes = NULL, error = NULL, version = r.version + 1
       FROM demand_partners dp
      WHERE r.id = $1 AND r.attempt = $2 AND r.status IN ('pending', 'running') AND dp.id = r.demand_partner_id
      RETURNING r.log_date::text AS log_date, r.demand_partner_id, r.columns, r.filters, dp.name AS network`,
    [data.id, data.attempt, token],
  );
  if (!claimed) return { id: data.id, status: 'skipped' };
  const mine = `id = $1 AND run_token = $2`;
  try {
    const storage = opts.storage ?? storageOf(ctx.config);
    const now = nowOf(ctx);
    await ensureSample(database, claimed.log_date, claimed.demand_partner_id, { today: utcDay(now), target: opts.sampleTarget });
    const spec = { day: claimed.log_date, networkId: claimed.demand_partner_id, columns: claimed.columns, filters: claimed.filters };
    const total = await countRows(database, spec.day, spec.networkId, spec.filters);
    const set = await query(database, `UPDATE impression_log_requests SET rows_total = $3 WHERE ${mine} RETURNING 1`, [data.id, token, total]);
    if (set.length === 0) throw new SupersededRun();
    const fileName = `${impressionLogFileBase(claimed.network, claimed.log_date)}_${exportTimestamp(new Date(now), 'UTC')}.csv.gz`;
    const stored = await writeExtract(
      database,
      storage,
      storageKeyOf(data.id),
      spec,
      async (rowsDone) => {
        const ok = await query(database, `UPDATE impression_log_requests SET rows_done = $3 WHERE ${mine} RETURNING 1`, [data.id, token, rowsDone]);
        if (ok.length === 0) throw new SupersededRun();
      },
      opts.pageRows,
    );
    const done = await query(
      database,
      `UPDATE impression_log_requests
          SET status = 'done', rows_done = $3, rows_total = $3, bytes = $4, storage_key = $5, file_name = $6, finished_at = now(),
              expires_at = now() + make_interval(hours => $7::int), version = version + 1
        WHERE ${mine} RETURNING 1`,
      [data.id, token, stored.rows, stored.bytes, stored.key, fileName, IMPRESSION_LOG_FILE_TTL_HOURS],
    );
    if (done.length === 0) throw new SupersededRun();
    return { id: data.id, status: 'done', rows: stored.rows, bytes: stored.bytes };
  } catch (err) {
    if (err instanceof SupersededRun) return { id: data.id, status: 'skipped' };
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    await query(
      database,
      `UPDATE impression_log_requests SET status = 'failed', error = $3, finished_at = now(), version = version + 1 WHERE ${mine}`,
      [data.id, token, message],
    );
    return { id: data.id, status: 'failed', error: message };
  }
}

/** Marks finished extracts past their expiry as expired and removes their files. */
export async function expireFiles(ctx: AppContext, storage: Storage = storageOf(ctx.config)): Promise<{ expired: number }> {
  const rows = await query<{ id: number; storage_key: string | null }>(
    ctx.database,
    `UPDATE impression_log_requests SET status = 'expired', version = version + 1
      WHERE status = 'done' AND expires_at <= $1::timestamptz
      RETURNING id, storage_key`,
    [new Date(nowOf(ctx)).toISOString()],
  );
  for (const r of rows) if (r.storage_key) await storage.delete(r.storage_key);
  return { expired: rows.length };
}

// ---------------------------------------------------------------------------------------------
// Download links: /v1/impressions-log/files/:id?exp=&sig= (HMAC of id and expiry)

const linkKeys = new WeakMap<Database, Promise<Buffer>>();

async function linkKey(ctx: AppContext): Promise<Buffer> {
  let key = linkKeys.get(ctx.database);
  if (!key) {
    key = resolveJwtSecret(ctx.database, ctx.config.jwtSecret).then((secret) => crypto.createHmac('sha256', secret).update('impression-log-download-links').digest());
    linkKeys.set(ctx.database, key);
  }
  return key;
}

const signatureOf = (key: Buffer, id: number, exp: number) => crypto.createHmac('sha256', key).update(`${id}.${exp}`).digest('base64url');

export async function downloadLink(ctx: AppContext, request: FastifyRequest, id: number): Promise<ImpressionLogLink> {
  const r = await requestOr404(ctx.database, id);
  const now = nowOf(ctx);
  if (r.status !== 'done' || !r.expires_at || Date.parse(r.expires_at) <= now) throw new AppError(410, 'impressions_log.file_unavailable');
  const exp = Math.floor(Math.min(now + DOWNLOAD_LINK_TTL_SECONDS * 1000, Date.parse(r.expires_at)) / 1000);
  const sig = signatureOf(await linkKey(ctx), id, exp);
  await transaction(ctx.database, (q) => auditIn(q, request, { action: 'impressions_log.download_link', entity: 'impression_log_request', entityId: id, after: { exp } }));
  return { url: `/v1/impressions-log/files/${id}?exp=${exp}&sig=${sig}`, expires_at: new Date(exp * 1000).toISOString(), file_name: r.file_name! };
}

/** Checks a download link; answers the file to send. */
export async function openLink(ctx: AppContext, id: number, exp: number, sig: string): Promise<{ stream: NodeJS.ReadableStream; fileName: string; bytes: number | null }> {
  const expected = Buffer.from(signatureOf(await linkKey(ctx), id, exp));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new AppError(403, 'impressions_log.link_invalid');
  const now = nowOf(ctx);
  if (exp * 1000 <= now) throw new AppError(410, 'impressions_log.link_expired');
  const [row] = await query<{ status: string; storage_key: string | null; file_name: string | null; expires_at: Date | string | null; bytes: number | null }>(
    ctx.database,
    `SELECT status, storage_key, file_name, expires_at, bytes::float8 AS bytes FROM impression_log_requests WHERE id = $1`,
    [id],
  );
  if (!row || row.status !== 'done' || !row.storage_key || !row.expires_at || new Date(row.expires_at).getTime() <= now) throw new AppError(410, 'impressions_log.link_expired');
  const storage = storageOf(ctx.config);
  if (!(await storage.exists(row.storage_key))) throw new AppError(410, 'impressions_log.link_expired');
  return { stream: await storage.get(row.storage_key), fileName: row.file_name ?? `impressions_log_${id}.csv.gz`, bytes: row.bytes };
}
