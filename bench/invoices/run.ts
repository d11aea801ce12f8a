/**
 * `npm run bench:invoices` — the invoices benchmark of issue 22, on PGlite and/or PostgreSQL,
 * through the HTTP API (inject) of the real app:
 *   1. Issue: 1,000 drafts (1,000 counterparties with approved rows of a month: a third Spanish with
 *      VAT, a third in other EU states, a third outside the EU; USD rows, so every VERI*FACTU record
 *      is converted to euros) issued by POST /v1/invoices/issue in requests of --batch drafts (each
 *      draft its own transaction: number, customer snapshot, rows invoiced, record chained), then
 *      every PDF rendered (GET /v1/invoices/{id}/pdf). Invoices per second for both, and the
 *      process's peak RSS (sampled every 20 ms). Checked: 1,000 consecutive numbers, 1,000 records,
 *      the chain intact.
 *   2. Verify: a chain of --records VERI*FACTU records (built with the record functions, appended
 *      to the table in chunks) verified by GET /v1/invoices/verifactu/verify: time, records per second.
 * Figures are reported, never judged. Results: bench/results/invoices-<db>.json.
 *
 *   npm run bench:invoices -- [--db pglite|postgres|both] [--invoices 1000] [--batch 100] [--records 100000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import {
  createAltaRecord,
  type VerifactuRecordFields,
} from '../../apps/api/src/modules/invoices/verifactu/index.ts';
import { forEachDatabase } from '../resources/databases.ts';
import { benchApp, benchDatabase, cif, option, ROOT } from '../resources/harness.ts';

const INVOICES = Number(option('invoices', '1000'));
const BATCH = Number(option('batch', '100'));
const RECORDS = Number(option('records', '100000'));
const DB = option('db', 'both');
const MONTH = '2026-09';

const EU = ['FR', 'DE', 'IT', 'NL', 'PT', 'IE', 'BE', 'AT'];

function peakRss(): { stop: () => number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const results: Record<string, unknown> = {};

await forEachDatabase(DB, 'bench_invoices', async (kind, url) => {
  const t0 = performance.now();
  const { database, config } = await benchDatabase(url, 'bench-invoices', true);
  const companies = Array.from({ length: INVOICES }, (_, i) => {
    const zone = i % 3;
    const country = zone === 0 ? 'ES' : zone === 1 ? EU[i % EU.length]! : 'US';
    const tax =
      zone === 0 ? cif(i) : zone === 1 ? `${country}${String(100000000 + i)}` : `84-${String(1000000 + i)}`;
    return { legal: `Bench Advertiser ${i + 1} ${country === 'ES' ? 'S.L.' : 'Ltd'}`, country, tax };
  });
  await query(
    database,
    `WITH c AS (
       INSERT INTO companies (legal_name, country, tax_id, address, city, postal_code, billing_email, currency)
       SELECT legal, country, tax, 'Calle Mayor 1', 'Madrid', '28013', 'billing@bench.example', 'USD'
       FROM jsonb_to_recordset($1::jsonb) AS x(legal text, country text, tax text) RETURNING id, legal_name
     ), p AS (
       INSERT INTO demand_partners (name, side, company_id, payment_terms)
       SELECT 'Bench partner ' || c.id, 'ssp', c.id, 'net45' FROM c RETURNING id
     )
     INSERT INTO billing_rows (side, kind, month, counterparty_type, counterparty_id, product, currency, revenue_ours, other_side, impressions, state)
     SELECT 'ssp', 'advertiser', $2, 'demand_partner', p.id, f, 'USD', (500 + p.id * 3.25 + CASE f WHEN 'banner' THEN 0.123456 ELSE 77.5 END)::numeric, 100, 1000000 + p.id, 'approved'
     FROM p, unnest(ARRAY['banner', 'video']) f`,
    [JSON.stringify(companies), MONTH],
  );
  await query(
    database,
    `INSERT INTO billing_rates (month, currency, rate) VALUES ($1, 'USD', 1.0800) ON CONFLICT DO NOTHING`,
    [MONTH],
  );
  const { app, headers } = await benchApp(config, database);
  const setupSec = (performance.now() - t0) / 1000;

  const pre = await app.inject({
    method: 'POST',
    url: '/v1/invoices/precreate',
    headers,
    payload: { team: 'ssp', months: [MONTH] },
  });
  const drafts = (pre.json() as { data: { created: number[] } }).data.created;
  if (drafts.length !== INVOICES)
    throw new Error(
      `${kind}: precreate made ${drafts.length} drafts, not ${INVOICES}: ${pre.body.slice(0, 300)}`,
    );

  // 1. Issue, then render every PDF.
  const rssBefore = process.memoryUsage().rss;
  const rss = peakRss();
  const tIssue = performance.now();
  const numbers: string[] = [];
  for (let i = 0; i < drafts.length; i += BATCH) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/invoices/issue',
      headers,
      payload: { ids: drafts.slice(i, i + BATCH) },
    });
    const data = (res.json() as { data: { status: string; number?: string; reason?: string }[] }).data;
    for (const r of data) {
      if (r.status !== 'issued') throw new Error(`${kind}: a draft was not issued: ${JSON.stringify(r)}`);
      numbers.push(r.number!);
    }
  }
  const issueSec = (performance.now() - tIssue) / 1000;
  const tPdf = performance.now();
  let pdfBytes = 0;
  for (const id of drafts) {
    const res = await app.inject({ url: `/v1/invoices/${id}/pdf`, headers });
    if (res.statusCode !== 200 || !res.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')))
      throw new Error(`${kind}: PDF of ${id}: ${res.statusCode}`);
    pdfBytes += res.rawPayload.length;
  }
  const pdfSec = (performance.now() - tPdf) / 1000;
  const peak = rss.stop();
  const seqs = numbers.map((n) => Number(n.split('-')[1]));
  if (new Set(numbers).size !== INVOICES || seqs.some((s, i) => s !== seqs[0]! + i))
    throw new Error(`${kind}: the numbers are not ${INVOICES} consecutive ones`);
  const [records] = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM verifactu_records`);
  if (records!.n !== INVOICES)
    throw new Error(`${kind}: ${records!.n} VERI*FACTU records for ${INVOICES} invoices`);
  const first = (await app
    .inject({ url: '/v1/invoices/verifactu/verify', headers })
    .then((r) => r.json())) as { data: { ok: boolean; count: number }[] };
  if (!first.data.every((c) => c.ok)) throw new Error(`${kind}: the chain of the issued invoices is broken`);

  // 2. A long chain: RECORDS more records of a bench issuer, then the verification of every chain.
  const [issuer] = await query<{ id: number }>(
    database,
    `INSERT INTO invoice_issuers (team, legal_name, tax_id, address, city, postal_code, email, iban, invoice_prefix, credit_prefix)
     VALUES ('bench', 'Bench Issuer, S.L.', 'B86561412', 'Calle 1', 'Madrid', '28001', 'b@bench.example', 'ES9121000418450200051332', 'B', 'BR') RETURNING id`,
  );
  const tBuild = performance.now();
  let previous: VerifactuRecordFields | null = null;
  const start = Date.UTC(2026, 0, 2, 9);
  for (let i = 0; i < RECORDS; i += 5000) {
    const chunk: VerifactuRecordFields[] = [];
    for (let j = i; j < Math.min(RECORDS, i + 5000); j++) {
      const at = new Date(start + j * 60_000);
      const rec: VerifactuRecordFields = createAltaRecord(
        {
          issuer_tax_id: 'B86561412',
          number: `B2026-${String(j + 1).padStart(6, '0')}`,
          issue_date: at.toISOString().slice(0, 10),
          invoice_type: 'F1',
          total_tax: '21.00',
          total_amount: `${100 + (j % 900)}.00`,
          generated_at: at,
        },
        previous,
      );
      chunk.push(rec);
      previous = rec;
    }
    await query(
      database,
      `INSERT INTO verifactu_records (issuer_id, invoice_id, kind, issuer_tax_id, number, issue_date, invoice_type, total_tax, total_amount, previous_hash, generated_at, hash, xml)
       SELECT $1, $2, r.kind, r.issuer_tax_id, r.number, r.issue_date::date, r.invoice_type, r.total_tax, r.total_amount, r.previous_hash, r.generated_at, r.hash, ''
       FROM jsonb_to_recordset($3::jsonb) AS r(kind text, issuer_tax_id text, number text, issue_date text, invoice_type text, total_tax text, total_amount text, previous_hash text, generated_at text, hash text)`,
      [issuer!.id, drafts[0], JSON.stringify(chunk)],
    );
  }
  const buildSec = (performance.now() - tBuild) / 1000;
  const verifyRuns: number[] = [];
  let checked = 0;
  for (let run = 0; run < 3; run++) {
    const tv = performance.now();
    const res = (await app
      .inject({ url: '/v1/invoices/verifactu/verify', headers })
      .then((r) => r.json())) as { data: { ok: boolean; count: number }[] };
    verifyRuns.push((performance.now() - tv) / 1000);
    if (!res.data.every((c) => c.ok)) throw new Error(`${kind}: the long chain did not verify`);
    checked = res.data.reduce((s, c) => s + c.count, 0);
  }
  verifyRuns.sort((a, b) => a - b);
  await app.close();
  await database.close();

  const out = {
    db: kind,
    at: new Date().toISOString(),
    invoices: INVOICES,
    batch: BATCH,
    setupSec,
    issue: { seconds: issueSec, perSecond: INVOICES / issueSec },
    pdf: { seconds: pdfSec, perSecond: INVOICES / pdfSec, averageKb: pdfBytes / INVOICES / 1024 },
    rss: { before: rssBefore, peak },
    chain: {
      records: RECORDS,
      appendSec: buildSec,
      verifySec: verifyRuns,
      checked,
      perSecond: checked / verifyRuns[1]!,
    },
  };
  results[kind] = out;
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench', 'results', `invoices-${kind}.json`),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  console.log(`\nInvoices on ${kind} (setup ${setupSec.toFixed(1)} s):`);
  console.log(
    `  issue ${INVOICES} drafts (requests of ${BATCH}): ${issueSec.toFixed(2)} s = ${(INVOICES / issueSec).toFixed(0)} invoices/s`,
  );
  console.log(
    `  render their PDFs: ${pdfSec.toFixed(2)} s = ${(INVOICES / pdfSec).toFixed(0)} PDFs/s, ${(pdfBytes / INVOICES / 1024).toFixed(0)} KB each`,
  );
  console.log(`  RSS ${mb(rssBefore)} before, ${mb(peak)} peak`);
  console.log(
    `  chain of ${checked.toLocaleString('en')} records (appended in ${buildSec.toFixed(1)} s): verified in ${verifyRuns.map((s) => s.toFixed(2)).join(' / ')} s (min / median / max of 3)`,
  );
});
console.log(JSON.stringify(Object.keys(results)));
