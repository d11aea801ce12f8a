/**
 * Bulk actions on billing rows (confirm, disconfirm, approve, discard, accumulate) as runs.
 *
 * A run is keyed by the client's idempotency key (one per click): the same key answers the same
 * run, so a double click or a retried request does the work once. Each row's result is reported
 * (done with its new state, or skipped and why: core `applyAction`). An action on a row already
 * where it leads is a skip, so two people (or 20 requests) approving the same rows approve each
 * once: the rows are locked (`FOR UPDATE`) and read again inside each chunk's transaction.
 * A row changed since it was shown (another version) answers 409 before anything is done; the
 * same check is made again under the lock, where a row that changed in between is skipped.
 * Confirming rows under 20% margin needs `confirm_low_margin` (spec 5): without it the answer is
 * 422 listing those rows. Rows are applied in chunks of BILLING_ACTION_CHUNK, one transaction
 * each, with the run's progress written after each; a run of more than one chunk carries on in
 * the background and the client polls it (GET …/actions/{run}).
 */
import { applyAction, fromMicros, marginPct, toMicros, type BillingAction, type BillingState } from '@backoffice/core/billing';
import {
  BILLING_ACTION_CHUNK,
  billingResource,
  nextMonth,
  type BillingActionRun,
  type BillingRowResult,
  type BillingSide,
} from '@backoffice/core/billing-api';
import { can } from '@backoffice/core/acl';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { isBelowMinimum, rowIsLowMargin, type RawRow } from './rows.ts';

export interface Who {
  userId: number | null;
  simulatedById: number | null;
  simulatedRoleId: number | null;
  ip: string | null;
}
export const whoOf = (request: FastifyRequest): Who => ({
  userId: request.caller?.id ?? null,
  simulatedById: request.caller?.simulatedBy ?? null,
  simulatedRoleId: request.caller?.simulatedRole?.id ?? null,
  ip: request.ip ?? null,
});

/** Audit entries for many rows at once (one statement); `entity` is the table (billing_rows by default). */
export async function auditRows(
  q: QueryFn,
  who: Who,
  action: string,
  entries: { id: number; before: unknown; after: unknown }[],
  entity = 'billing_rows',
): Promise<void> {
  if (entries.length === 0) return;
  await q(
    `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
     SELECT $1::int4, $2::int4, $3::int4, $4::text, $5::text, $7::text, e.id::text, e.before, e.after
     FROM jsonb_to_recordset($6::jsonb) AS e(id int, before jsonb, after jsonb)`,
    [who.userId, who.simulatedById, who.simulatedRoleId, who.ip, action, JSON.stringify(entries), entity],
  );
}

const ACTION_COLUMNS = `b.id, b.side, b.kind, b.month, b.counterparty_type, b.counterparty_id, b.product, b.currency, b.state, b.version,
  b.revenue_ours::text, b.other_side::text, b.revenue_network::text, b.revenue_gross::text, b.min_amount::text,
  b.payment_terms, b.demand_partners, b.netting_id`;

interface RunRow {
  id: number;
  side: string;
  action: string;
  status: 'running' | 'done' | 'failed';
  total: number;
  done: number;
  results: BillingRowResult[];
}

export function runDto(r: RunRow): BillingActionRun {
  const results = r.results ?? [];
  const applied = results.filter((x) => x.ok).length;
  return {
    id: Number(r.id),
    action: r.action as BillingAction,
    status: r.status,
    total: Number(r.total),
    done: Number(r.done),
    results,
    applied,
    skipped: results.length - applied,
  };
}

export async function readRun(database: Database, side: BillingSide, id: number): Promise<BillingActionRun | null> {
  const [r] = await query<RunRow>(database, 'SELECT id, side, action, status, total, done, results FROM billing_action_runs WHERE id = $1 AND side = $2', [id, side]);
  return r ? runDto(r) : null;
}

export interface ActionInput {
  action: BillingAction;
  rows: { id: number; version: number }[];
  confirm_low_margin: boolean;
  idempotency_key: string;
}

/** How long a request waits for a multi-chunk run before answering 202 with its progress. */
const WAIT_MS = 1500;

/**
 * Starts (or finds) the run of a bulk action. Answers the run and whether it is finished.
 * Throws 403 without the ACL action, 409 on rows changed since shown, 422 on low margin.
 */
export async function startRun(
  database: Database,
  request: FastifyRequest,
  side: BillingSide,
  input: ActionInput,
  log: FastifyBaseLogger,
): Promise<BillingActionRun> {
  const acl = request.caller?.acl ?? null;
  const needed = input.action === 'approve' ? 'approve' : 'write';
  if (!can(acl, billingResource(side), needed)) throw forbidden();

  const key = `${side}:${request.caller?.id ?? 0}:${input.idempotency_key}`;
  const [existing] = await query<RunRow>(database, 'SELECT id, side, action, status, total, done, results FROM billing_action_runs WHERE idem_key = $1', [key]);
  if (existing) {
    if (existing.action !== input.action) throw new AppError(409, 'billing.key_reused');
    return runDto(existing);
  }

  // One entry per row (a row listed twice is done once).
  const wanted = new Map<number, number>();
  for (const r of input.rows) wanted.set(r.id, r.version);
  const ids = [...wanted.keys()];
  const current = await query<RawRow>(database, `SELECT ${ACTION_COLUMNS} FROM billing_rows b WHERE b.id = ANY($1::int4[]) AND b.side = $2`, [ids, side]);

  const stale = current.filter((r) => {
    if (Number(r.version) === wanted.get(Number(r.id))) return false;
    const outcome = applyAction(r.state as BillingState, input.action, { belowMinimum: isBelowMinimum(r as never) });
    return !(outcome.ok === false && outcome.reason === 'billing.skip.already');
  });
  if (stale.length > 0)
    throw new AppError(409, 'billing.rows_changed', { params: { count: stale.length }, data: { ids: stale.map((r) => Number(r.id)) } });

  if (input.action === 'confirm' && !input.confirm_low_margin) {
    const low = current.filter((r) => r.state === 'open' && rowIsLowMargin(r));
    if (low.length > 0) {
      throw new AppError(422, 'billing.low_margin', {
        params: { count: low.length },
        data: {
          rows: low.map((r) => {
            const eff = String(r.revenue_network ?? r.revenue_ours);
            const m = r.kind === 'advertiser' ? marginPct(eff, String(r.other_side)) : marginPct(String(r.other_side), eff);
            return { id: Number(r.id), margin_pct: m };
          }),
        },
      });
    }
  }

  const [created] = await query<RunRow>(
    database,
    `INSERT INTO billing_action_runs (idem_key, user_id, side, action, total) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (idem_key) DO NOTHING RETURNING id, side, action, status, total, done, results`,
    [key, request.caller?.id ?? null, side, input.action, ids.length],
  );
  if (!created) {
    // The same click arrived twice at once: the other request runs it.
    const [other] = await query<RunRow>(database, 'SELECT id, side, action, status, total, done, results FROM billing_action_runs WHERE idem_key = $1', [key]);
    return runDto(other!);
  }
  const runId = Number(created.id);
  const who = whoOf(request);
  const work = processRun(database, side, runId, input.action, ids, wanted, who).catch(async (err: unknown) => {
    log.error({ err, runId }, 'billing action run failed');
    await query(database, `UPDATE billing_action_runs SET status = 'failed', finished_at = now() WHERE id = $1`, [runId]).catch(() => undefined);
  });
  if (ids.length <= BILLING_ACTION_CHUNK) await work;
  else await Promise.race([work, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
  return (await readRun(database, side, runId))!;
}

async function processRun(
  database: Database,
  side: BillingSide,
  runId: number,
  action: BillingAction,
  ids: number[],
  wanted: Map<number, number>,
  who: Who,
): Promise<void> {
  for (let i = 0; i < ids.length; i += BILLING_ACTION_CHUNK) {
    const chunk = ids.slice(i, i + BILLING_ACTION_CHUNK);
    await transaction(database, async (q) => {
      const results = await applyChunk(q, side, action, chunk, wanted, who);
      await q(`UPDATE billing_action_runs SET done = done + $2, results = results || $3::jsonb WHERE id = $1`, [runId, chunk.length, JSON.stringify(results)]);
    });
    // PGlite settles its queries without giving timers and sockets a turn: yield between chunks so
    // the server keeps answering (and the request's wait can end with the run's progress).
    await new Promise((resolve) => setImmediate(resolve));
  }
  await query(database, `UPDATE billing_action_runs SET status = 'done', finished_at = now() WHERE id = $1`, [runId]);
}

async function applyChunk(
  q: QueryFn,
  side: BillingSide,
  action: BillingAction,
  ids: number[],
  wanted: Map<number, number>,
  who: Who,
): Promise<BillingRowResult[]> {
  const rows = await q<RawRow>(`SELECT ${ACTION_COLUMNS} FROM billing_rows b WHERE b.id = ANY($1::int4[]) AND b.side = $2 ORDER BY b.id FOR UPDATE`, [ids, side]);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const results: BillingRowResult[] = [];
  const moving: RawRow[] = [];
  let to: BillingState | null = null;
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) {
      results.push({ id, ok: false, reason: 'billing.skip.not_found' });
      continue;
    }
    const outcome = applyAction(r.state as BillingState, action, { belowMinimum: isBelowMinimum(r as never) });
    if (!outcome.ok) {
      results.push({ id, ok: false, reason: outcome.reason });
      continue;
    }
    if (Number(r.version) !== wanted.get(id)) {
      results.push({ id, ok: false, reason: 'billing.skip.changed' });
      continue;
    }
    if ((action === 'discard' || action === 'accumulate') && r.netting_id !== null) {
      results.push({ id, ok: false, reason: 'billing.skip.netted' });
      continue;
    }
    to = outcome.state;
    moving.push(r);
    results.push({ id, ok: true, state: outcome.state });
  }

  if (action === 'accumulate') {
    for (const r of moving) {
      const into = await carryIntoNextMonth(q, r);
      if (into === null) {
        const res = results.find((x) => x.id === Number(r.id))!;
        res.ok = false;
        delete res.state;
        res.reason = 'billing.skip.next_month_closed';
        continue;
      }
      await q('UPDATE billing_rows SET accumulated_into = $2 WHERE id = $1', [Number(r.id), into]);
    }
  }
  const done = results.filter((x) => x.ok).map((x) => x.id);
  if (done.length > 0 && to) {
    const stamp =
      action === 'confirm'
        ? ', confirmed_by = $3, confirmed_at = now()'
        : action === 'approve'
          ? ', approved_by = $3, approved_at = now()'
          : action === 'disconfirm'
            ? ', confirmed_by = NULL, confirmed_at = NULL'
            : '';
    await q(
      `UPDATE billing_rows SET state = $2, version = version + 1, updated_by = $3, updated_at = now()${stamp} WHERE id = ANY($1::int4[])`,
      [done, to, who.userId],
    );
    await auditRows(
      q,
      who,
      `billing_rows.${action}`,
      done.map((id) => ({ id, before: { state: byId.get(id)!.state, version: Number(byId.get(id)!.version) }, after: { state: to } })),
    );
  }
  return results;
}

/**
 * Moves an accumulated row's amount into the next month's row of the same counterparty and
 * product (created when there is none yet): its carried_in grows and carried_from says from where.
 * Null when next month's row is no longer open.
 */
async function carryIntoNextMonth(q: QueryFn, r: RawRow): Promise<number | null> {
  const amount = fromMicros(toMicros(String(r.revenue_gross)));
  const from = JSON.stringify([{ id: Number(r.id), month: String(r.month), amount }]);
  const [row] = await q<{ id: number }>(
    `INSERT INTO billing_rows AS b (side, kind, month, counterparty_type, counterparty_id, product, currency, min_amount, payment_terms,
        demand_partners, carried_in, carried_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11::numeric, $12::jsonb)
     ON CONFLICT (side, kind, month, counterparty_type, counterparty_id, product) DO UPDATE SET
       carried_in = b.carried_in + excluded.carried_in, carried_from = b.carried_from || excluded.carried_from, version = b.version + 1
     WHERE b.state = 'open'
     RETURNING id`,
    [
      r.side,
      r.kind,
      nextMonth(String(r.month)),
      r.counterparty_type,
      Number(r.counterparty_id),
      r.product,
      r.currency,
      String(r.min_amount),
      r.payment_terms,
      r.demand_partners ?? '',
      amount,
      from,
    ],
  );
  return row ? Number(row.id) : null;
}
