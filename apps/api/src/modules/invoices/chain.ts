/**
 * The stored VERI*FACTU chain (issue 22): a registro de alta per issued invoice or credit note,
 * written in the issuing transaction after the issuer's row is locked (so the chain is one line
 * per issuer even under concurrent issuing), and its verification over the stored records, read
 * in pages. The record rules are verifactu/ (decision 027); the table is append-only (a trigger).
 */
import { toMicros } from '@backoffice/core/billing';
import type { InvoiceDocument } from '@backoffice/core/invoice-document';
import { fromCents, toCents } from '@backoffice/core/invoices';
import type { ChainCheck, VerifactuRecordDto } from '@backoffice/core/invoices';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';
import {
  altaFromDocument,
  altaXmlInputFromDocument,
  registroAltaXml,
  verifactuQrUrl,
  verifyChainPages,
  type EurAmounts,
  type VerifactuRecord,
  type VerifactuRecordFields,
  type VerifactuSender,
  type VerifactuSystemInfo,
} from './verifactu/index.ts';

/** SistemaInformatico of the records: this back-office (the producer is the company itself). */
export function systemInfo(producerName: string, producerNif: string): VerifactuSystemInfo {
  return {
    producerName,
    producerNif,
    name: 'Back Office',
    id: 'BO',
    version: '1.0',
    installationNumber: '1',
    onlyVerifactu: true,
    multipleTaxpayersPossible: true,
    multipleTaxpayers: true,
  };
}

interface StoredRecord {
  id: number;
  issuer_id: number;
  invoice_id: number;
  kind: 'alta' | 'anulacion';
  issuer_tax_id: string;
  number: string;
  issue_date: string;
  invoice_type: string;
  total_tax: string;
  total_amount: string;
  previous_hash: string;
  generated_at: string;
  hash: string;
}

export const RECORD_COLUMNS = `id, issuer_id, invoice_id, kind, issuer_tax_id, number, issue_date::text AS issue_date, invoice_type, total_tax,
  total_amount, previous_hash, generated_at, hash`;

export async function latestRecord(q: QueryFn, issuerId: number): Promise<StoredRecord | null> {
  const [r] = await q<StoredRecord>(
    `SELECT ${RECORD_COLUMNS} FROM verifactu_records WHERE issuer_id = $1 ORDER BY id DESC LIMIT 1`,
    [issuerId],
  );
  return r ?? null;
}

export function recordDto(r: StoredRecord, environment: 'production' | 'test'): VerifactuRecordDto {
  return {
    id: r.id,
    kind: r.kind,
    invoice_type: r.invoice_type,
    hash: r.hash,
    previous_hash: r.previous_hash,
    generated_at: r.generated_at,
    submission: null,
    qr_url: verifactuQrUrl({
      nif: r.issuer_tax_id,
      number: r.number,
      issueDate: String(r.issue_date).slice(0, 10),
      total: r.total_amount || '0.00',
      environment,
    }),
  };
}

/**
 * A document's figures in euros (the AEAT's records are in euros): at the month's rate of the
 * billing rates (units of the currency for 1 EUR; the ECB's reference rates), the issue month's or
 * else the latest month before it.
 */
async function eurAmounts(q: QueryFn, doc: InvoiceDocument): Promise<EurAmounts | undefined> {
  if (doc.currency === 'EUR') return undefined;
  const [rate] = await q<{ rate: string }>(
    `SELECT rate::text FROM billing_rates WHERE currency = $1 AND month <= $2 ORDER BY month DESC LIMIT 1`,
    [doc.currency, doc.issue_date.slice(0, 7)],
  );
  if (!rate)
    throw new AppError(409, 'invoice.no_rate', {
      params: { currency: doc.currency, month: doc.issue_date.slice(0, 7) },
    });
  // amount / rate, in cents, rounded half away from zero (rate as micro-units).
  const micros = toMicros(rate.rate);
  if (micros <= 0n)
    throw new AppError(409, 'invoice.no_rate', {
      params: { currency: doc.currency, month: doc.issue_date.slice(0, 7) },
    });
  const conv = (amount: string) => {
    const c = toCents(amount) * 1_000_000n;
    const neg = c < 0n;
    const abs = neg ? -c : c;
    const q2 = (abs * 2n + micros) / (micros * 2n);
    return fromCents(neg ? -q2 : q2);
  };
  const base = conv(doc.base);
  const vat = conv(doc.vat_amount);
  return { base, vat_amount: vat, total: fromCents(toCents(base) + toCents(vat)) };
}

/**
 * Appends the registro de alta of an issued document to its issuer's chain, in the caller's
 * transaction (which holds the issuer's row lock).
 */
export async function appendAlta(
  q: QueryFn,
  issuer: { id: number; legal_name: string; tax_id: string },
  invoiceId: number,
  doc: InvoiceDocument,
  now: Date = new Date(),
): Promise<VerifactuRecordFields> {
  const previous = await latestRecord(q, issuer.id);
  const eur = await eurAmounts(q, doc);
  const record = altaFromDocument(doc, previous, now, eur ? { eur } : {});
  const previousFields: VerifactuRecordFields | null = previous
    ? { ...previous, issue_date: String(previous.issue_date).slice(0, 10) }
    : null;
  const xml = registroAltaXml(
    altaXmlInputFromDocument(
      doc,
      record,
      previousFields,
      systemInfo(issuer.legal_name, issuer.tax_id),
      eur ? { eur } : {},
    ),
  );
  await q(
    `INSERT INTO verifactu_records (issuer_id, invoice_id, kind, issuer_tax_id, number, issue_date, invoice_type, total_tax, total_amount,
        previous_hash, generated_at, hash, xml)
     VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11, $12, $13)`,
    [
      issuer.id,
      invoiceId,
      record.kind,
      record.issuer_tax_id,
      record.number,
      record.issue_date,
      record.invoice_type,
      record.total_tax,
      record.total_amount,
      record.previous_hash,
      record.generated_at,
      record.hash,
      xml,
    ],
  );
  return record;
}

const PAGE = 5000;

/** Recomputes every issuer's chain from the stored records, in pages; the first broken link of each. */
export async function verifyStoredChain(database: Database): Promise<ChainCheck[]> {
  const issuers = await query<{ id: number; legal_name: string }>(
    database,
    `SELECT id, legal_name FROM invoice_issuers ORDER BY id`,
  );
  const out: ChainCheck[] = [];
  for (const issuer of issuers) {
    const numbers = new Map<number, string>();
    let count = 0;
    async function* pages(): AsyncGenerator<VerifactuRecord[]> {
      let after = 0;
      for (;;) {
        const rows = await query<StoredRecord>(
          database,
          `SELECT ${RECORD_COLUMNS} FROM verifactu_records WHERE issuer_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`,
          [issuer.id, after],
        );
        if (rows.length === 0) return;
        after = rows[rows.length - 1]!.id;
        count += rows.length;
        for (const r of rows) numbers.set(r.id, r.number);
        yield rows.map((r) => ({ ...r, issue_date: String(r.issue_date).slice(0, 10) }));
        if (rows.length < PAGE) return;
      }
    }
    const result = await verifyChainPages(pages());
    out.push(
      result.ok
        ? { issuer_id: issuer.id, legal_name: issuer.legal_name, ok: true, count: result.count, broken: null }
        : {
            issuer_id: issuer.id,
            legal_name: issuer.legal_name,
            ok: false,
            count,
            broken: {
              index: result.index,
              id: Number(result.id),
              number: numbers.get(Number(result.id)) ?? '',
              reason: result.reason,
              expected: result.expected,
              found: result.found,
            },
          },
    );
  }
  return out;
}

/**
 * Sends the latest record of each document to the tax agency through `sender` (after the issue
 * committed: a refused or failed submission never undoes an invoice) and stores what came back.
 * Returns how many were accepted.
 */
export async function submitRecords(
  database: Database,
  sender: VerifactuSender,
  invoiceIds: readonly number[],
  log?: (err: unknown) => void,
): Promise<number> {
  if (invoiceIds.length === 0) return 0;
  const records = await query<{ id: number; xml: string }>(
    database,
    `SELECT DISTINCT ON (invoice_id) id, xml FROM verifactu_records WHERE invoice_id = ANY($1::int4[]) ORDER BY invoice_id, id DESC`,
    [invoiceIds],
  );
  let accepted = 0;
  for (const r of records) {
    let outcome: { accepted: boolean; csv?: string | undefined; error?: string | undefined };
    try {
      outcome = await sender.send(r.xml);
    } catch (err) {
      log?.(err);
      outcome = { accepted: false, error: err instanceof Error ? err.message : String(err) };
    }
    if (outcome.accepted) accepted++;
    await query(
      database,
      `INSERT INTO verifactu_submissions (record_id, accepted, csv, error) VALUES ($1, $2, $3, $4)`,
      [r.id, outcome.accepted, outcome.csv ?? null, outcome.error ?? null],
    );
  }
  return accepted;
}

/** The last submission of a record, if it was ever sent. */
export async function lastSubmission(
  database: Database,
  recordId: number,
): Promise<VerifactuRecordDto['submission']> {
  const [s] = await query<{ at: string; accepted: boolean; csv: string | null; error: string | null }>(
    database,
    `SELECT at::text, accepted, csv, error FROM verifactu_submissions WHERE record_id = $1 ORDER BY id DESC LIMIT 1`,
    [recordId],
  );
  return s ?? null;
}
