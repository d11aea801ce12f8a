/**
 * Invoices and credit notes (issue 22, docs/decisions/024-invoices.md): drafts from approved
 * billing rows, the preview's deductions, issuing with gap-free numbers and VERI*FACTU records,
 * credit notes, payments. Every rule is core's (packages/core/src/invoices.ts); the routes are
 * routes.ts.
 */
import { PAYMENT_TERM_DAYS } from '@backoffice/core/billing-api';
import type { InvoiceDocument, TaxTreatment } from '@backoffice/core/invoice-document';
import {
  computeDeductions,
  documentLanguage,
  formatNumber,
  fromCents,
  ISSUED_STATES,
  parseInvoiceSort,
  seriesOf,
  taxTreatment,
  toCents,
  totalsOf,
  type CreditNoteRequest,
  type InvoiceCandidate,
  type InvoiceDetail,
  type InvoiceList,
  type InvoiceListItem,
  type InvoiceListQuery,
  type InvoicePatch,
  type InvoicePrecreate,
  type InvoiceState,
  type InvoiceTeam,
  type IssueResult,
} from '@backoffice/core/invoices';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import type { Who } from '../billing/actions.ts';
import { appendAlta, lastSubmission, latestRecord, RECORD_COLUMNS, recordDto } from './chain.ts';

type Q = QueryFn | Database;
const run = <T>(q: Q, text: string, params: unknown[] = []) =>
  typeof q === 'function' ? q<T>(text, params) : query<T>(q, text, params);

/** Today in Madrid (the issuer's calendar), YYYY-MM-DD. */
export function todayMadrid(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Madrid',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export async function audit(
  q: Q,
  who: Who,
  action: string,
  id: number,
  before: unknown,
  after: unknown,
): Promise<void> {
  await run(
    q,
    `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
     VALUES ($1::int4, $2::int4, $3::int4, $4::text, $5::text, 'invoices', $6::text, $7::jsonb, $8::jsonb)`,
    [
      who.userId,
      who.simulatedById,
      who.simulatedRoleId,
      who.ip,
      action,
      String(id),
      JSON.stringify(before),
      JSON.stringify(after),
    ],
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The list's columns, from invoices joined to the counterparty and its company. */
export const LIST_SELECT = `i.id, i.team, i.kind, i.state, i.number, i.counterparty_id, i.currency, i.months, i.period_start::text, i.period_end::text,
  i.payment_terms, i.impressions::text, i.revenue::text, i.fraud_percentage::text, i.fraud_revenue::text,
  i.spoofing_percentage::text, i.spoofing_revenue::text, i.apply_deductions, i.comments, i.tax_treatment, i.base::text,
  i.vat_rate::text, i.vat_amount::text, i.total::text, i.paid::text, i.credited::text, i.issue_date::text, i.due_date::text,
  i.corrects_id, c2.number AS corrects_number, i.version, i.customer, i.language, i.correction_reason, i.sent_at, i.sent_to,
  i.pdf_sha256, i.issuer_id,
  p.name AS partner_name, p.type AS account_type, p.invoicing_blocked, p.invoicing_blocked_reason,
  co.legal_name AS company_name, co.country, co.tax_id, co.address, co.city, co.postal_code, coalesce(p.billing_email, co.billing_email) AS billing_email`;
export const LIST_FROM = `invoices i
  JOIN demand_partners p ON p.id = i.counterparty_id
  LEFT JOIN companies co ON co.id = p.company_id
  LEFT JOIN invoices c2 ON c2.id = i.corrects_id`;

export interface RawInvoice {
  id: number;
  team: InvoiceTeam;
  kind: 'invoice' | 'credit_note';
  state: InvoiceState;
  number: string | null;
  counterparty_id: number;
  currency: string;
  months: string[];
  period_start: string;
  period_end: string;
  payment_terms: string;
  impressions: string;
  revenue: string;
  fraud_percentage: string | null;
  fraud_revenue: string | null;
  spoofing_percentage: string | null;
  spoofing_revenue: string | null;
  apply_deductions: boolean;
  comments: string | null;
  tax_treatment: TaxTreatment;
  base: string;
  vat_rate: string;
  vat_amount: string;
  total: string;
  paid: string;
  credited: string;
  issue_date: string | null;
  due_date: string | null;
  corrects_id: number | null;
  corrects_number: string | null;
  version: number;
  customer: Record<string, string | null> | null;
  language: 'en' | 'es';
  correction_reason: string | null;
  sent_at: string | null;
  sent_to: string[];
  pdf_sha256: string | null;
  issuer_id: number;
  partner_name: string;
  account_type: string;
  invoicing_blocked: boolean;
  invoicing_blocked_reason: string | null;
  company_name: string | null;
  country: string | null;
  tax_id: string | null;
  address: string | null;
  city: string | null;
  postal_code: string | null;
  billing_email: string | null;
}

/** What billing info the counterparty lacks to be invoiced ('Inexisting data in user_billinginfo table'). */
export function missingOf(
  r: Pick<RawInvoice, 'company_name' | 'tax_id' | 'address' | 'city' | 'postal_code' | 'country'>,
): string[] {
  const out: string[] = [];
  if (!r.company_name) return ['company', 'tax_id', 'address'];
  if (!r.tax_id) out.push('tax_id');
  if (!r.address || !r.city || !r.postal_code || !r.country) out.push('address');
  return out;
}

export function toItem(r: RawInvoice, today: string): InvoiceListItem {
  const issued = ISSUED_STATES.includes(r.state);
  const customer = issued && r.customer ? r.customer : null;
  const deductions = computeDeductions(r.revenue, {
    fraud_percentage: r.fraud_percentage,
    fraud_revenue: r.fraud_revenue,
    spoofing_percentage: r.spoofing_percentage,
    spoofing_revenue: r.spoofing_revenue,
    apply_deductions: r.apply_deductions,
  });
  const d = deductions.ok
    ? deductions.value
    : {
        fraud_percentage: r.fraud_percentage,
        fraud_revenue: r.fraud_revenue,
        spoofing_percentage: r.spoofing_percentage,
        spoofing_revenue: r.spoofing_revenue,
        revenue_fraud: '0.00',
        new_revenue_net: r.revenue,
      };
  const outstanding =
    r.kind === 'invoice' && issued
      ? fromCents(toCents(r.total) - toCents(r.credited) - toCents(r.paid))
      : '0.00';
  return {
    id: r.id,
    team: r.team,
    kind: r.kind,
    state: r.state,
    number: r.number,
    id_user: r.counterparty_id,
    name: r.partner_name,
    account_type: r.account_type,
    payment_terms: r.payment_terms,
    blocked: r.invoicing_blocked,
    blocked_reason: r.invoicing_blocked_reason,
    date_start: r.period_start,
    date_end: r.period_end,
    impressions: r.impressions,
    revenue: r.revenue,
    fraud_percentage: d.fraud_percentage,
    fraud_revenue: d.fraud_revenue,
    spoofing_percentage: d.spoofing_percentage,
    spoofing_revenue: d.spoofing_revenue,
    revenue_fraud: d.revenue_fraud,
    new_revenue_net: d.new_revenue_net,
    comments: r.comments,
    apply_deductions: r.apply_deductions,
    company_name: (customer?.legal_name as string | undefined) ?? r.company_name ?? '',
    country: (customer?.country as string | undefined) ?? r.country ?? '',
    currency: r.currency,
    months: r.months,
    tax_treatment: r.tax_treatment,
    base: r.base,
    vat_amount: r.vat_amount,
    total: r.total,
    paid: r.paid,
    credited: r.credited,
    outstanding,
    issue_date: r.issue_date,
    due_date: r.due_date,
    overdue: Boolean(r.due_date && r.due_date < today && toCents(outstanding) > 0n),
    missing: issued ? [] : missingOf(r),
    corrects: r.corrects_id && r.corrects_number ? { id: r.corrects_id, number: r.corrects_number } : null,
    version: r.version,
  };
}

const SORT_COLUMNS: Record<string, string> = {
  id: 'i.id',
  number: 'i.number',
  name: 'lower(p.name)',
  issue_date: 'i.issue_date',
  due_date: 'i.due_date',
  revenue: 'i.revenue',
  total: 'i.total',
  state: 'i.state',
  date_start: 'i.period_start',
};

export function listWhere(q: Pick<InvoiceListQuery, 'team' | 'kind' | 'state' | 'q' | 'month'>): {
  sql: string;
  params: unknown[];
} {
  const params: unknown[] = [q.team];
  const where = ['i.team = $1'];
  if (q.kind) {
    params.push(q.kind);
    where.push(`i.kind = $${params.length}`);
  }
  if (q.state.length > 0) {
    params.push(q.state);
    where.push(`i.state = ANY($${params.length}::text[])`);
  }
  if (q.q) {
    params.push(`%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `(p.name ILIKE $${params.length} OR co.legal_name ILIKE $${params.length} OR i.number ILIKE $${params.length})`,
    );
  }
  if (q.month) {
    params.push(JSON.stringify([q.month]));
    where.push(`i.months @> $${params.length}::jsonb`);
  }
  return { sql: where.join(' AND '), params };
}

export function orderOf(sort: string): string {
  const { field, desc } = parseInvoiceSort(sort);
  const dir = desc ? 'DESC' : 'ASC';
  return `${SORT_COLUMNS[field] ?? 'i.id'} ${dir} NULLS LAST, i.id ${dir}`;
}

export async function listInvoices(database: Database, q: InvoiceListQuery): Promise<InvoiceList> {
  const where = listWhere(q);
  const today = todayMadrid();
  const [rows, counts, states] = await Promise.all([
    query<RawInvoice>(
      database,
      `SELECT ${LIST_SELECT} FROM ${LIST_FROM} WHERE ${where.sql} ORDER BY ${orderOf(q.sort)}
       LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
      where.params,
    ),
    query<{ currency: string; n: number; revenue: string; total: string; net: string; outstanding: string }>(
      database,
      `SELECT i.currency, count(*)::int AS n, sum(i.revenue)::text AS revenue, sum(i.total)::text AS total,
              sum(CASE WHEN i.apply_deductions THEN i.revenue - coalesce(i.fraud_revenue, 0) - coalesce(i.spoofing_revenue, 0) ELSE i.revenue END)::text AS net,
              sum(CASE WHEN i.kind = 'invoice' AND i.state <> 'draft' THEN i.total - i.credited - i.paid ELSE 0 END)::text AS outstanding
       FROM ${LIST_FROM} WHERE ${where.sql} GROUP BY i.currency ORDER BY i.currency`,
      where.params,
    ),
    query<{ state: string; n: number }>(
      database,
      `SELECT i.state, count(*)::int AS n FROM ${LIST_FROM} WHERE ${listWhere({ ...q, state: [] }).sql} GROUP BY i.state`,
      listWhere({ ...q, state: [] }).params,
    ),
  ]);
  return {
    rows: rows.map((r) => toItem(r, today)),
    total: counts.reduce((s, c) => s + Number(c.n), 0),
    page: q.page,
    page_size: q.page_size,
    totals: counts.map((c) => ({
      currency: c.currency,
      count: Number(c.n),
      revenue: fromCents(toCents(c.revenue)),
      new_revenue_net: fromCents(toCents(c.net)),
      total: fromCents(toCents(c.total)),
      outstanding: fromCents(toCents(c.outstanding)),
    })),
    states: Object.fromEntries(states.map((s) => [s.state, Number(s.n)])),
  };
}

export async function readInvoice(q: Q, id: number, lock = false): Promise<RawInvoice | null> {
  const [row] = await run<RawInvoice>(
    q,
    `SELECT ${LIST_SELECT} FROM ${LIST_FROM} WHERE i.id = $1${lock ? ' FOR UPDATE OF i' : ''}`,
    [id],
  );
  return row ?? null;
}

export async function invoiceDetail(
  database: Database,
  id: number,
  environment: 'production' | 'test',
): Promise<InvoiceDetail> {
  const r = await readInvoice(database, id);
  if (!r) throw notFound();
  const [lines, rows, payments, credits, issuer, record, history] = await Promise.all([
    query<{ position: number; description: string; product: string; quantity: string; amount: string }>(
      database,
      `SELECT position, description, product, quantity::text, amount::text FROM invoice_lines WHERE invoice_id = $1 ORDER BY position`,
      [id],
    ),
    query<{ id: number; month: string; product: string; revenue_gross: string; state: string }>(
      database,
      `SELECT id, month, product, revenue_gross::text, state FROM billing_rows WHERE invoice_id = $1 ORDER BY month, product`,
      [id],
    ),
    query<{
      id: number;
      amount: string;
      paid_on: string;
      reference: string | null;
      created_by: string | null;
    }>(
      database,
      `SELECT ip.id, ip.amount::text, ip.paid_on::text, ip.reference, u.name AS created_by
       FROM invoice_payments ip LEFT JOIN users u ON u.id = ip.created_by WHERE ip.invoice_id = $1 ORDER BY ip.paid_on, ip.id`,
      [id],
    ),
    query<{ id: number; number: string; issue_date: string; base: string; total: string; reason: string }>(
      database,
      `SELECT id, number, issue_date::text, base::text, total::text, coalesce(correction_reason, '') AS reason
       FROM invoices WHERE corrects_id = $1 AND kind = 'credit_note' ORDER BY id`,
      [id],
    ),
    query<{ id: number; legal_name: string; tax_id: string }>(
      database,
      `SELECT id, legal_name, tax_id FROM invoice_issuers WHERE id = $1`,
      [r.issuer_id],
    ),
    query(
      database,
      `SELECT ${RECORD_COLUMNS} FROM verifactu_records WHERE invoice_id = $1 ORDER BY id DESC LIMIT 1`,
      [id],
    ),
    query<{ at: string; user: string | null; action: string; before: unknown; after: unknown }>(
      database,
      `SELECT a.at::text AS at, u.name AS user, a.action, a.before, a.after
       FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
       WHERE a.entity = 'invoices' AND a.entity_id = $1 ORDER BY a.id DESC LIMIT 200`,
      [String(id)],
    ),
  ]);
  const item = toItem(r, todayMadrid());
  const snapshot = r.customer;
  return {
    ...item,
    lines: lines.map((l) => ({ ...l, months: r.months })),
    rows,
    payments,
    credit_notes: credits,
    left_to_credit:
      r.kind === 'invoice' && ISSUED_STATES.includes(r.state)
        ? fromCents(toCents(r.base) + credits.reduce((sum, c) => sum + toCents(c.base), 0n))
        : '0.00',
    correction_reason: r.correction_reason,
    customer: {
      legal_name: (snapshot?.legal_name as string) ?? r.company_name ?? '',
      tax_id: (snapshot?.tax_id as string) ?? r.tax_id ?? '',
      country: (snapshot?.country as string) ?? r.country ?? '',
      address: (snapshot?.address as string) ?? r.address ?? '',
      city: (snapshot?.city as string) ?? r.city ?? '',
      postal_code: (snapshot?.postal_code as string) ?? r.postal_code ?? '',
      email: (snapshot?.email as string | null) ?? r.billing_email,
    },
    issuer: issuer[0]!,
    language: r.language,
    sent_at: r.sent_at,
    sent_to: r.sent_to,
    verifactu: record[0]
      ? {
          ...recordDto(record[0] as never, environment),
          submission: await lastSubmission(database, (record[0] as { id: number }).id),
        }
      : null,
    pdf_sha256: r.pdf_sha256,
    history: history.map((h) => ({
      at: h.at,
      user: h.user,
      action: h.action,
      detail: { before: h.before, after: h.after },
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Drafts

const PRODUCT_LABEL: Record<string, { en: string; es: string }> = {
  banner: { en: 'Programmatic advertising — display banner', es: 'Publicidad programática — banner display' },
  video: { en: 'Programmatic advertising — video', es: 'Publicidad programática — vídeo' },
  native: { en: 'Programmatic advertising — native', es: 'Publicidad programática — nativo' },
  audio: { en: 'Programmatic advertising — audio', es: 'Publicidad programática — audio' },
  cpc: { en: 'Performance campaigns — cost per click', es: 'Campañas de resultados — coste por clic' },
  cpa: {
    en: 'Performance campaigns — cost per acquisition',
    es: 'Campañas de resultados — coste por adquisición',
  },
  cpm: {
    en: 'Performance campaigns — cost per thousand impressions',
    es: 'Campañas de resultados — coste por mil impresiones',
  },
};

function monthName(month: string, language: 'en' | 'es'): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(language === 'es' ? 'es-ES' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, 1)));
}

export function lineDescription(product: string, months: string[], language: 'en' | 'es'): string {
  const label = PRODUCT_LABEL[product]?.[language] ?? product;
  const period =
    months.length === 1
      ? monthName(months[0]!, language)
      : `${monthName(months[0]!, language)} – ${monthName(months[months.length - 1]!, language)}`;
  return `${label} (${period})`;
}

/** What precreation would draft for `months` (approved advertiser rows on no invoice yet). */
export async function candidates(
  database: Database,
  team: InvoiceTeam,
  months: string[],
): Promise<InvoiceCandidate[]> {
  const rows = await query<Omit<InvoiceCandidate, 'tax_treatment' | 'missing' | 'blocked'> & RawInvoice>(
    database,
    `SELECT b.counterparty_id, max(p.name) AS name, max(co.legal_name) AS company_name, max(co.country) AS country, b.currency,
            array_agg(DISTINCT b.month ORDER BY b.month) AS months, count(*)::int AS rows, sum(b.impressions)::text AS impressions,
            sum(round(b.revenue_gross, 2))::text AS revenue, max(p.payment_terms) AS payment_terms,
            bool_or(p.invoicing_blocked) AS invoicing_blocked, max(co.tax_id) AS tax_id, max(co.address) AS address,
            max(co.city) AS city, max(co.postal_code) AS postal_code
     FROM billing_rows b JOIN demand_partners p ON p.id = b.counterparty_id LEFT JOIN companies co ON co.id = p.company_id
     WHERE b.side = $1 AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner' AND b.state = 'approved'
       AND b.invoice_id IS NULL AND b.month = ANY($2::text[]) AND b.revenue_gross > 0
     GROUP BY b.counterparty_id, b.currency ORDER BY max(p.name), b.currency`,
    [team, months],
  );
  return rows.map((r) => ({
    counterparty_id: r.counterparty_id,
    name: r.name,
    company_name: r.company_name ?? '',
    country: r.country ?? '',
    currency: r.currency,
    months: r.months,
    rows: Number(r.rows),
    impressions: r.impressions,
    revenue: r.revenue,
    payment_terms: r.payment_terms,
    tax_treatment: taxTreatment(r.country ?? 'ES'),
    blocked: r.invoicing_blocked,
    missing: missingOf(r),
  }));
}

/**
 * Drafts from the approved advertiser rows of `months` that are on no invoice yet: one per
 * counterparty and currency (the months together). Rows claimed by a draft are marked with its id
 * in the same statement that checks they are free, so two precreations at once draft each row once.
 */
export async function precreate(
  database: Database,
  who: Who,
  body: InvoicePrecreate,
): Promise<{ created: number[]; rows: number }> {
  const months = [...new Set(body.months)].sort();
  return transaction(database, async (q) => {
    const [issuer] = await q<{ id: number }>(`SELECT id FROM invoice_issuers WHERE team = $1`, [body.team]);
    if (!issuer) throw new AppError(409, 'invoice.no_issuer');
    const params: unknown[] = [body.team, months];
    let extra = '';
    if (body.counterparty_ids?.length) {
      params.push(body.counterparty_ids);
      extra = `AND b.counterparty_id = ANY($3::int4[])`;
    }
    const groups = await q<{
      counterparty_id: number;
      currency: string;
      ids: number[];
      months: string[];
      revenue: string;
      impressions: string;
      payment_terms: string;
      country: string | null;
    }>(
      `SELECT b.counterparty_id, b.currency, array_agg(b.id ORDER BY b.id) AS ids, array_agg(DISTINCT b.month) AS months,
              sum(round(b.revenue_gross, 2))::text AS revenue, sum(b.impressions)::text AS impressions,
              max(p.payment_terms) AS payment_terms, max(co.country) AS country
       FROM billing_rows b JOIN demand_partners p ON p.id = b.counterparty_id LEFT JOIN companies co ON co.id = p.company_id
       WHERE b.side = $1 AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner' AND b.state = 'approved'
         AND b.invoice_id IS NULL AND b.month = ANY($2::text[]) AND b.revenue_gross > 0 ${extra}
       GROUP BY b.counterparty_id, b.currency ORDER BY b.counterparty_id, b.currency`,
      params,
    );
    const created: number[] = [];
    let claimed = 0;
    for (const g of groups) {
      const gm = [...g.months].sort();
      const treatment = taxTreatment(g.country ?? 'ES');
      const totals = totalsOf(g.revenue, treatment);
      const [inv] = await q<{ id: number }>(
        `INSERT INTO invoices (team, kind, state, issuer_id, counterparty_id, currency, months, period_start, period_end, payment_terms,
            impressions, revenue, tax_treatment, base, vat_rate, vat_amount, total, language, created_by)
         VALUES ($1, 'invoice', 'draft', $2, $3, $4, $5::jsonb, $6::date, $7::date, $8, $9::int8, $10::numeric, $11, $12::numeric, $13::numeric, $14::numeric, $15::numeric, $16, $17::int4)
         RETURNING id`,
        [
          body.team,
          issuer.id,
          g.counterparty_id,
          g.currency,
          JSON.stringify(gm),
          `${gm[0]}-01`,
          lastDayOf(gm[gm.length - 1]!),
          g.payment_terms,
          g.impressions,
          g.revenue,
          treatment,
          totals.base,
          totals.vat_rate,
          totals.vat_amount,
          totals.total,
          documentLanguage(g.country ?? 'ES'),
          who.userId,
        ],
      );
      const taken = await q<{ id: number }>(
        `UPDATE billing_rows SET invoice_id = $1, version = version + 1, updated_at = now()
         WHERE id = ANY($2::int4[]) AND invoice_id IS NULL AND state = 'approved' RETURNING id`,
        [inv!.id, g.ids],
      );
      if (taken.length !== g.ids.length) throw new AppError(409, 'invoice.rows_changed');
      claimed += taken.length;
      await writeLines(q, inv!.id, documentLanguage(g.country ?? 'ES'));
      await audit(q, who, 'invoices.precreate', inv!.id, null, {
        counterparty_id: g.counterparty_id,
        currency: g.currency,
        months: gm,
        rows: g.ids,
        revenue: g.revenue,
      });
      created.push(inv!.id);
    }
    return { created, rows: claimed };
  });
}

/** A draft's lines: one per product of its rows, in cents. */
async function writeLines(q: QueryFn, invoiceId: number, language: 'en' | 'es'): Promise<void> {
  const [inv] = await q<{ months: string[] }>(`SELECT months FROM invoices WHERE id = $1`, [invoiceId]);
  const products = await q<{ product: string; amount: string; quantity: string }>(
    `SELECT product, sum(round(revenue_gross, 2))::text AS amount, sum(impressions)::text AS quantity
     FROM billing_rows WHERE invoice_id = $1 GROUP BY product ORDER BY sum(revenue_gross) DESC, product`,
    [invoiceId],
  );
  await q(`DELETE FROM invoice_lines WHERE invoice_id = $1`, [invoiceId]);
  // One statement for all lines; the text and figures travel as JSON strings (no array quoting).
  const lines = products.map((p, i) => ({
    position: i + 1,
    product: p.product,
    description: lineDescription(p.product, inv!.months, language),
    quantity: p.quantity,
    amount: p.amount,
  }));
  if (lines.length === 0) return;
  await q(
    `INSERT INTO invoice_lines (invoice_id, position, product, description, quantity, amount)
     SELECT $1::int4, l.position, l.product, l.description, l.quantity, l.amount
     FROM jsonb_to_recordset($2::jsonb) AS l(position int4, product text, description text, quantity int8, amount numeric)
     ORDER BY l.position`,
    [invoiceId, JSON.stringify(lines)],
  );
}

/** A draft's deductions and comments (spec 5: 'has to be upper than 0', 'cannot exceed revenue'). */
export async function patchDraft(
  database: Database,
  who: Who,
  id: number,
  body: InvoicePatch,
): Promise<RawInvoice> {
  return transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) throw notFound();
    if (r.state !== 'draft') throw badRequest('invoice.not_draft');
    if (r.version !== body.version)
      throw new AppError(409, 'invoice.changed', { data: toItem(r, todayMadrid()) });
    const next = {
      fraud_percentage: body.fraud_percentage !== undefined ? body.fraud_percentage : r.fraud_percentage,
      fraud_revenue: body.fraud_revenue !== undefined ? body.fraud_revenue : r.fraud_revenue,
      spoofing_percentage:
        body.spoofing_percentage !== undefined ? body.spoofing_percentage : r.spoofing_percentage,
      spoofing_revenue: body.spoofing_revenue !== undefined ? body.spoofing_revenue : r.spoofing_revenue,
      apply_deductions: body.apply_deductions ?? r.apply_deductions,
    };
    // A percentage typed now replaces the amount it was derived from before (and the other way round).
    if (body.fraud_percentage !== undefined && body.fraud_revenue === undefined) next.fraud_revenue = null;
    if (body.spoofing_percentage !== undefined && body.spoofing_revenue === undefined)
      next.spoofing_revenue = null;
    const result = computeDeductions(r.revenue, next);
    if (!result.ok) throw badRequest('invoice.deduction.invalid', result.errors);
    const d = result.value;
    const net = next.apply_deductions ? d.new_revenue_net : r.revenue;
    const totals = totalsOf(net, r.tax_treatment);
    const comments = body.comments !== undefined ? body.comments || null : r.comments;
    await q(
      `UPDATE invoices SET fraud_percentage = $2::numeric, fraud_revenue = $3::numeric, spoofing_percentage = $4::numeric, spoofing_revenue = $5::numeric,
         apply_deductions = $6, comments = $7, base = $8::numeric, vat_amount = $9::numeric, total = $10::numeric,
         version = version + 1, updated_at = now() WHERE id = $1`,
      [
        id,
        d.fraud_percentage,
        d.fraud_revenue,
        d.spoofing_percentage,
        d.spoofing_revenue,
        next.apply_deductions,
        comments,
        totals.base,
        totals.vat_amount,
        totals.total,
      ],
    );
    await audit(
      q,
      who,
      'invoices.edit',
      id,
      {
        fraud_revenue: r.fraud_revenue,
        spoofing_revenue: r.spoofing_revenue,
        apply_deductions: r.apply_deductions,
        comments: r.comments,
        base: r.base,
      },
      {
        fraud_revenue: d.fraud_revenue,
        spoofing_revenue: d.spoofing_revenue,
        apply_deductions: next.apply_deductions,
        comments,
        base: totals.base,
      },
    );
    return (await readInvoice(q, id))!;
  });
}

/** Discards a draft: its rows are free to go on another. */
export async function discardDraft(database: Database, who: Who, id: number): Promise<void> {
  await transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) throw notFound();
    if (r.state !== 'draft') throw badRequest('invoice.not_draft');
    const rows = await q<{ id: number }>(
      `UPDATE billing_rows SET invoice_id = NULL, version = version + 1 WHERE invoice_id = $1 RETURNING id`,
      [id],
    );
    await q(`DELETE FROM invoice_lines WHERE invoice_id = $1`, [id]);
    await q(`DELETE FROM invoices WHERE id = $1`, [id]);
    await audit(
      q,
      who,
      'invoices.discard',
      id,
      { rows: rows.map((x) => x.id), revenue: r.revenue, counterparty_id: r.counterparty_id },
      null,
    );
  });
}

export async function setBlocked(
  database: Database,
  who: Who,
  counterpartyId: number,
  blocked: boolean,
  reason: string | undefined,
): Promise<void> {
  await transaction(database, async (q) => {
    const [before] = await q<{ invoicing_blocked: boolean; invoicing_blocked_reason: string | null }>(
      `SELECT invoicing_blocked, invoicing_blocked_reason FROM demand_partners WHERE id = $1 FOR UPDATE`,
      [counterpartyId],
    );
    if (!before) throw notFound();
    await q(
      `UPDATE demand_partners SET invoicing_blocked = $2, invoicing_blocked_reason = $3, updated_at = now() WHERE id = $1`,
      [counterpartyId, blocked, blocked ? reason || null : null],
    );
    await run(
      q,
      `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
       VALUES ($1::int4, $2::int4, $3::int4, $4::text, 'demand_partners.invoicing_blocked', 'demand_partners', $5::text, $6::jsonb, $7::jsonb)`,
      [
        who.userId,
        who.simulatedById,
        who.simulatedRoleId,
        who.ip,
        String(counterpartyId),
        JSON.stringify(before),
        JSON.stringify({ invoicing_blocked: blocked, invoicing_blocked_reason: reason ?? null }),
      ],
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Issuing

interface IssuerRow {
  id: number;
  team: string;
  legal_name: string;
  tax_id: string;
  country: string;
  address: string;
  city: string;
  postal_code: string;
  email: string;
  iban: string;
  bic: string | null;
  registry: string | null;
  invoice_prefix: string;
  credit_prefix: string;
}

async function lockIssuer(q: QueryFn, id: number): Promise<IssuerRow> {
  const [issuer] = await q<IssuerRow>(`SELECT * FROM invoice_issuers WHERE id = $1 FOR UPDATE`, [id]);
  if (!issuer) throw new AppError(409, 'invoice.no_issuer');
  return issuer;
}

/**
 * The next number of a series, in the caller's transaction (the row stays locked until it
 * commits; a rollback returns the number). The date may not be before the series' last one.
 */
async function nextNumber(
  q: QueryFn,
  issuer: IssuerRow,
  kind: 'invoice' | 'credit_note',
  issueDate: string,
): Promise<{ series: string; sequence: number; number: string }> {
  const year = Number(issueDate.slice(0, 4));
  const [seq] = await q<{
    last_number: number;
    last_issue_date: string | null;
    previous_date: string | null;
  }>(
    `INSERT INTO invoice_sequences AS s (issuer_id, kind, year, last_number, last_issue_date) VALUES ($1, $2, $3, 1, $4::date)
     ON CONFLICT (issuer_id, kind, year) DO UPDATE SET last_number = s.last_number + 1, last_issue_date = greatest(s.last_issue_date, excluded.last_issue_date)
     RETURNING last_number, last_issue_date::text,
       (SELECT last_issue_date::text FROM invoice_sequences WHERE issuer_id = $1 AND kind = $2 AND year = $3) AS previous_date`,
    [issuer.id, kind, year, issueDate],
  );
  if (seq!.previous_date && seq!.previous_date > issueDate)
    throw new AppError(409, 'invoice.issue_date_before_last', { params: { date: seq!.previous_date } });
  const series = seriesOf(kind === 'invoice' ? issuer.invoice_prefix : issuer.credit_prefix, issueDate);
  return { series, sequence: seq!.last_number, number: formatNumber(series, seq!.last_number) };
}

/** The document of an issued invoice or credit note, as its renderers read it. */
export async function documentOf(
  q: Q,
  id: number,
  environment: 'production' | 'test',
): Promise<InvoiceDocument> {
  const [inv] = await run<RawInvoice & { series: string; sequence: number }>(
    q,
    `SELECT i.*, i.impressions::text, i.revenue::text, i.fraud_percentage::text, i.fraud_revenue::text, i.spoofing_percentage::text,
            i.spoofing_revenue::text, i.base::text, i.vat_rate::text, i.vat_amount::text, i.total::text, i.issue_date::text,
            i.due_date::text, i.period_start::text, i.period_end::text
     FROM invoices i WHERE i.id = $1`,
    [id],
  );
  if (!inv || !inv.number || !inv.customer) throw notFound('invoice.not_issued');
  const [issuer] = await run<IssuerRow>(q, `SELECT * FROM invoice_issuers WHERE id = $1`, [inv.issuer_id]);
  const lines = await run<{ description: string; quantity: string; amount: string }>(
    q,
    `SELECT description, quantity::text, amount::text FROM invoice_lines WHERE invoice_id = $1 ORDER BY position`,
    [id],
  );
  const [corrected] = inv.corrects_id
    ? await run<{ number: string; issue_date: string }>(
        q,
        `SELECT number, issue_date::text FROM invoices WHERE id = $1`,
        [inv.corrects_id],
      )
    : [];
  const [record] = await run(
    q,
    `SELECT ${RECORD_COLUMNS} FROM verifactu_records WHERE invoice_id = $1 AND kind = 'alta' ORDER BY id DESC LIMIT 1`,
    [id],
  );
  const allowances: InvoiceDocument['allowances'] = [];
  if (inv.kind === 'invoice' && inv.apply_deductions) {
    if (inv.fraud_revenue)
      allowances.push({
        reason: 'fraud',
        amount: inv.fraud_revenue,
        ...(inv.fraud_percentage ? { percentage: inv.fraud_percentage } : {}),
      });
    if (inv.spoofing_revenue)
      allowances.push({
        reason: 'spoofing',
        amount: inv.spoofing_revenue,
        ...(inv.spoofing_percentage ? { percentage: inv.spoofing_percentage } : {}),
      });
  }
  const linesTotal = fromCents(lines.reduce((s, l) => s + toCents(l.amount), 0n));
  const c = inv.customer;
  return {
    kind: inv.kind,
    number: inv.number,
    series: inv.series,
    sequence: inv.sequence,
    issue_date: inv.issue_date!,
    due_date: inv.due_date!,
    period_start: inv.period_start,
    period_end: inv.period_end,
    currency: inv.currency,
    language: inv.language,
    issuer: {
      legal_name: issuer!.legal_name,
      tax_id: issuer!.tax_id,
      country: issuer!.country,
      address: issuer!.address,
      city: issuer!.city,
      postal_code: issuer!.postal_code,
      email: issuer!.email,
      iban: issuer!.iban,
      ...(issuer!.bic ? { bic: issuer!.bic } : {}),
      ...(issuer!.registry ? { registry: issuer!.registry } : {}),
    },
    customer: {
      legal_name: String(c.legal_name ?? ''),
      tax_id: String(c.tax_id ?? ''),
      country: String(c.country ?? ''),
      address: String(c.address ?? ''),
      city: String(c.city ?? ''),
      postal_code: String(c.postal_code ?? ''),
      ...(c.email ? { email: String(c.email) } : {}),
    },
    lines,
    allowances,
    lines_total: linesTotal,
    base: inv.base,
    tax_treatment: inv.tax_treatment,
    vat_rate: inv.vat_rate,
    vat_amount: inv.vat_amount,
    total: inv.total,
    payment_terms: inv.payment_terms,
    ...(corrected
      ? {
          corrects: {
            number: corrected.number,
            issue_date: corrected.issue_date,
            reason: inv.correction_reason ?? '',
          },
        }
      : {}),
    ...(inv.comments ? { notes: inv.comments } : {}),
    ...(record
      ? {
          verifactu: {
            hash: (record as { hash: string }).hash,
            qr_url: recordDto(record as never, environment).qr_url,
          },
        }
      : {}),
  };
}

/** Issues one draft in its own transaction: number, customer snapshot, rows invoiced, VERI*FACTU record. */
export async function issueOne(
  database: Database,
  who: Who,
  id: number,
  issueDate: string,
  environment: 'production' | 'test',
): Promise<IssueResult> {
  return transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) return { id, status: 'skipped', reason: 'error.not_found' };
    if (r.state !== 'draft')
      return {
        id,
        status: 'skipped',
        reason: 'invoice.skip.already',
        ...(r.number ? { number: r.number } : {}),
      };
    if (r.invoicing_blocked) return { id, status: 'skipped', reason: 'invoice.skip.blocked' };
    if (missingOf(r).length > 0) return { id, status: 'skipped', reason: 'invoice.skip.missing_info' };
    if (toCents(r.total) <= 0n) return { id, status: 'skipped', reason: 'invoice.skip.zero' };
    const issuer = await lockIssuer(q, r.issuer_id);
    const { series, sequence, number } = await nextNumber(q, issuer, 'invoice', issueDate);
    const dueDate = addDays(issueDate, PAYMENT_TERM_DAYS[r.payment_terms] ?? 0);
    const treatment = taxTreatment(r.country!);
    const deductions = computeDeductions(r.revenue, r);
    const net = deductions.ok ? deductions.value.new_revenue_net : r.revenue;
    const totals = totalsOf(net, treatment);
    const customer = {
      legal_name: r.company_name,
      tax_id: r.tax_id,
      country: r.country,
      address: r.address,
      city: r.city,
      postal_code: r.postal_code,
      email: r.billing_email,
    };
    await q(
      `UPDATE invoices SET state = 'issued', series = $2, sequence = $3, number = $4, issue_date = $5::date, due_date = $6::date,
         customer = $7::jsonb, tax_treatment = $8, base = $9::numeric, vat_rate = $10::numeric, vat_amount = $11::numeric, total = $12::numeric,
         language = $13, issued_by = $14::int4, issued_at = now(), version = version + 1, updated_at = now()
       WHERE id = $1`,
      [
        id,
        series,
        sequence,
        number,
        issueDate,
        dueDate,
        JSON.stringify(customer),
        treatment,
        totals.base,
        totals.vat_rate,
        totals.vat_amount,
        totals.total,
        documentLanguage(r.country!),
        who.userId,
      ],
    );
    await q(
      `UPDATE billing_rows SET state = 'invoiced', document_id = $2, version = version + 1, updated_at = now() WHERE invoice_id = $1`,
      [id, number],
    );
    const doc = await documentOf(q, id, environment);
    await appendAlta(q, issuer, id, doc);
    await audit(
      q,
      who,
      'invoices.issue',
      id,
      { state: 'draft' },
      { state: 'issued', number, issue_date: issueDate, total: totals.total },
    );
    return { id, status: 'issued', number };
  });
}

/** Issues drafts one by one (each its own transaction, numbers in the order given). */
export async function issueMany(
  database: Database,
  who: Who,
  ids: number[],
  issueDate: string | undefined,
  environment: 'production' | 'test',
): Promise<IssueResult[]> {
  const today = todayMadrid();
  const date = issueDate ?? today;
  if (date > today)
    throw badRequest('invoice.issue_date_future', { issue_date: 'invoice.issue_date_future' });
  const out: IssueResult[] = [];
  for (const id of [...new Set(ids)]) out.push(await issueOne(database, who, id, date, environment));
  return out;
}

/**
 * A credit note (factura rectificativa por diferencias) correcting an issued invoice by `amount`
 * (net; the whole of what is left when absent): its own series, negative amounts, the original's
 * number, date and the reason; issued at once with its VERI*FACTU record (type R1).
 */
export async function createCreditNote(
  database: Database,
  who: Who,
  id: number,
  body: CreditNoteRequest,
  environment: 'production' | 'test',
): Promise<{ id: number; number: string }> {
  return transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) throw notFound();
    // The invoice's row is locked: a retry with the same key waits for the first, then finds it.
    if (body.idempotency_key) {
      const [done] = await q<{ id: number; number: string }>(
        `SELECT id, number FROM invoices WHERE corrects_id = $1 AND request_key = $2`,
        [id, body.idempotency_key],
      );
      if (done) return done;
    }
    if (r.kind !== 'invoice' || !ISSUED_STATES.includes(r.state))
      throw badRequest('invoice.credit.not_issued');
    const [prior] = await q<{ base: string }>(
      `SELECT coalesce(sum(-base), 0)::text AS base FROM invoices WHERE corrects_id = $1 AND kind = 'credit_note'`,
      [id],
    );
    const left = toCents(r.base) - toCents(prior!.base);
    if (left <= 0n) throw badRequest('invoice.credit.nothing_left');
    const amount = body.amount ? toCents(body.amount) : left;
    if (amount <= 0n)
      throw badRequest('invoice.credit.amount_invalid', { amount: 'invoice.credit.amount_invalid' });
    if (amount > left)
      throw badRequest('invoice.credit.amount_exceeds', { amount: 'invoice.credit.amount_exceeds' });
    const issuer = await lockIssuer(q, r.issuer_id);
    const today = todayMadrid();
    const issueDate = today < r.issue_date! ? r.issue_date! : today;
    const { series, sequence, number } = await nextNumber(q, issuer, 'credit_note', issueDate);
    const totals = totalsOf(fromCents(-amount), r.tax_treatment);
    const [cn] = await q<{ id: number }>(
      `INSERT INTO invoices (team, kind, state, issuer_id, counterparty_id, currency, months, period_start, period_end, payment_terms, impressions,
          revenue, apply_deductions, tax_treatment, base, vat_rate, vat_amount, total, series, sequence, number, issue_date, due_date, language,
          customer, corrects_id, correction_reason, created_by, issued_by, issued_at, request_key)
       VALUES ($1, 'credit_note', 'issued', $2, $3, $4, $5::jsonb, $6::date, $7::date, $8, 0, $9::numeric, false, $10, $11::numeric, $12::numeric,
          $13::numeric, $14::numeric, $15, $16, $17, $18::date, $18::date, $19, $20::jsonb, $21, $22, $23::int4, $23::int4, now(), $24)
       RETURNING id`,
      [
        r.team,
        r.issuer_id,
        r.counterparty_id,
        r.currency,
        JSON.stringify(r.months),
        r.period_start,
        r.period_end,
        r.payment_terms,
        fromCents(-amount),
        r.tax_treatment,
        totals.base,
        totals.vat_rate,
        totals.vat_amount,
        totals.total,
        series,
        sequence,
        number,
        issueDate,
        r.language,
        JSON.stringify(r.customer),
        id,
        body.reason,
        who.userId,
        body.idempotency_key ?? null,
      ],
    );
    const label =
      r.language === 'es'
        ? `Rectificación de la factura ${r.number}: ${body.reason}`
        : `Correction of invoice ${r.number}: ${body.reason}`;
    await q(
      `INSERT INTO invoice_lines (invoice_id, position, product, description, quantity, amount) VALUES ($1, 1, 'correction', $2, 0, $3::numeric)`,
      [cn!.id, label, fromCents(-amount)],
    );
    const creditedTotal = toCents(r.credited) - toCents(totals.total);
    const fully = amount === left;
    const nextState: InvoiceState = fully ? 'credited' : r.state;
    await q(
      `UPDATE invoices SET credited = $2::numeric, state = $3, version = version + 1, updated_at = now() WHERE id = $1`,
      [id, fromCents(creditedTotal), nextState],
    );
    const doc = await documentOf(q, cn!.id, environment);
    await appendAlta(q, issuer, cn!.id, doc);
    await audit(q, who, 'invoices.credit_note', cn!.id, null, {
      number,
      corrects: r.number,
      amount: fromCents(-amount),
      reason: body.reason,
    });
    await audit(
      q,
      who,
      'invoices.credited',
      id,
      { state: r.state, credited: r.credited },
      { state: nextState, credited: fromCents(creditedTotal), credit_note: number },
    );
    return { id: cn!.id, number };
  });
}

// ---------------------------------------------------------------------------------------------
// Payments

function paidState(r: RawInvoice, paid: bigint): InvoiceState {
  if (r.state === 'credited') return 'credited';
  const owed = toCents(r.total) - toCents(r.credited);
  if (paid >= owed) return 'paid';
  if (paid > 0n) return 'partly_paid';
  return r.sent_at ? 'sent' : 'issued';
}

export async function recordPayment(
  database: Database,
  who: Who,
  id: number,
  body: { amount: string; paid_on: string; reference?: string | undefined },
  action = 'invoices.payment',
): Promise<RawInvoice> {
  return transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) throw notFound();
    if (r.kind !== 'invoice' || !['issued', 'sent', 'partly_paid'].includes(r.state))
      throw badRequest('invoice.payment.not_payable');
    const amount = toCents(body.amount);
    const outstanding = toCents(r.total) - toCents(r.credited) - toCents(r.paid);
    if (amount <= 0n)
      throw badRequest('invoice.payment.amount_invalid', { amount: 'invoice.payment.amount_invalid' });
    if (amount > outstanding)
      throw badRequest('invoice.payment.amount_exceeds', { amount: 'invoice.payment.amount_exceeds' });
    if (body.paid_on > todayMadrid() || body.paid_on < r.issue_date!)
      throw badRequest('invoice.payment.date_invalid', { paid_on: 'invoice.payment.date_invalid' });
    const paid = toCents(r.paid) + amount;
    const state = paidState(r, paid);
    await q(
      `INSERT INTO invoice_payments (invoice_id, amount, paid_on, reference, created_by) VALUES ($1, $2::numeric, $3::date, $4, $5::int4)`,
      [id, fromCents(amount), body.paid_on, body.reference || null, who.userId],
    );
    await q(
      `UPDATE invoices SET paid = $2::numeric, state = $3, version = version + 1, updated_at = now() WHERE id = $1`,
      [id, fromCents(paid), state],
    );
    await syncRowsPaid(q, id);
    await audit(
      q,
      who,
      action,
      id,
      { state: r.state, paid: r.paid },
      { state, paid: fromCents(paid), amount: fromCents(amount), paid_on: body.paid_on },
    );
    return (await readInvoice(q, id))!;
  });
}

/** Mark as paid: a payment of what is outstanding, today. Idempotent: a paid invoice stays as it is. */
export async function markPaid(database: Database, who: Who, id: number): Promise<RawInvoice> {
  const r = await readInvoice(database, id);
  if (!r) throw notFound();
  if (r.state === 'paid') return r;
  const outstanding = toCents(r.total) - toCents(r.credited) - toCents(r.paid);
  const today = todayMadrid();
  return recordPayment(
    database,
    who,
    id,
    {
      amount: fromCents(outstanding),
      paid_on: today < r.issue_date! ? r.issue_date! : today,
      reference: 'Marked as paid',
    },
    'invoices.mark_paid',
  );
}

/**
 * Back to pending: reverses the payments (a negative payment keeps the history) and returns the
 * invoice to issued or sent. A credited invoice cannot go back.
 */
export async function backToPending(database: Database, who: Who, id: number): Promise<RawInvoice> {
  return transaction(database, async (q) => {
    const r = await readInvoice(q, id, true);
    if (!r) throw notFound();
    if (r.kind !== 'invoice' || !['paid', 'partly_paid'].includes(r.state))
      throw badRequest('invoice.payment.not_paid');
    const paid = toCents(r.paid);
    const state: InvoiceState = r.sent_at ? 'sent' : 'issued';
    await q(
      `INSERT INTO invoice_payments (invoice_id, amount, paid_on, reference, created_by) VALUES ($1, $2::numeric, $3::date, 'Back to pending', $4::int4)`,
      [id, fromCents(-paid), todayMadrid(), who.userId],
    );
    await q(
      `UPDATE invoices SET paid = 0, state = $2, version = version + 1, updated_at = now() WHERE id = $1`,
      [id, state],
    );
    await syncRowsPaid(q, id);
    await audit(
      q,
      who,
      'invoices.back_to_pending',
      id,
      { state: r.state, paid: r.paid },
      { state, paid: '0.00' },
    );
    return (await readInvoice(q, id))!;
  });
}

/**
 * The billing rows follow their invoice's payments: what is paid is spread over the rows in
 * order (the payment badge of the billing screens reads it), and a fully paid invoice dates them.
 */
async function syncRowsPaid(q: QueryFn, id: number): Promise<void> {
  const [inv] = await q<{ paid: string; total: string; state: string; last: string | null }>(
    `SELECT i.paid::text, i.total::text, i.state, (SELECT max(paid_on)::text FROM invoice_payments WHERE invoice_id = i.id AND amount > 0) AS last
     FROM invoices i WHERE i.id = $1`,
    [id],
  );
  const rows = await q<{ id: number; gross: string }>(
    `SELECT id, revenue_gross::text AS gross FROM billing_rows WHERE invoice_id = $1 ORDER BY id`,
    [id],
  );
  const totalGross = rows.reduce((s, x) => s + toCents(x.gross), 0n);
  // The invoice's payments cover its total (with VAT); the rows bill the net: pay them in proportion.
  const total = toCents(inv!.total);
  let left = total > 0n ? (toCents(inv!.paid) * totalGross) / total : 0n;
  const paid = rows.map((row) => {
    const g = toCents(row.gross);
    const pay = left > g ? g : left < 0n ? 0n : left;
    left -= pay;
    return { id: row.id, paid: fromCents(pay) };
  });
  if (paid.length === 0) return;
  await q(
    `UPDATE billing_rows b SET paid_revenue = v.paid, received_payment_date = $2::date, version = b.version + 1
     FROM jsonb_to_recordset($1::jsonb) AS v(id int4, paid numeric) WHERE b.id = v.id`,
    [JSON.stringify(paid), inv!.state === 'paid' ? inv!.last : null],
  );
}

export async function markSent(q: Q, who: Who, id: number, to: string[]): Promise<void> {
  const r = await readInvoice(q, id);
  if (!r) throw notFound();
  const state: InvoiceState = r.state === 'issued' ? 'sent' : r.state;
  await run(
    q,
    `UPDATE invoices SET sent_at = now(), sent_to = $2::jsonb, state = $3, version = version + 1, updated_at = now() WHERE id = $1`,
    [id, JSON.stringify(to), state],
  );
  await audit(q, who, 'invoices.send', id, { state: r.state }, { state, to });
}

export { latestRecord };
