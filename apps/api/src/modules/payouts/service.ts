/**
 * Reading and changing payouts (issue 23). The rules are core's (packages/core/src/payouts.ts):
 * the alerts, the blockers and the month rule are applied to each payout read; the list's alert
 * filter writes the same alerts in SQL (`ALERT_SQL`), which the integration tests hold to core's.
 *
 * Changes are set-based: the selected payouts are locked (`FOR UPDATE`, in id order), each one's
 * result decided (done, or skipped and why), the applicable ones changed in one UPDATE and audited
 * in one INSERT. A selection is one click: keyed by the client's idempotency key
 * (`billing_action_runs`, side `payouts:{side}`), a retry or a double click answers the same
 * results. Twenty people approving the same payouts approve each once: under the lock the later
 * requests read `approved` and skip.
 */
import crypto from 'node:crypto';
import { can, type Acl } from '@backoffice/core/acl';
import {
  PAYOUT_CODE_LENGTH,
  PAYOUT_CODE_MAX_ATTEMPTS,
  PAYOUT_CODE_TTL_MS,
  PAYOUT_DEFAULT_SETTINGS,
  PAYOUT_STATES,
  PAYOUTS_RESOURCE,
  billingInfoProblems,
  confirmBlockers,
  confirmMonthError,
  effectiveSharePct,
  fromCents,
  payoutAlerts,
  payoutDueDate,
  toCents,
  type PayoutAction,
  type PayoutDto,
  type PayoutListAnswer,
  type PayoutListQuery,
  type PayoutRowResult,
  type PayoutRun,
  type PayoutSettings,
  type PayoutSide,
  type PayoutState,
  type PayoutVerification,
} from '@backoffice/core/payouts';
import type { Database } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditRows, type Who } from '../billing/actions.ts';
import { computedAt } from './compute.ts';

export type RawPayout = Record<string, unknown>;

export const PAYOUT_SELECT = `o.id, o.side, o.month, o.publisher_id, o.currency, o.rate::text, o.from_date::text, o.to_date::text,
  o.revenue_gross::text, o.new_revenue::text, o.carried_in::text, o.carried_from, o.adjustment::text, o.payout::text,
  o.impressions, o.share_pct::text, o.min_payout::text, o.payment_terms, o.state, o.carried_into, o.comments, o.held_reason,
  o.paid_on::text, o.bank_reference, o.sepa_message_id, o.version, o.computed_at, o.confirmed_at, o.approved_at,
  pb.name AS pub_name, pb.company_id, pb.billing_email, c.legal_name AS company_name, c.iban, c.tax_id, c.country,
  cu.name AS confirmed_by_name, au.name AS approved_by_name`;
export const PAYOUT_FROM = `payouts o
  JOIN publishers pb ON pb.id = o.publisher_id
  LEFT JOIN companies c ON c.id = pb.company_id
  LEFT JOIN users cu ON cu.id = o.confirmed_by
  LEFT JOIN users au ON au.id = o.approved_by`;

/** core payoutAlerts in SQL ($n: over_revenue_pct, $n+1: over_share_points). */
export const alertSql = (pct: string, points: string) =>
  `((o.payout > 0 AND o.payout > o.revenue_gross * (1 + ${pct}::numeric / 100))
    OR (o.revenue_gross > 0 AND o.new_revenue * 100 > o.revenue_gross * (o.share_pct + ${points}::numeric)))`;

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** The actions a payout allows now: its state and the caller's ACL. */
export function payoutActions(state: PayoutState, acl: Acl | null): PayoutAction[] {
  const write = can(acl, PAYOUTS_RESOURCE, 'write');
  const approve = can(acl, PAYOUTS_RESOURCE, 'approve');
  const out: PayoutAction[] = [];
  if (write && state === 'pending') out.push('confirm', 'hold');
  if (write && state === 'held') out.push('release');
  if (write && state === 'confirmed') out.push('unconfirm', 'hold');
  if (approve && state === 'confirmed') out.push('approve');
  if (write && state === 'approved') out.push('pay');
  return out;
}

export function toPayoutDto(r: RawPayout, acl: Acl | null, settings: PayoutSettings): PayoutDto {
  const billing = { iban: (r.iban as string) ?? null, country: (r.country as string) ?? null, tax_id: (r.tax_id as string) ?? null };
  const facts = {
    state: r.state as PayoutState,
    payout: String(r.payout),
    new_revenue: String(r.new_revenue),
    revenue_gross: String(r.revenue_gross),
    min_payout: String(r.min_payout),
    share_pct: String(r.share_pct),
    payment_terms: String(r.payment_terms),
    billing_info: billing,
  };
  const month = String(r.month);
  return {
    id: Number(r.id),
    side: r.side as PayoutSide,
    month,
    id_user: Number(r.publisher_id),
    name: String(r.pub_name),
    from_date: String(r.from_date),
    to_date: String(r.to_date),
    payment_terms: facts.payment_terms,
    payout: facts.payout,
    new_revenue: facts.new_revenue,
    comments: String(r.comments ?? ''),
    revenue_gross: facts.revenue_gross,
    publisher: {
      id: Number(r.publisher_id),
      name: String(r.pub_name),
      company_id: r.company_id == null ? null : Number(r.company_id),
      company_name: (r.company_name as string) ?? null,
      billing_email: (r.billing_email as string) ?? null,
    },
    currency: String(r.currency),
    rate: String(r.rate),
    carried_in: String(r.carried_in),
    carried_from: (r.carried_from as PayoutDto['carried_from']) ?? [],
    adjustment: String(r.adjustment),
    impressions: Number(r.impressions),
    share_pct: facts.share_pct,
    effective_pct: effectiveSharePct(facts.new_revenue, facts.revenue_gross),
    min_payout: facts.min_payout,
    below_minimum: toCents(facts.payout) <= toCents(facts.min_payout),
    due_date: payoutDueDate(month, facts.payment_terms),
    state: facts.state,
    carried_into: r.carried_into == null ? null : Number(r.carried_into),
    held_reason: (r.held_reason as string) ?? null,
    paid_on: (r.paid_on as string) ?? null,
    bank_reference: (r.bank_reference as string) ?? null,
    sepa_message_id: (r.sepa_message_id as string) ?? null,
    billing_info: { ...billing, problems: billingInfoProblems(billing) },
    alerts: payoutAlerts(facts, settings),
    blockers: facts.state === 'pending' ? confirmBlockers(facts) : [],
    version: Number(r.version),
    computed_at: iso(r.computed_at)!,
    confirmed_at: iso(r.confirmed_at),
    confirmed_by: (r.confirmed_by_name as string) ?? null,
    approved_at: iso(r.approved_at),
    approved_by: (r.approved_by_name as string) ?? null,
    actions: payoutActions(facts.state, acl),
  };
}

// ---------------------------------------------------------------------------------------------
// Settings

const SETTING_KEYS = { over_revenue_pct: 'payouts.over_revenue_pct', over_share_points: 'payouts.over_share_points' } as const;

export async function readSettings(database: Database | QueryFn): Promise<PayoutSettings> {
  const sqlText = `SELECT key, value FROM settings WHERE key = ANY($1::text[])`;
  const params = [Object.values(SETTING_KEYS)];
  const rows = typeof database === 'function' ? await database<{ key: string; value: string }>(sqlText, params) : await query<{ key: string; value: string }>(database, sqlText, params);
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  return {
    over_revenue_pct: byKey.get(SETTING_KEYS.over_revenue_pct) ?? PAYOUT_DEFAULT_SETTINGS.over_revenue_pct,
    over_share_points: byKey.get(SETTING_KEYS.over_share_points) ?? PAYOUT_DEFAULT_SETTINGS.over_share_points,
  };
}

export async function writeSettings(database: Database, next: PayoutSettings, who: Who): Promise<PayoutSettings> {
  return transaction(database, async (q) => {
    const before = await readSettings(q);
    await q(
      `INSERT INTO settings (key, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [SETTING_KEYS.over_revenue_pct, next.over_revenue_pct, SETTING_KEYS.over_share_points, next.over_share_points],
    );
    await auditRows(q, who, 'payout.settings', [{ id: 0, before, after: next }], 'payout_settings');
    return next;
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

const SORT_SQL: Record<string, string> = {
  name: 'lower(pb.name)',
  payout: 'o.payout',
  new_revenue: 'o.new_revenue',
  revenue_gross: 'o.revenue_gross',
  carried_in: 'o.carried_in',
  state: `array_position(ARRAY[${PAYOUT_STATES.map((s) => `'${s}'`).join(',')}]::text[], o.state)`,
  id_user: 'o.publisher_id',
  effective_pct: 'CASE WHEN o.revenue_gross > 0 THEN o.new_revenue / o.revenue_gross END',
};
export function payoutOrder(sort: string): string {
  const desc = sort.startsWith('-');
  const expr = SORT_SQL[sort.replace(/^-/, '')] ?? 'o.payout';
  return `${expr} ${desc ? 'DESC' : 'ASC'} NULLS LAST, o.id ${desc ? 'DESC' : 'ASC'}`;
}

/** The list's WHERE after side ($1) and month ($2), and its parameters from $3 on. */
export function payoutWhere(q: PayoutListQuery, settings: PayoutSettings): { sql: string; params: unknown[] } {
  const parts = ['o.side = $1', 'o.month = $2'];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 2}`;
  };
  if (q.state.length > 0) parts.push(`o.state = ANY(${p(q.state)}::text[])`);
  if (q.search) {
    const like = p(`%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    parts.push(`(pb.name ILIKE ${like} OR c.legal_name ILIKE ${like} OR o.publisher_id::text = ${p(q.search)})`);
  }
  if (q.min_payout) parts.push(`o.payout >= ${p(q.min_payout)}::numeric`);
  if (q.currency) parts.push(`o.currency = ${p(q.currency)}`);
  if (q.alerts) {
    const expr = alertSql(p(settings.over_revenue_pct), p(settings.over_share_points));
    parts.push(q.alerts === 'true' ? expr : `NOT ${expr}`);
  }
  return { sql: parts.join(' AND '), params };
}

export async function listPayouts(database: Database, side: PayoutSide, q: PayoutListQuery, acl: Acl | null, todayIso: string): Promise<PayoutListAnswer> {
  const settings = await readSettings(database);
  const where = payoutWhere(q, settings);
  const params = [side, q.month, ...where.params];
  const offset = (q.page - 1) * q.page_size;
  const [rows, totals, states, alerts, at] = await Promise.all([
    query<RawPayout>(database, `SELECT ${PAYOUT_SELECT} FROM ${PAYOUT_FROM} WHERE ${where.sql} ORDER BY ${payoutOrder(q.sort)} LIMIT ${q.page_size} OFFSET ${offset}`, params),
    query<{ currency: string; n: number; payout: string; new_revenue: string; revenue_gross: string; carried_in: string }>(
      database,
      `SELECT o.currency, count(*)::int AS n, sum(o.payout)::text AS payout, sum(o.new_revenue)::text AS new_revenue,
              sum(o.revenue_gross)::text AS revenue_gross, sum(o.carried_in)::text AS carried_in
       FROM ${PAYOUT_FROM} WHERE ${where.sql} GROUP BY o.currency ORDER BY o.currency`,
      params,
    ),
    query<{ state: PayoutState; n: number }>(database, `SELECT state, count(*)::int AS n FROM payouts o WHERE o.side = $1 AND o.month = $2 GROUP BY state`, [side, q.month]),
    query<{ n: number }>(
      database,
      `SELECT count(*)::int AS n FROM payouts o WHERE o.side = $1 AND o.month = $2 AND ${alertSql('$3', '$4')}`,
      [side, q.month, settings.over_revenue_pct, settings.over_share_points],
    ),
    computedAt(database, side, q.month),
  ]);
  const stateCounts = Object.fromEntries(PAYOUT_STATES.map((s) => [s, 0])) as Record<PayoutState, number>;
  for (const s of states) stateCounts[s.state] = Number(s.n);
  const fix2 = (v: string) => fromCents(toCents(v));
  return {
    rows: rows.map((r) => toPayoutDto(r, acl, settings)),
    total: totals.reduce((s, t) => s + Number(t.n), 0),
    page: q.page,
    page_size: q.page_size,
    totals: {
      by_currency: totals.map((t) => ({
        currency: t.currency,
        payouts: Number(t.n),
        payout: fix2(t.payout),
        new_revenue: fix2(t.new_revenue),
        revenue_gross: fix2(t.revenue_gross),
        carried_in: fix2(t.carried_in),
      })),
      states: stateCounts,
      alerts: Number(alerts[0]?.n ?? 0),
    },
    computed_at: at,
    confirm_month_error: confirmMonthError(q.month, todayIso),
    settings,
  };
}

export async function readPayout(q: QueryFn, side: PayoutSide, id: number, lock = false): Promise<RawPayout | null> {
  const [r] = await q<RawPayout>(`SELECT ${PAYOUT_SELECT} FROM ${PAYOUT_FROM} WHERE o.id = $1 AND o.side = $2${lock ? ' FOR UPDATE OF o' : ''}`, [id, side]);
  return r ?? null;
}

export interface PayoutHistoryEntry {
  at: string;
  action: string;
  actor: string | null;
  before: unknown;
  after: unknown;
}
export async function payoutHistory(database: Database, id: number): Promise<PayoutHistoryEntry[]> {
  const rows = await query<{ at: Date; action: string; actor: string | null; before: unknown; after: unknown }>(
    database,
    `SELECT a.at, a.action, u.name AS actor, a.before, a.after FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
     WHERE a.entity = 'payouts' AND a.entity_id = $1 ORDER BY a.id DESC LIMIT 200`,
    [String(id)],
  );
  return rows.map((r) => ({ at: new Date(r.at).toISOString(), action: r.action, actor: r.actor, before: r.before, after: r.after }));
}

// ---------------------------------------------------------------------------------------------
// Changes

export async function patchPayout(
  database: Database,
  side: PayoutSide,
  id: number,
  patch: { version: number; adjustment?: string; comments?: string },
  who: Who,
  acl: Acl | null,
): Promise<PayoutDto> {
  return transaction(database, async (q) => {
    const settings = await readSettings(q);
    const row = await readPayout(q, side, id, true);
    if (!row) throw notFound();
    if (Number(row.version) !== patch.version) throw new AppError(409, 'payout.changed', { data: toPayoutDto(row, acl, settings) });
    if (row.state !== 'pending' && row.state !== 'held') throw new AppError(422, 'payout.not_editable');
    const before = { adjustment: row.adjustment, comments: row.comments };
    const after = { adjustment: patch.adjustment ?? String(row.adjustment), comments: patch.comments ?? String(row.comments ?? '') };
    await q(
      `UPDATE payouts SET adjustment = $2::numeric, comments = $3, version = version + 1, updated_by = $4, updated_at = now() WHERE id = $1`,
      [id, after.adjustment, after.comments, who.userId],
    );
    await auditRows(q, who, 'payout.edit', [{ id, before, after }], 'payouts');
    return toPayoutDto((await readPayout(q, side, id))!, acl, settings);
  });
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const sortedIds = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** A verification code for confirming exactly `ids` (the caller's; single use; expiring). */
export async function createVerification(database: Database, side: PayoutSide, ids: number[], userId: number, nowMs: number): Promise<PayoutVerification> {
  const selection = sortedIds(ids);
  const found = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM payouts WHERE side = $1 AND id = ANY($2::int4[])`, [side, selection]);
  if (Number(found[0]?.n ?? 0) !== selection.length) throw notFound();
  const code = String(crypto.randomInt(0, 10 ** PAYOUT_CODE_LENGTH)).padStart(PAYOUT_CODE_LENGTH, '0');
  const expires = new Date(nowMs + PAYOUT_CODE_TTL_MS);
  const [row] = await query<{ id: number }>(
    database,
    `INSERT INTO payout_verifications (user_id, action, payout_ids, code_hash, created_at, expires_at) VALUES ($1, 'confirm', $2::jsonb, $3, $4, $5) RETURNING id`,
    [userId, JSON.stringify(selection), sha256(code), new Date(nowMs), expires],
  );
  return { id: Number(row!.id), code, expires_at: expires.toISOString() };
}

/**
 * Checks a typed code against its verification, outside any transaction so that a wrong try
 * counts even though the confirmation fails. Throws 422 payout.code_wrong | code_used |
 * code_expired | code_mismatch.
 */
async function checkCode(database: Database, verificationId: number, code: string, userId: number, ids: number[], nowMs: number): Promise<void> {
  const [v] = await query<{ user_id: number; payout_ids: number[]; code_hash: string; attempts: number; expires_at: Date; used_at: Date | null }>(
    database,
    `SELECT user_id, payout_ids, code_hash, attempts, expires_at, used_at FROM payout_verifications WHERE id = $1 AND action = 'confirm'`,
    [verificationId],
  );
  const fail = (key: string) => new AppError(422, key, { errors: { code: key } });
  if (!v || Number(v.user_id) !== userId) throw fail('payout.code_wrong');
  if (v.used_at) throw fail('payout.code_used');
  if (new Date(v.expires_at).getTime() <= nowMs || Number(v.attempts) >= PAYOUT_CODE_MAX_ATTEMPTS) throw fail('payout.code_expired');
  const typed = code.trim();
  const a = Buffer.from(sha256(typed), 'hex');
  const b = Buffer.from(v.code_hash, 'hex');
  if (!/^\d+$/.test(typed) || a.length !== b.length || !crypto.timingSafeEqual(a, b)) {
    await query(database, `UPDATE payout_verifications SET attempts = attempts + 1 WHERE id = $1`, [verificationId]);
    throw fail('payout.code_wrong');
  }
  if (JSON.stringify(sortedIds(v.payout_ids)) !== JSON.stringify(sortedIds(ids))) throw fail('payout.code_mismatch');
}

interface RunRow {
  id: number;
  action: string;
  results: PayoutRowResult[];
}
function runDto(r: RunRow): PayoutRun {
  const results = r.results ?? [];
  const applied = results.filter((x) => x.ok).length;
  return { id: Number(r.id), action: r.action as PayoutAction, results, applied, skipped: results.length - applied };
}
const runSide = (side: PayoutSide) => `payouts:${side}`;
const runKey = (side: PayoutSide, userId: number | null, key: string) => `payouts:${side}:${userId ?? 0}:${key}`;

async function existingRun(database: Database, side: PayoutSide, userId: number | null, key: string): Promise<PayoutRun | null> {
  const [r] = await query<RunRow>(database, `SELECT id, action, results FROM billing_action_runs WHERE idem_key = $1 AND status = 'done'`, [runKey(side, userId, key)]);
  return r ? runDto(r) : null;
}

/** Rows changed since shown: 409 with the current ones. */
async function checkVersions(database: Database, side: PayoutSide, rows: { id: number; version: number }[], acl: Acl | null): Promise<void> {
  const current = await query<RawPayout>(database, `SELECT ${PAYOUT_SELECT} FROM ${PAYOUT_FROM} WHERE o.side = $1 AND o.id = ANY($2::int4[])`, [side, rows.map((r) => r.id)]);
  if (current.length !== new Set(rows.map((r) => r.id)).size) throw notFound();
  const byId = new Map(current.map((r) => [Number(r.id), r]));
  const settings = await readSettings(database);
  const changed = rows.filter((r) => Number(byId.get(r.id)!.version) !== r.version);
  if (changed.length > 0) throw new AppError(409, 'payout.changed', { data: changed.map((r) => toPayoutDto(byId.get(r.id)!, acl, settings)) });
}

export interface ApplyOptions {
  action: PayoutAction;
  rows: { id: number; version: number }[];
  idempotencyKey: string;
  who: Who;
  /** Inside the transaction, after the run is claimed and before the rows are changed. */
  before?: (q: QueryFn) => Promise<void>;
  /** Whether a locked row can take the action, else the skip reason. */
  decide: (row: RawPayout) => string | null;
  /** SET clause for the applicable rows ($1: ids; $2: user id; extra params from $3). */
  set: string;
  /** A FROM source for `set` (joined on its `id` to the payout). */
  from?: string;
  params?: unknown[];
  /** The audit's after of a changed row. */
  after: (row: RawPayout) => Record<string, unknown>;
}

/** Runs one selection's action under the idempotency key (see the header). */
export async function applyToSelection(database: Database, side: PayoutSide, o: ApplyOptions): Promise<PayoutRun> {
  const key = runKey(side, o.who.userId, o.idempotencyKey);
  return transaction(database, async (q) => {
    const [claimed] = await q<{ id: number }>(
      `INSERT INTO billing_action_runs (idem_key, user_id, side, action, total) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (idem_key) DO NOTHING RETURNING id`,
      [key, o.who.userId, runSide(side), o.action, o.rows.length],
    );
    if (!claimed) {
      const [r] = await q<RunRow>(`SELECT id, action, results FROM billing_action_runs WHERE idem_key = $1`, [key]);
      return runDto(r!);
    }
    if (o.before) await o.before(q);
    const ids = sortedIds(o.rows.map((r) => r.id));
    const locked = await q<RawPayout>(
      `SELECT o.id, o.state, o.version, o.payout::text, o.new_revenue::text, o.revenue_gross::text, o.min_payout::text, o.share_pct::text,
              o.payment_terms, o.month, c.iban, c.tax_id, c.country
       FROM payouts o JOIN publishers pb ON pb.id = o.publisher_id LEFT JOIN companies c ON c.id = pb.company_id
       WHERE o.side = $1 AND o.id = ANY($2::int4[]) ORDER BY o.id FOR UPDATE OF o`,
      [side, ids],
    );
    const shown = new Map(o.rows.map((r) => [r.id, r.version]));
    const results: PayoutRowResult[] = [];
    const apply: RawPayout[] = [];
    for (const row of locked) {
      const id = Number(row.id);
      const reason = Number(row.version) !== shown.get(id) && o.action !== 'approve' ? 'payout.skip.changed' : o.decide(row);
      if (reason) results.push({ id, ok: false, reason, state: row.state as PayoutState });
      else apply.push(row);
    }
    if (apply.length > 0) {
      const changed = await q<{ id: number; state: PayoutState }>(
        `UPDATE payouts SET ${o.set}, version = payouts.version + 1, updated_by = $2::int4, updated_at = now()
         ${o.from ? `FROM ${o.from}` : ''} WHERE payouts.id = ANY($1::int4[])${o.from ? ' AND src.id = payouts.id' : ''}
         RETURNING payouts.id, payouts.state`,
        [apply.map((r) => Number(r.id)), o.who.userId, ...(o.params ?? [])],
      );
      for (const c of changed) results.push({ id: Number(c.id), ok: true, state: c.state });
      await auditRows(
        q,
        o.who,
        `payout.${o.action}`,
        apply.map((r) => ({ id: Number(r.id), before: { state: r.state }, after: o.after(r) })),
        'payouts',
      );
    }
    results.sort((a, b) => a.id - b.id);
    await q(`UPDATE billing_action_runs SET done = total, status = 'done', results = $2::jsonb, finished_at = now() WHERE id = $1`, [claimed.id, JSON.stringify(results)]);
    return runDto({ id: claimed.id, action: o.action, results });
  });
}

const factsOf = (row: RawPayout) => ({
  state: row.state as PayoutState,
  payout: String(row.payout),
  new_revenue: String(row.new_revenue),
  revenue_gross: String(row.revenue_gross),
  min_payout: String(row.min_payout),
  share_pct: String(row.share_pct),
  payment_terms: String(row.payment_terms),
  billing_info: { iban: (row.iban as string) ?? null, country: (row.country as string) ?? null, tax_id: (row.tax_id as string) ?? null },
});

/**
 * Confirms a selection (spec 5): the comment (schema), the month rule on the caller's today, the
 * alerts acknowledged, the code; each payout's blockers (state, minimum, billing info, terms)
 * skip it with the reason.
 */
export async function confirmPayouts(
  database: Database,
  side: PayoutSide,
  input: { rows: { id: number; version: number }[]; comment: string; verification_id: number; code: string; acknowledge_alerts: boolean; idempotency_key: string },
  who: Who,
  acl: Acl | null,
  nowMs: number,
): Promise<PayoutRun> {
  if (!can(acl, PAYOUTS_RESOURCE, 'write')) throw forbidden();
  const done = await existingRun(database, side, who.userId, input.idempotency_key);
  if (done) return done;
  await checkVersions(database, side, input.rows, acl);
  const settings = await readSettings(database);
  const rows = await query<RawPayout>(database, `SELECT ${PAYOUT_SELECT} FROM ${PAYOUT_FROM} WHERE o.side = $1 AND o.id = ANY($2::int4[])`, [side, input.rows.map((r) => r.id)]);
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const months = [...new Set(rows.map((r) => String(r.month)))];
  for (const m of months) {
    const err = confirmMonthError(m, today);
    if (err) throw new AppError(422, err, { params: { month: m, day: 15 } });
  }
  const alerted = rows.filter((r) => r.state === 'pending' && payoutAlerts(factsOf(r), settings).length > 0).map((r) => Number(r.id));
  if (alerted.length > 0 && !input.acknowledge_alerts) throw new AppError(422, 'payout.alerts_unacknowledged', { data: { ids: alerted } });
  await checkCode(database, input.verification_id, input.code, who.userId ?? 0, input.rows.map((r) => r.id), nowMs);
  return applyToSelection(database, side, {
    action: 'confirm',
    rows: input.rows,
    idempotencyKey: input.idempotency_key,
    who,
    before: async (q) => {
      const used = await q(`UPDATE payout_verifications SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id`, [input.verification_id, new Date(nowMs)]);
      if (used.length === 0) throw new AppError(422, 'payout.code_used', { errors: { code: 'payout.code_used' } });
    },
    decide: (row) => confirmBlockers(factsOf(row))[0] ?? null,
    set: `state = 'confirmed', confirmed_by = $2::int4, confirmed_at = now(), comments = $3`,
    params: [input.comment],
    after: () => ({ state: 'confirmed', comment: input.comment }),
  });
}

/** unconfirm, hold, release, approve, pay. */
export async function actOnPayouts(
  database: Database,
  side: PayoutSide,
  input: { action: 'unconfirm' | 'hold' | 'release' | 'approve' | 'pay'; rows: { id: number; version: number }[]; reason?: string; paid_on?: string; bank_reference?: string; idempotency_key: string },
  who: Who,
  acl: Acl | null,
  nowMs: number,
): Promise<PayoutRun> {
  const needed = input.action === 'approve' ? 'approve' : 'write';
  if (!can(acl, PAYOUTS_RESOURCE, needed)) throw forbidden();
  const done = await existingRun(database, side, who.userId, input.idempotency_key);
  if (done) return done;
  if (input.action !== 'approve') await checkVersions(database, side, input.rows, acl);
  else {
    const found = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM payouts WHERE side = $1 AND id = ANY($2::int4[])`, [side, sortedIds(input.rows.map((r) => r.id))]);
    if (Number(found[0]?.n ?? 0) !== new Set(input.rows.map((r) => r.id)).size) throw notFound();
  }
  const only = (state: PayoutState | PayoutState[]) => (row: RawPayout) => ([] as PayoutState[]).concat(state).includes(row.state as PayoutState) ? null : 'payout.skip.state';
  const common = { action: input.action, rows: input.rows, idempotencyKey: input.idempotency_key, who };
  switch (input.action) {
    case 'unconfirm':
      return applyToSelection(database, side, { ...common, decide: only('confirmed'), set: `state = 'pending', confirmed_by = NULL, confirmed_at = NULL`, after: () => ({ state: 'pending' }) });
    case 'hold':
      return applyToSelection(database, side, {
        ...common,
        decide: only(['pending', 'confirmed']),
        set: `state = 'held', held_reason = $3, confirmed_by = NULL, confirmed_at = NULL`,
        params: [input.reason],
        after: () => ({ state: 'held', reason: input.reason }),
      });
    case 'release':
      return applyToSelection(database, side, { ...common, decide: only('held'), set: `state = 'pending', held_reason = NULL`, after: () => ({ state: 'pending' }) });
    case 'approve':
      return applyToSelection(database, side, {
        ...common,
        decide: only('confirmed'),
        set: `state = 'approved', approved_by = $2::int4, approved_at = now()`,
        after: () => ({ state: 'approved' }),
      });
    case 'pay': {
      const today = new Date(nowMs).toISOString().slice(0, 10);
      if (input.paid_on! > today) throw new AppError(422, 'payout.date_future', { errors: { paid_on: 'payout.date_future' } });
      return applyToSelection(database, side, {
        ...common,
        decide: only('approved'),
        set: `state = 'paid', paid_on = $3::date, bank_reference = $4, paid_by = $2::int4`,
        params: [input.paid_on, input.bank_reference],
        after: () => ({ state: 'paid', paid_on: input.paid_on, bank_reference: input.bank_reference }),
      });
    }
  }
}

export { fromCents, toCents };
