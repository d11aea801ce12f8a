/**
 * Payments against billing rows: recorded one by one, or read from a bank statement CSV and
 * matched to rows by the document id found in each line's reference.
 *
 * A payment adds to the row's paid_revenue; the row gets its received_payment_date when the
 * payments reach its gross, or with a payment marked `settles` (short by bank fees, a small
 * write-off). Only rows that bill (confirmed, approved, invoiced) take payments, and never more
 * than is pending.
 *
 * The bank CSV: a header with a date column (date, fecha, booking date, value date…), an amount
 * column (amount, importe, credit…) and a reference column (reference, concepto, description,
 * remittance…); comma or semicolon, detected (with semicolons a decimal comma is read). Each line
 * is matched, unmatched (no row has the document id it names), invalid (no date or amount), or a
 * duplicate (that payment is already recorded). The preview applies nothing; applying records
 * every matched line in one transaction.
 */
import type { Acl } from '@backoffice/core/acl';
import { fromMicros, toMicros } from '@backoffice/core/billing';
import type { BankImportAnswer, BankImportLine, BillingSide } from '@backoffice/core/billing-api';
import { isIsoDate } from '@backoffice/core/dates';
import Papa from 'papaparse';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditRows, type Who } from './actions.ts';
import { readRow, toDto, todayUtc, type RawRow } from './rows.ts';

/** Row states that take payments. */
export const PAYABLE_STATES = ['confirmed', 'approved', 'invoiced'];

export interface PaymentInput {
  amount: string;
  paid_on: string;
  document_id?: string | null;
  reference: string;
  settles: boolean;
}

/** Records one payment on a locked row; answers the row's new paid figure. */
export async function applyPayment(q: QueryFn, row: RawRow, p: PaymentInput, source: 'manual' | 'bank_csv', who: Who): Promise<void> {
  const gross = toMicros(String(row.revenue_gross));
  const paid = toMicros(String(row.paid_revenue));
  const amount = toMicros(p.amount);
  if (!PAYABLE_STATES.includes(String(row.state))) throw badRequest('billing.payment_not_billed');
  if (row.received_payment_date) throw badRequest('billing.payment_settled');
  if (paid + amount > gross) throw badRequest('billing.payment_exceeds', { amount: 'billing.payment_exceeds' });
  const full = p.settles || paid + amount >= gross;
  await q(
    `INSERT INTO billing_payments (row_id, amount, paid_on, document_id, reference, source, settles, created_by)
     VALUES ($1, $2::numeric, $3::date, $4, $5, $6, $7, $8)`,
    [Number(row.id), fromMicros(amount), p.paid_on, p.document_id ?? row.document_id ?? null, p.reference, source, p.settles, who.userId],
  );
  await q(
    `UPDATE billing_rows SET paid_revenue = paid_revenue + $2::numeric, received_payment_date = CASE WHEN $3 THEN $4::date ELSE received_payment_date END,
       version = version + 1, updated_by = $5, updated_at = now() WHERE id = $1`,
    [Number(row.id), fromMicros(amount), full, p.paid_on, who.userId],
  );
  await auditRows(q, who, 'billing_rows.payment', [
    {
      id: Number(row.id),
      before: { paid_revenue: row.paid_revenue, received_payment_date: row.received_payment_date ?? null },
      after: { paid_revenue: fromMicros(paid + amount), received_payment_date: full ? p.paid_on : null, payment: { amount: fromMicros(amount), paid_on: p.paid_on, source } },
    },
  ]);
}

export async function recordPayment(database: Database, side: BillingSide, id: number, version: number, p: PaymentInput, who: Who, acl: Acl | null): Promise<void> {
  await transaction(database, async (q) => {
    const row = await readRow(q, side, id, true);
    if (!row) throw new AppError(404, 'error.not_found');
    if (Number(row.version) !== version) throw new AppError(409, 'billing.row_changed', { data: toDto(row, acl, todayUtc()) });
    await applyPayment(q, row, p, 'manual', who);
  });
}

// ---------------------------------------------------------------------------------------------
// Bank statement CSV

const DATE_HEADERS = ['date', 'fecha', 'booking date', 'value date', 'fecha valor', 'fecha operación', 'fecha operacion', 'buchungstag', 'valuta'];
const AMOUNT_HEADERS = ['amount', 'importe', 'credit', 'abono', 'haber', 'betrag', 'montant'];
const REF_HEADERS = ['reference', 'referencia', 'concepto', 'description', 'descripción', 'descripcion', 'remittance', 'remittance information', 'verwendungszweck', 'libellé', 'libelle', 'details'];

function columnOf(header: string[], names: string[]): number {
  const norm = header.map((h) => h.trim().toLowerCase());
  return norm.findIndex((h) => names.includes(h));
}

/** A bank date: YYYY-MM-DD, DD/MM/YYYY or DD.MM.YYYY (European statements), or null. */
export function bankDate(text: string): string | null {
  const t = text.trim();
  if (isIsoDate(t)) return t;
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/**
 * A bank amount, positive, or null: the last `.` or `,` followed by one or two digits is the
 * decimal separator (1234.56, 1,234.56, 1.234,56, 1234,5); other separators group thousands
 * (1,234 and 1.234 are 1234).
 */
export function bankAmount(text: string): string | null {
  const t = text.trim().replace(/\s|€|\$|EUR|USD/g, '').replace(/^\+/, '');
  if (!/^[\d.,]+$/.test(t)) return null;
  const last = Math.max(t.lastIndexOf('.'), t.lastIndexOf(','));
  const decimals = last >= 0 && t.length - last - 1 <= 2 ? t.slice(last + 1) : '';
  const whole = (decimals || last === t.length - 1 ? t.slice(0, last) : t).replace(/[.,]/g, '');
  if (!/^\d{1,12}$/.test(whole) || !/^\d{0,2}$/.test(decimals)) return null;
  const v = fromMicros(toMicros(decimals ? `${whole}.${decimals}` : whole));
  return toMicros(v) > 0n ? v : null;
}

/** The words of a reference that could be a document id. */
export function referenceTokens(reference: string): string[] {
  return [...new Set(reference.toUpperCase().match(/[A-Z0-9][A-Z0-9/_-]{3,63}/g) ?? [])];
}

/** A bank statement CSV's lines: comma or semicolon (the one the header has more of), common headers. */
export function readBankCsv(csv: string): { delimiter: ',' | ';'; lines: { line: number; date: string | null; amount: string | null; reference: string }[] } {
  const text = csv.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter: ',' | ';' = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' });
  const [header, ...data] = parsed.data;
  if (!header) throw badRequest('billing.bank.no_header', { csv: 'billing.bank.no_header' });
  const dateCol = columnOf(header, DATE_HEADERS);
  const amountCol = columnOf(header, AMOUNT_HEADERS);
  const refCol = columnOf(header, REF_HEADERS);
  if (dateCol < 0 || amountCol < 0 || refCol < 0) throw badRequest('billing.bank.columns', { csv: 'billing.bank.columns' });
  return {
    delimiter,
    lines: data.map((cells, i) => ({
      line: i + 2,
      date: bankDate(cells[dateCol] ?? ''),
      amount: bankAmount(cells[amountCol] ?? ''),
      reference: (cells[refCol] ?? '').trim(),
    })),
  };
}

export async function importBankCsv(database: Database, side: BillingSide, csv: string, dryRun: boolean, who: Who): Promise<BankImportAnswer> {
  const { delimiter, lines: read } = readBankCsv(csv);
  return transaction(database, async (q) => {
    const lines: BankImportLine[] = read.map(({ line: n, date, amount, reference }) => {
      const line: BankImportLine = { line: n, date, amount, reference, document_id: null, row_id: null, counterparty: null, status: 'unmatched' };
      if (!date || !amount) {
        line.status = 'invalid';
        line.reason = !date ? 'billing.bank.bad_date' : 'billing.bank.bad_amount';
      }
      return line;
    });
    const tokens = [...new Set(lines.flatMap((l) => referenceTokens(l.reference)))];
    const rows = tokens.length
      ? await q<RawRow>(
          `SELECT b.id, upper(b.document_id) AS doc, b.state, b.revenue_gross::text, b.paid_revenue::text, b.received_payment_date::text, b.document_id,
             coalesce(dp.name, pb.name) AS cp_name
           FROM billing_rows b
           LEFT JOIN demand_partners dp ON b.counterparty_type = 'demand_partner' AND dp.id = b.counterparty_id
           LEFT JOIN publishers pb ON b.counterparty_type = 'publisher' AND pb.id = b.counterparty_id
           WHERE b.side = $1 AND upper(b.document_id) = ANY($2::text[]) ORDER BY b.id`,
          [side, tokens],
        )
      : [];
    const byDoc = new Map<string, RawRow>();
    for (const r of rows) if (!byDoc.has(String(r.doc))) byDoc.set(String(r.doc), r);
    const recorded = rows.length
      ? await q<{ row_id: number; amount: string; paid_on: string }>(
          `SELECT row_id, amount::text, paid_on::text FROM billing_payments WHERE row_id = ANY($1::int4[])`,
          [rows.map((r) => Number(r.id))],
        )
      : [];
    const remaining = new Map<number, bigint>();
    const seen = new Set(recorded.map((p) => `${p.row_id}|${fromMicros(toMicros(p.amount))}|${p.paid_on}`));
    for (const l of lines) {
      if (l.status === 'invalid') continue;
      const doc = referenceTokens(l.reference).find((t) => byDoc.has(t));
      if (!doc) {
        l.reason = 'billing.bank.no_document';
        continue;
      }
      const r = byDoc.get(doc)!;
      l.document_id = String(r.document_id);
      l.row_id = Number(r.id);
      l.counterparty = String(r.cp_name ?? '');
      const key = `${l.row_id}|${l.amount}|${l.date}`;
      if (seen.has(key)) {
        l.status = 'duplicate';
        l.reason = 'billing.bank.duplicate';
        continue;
      }
      const left = remaining.get(l.row_id) ?? toMicros(String(r.revenue_gross)) - toMicros(String(r.paid_revenue));
      const refusal = !PAYABLE_STATES.includes(String(r.state))
        ? 'billing.payment_not_billed'
        : r.received_payment_date
          ? 'billing.payment_settled'
          : toMicros(l.amount!) > left
            ? 'billing.payment_exceeds'
            : null;
      if (refusal) {
        l.reason = refusal;
        continue;
      }
      seen.add(key);
      remaining.set(l.row_id, left - toMicros(l.amount!));
      l.status = 'matched';
    }
    const matched = lines.filter((l) => l.status === 'matched');
    if (!dryRun && matched.length > 0) {
      for (const l of matched) {
        const row = await readRow(q, side, l.row_id!, true);
        if (!row) continue;
        try {
          await applyPayment(q, row, { amount: l.amount!, paid_on: l.date!, document_id: l.document_id, reference: l.reference, settles: false }, 'bank_csv', who);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          // A line the row cannot take (settled, over what is pending, not billed): reported, not recorded.
          l.status = 'unmatched';
          l.reason = err.key;
        }
      }
    }
    const count = (s: BankImportLine['status']) => lines.filter((l) => l.status === s).length;
    return {
      delimiter,
      lines,
      matched: count('matched'),
      unmatched: count('unmatched'),
      invalid: count('invalid'),
      duplicate: count('duplicate'),
      applied: !dryRun,
      matched_amount: fromMicros(lines.filter((l) => l.status === 'matched').reduce((s, l) => s + toMicros(l.amount!), 0n)),
    };
  });
}
