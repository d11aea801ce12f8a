/**
 * Prepayments: the changes (docs/decisions/029-prepayments-finances.md), each in one transaction
 * with its audit entry.
 * - A manual entry (top-up, adjustment, refund) or a reversal runs under the advertiser's advisory
 *   lock and is keyed by the client's idempotency key (one per click): the same key answers the
 *   entry it made, so a double click or a retried request writes once. The key is kept in the
 *   entry's audit record (entity `prepayment_account`), read back under the lock.
 * - A reversal writes the opposite amount with `reverses_id`; the unique index on reverses_id makes
 *   it once only, whoever clicks.
 * - The threshold is the account row's, with its version (0: no row yet): a stale one answers 409.
 * - Spend is posted per advertiser and day from performance_daily (EUR micro-units, rounded to the
 *   cent half away from zero), for the prepaid advertisers whose ledger is open, from the day after
 *   the last posted (or the ledger's first day) up to the asked day, never after yesterday (UTC) nor
 *   after the warehouse's last loaded day. The partial unique index (advertiser, day) WHERE kind =
 *   'spend' with ON CONFLICT DO NOTHING makes re-running, even concurrently, never double a day.
 */
import { fromMicros, toMicros } from '@backoffice/core/billing';
import {
  PREPAYMENT_CURRENCY,
  canReverse,
  dayBefore,
  reversalAmount,
  signedAmount,
  type EntryBody,
  type LedgerEntry,
  type PostSpendResult,
  type PrepaymentAccount,
  type ReverseBody,
  type ThresholdBody,
} from '@backoffice/core/prepayments';
import { utcToday } from '@backoffice/core/billing-accounts';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';
import { findAccount, findAccountIn, findEntry } from './repo.ts';

/** Advisory lock class of the prepayment ledgers (the object id is the advertiser). */
const LOCK_CLASS = 23023;
/** The object id that serialises spend posting runs. */
const SPEND_LOCK = 0;

/** An audit record written with the change (raw SQL: the change runs in a raw transaction). */
export async function auditIn(
  q: QueryFn,
  request: FastifyRequest | null,
  entry: { action: string; entity: string; entityId: string | number | null; before?: unknown; after?: unknown },
): Promise<void> {
  const caller = request?.caller ?? null;
  await q(
    `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      caller?.id ?? null,
      caller?.simulatedBy ?? null,
      caller?.simulatedRole?.id ?? null,
      request?.ip ?? null,
      entry.action,
      entry.entity,
      entry.entityId === null ? null : String(entry.entityId),
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}

/** The entry an earlier request with this key made (same person, same advertiser), if any. */
async function replayed(q: QueryFn, advertiserId: number, actorId: number, key: string): Promise<number | null> {
  const [row] = await q<{ entry_id: string }>(
    `SELECT after->>'entry_id' AS entry_id FROM audit_log
     WHERE entity = 'prepayment_account' AND entity_id = $1 AND actor_id = $2 AND after->>'idempotency_key' = $3
     ORDER BY id DESC LIMIT 1`,
    [String(advertiserId), actorId, key],
  );
  return row ? Number(row.entry_id) : null;
}

export interface EntryOutcome {
  entry: LedgerEntry;
  account: PrepaymentAccount;
  /** The same click was already done: nothing new was written. */
  already: boolean;
}

/** Adds a top-up, an adjustment or a refund to an advertiser's ledger (idempotent by key). */
export async function addEntry(database: Database, request: FastifyRequest, advertiserId: number, body: EntryBody, today = utcToday()): Promise<EntryOutcome> {
  const caller = callerOf(request);
  const entryDate = body.entry_date ?? today;
  if (entryDate > today) throw badRequest('error.validation', { entry_date: 'prepayments.entry_date_future' });
  if (entryDate < '2000-01-01') throw badRequest('error.validation', { entry_date: 'prepayments.entry_date_invalid' });
  const amount = signedAmount(body.kind, body.amount, body.direction ?? null);
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1::int4, $2::int4)', [LOCK_CLASS, advertiserId]);
    const account = await findAccountIn(q, advertiserId);
    if (!account) throw notFound('resource.not_found');
    const earlier = await replayed(q, advertiserId, caller.id, body.idempotency_key);
    if (earlier !== null) {
      const entry = await findEntry(q, advertiserId, earlier);
      if (entry) return { entry, account, already: true };
    }
    if (body.kind === 'refund' && toMicros(account.balance) + toMicros(amount) < 0n)
      throw new AppError(422, 'prepayments.refund_over_balance', { params: { balance: account.balance }, errors: { amount: 'prepayments.refund_over_balance' } });
    const [row] = await q<{ id: string }>(
      `INSERT INTO prepayment_entries (advertiser_id, entry_date, kind, amount, currency, reference, comment, source, created_by)
       VALUES ($1, $2::date, $3, $4::numeric, $5, $6, $7, 'manual', $8) RETURNING id`,
      [advertiserId, entryDate, body.kind, amount, account.currency || PREPAYMENT_CURRENCY, body.reference, body.comment, caller.id],
    );
    const id = Number(row!.id);
    await auditIn(q, request, {
      action: 'prepayment.entry_create',
      entity: 'prepayment_account',
      entityId: advertiserId,
      after: { entry_id: id, kind: body.kind, amount, entry_date: entryDate, reference: body.reference, comment: body.comment, idempotency_key: body.idempotency_key },
    });
    return { entry: (await findEntry(q, advertiserId, id))!, account: (await findAccountIn(q, advertiserId))!, already: false };
  });
}

/** Reverses an entry: the opposite amount, today, with the reason (once only; idempotent by key). */
export async function reverseEntry(
  database: Database,
  request: FastifyRequest,
  advertiserId: number,
  entryId: number,
  body: ReverseBody,
  today = utcToday(),
): Promise<EntryOutcome> {
  const caller = callerOf(request);
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1::int4, $2::int4)', [LOCK_CLASS, advertiserId]);
    const account = await findAccountIn(q, advertiserId);
    if (!account) throw notFound('resource.not_found');
    const earlier = await replayed(q, advertiserId, caller.id, body.idempotency_key);
    if (earlier !== null) {
      const entry = await findEntry(q, advertiserId, earlier);
      if (entry) return { entry, account, already: true };
    }
    const target = await findEntry(q, advertiserId, entryId);
    if (!target) throw notFound('resource.not_found');
    if (target.kind === 'reversal') throw new AppError(409, 'prepayments.reverse_reversal');
    if (!canReverse(target)) throw new AppError(409, 'prepayments.already_reversed', { params: { id: target.reversed_by ?? 0 } });
    const amount = reversalAmount(target.amount);
    // The unique index on reverses_id is the last word: a reversal that raced this one wins.
    const [row] = await q<{ id: string }>(
      `INSERT INTO prepayment_entries (advertiser_id, entry_date, kind, amount, currency, reference, comment, reverses_id, source, created_by)
       VALUES ($1, $2::date, 'reversal', $3::numeric, $4, $5, $6, $7, 'manual', $8)
       ON CONFLICT (reverses_id) DO NOTHING RETURNING id`,
      [advertiserId, today, amount, target.currency, target.reference, body.reason, entryId, caller.id],
    );
    if (!row) throw new AppError(409, 'prepayments.already_reversed', { params: { id: 0 } });
    const id = Number(row.id);
    await auditIn(q, request, {
      action: 'prepayment.entry_reverse',
      entity: 'prepayment_account',
      entityId: advertiserId,
      before: { entry_id: entryId, kind: target.kind, amount: target.amount },
      after: { entry_id: id, reverses_id: entryId, amount, reason: body.reason, idempotency_key: body.idempotency_key },
    });
    return { entry: (await findEntry(q, advertiserId, id))!, account: (await findAccountIn(q, advertiserId))!, already: false };
  });
}

/** 409 resource.conflict with the account as it is now (the resource layer's answer, so the web's dialog works). */
function conflict(current: PrepaymentAccount): AppError {
  return new AppError(409, 'resource.conflict', {
    data: { current },
    params: { name: current.updated_by.name ?? '?', at: current.updated_at ?? '' },
  });
}

/** Sets the low-balance threshold, with the version the editor read (0: the advertiser has no account row yet). */
export async function updateThreshold(database: Database, request: FastifyRequest, advertiserId: number, body: ThresholdBody): Promise<PrepaymentAccount> {
  const caller = callerOf(request);
  const outcome = await transaction(database, async (q) => {
    const before = await findAccountIn(q, advertiserId);
    if (!before) throw notFound('resource.not_found');
    let rows: SqlRow[];
    if (body.version === 0) {
      rows = await q(
        `INSERT INTO prepayment_accounts (advertiser_id, currency, low_balance_threshold, updated_by) VALUES ($1, $2, $3::numeric, $4)
         ON CONFLICT (advertiser_id) DO NOTHING RETURNING version`,
        [advertiserId, PREPAYMENT_CURRENCY, body.threshold, caller.id],
      );
    } else {
      rows = await q(
        `UPDATE prepayment_accounts SET low_balance_threshold = $2::numeric, version = version + 1, updated_by = $3, updated_at = now()
         WHERE advertiser_id = $1 AND version = $4 RETURNING version`,
        [advertiserId, body.threshold, caller.id, body.version],
      );
    }
    if (rows.length === 0) return 'conflict' as const;
    await auditIn(q, request, {
      action: 'prepayment.threshold_update',
      entity: 'prepayment_account',
      entityId: advertiserId,
      before: { threshold: before.threshold, version: before.version },
      after: { threshold: fromMicros(toMicros(body.threshold)), version: Number(rows[0]!.version) },
    });
    return 'saved' as const;
  });
  const current = await findAccount(database, advertiserId);
  if (!current) throw notFound('resource.not_found');
  if (outcome === 'conflict') throw conflict(current);
  return current;
}

/**
 * Posts the daily spend up to `through` (capped at yesterday, UTC, and at the warehouse's last
 * day). Idempotent: a day already posted for an advertiser is never written again.
 */
export async function postSpend(database: Database, request: FastifyRequest | null, through: string, today = utcToday()): Promise<PostSpendResult> {
  const actor = request?.caller?.id ?? null;
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1::int4, $2::int4)', [LOCK_CLASS, SPEND_LOCK]);
    const [bound] = await q<{ through: string | null }>(
      `SELECT least($1::date, $2::date, (SELECT max(day) FROM performance_daily))::text AS through`,
      [through, dayBefore(today)],
    );
    const last = bound?.through ?? null;
    if (!last) return { through: null, posted: 0, advertisers: 0 };
    const [res] = await q<{ posted: number; advertisers: number }>(
      `WITH adv AS (
         SELECT p.id, coalesce(acc.spend_posted_through + 1, o.first_day) AS start
         FROM demand_partners p
           LEFT JOIN prepayment_accounts acc ON acc.advertiser_id = p.id
           JOIN LATERAL (SELECT min(e.entry_date) AS first_day FROM prepayment_entries e WHERE e.advertiser_id = p.id) o ON o.first_day IS NOT NULL
         WHERE p.side = 'performance' AND p.billing_mode = 'prepayment'
       ),
       due AS (SELECT id, start FROM adv WHERE start <= $1::date),
       spend AS (
         SELECT f.advertiser_id, f.day, round(sum(f.revenue_micros)::numeric / 1000000, 2) AS amount
         FROM performance_daily f JOIN due ON due.id = f.advertiser_id
         WHERE f.day >= due.start AND f.day <= $1::date
         GROUP BY f.advertiser_id, f.day
       ),
       ins AS (
         INSERT INTO prepayment_entries (advertiser_id, entry_date, kind, amount, currency, reference, comment, source, created_by)
         SELECT advertiser_id, day, 'spend', -amount, 'EUR', 'performance_daily ' || day::text, '', 'warehouse', $2::int4
         FROM spend WHERE amount > 0
         ON CONFLICT (advertiser_id, entry_date) WHERE kind = 'spend' DO NOTHING
         RETURNING advertiser_id
       ),
       acc AS (
         INSERT INTO prepayment_accounts (advertiser_id, currency, spend_posted_through)
         SELECT id, 'EUR', $1::date FROM due
         ON CONFLICT (advertiser_id) DO UPDATE
           SET spend_posted_through = greatest(prepayment_accounts.spend_posted_through, excluded.spend_posted_through)
         RETURNING advertiser_id
       )
       SELECT (SELECT count(*)::int FROM ins) AS posted, (SELECT count(*)::int FROM acc) AS advertisers`,
      [last, actor],
    );
    const out = { through: last, posted: Number(res?.posted ?? 0), advertisers: Number(res?.advertisers ?? 0) };
    if (request || out.posted > 0) await auditIn(q, request, { action: 'prepayment.spend_post', entity: 'prepayment_spend', entityId: null, after: out });
    return out;
  });
}

/** The account of an advertiser, 404 when it has no ledger. */
export async function accountOr404(database: Database, id: number): Promise<PrepaymentAccount> {
  const account = await findAccount(database, id);
  if (!account) throw notFound('resource.not_found');
  return account;
}

/** Every entry of a ledger in ledger order with its running balance, for the export (streams are not needed: a ledger has a few thousand). */
export async function wholeLedger(database: Database, id: number, kind: string | null): Promise<SqlRow[]> {
  return query<SqlRow>(
    database,
    `WITH l AS (
       SELECT e.*, sum(e.amount) OVER (ORDER BY e.entry_date, e.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
       FROM prepayment_entries e WHERE e.advertiser_id = $1::int4
     )
     SELECT l.id, l.entry_date::text AS entry_date, l.kind, l.amount::text AS amount, l.currency, l.running::text AS running,
       l.reference, l.comment, l.reverses_id, l.source, l.created_at, u.name AS created_by
     FROM l LEFT JOIN users u ON u.id = l.created_by
     WHERE ($2::text IS NULL OR l.kind = $2::text)
     ORDER BY l.entry_date, l.id LIMIT 200000`,
    [id, kind],
  );
}
