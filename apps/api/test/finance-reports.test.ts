/**
 * Finance reports (GET /v1/finance-reports, its export and its filter choices) through the HTTP
 * API: a month's figures per network equal the billing rows computed for the same month (revenue,
 * cost, adjusted revenue after a partner-reported figure, invoiced after a credit note, collected
 * after a payment) and the DataViewer's for the same month and network; deltas against the month
 * before; the product lines against raw sums of the hourly fact; per publisher and per product;
 * sort and paging; CSV and XLSX; the rules' messages; the ACL.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMicros } from '@backoffice/core/billing';
import type { FinanceAnswer, FinanceRow } from '@backoffice/core/finance-reports';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

/** 45 days ending 10 April 2025 14:00 UTC: the end of February, all of March, April's first days. */
const END = Date.UTC(2025, 3, 10, 14);
const DATA = { endMs: END, days: 45, scale: 0.15, qpsDays: 0, seed: 23 };
const MONTH = '2025-03';

type Headers = { authorization: string };
const m = (v: string | null | undefined) => toMicros(v ?? '0');

describe('finance reports', () => {
  let t: TestApp;
  let finance: Headers;
  const db = () => t.app.ctx.database;

  const get = (qs: string, headers: Headers = finance) =>
    t.app.inject({ url: `/v1/finance-reports?${qs}`, headers });
  const report = async (qs: string): Promise<FinanceAnswer> => {
    const res = await get(qs);
    expect(res.statusCode, res.body).toBe(200);
    return body<FinanceAnswer>(res).data;
  };
  const byId = (rows: FinanceRow[]) => new Map(rows.map((r) => [r.id, r]));

  /** Per network, the SSP advertiser billing rows of a month, straight from the table. */
  async function billingSums(month: string) {
    const rows = await query<Record<string, string>>(
      db(),
      `SELECT counterparty_id::text AS id, sum(revenue_ours)::text AS ours, sum(other_side)::text AS other,
              sum(revenue_gross - carried_in)::text AS adjusted, sum(revenue_gross)::text AS gross,
              sum(paid_revenue)::text AS paid
       FROM billing_rows WHERE side = 'ssp' AND kind = 'advertiser' AND month = $1 GROUP BY counterparty_id`,
      [month],
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  /** Per network, revenue and cost of [from, to) from the hourly fact, optionally filtered. */
  async function rawSums(from: string, to: string, where = 'true') {
    const rows = await query<Record<string, string>>(
      db(),
      `SELECT demand_partner_id::text AS id, sum(revenue_micros)::text AS rev, sum(cost_micros)::text AS cost
       FROM stats_hourly WHERE ts >= $1 AND ts < $2 AND ${where} GROUP BY demand_partner_id`,
      [from, to],
    );
    return new Map(rows.map((r) => [Number(r.id), { rev: BigInt(r.rev!), cost: BigInt(r.cost!) }]));
  }

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(db(), DATA);
    finance = (await signIn(t.app, DEMO.finance)).headers;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/ssp/compute',
      headers: finance,
      payload: { month: MONTH },
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 240_000);
  afterAll(async () => t?.close());

  it("equals the month's billing rows per network, and their totals", async () => {
    const answer = await report(`from=${MONTH}&to=${MONTH}&group=network&page_size=500`);
    const billing = await billingSums(MONTH);
    expect(billing.size).toBeGreaterThan(5);
    const rows = byId(answer.rows);
    for (const [id, b] of billing) {
      const row = rows.get(id);
      expect(row, `network ${id}`).toBeDefined();
      expect(m(row!.revenue)).toBe(m(b.ours));
      expect(m(row!.cost)).toBe(m(b.other));
      expect(m(row!.adjusted_revenue)).toBe(m(b.gross));
      expect(row!.billed).toBe(true);
    }
    expect(answer.months).toHaveLength(1);
    expect(answer.months[0]!.billed).toBe(true);
    // Every row of the month is a network with traffic; the totals add the rows up.
    const sum = (k: 'revenue' | 'cost' | 'adjusted_revenue') => answer.rows.reduce((s, r) => s + m(r[k]), 0n);
    expect(m(answer.totals.revenue)).toBe(sum('revenue'));
    expect(m(answer.totals.cost)).toBe(sum('cost'));
    expect(m(answer.totals.margin)).toBe(sum('revenue') - sum('cost'));
    expect(m(answer.totals.adjusted_revenue)).toBe(sum('adjusted_revenue'));
    expect(answer.total_rows).toBe(answer.rows.length);
  });

  it('equals the DataViewer for the same month and network', async () => {
    const dv = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewer/query',
      headers: finance,
      payload: {
        range: { start: '2025-03-01', end: '2025-03-31' },
        timezone: 'UTC',
        dimensions: ['demand_partner'],
        metrics: ['revenue', 'cost', 'impressions'],
        limit: 500,
      },
    });
    expect(dv.statusCode, dv.body).toBe(200);
    const data = body<{ fields: string[]; rows: (string | number | null)[][] }>(dv).data;
    const idAt = data.fields.findIndex((f) => f.endsWith('_id') || f === 'demand_partner_id');
    const at = (f: string) => data.fields.indexOf(f);
    const answer = await report(`from=${MONTH}&to=${MONTH}&page_size=500`);
    const rows = byId(answer.rows);
    expect(data.rows.length).toBe(answer.rows.length);
    for (const cells of data.rows) {
      const row = rows.get(Number(cells[idAt]));
      expect(row, String(cells[idAt])).toBeDefined();
      expect(m(row!.revenue)).toBe(m(String(cells[at('revenue')])));
      expect(m(row!.cost)).toBe(m(String(cells[at('cost')])));
      expect(row!.impressions).toBe(Number(cells[at('impressions')]));
    }
  });

  it('follows the partner-reported revenue, invoices and their credit notes, and payments', async () => {
    const [target] = await query<{ id: number; network: number; ours: string; version: number }>(
      db(),
      `SELECT id, counterparty_id AS network, revenue_ours::text AS ours, version FROM billing_rows
       WHERE side = 'ssp' AND kind = 'advertiser' AND month = $1 AND state = 'open' ORDER BY revenue_ours DESC LIMIT 1`,
      [MONTH],
    );
    const reported = (m(target!.ours) * 9n) / 10n;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/v1/billing/ssp/rows/${target!.id}`,
      headers: finance,
      payload: {
        version: target!.version,
        revenue_network: (Number(reported) / 1e6).toFixed(6),
        confirm_low_margin: true,
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const [after] = await query<{ version: number; gross: string }>(
      db(),
      `SELECT version, revenue_gross::text AS gross FROM billing_rows WHERE id = $1`,
      [target!.id],
    );
    // Confirmed, then a payment of 1,000.00 on the row.
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/ssp/actions',
      headers: finance,
      payload: {
        action: 'confirm',
        rows: [{ id: target!.id, version: after!.version }],
        idempotency_key: `fr-${process.pid}-${Date.now()}`,
        confirm_low_margin: true,
      },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const [confirmed] = await query<{ version: number }>(
      db(),
      `SELECT version FROM billing_rows WHERE id = $1`,
      [target!.id],
    );
    const pay = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/ssp/rows/${target!.id}/payments`,
      headers: finance,
      payload: { amount: '1000.00', paid_on: '2025-04-20', version: confirmed!.version },
    });
    expect(pay.statusCode, pay.body).toBe(201);
    // An issued invoice of the row (base after a 10% deduction), a quarter of it credited.
    const [issuer] = await query<{ id: number }>(db(), `SELECT id FROM invoice_issuers ORDER BY id LIMIT 1`);
    const gross = after!.gross;
    const [inv] = await query<{ id: number }>(
      db(),
      `INSERT INTO invoices (team, kind, state, issuer_id, counterparty_id, currency, months, period_start, period_end, payment_terms,
                             revenue, tax_treatment, base, vat_rate, vat_amount, total, credited, number, series, sequence, issue_date)
       VALUES ('ssp', 'invoice', 'issued', $1, $2, 'USD', '["2025-03"]', '2025-03-01', '2025-03-31', 'net30',
               $3::numeric, 'not_subject', round($3::numeric * 0.9, 2), 0, 0, round($3::numeric * 0.9, 2),
               round($3::numeric * 0.9 / 4, 2), 'TEST-FR-1', 'TEST', 1, '2025-04-02') RETURNING id`,
      [issuer!.id, target!.network, gross],
    );
    await query(db(), `UPDATE billing_rows SET invoice_id = $2 WHERE id = $1`, [target!.id, inv!.id]);

    const answer = await report(`from=${MONTH}&to=${MONTH}&ids=${target!.network}`);
    expect(answer.rows).toHaveLength(1);
    const row = answer.rows[0]!;
    const b = (await billingSums(MONTH)).get(target!.network)!;
    expect(m(row.adjusted_revenue)).toBe(m(b.adjusted));
    expect(m(row.adjusted_revenue)).toBe(m(b.gross));
    expect(m(row.collected)).toBe(m(b.paid));
    expect(m(row.collected)).toBe(1_000_000_000n);
    const [expected] = await query<{ v: string }>(
      db(),
      `SELECT round(revenue_gross * i.base / i.revenue * (i.total - i.credited) / i.total, 6)::text AS v
       FROM billing_rows b JOIN invoices i ON i.id = b.invoice_id WHERE b.id = $1`,
      [target!.id],
    );
    expect(m(row.invoiced)).toBe(m(expected!.v));
    expect(m(row.invoiced)).toBeGreaterThan(0n);
    // A draft does not count as invoiced.
    await query(
      db(),
      `UPDATE invoices SET state = 'draft', number = NULL, series = NULL, sequence = NULL WHERE id = $1`,
      [inv!.id],
    );
    expect(m((await report(`from=${MONTH}&to=${MONTH}&ids=${target!.network}`)).rows[0]!.invoiced)).toBe(0n);
    await query(
      db(),
      `UPDATE invoices SET state = 'issued', number = 'TEST-FR-1', series = 'TEST', sequence = 1 WHERE id = $1`,
      [inv!.id],
    );
  });

  it('gives month-over-month deltas, and our revenue where a month has no billing rows', async () => {
    const answer = await report(`from=2025-03&to=2025-04&page_size=500`);
    const feb = await report(`from=2025-02&to=2025-02&page_size=500`);
    const march = answer.rows.filter((r) => r.month === '2025-03');
    const april = answer.rows.filter((r) => r.month === '2025-04');
    expect(april.length).toBeGreaterThan(5);
    const mar = byId(march);
    const febById = byId(feb.rows);
    for (const r of april) {
      // April has no billing rows: the adjusted revenue is ours, nothing invoiced or collected.
      expect(r.billed).toBe(false);
      expect(r.adjusted_revenue).toBe(r.revenue);
      expect(m(r.invoiced)).toBe(0n);
      const p = mar.get(r.id)!;
      expect(m(r.revenue_delta)).toBe(m(r.revenue) - m(p.revenue));
      expect(m(r.margin_delta)).toBe(m(r.margin) - m(p.margin));
      expect(m(r.adjusted_revenue_delta)).toBe(m(r.adjusted_revenue) - m(p.adjusted_revenue));
      if (m(p.revenue) !== 0n) {
        const pct = Number(m(r.revenue) - m(p.revenue)) / Number(m(p.revenue));
        expect(Number(r.revenue_delta_pct)).toBeCloseTo(pct, 5);
      }
    }
    for (const r of march) {
      const p = febById.get(r.id);
      if (p) expect(m(r.revenue_delta)).toBe(m(r.revenue) - m(p.revenue));
      else expect(r.revenue_delta).toBeNull();
    }
    // The months' totals: the chart's series, with their own deltas.
    expect(answer.months.map((x) => x.month)).toEqual(['2025-03', '2025-04']);
    expect(m(answer.months[1]!.revenue_delta)).toBe(
      m(answer.months[1]!.revenue) - m(answer.months[0]!.revenue),
    );
    // February's last days only (the data starts inside it): January has nothing, no delta.
    expect(feb.rows.every((r) => r.revenue_delta === null)).toBe(true);
  });

  it('filters to the product lines (PlayOn: video in web pages; AC: apps and CTV) as the hourly fact does', async () => {
    const from = '2025-03-01T00:00:00Z';
    const to = '2025-04-01T00:00:00Z';
    const billing = await billingSums(MONTH);
    for (const [product, where] of [
      ['playon', 'format_id = 2 AND environment_id = 1'],
      ['ac', 'environment_id IN (2, 3)'],
    ] as const) {
      const raw = await rawSums(from, to, where);
      const answer = await report(`from=${MONTH}&to=${MONTH}&product=${product}&page_size=500`);
      expect(answer.product).toBe(product);
      const rows = byId(answer.rows);
      let total = 0n;
      for (const [id, s] of raw) {
        const row = rows.get(id);
        expect(row, `${product} network ${id}`).toBeDefined();
        expect(m(row!.revenue)).toBe(s.rev);
        expect(m(row!.cost)).toBe(s.cost);
        total += s.rev;
        // A share of the network's billing rows: never more than the whole network's adjusted figure.
        const b = billing.get(id);
        if (b) expect(m(row!.adjusted_revenue)).toBeLessThanOrEqual(m(b.gross) + 10n);
      }
      expect(m(answer.totals.revenue)).toBe(total);
      expect(answer.rows.length).toBe(
        [...raw.values()].filter((s) => s.rev !== 0n || s.cost !== 0n).length || answer.rows.length,
      );
    }
    // A network without a reported figure: its product line's adjusted revenue is its own revenue,
    // but for the billing rows' rounding to the cent (half a cent per row, one row per format).
    const [plain] = await query<{ network: number }>(
      db(),
      `SELECT counterparty_id AS network FROM billing_rows WHERE side = 'ssp' AND kind = 'advertiser' AND month = $1
       GROUP BY counterparty_id HAVING bool_and(revenue_network IS NULL) ORDER BY sum(revenue_ours) DESC LIMIT 1`,
      [MONTH],
    );
    const ac = (await report(`from=${MONTH}&to=${MONTH}&product=ac&ids=${plain!.network}`)).rows[0]!;
    const diff = m(ac.adjusted_revenue) - m(ac.revenue);
    expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual(4n * 5_000n);
  });

  it('groups per publisher and per product, with the same totals', async () => {
    const qs = `from=${MONTH}&to=${MONTH}&page_size=500`;
    const networks = await report(`${qs}&group=network`);
    const products = await report(`${qs}&group=product`);
    const publishers = await report(`${qs}&group=publisher&sort=-revenue`);
    expect(m(products.totals.revenue)).toBe(m(networks.totals.revenue));
    expect(m(publishers.totals.revenue)).toBe(m(networks.totals.revenue));
    expect(m(products.totals.adjusted_revenue)).toBe(m(networks.totals.adjusted_revenue));
    expect(m(products.totals.invoiced)).toBe(m(networks.totals.invoiced));
    expect(m(products.totals.collected)).toBe(m(networks.totals.collected));
    // Publishers take the billing figures in proportion to their revenue: the same totals, to the rounding.
    const close = (a: string | null, b: string | null) => {
      const d = m(a) - m(b);
      return (d < 0n ? -d : d) <= BigInt(publishers.total_rows);
    };
    expect(close(publishers.totals.adjusted_revenue, networks.totals.adjusted_revenue)).toBe(true);
    expect(close(publishers.totals.collected, networks.totals.collected)).toBe(true);
    // Per product: the billing rows' products.
    const [video] = await query<{ ours: string }>(
      db(),
      `SELECT sum(revenue_ours)::text AS ours FROM billing_rows WHERE side = 'ssp' AND kind = 'advertiser' AND month = $1 AND product = 'video'`,
      [MONTH],
    );
    expect(m(products.rows.find((r) => r.name === 'video')!.revenue)).toBe(m(video!.ours));
    expect(products.rows.every((r) => r.id === null)).toBe(true);
    // Sorted by revenue, highest first; a publisher filter keeps those publishers.
    const revs = publishers.rows.map((r) => m(r.revenue));
    expect(revs).toEqual([...revs].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const two = publishers.rows.slice(0, 2).map((r) => r.id);
    const filtered = await report(`${qs}&group=publisher&ids=${two.join(',')}`);
    expect(filtered.rows.map((r) => r.id).sort()).toEqual([...two].sort());
  });

  it('sorts and pages on the server', async () => {
    const all = await report(`from=2025-02&to=2025-04&sort=name&page_size=500`);
    const page2 = await report(`from=2025-02&to=2025-04&sort=name&page=2&page_size=5`);
    expect(page2.total_rows).toBe(all.total_rows);
    expect(page2.rows.map((r) => `${r.month}|${r.id}`)).toEqual(
      all.rows.slice(5, 10).map((r) => `${r.month}|${r.id}`),
    );
    const names = all.rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byMargin = await report(`from=2025-02&to=2025-04&sort=-margin_pct&page_size=500`);
    const pcts = byMargin.rows
      .map((r) => r.margin_pct)
      .filter((v) => v !== null)
      .map(Number);
    expect(pcts).toEqual([...pcts].sort((a, b) => b - a));
    const byMonth = await report(`from=2025-02&to=2025-04&page_size=500`);
    expect(byMonth.rows[0]!.month).toBe('2025-04');
    expect(byMonth.rows.at(-1)!.month).toBe('2025-02');
  });

  it('exports what is filtered as CSV and XLSX, in the request language', async () => {
    const qs = `from=${MONTH}&to=${MONTH}&group=network`;
    const csv = await t.app.inject({ url: `/v1/finance-reports/export?${qs}&format=csv`, headers: finance });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/finance_report_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    const answer = await report(`${qs}&page_size=500`);
    expect(lines).toHaveLength(answer.total_rows + 1);
    expect(lines[0]).toContain('Adjusted revenue (USD)');
    expect(lines[0]).toContain('Revenue change %');
    const es = await t.app.inject({
      url: `/v1/finance-reports/export?${qs}&format=xlsx`,
      headers: { ...finance, 'accept-language': 'es' },
    });
    expect(es.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(es.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(answer.total_rows + 1);
    expect(String(sheet.getRow(1).getCell(1).value)).toBe('Mes');
    expect(String(sheet.getRow(1).getCell(2).value)).toBe('Red');
    const empty = await t.app.inject({
      url: `/v1/finance-reports/export?from=2024-01&to=2024-02`,
      headers: finance,
    });
    expect(empty.statusCode).toBe(422);
    expect(body(empty).message).toBe('report.export_empty');
  });

  it('lists the filter choices', async () => {
    const res = await t.app.inject({ url: '/v1/finance-reports/entities?group=publisher', headers: finance });
    expect(res.statusCode).toBe(200);
    expect(body<{ id: number; name: string }[]>(res).data.length).toBeGreaterThan(10);
  });

  it.each([
    ['to=2025-03', 'finance_reports.from_required'],
    ['from=2025-03', 'finance_reports.to_required'],
    ['from=2025-3&to=2025-03', 'finance_reports.month_invalid'],
    ['from=2025-04&to=2025-03', 'finance_reports.range_inverted'],
    ['from=2020-01&to=2025-03', 'finance_reports.range_too_long'],
    ['from=2999-01&to=2999-01', 'finance_reports.month_future'],
    ['from=2025-03&to=2025-03&product=tv', 'finance_reports.product_invalid'],
    ['from=2025-03&to=2025-03&group=country', 'finance_reports.group_invalid'],
    ['from=2025-03&to=2025-03&ids=a,b', 'finance_reports.ids_invalid'],
    ['from=2025-03&to=2025-03&group=product&ids=1', 'finance_reports.ids_not_for_product'],
    ['from=2025-03&to=2025-03&sort=-colour', 'finance_reports.sort_invalid'],
    ['from=2025-03&to=2025-03&page=0', 'finance_reports.page_invalid'],
    ['from=2025-03&to=2025-03&unknown=1', 'error.validation'],
  ])('refuses %s with %s', async (qs, key) => {
    const res = await get(qs);
    expect(res.statusCode).toBe(400);
    expect(body(res).message).toBe(key);
  });

  it('needs /v1/finance-reports read', async () => {
    expect((await t.app.inject({ url: `/v1/finance-reports?from=${MONTH}&to=${MONTH}` })).statusCode).toBe(
      401,
    );
    const lead = (await signIn(t.app, DEMO.demandLead)).headers;
    for (const url of [
      `/v1/finance-reports?from=${MONTH}&to=${MONTH}`,
      `/v1/finance-reports/export?from=${MONTH}&to=${MONTH}`,
      '/v1/finance-reports/entities',
    ]) {
      const res = await t.app.inject({ url, headers: lead });
      expect(res.statusCode, url).toBe(403);
    }
    const head = (await signIn(t.app, DEMO.admin)).headers;
    expect((await get(`from=${MONTH}&to=${MONTH}`, head)).statusCode).toBe(200);
  });
});
