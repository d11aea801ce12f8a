/**
 * `npm run bench:payouts` — the payouts benchmark of issue 23 ("Confirming 5,000 payouts:
 * seconds"), on PGlite and/or PostgreSQL, through the HTTP API (inject) of the real app: --payouts
 * publishers (each with a company: a valid CIF and IBAN) and their pending payouts of a closed
 * month; then, --runs times: a verification code for the whole selection, the confirmation (one
 * request: the rules, the code, every payout locked, changed and audited), the approval, and a
 * SEPA file of them all; the payouts go back to pending between runs. Checked: every payout
 * confirmed and approved once per run, the SEPA file's count and sum. Figures are reported, never
 * judged. Results: bench/results/payouts-<db>.json.
 *
 *   npm run bench:payouts -- [--db pglite|postgres|both] [--payouts 5000] [--runs 3]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fromCents, toCents, type PayoutRun, type PayoutVerification } from '@backoffice/core/payouts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from '../resources/databases.ts';
import { benchApp, benchDatabase, cif, option, ROOT, stats } from '../resources/harness.ts';

const PAYOUTS = Number(option('payouts', '5000'));
const RUNS = Number(option('runs', '3'));
const DB = option('db', 'both');
const MONTH = '2025-06';
const IBAN = 'ES9121000418450200051332';
const results: Record<string, unknown> = {};
const sec = (ms: number) => Number((ms / 1000).toFixed(3));

await forEachDatabase(DB, 'bench_payouts', async (kind, url) => {
  const { database, config } = await benchDatabase(url, 'bench-payouts', true);
  const rows = Array.from({ length: PAYOUTS }, (_, i) => ({ legal: `Bench Publisher ${i + 1} S.L.`, tax: cif(i), cents: 10_000 + ((i * 7919) % 500_000) }));
  await query(
    database,
    `WITH c AS (
       INSERT INTO companies (legal_name, country, tax_id, address, city, postal_code, billing_email, iban, currency)
       SELECT legal, 'ES', tax, 'Calle Mayor 1', 'Madrid', '28013', 'pagos@bench.example', $2, 'EUR'
       FROM jsonb_to_recordset($1::jsonb) AS x(legal text, tax text) RETURNING id, legal_name
     ), p AS (
       INSERT INTO publishers (name, side, company_id, revenue_share_pct, min_payout, payment_terms, currency)
       SELECT 'Bench publisher ' || c.id, 'ssp', c.id, 70, 50, 'net30', 'EUR' FROM c RETURNING id
     )
     INSERT INTO payouts (side, month, publisher_id, currency, from_date, to_date, revenue_gross, new_revenue, share_pct, min_payout, payment_terms)
     SELECT 'ssp', $3, p.id, 'EUR', ($3 || '-01')::date, ($3 || '-30')::date, round((100 + p.id % 5000) / 0.7, 2), 100 + p.id % 5000, 70, 50, 'net30' FROM p`,
    [JSON.stringify(rows), IBAN, MONTH],
  );
  const { app, headers } = await benchApp(config, database);
  const list = await query<{ id: number; version: number; payout: string }>(database, `SELECT id, version, payout::text FROM payouts WHERE month = $1 ORDER BY id`, [MONTH]);
  const ids = list.map((r) => r.id);
  const total = fromCents(list.reduce((s, r) => s + toCents(r.payout), 0n));
  const post = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
    const res = await app.inject({ method: 'POST', url, headers, payload });
    if (res.statusCode !== 200) throw new Error(`${kind}: ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return url.endsWith('/sepa') ? (res.body as T) : (res.json() as { data: T }).data;
  };
  const timings = { code: [] as number[], confirm: [] as number[], approve: [] as number[], sepa: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    const current = await query<{ id: number; version: number }>(database, `SELECT id, version FROM payouts WHERE month = $1 ORDER BY id`, [MONTH]);
    let t = performance.now();
    const v = await post<PayoutVerification>('/v1/payouts/ssp/verification', { ids });
    timings.code.push(performance.now() - t);
    t = performance.now();
    const confirmed = await post<PayoutRun>('/v1/payouts/ssp/confirm', {
      rows: current,
      comment: 'Bench: checked against the warehouse',
      verification_id: v.id,
      code: v.code,
      idempotency_key: `bench-confirm-${kind}-${run}-${Date.now()}`,
    });
    timings.confirm.push(performance.now() - t);
    if (confirmed.applied !== PAYOUTS) throw new Error(`${kind}: confirmed ${confirmed.applied} of ${PAYOUTS}`);
    const fresh = await query<{ id: number; version: number }>(database, `SELECT id, version FROM payouts WHERE month = $1 ORDER BY id`, [MONTH]);
    t = performance.now();
    const approved = await post<PayoutRun>('/v1/payouts/ssp/actions', { action: 'approve', rows: fresh, idempotency_key: `bench-approve-${kind}-${run}-${Date.now()}` });
    timings.approve.push(performance.now() - t);
    if (approved.applied !== PAYOUTS) throw new Error(`${kind}: approved ${approved.applied} of ${PAYOUTS}`);
    t = performance.now();
    const xml = await post<string>('/v1/payouts/ssp/sepa', { ids, execution_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) });
    timings.sepa.push(performance.now() - t);
    if (!xml.includes(`<NbOfTxs>${PAYOUTS}</NbOfTxs>`) || !xml.includes(`<CtrlSum>${total}</CtrlSum>`)) throw new Error(`${kind}: the SEPA file's count or sum is wrong`);
    // Back to pending for the next run (a bench shortcut: no action undoes an approval).
    await query(database, `UPDATE payouts SET state = 'pending', confirmed_by = NULL, confirmed_at = NULL, approved_by = NULL, approved_at = NULL WHERE month = $1`, [MONTH]);
  }
  const [audits] = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM audit_log WHERE entity = 'payouts' AND action = 'payout.approve'`);
  if (audits!.n !== PAYOUTS * RUNS) throw new Error(`${kind}: ${audits!.n} approval audit entries for ${PAYOUTS * RUNS} approvals`);
  await app.close();
  await database.close();
  const p50 = (xs: number[]) => sec(stats(xs).p50);
  results[kind] = { payouts: PAYOUTS, runs: RUNS, code_s: p50(timings.code), confirm_s: p50(timings.confirm), approve_s: p50(timings.approve), sepa_s: p50(timings.sepa) };
  console.log(
    `${kind}: ${PAYOUTS} payouts — code ${p50(timings.code)} s, confirm ${p50(timings.confirm)} s, approve ${p50(timings.approve)} s, SEPA file ${p50(timings.sepa)} s (p50 of ${RUNS})`,
  );
  const out = path.join(ROOT, 'bench', 'results', `payouts-${kind}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), ...(results[kind] as object) }, null, 2));
});
