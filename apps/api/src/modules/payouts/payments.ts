/**
 * "Paid" by importing a payment CSV (the bank's export of the transfers made, or the SEPA file's
 * confirmation): the same reading as billing's bank statements (billing/payments.ts `readBankCsv`:
 * comma or semicolon, EN/ES/DE/FR headers, European dates and amounts). Each line's reference must
 * name a payout (`PO-{id}`, the SEPA EndToEndId) of the side; the amount must be the payout's. A
 * preview first (dry run), then the matched lines mark their payouts paid with the line's date and
 * reference (one run: idempotent, audited).
 */
import type { Acl } from '@backoffice/core/acl';
import { fromCents, PAYOUT_REFERENCE_RE, toCents, type PayoutImportAnswer, type PayoutImportLine, type PayoutSide } from '@backoffice/core/payouts';
import crypto from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';
import type { Who } from '../billing/actions.ts';
import { readBankCsv } from '../billing/payments.ts';
import { applyToSelection } from './service.ts';

export async function importPayoutPayments(database: Database, side: PayoutSide, csv: string, dryRun: boolean, who: Who, _acl: Acl | null, todayIso: string): Promise<PayoutImportAnswer> {
  const { delimiter, lines: read } = readBankCsv(csv);
  const lines: PayoutImportLine[] = read.map((l) => {
    const m = PAYOUT_REFERENCE_RE.exec(l.reference);
    const line: PayoutImportLine = { line: l.line, payout_id: m ? Number(m[1]) : null, name: null, date: l.date, amount: l.amount, bank_reference: l.reference, status: 'unmatched' };
    if (!l.date || !l.amount) {
      line.status = 'invalid';
      line.reason = !l.date ? 'billing.bank.bad_date' : 'billing.bank.bad_amount';
    } else if (l.date > todayIso) {
      line.status = 'invalid';
      line.reason = 'payout.date_future';
    } else if (!m) line.reason = 'payout.import.no_reference';
    return line;
  });
  const ids = [...new Set(lines.filter((l) => l.status === 'unmatched' && l.payout_id).map((l) => l.payout_id!))].filter((id) => id <= 2_147_483_647);
  const rows = ids.length
    ? await query<{ id: number; state: string; payout: string; version: number; name: string; paid_on: string | null }>(
        database,
        `SELECT o.id, o.state, o.payout::text, o.version, pb.name, o.paid_on::text FROM payouts o JOIN publishers pb ON pb.id = o.publisher_id
         WHERE o.side = $1 AND o.id = ANY($2::int4[])`,
        [side, ids],
      )
    : [];
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const taken = new Set<number>();
  for (const l of lines) {
    if (l.status !== 'unmatched' || !l.payout_id) continue;
    const r = byId.get(l.payout_id);
    if (!r) {
      l.reason = 'payout.import.unknown';
      continue;
    }
    l.name = r.name;
    if (r.state === 'paid') {
      l.status = 'duplicate';
      l.reason = 'payout.import.already_paid';
    } else if (r.state !== 'approved') l.reason = 'payout.sepa.not_approved';
    else if (toCents(l.amount!) !== toCents(r.payout)) l.reason = 'payout.import.amount_differs';
    else if (taken.has(r.id)) {
      l.status = 'duplicate';
      l.reason = 'payout.import.twice';
    } else {
      taken.add(r.id);
      l.status = 'matched';
    }
  }
  const matched = lines.filter((l) => l.status === 'matched');
  if (!dryRun && matched.length > 0) {
    // One run per import (its lines differ in date and reference): each payout paid once.
    const byLine = new Map(matched.map((l) => [l.payout_id!, l]));
    const run = await applyToSelection(database, side, {
      action: 'pay',
      rows: matched.map((l) => ({ id: l.payout_id!, version: Number(byId.get(l.payout_id!)!.version) })),
      idempotencyKey: `import-${crypto.createHash('sha256').update(csv).digest('hex').slice(0, 40)}`,
      who,
      decide: (row) => (row.state === 'approved' ? null : 'payout.skip.state'),
      set: `state = 'paid', paid_by = $2::int4, paid_on = src.paid_on, bank_reference = src.ref`,
      from: 'jsonb_to_recordset($3::jsonb) AS src(id int, paid_on date, ref text)',
      params: [JSON.stringify(matched.map((l) => ({ id: l.payout_id, paid_on: l.date, ref: l.bank_reference.slice(0, 140) })))],
      after: (row) => ({ state: 'paid', paid_on: byLine.get(Number(row.id))?.date, bank_reference: byLine.get(Number(row.id))?.bank_reference, source: 'csv' }),
    });
    for (const r of run.results) {
      const l = byLine.get(r.id);
      if (l && !r.ok) {
        l.status = 'unmatched';
        l.reason = r.reason ?? 'payout.skip.state';
      }
    }
  }
  const count = (s: PayoutImportLine['status']) => lines.filter((l) => l.status === s).length;
  return {
    delimiter,
    lines,
    matched: count('matched'),
    unmatched: count('unmatched'),
    invalid: count('invalid'),
    duplicate: count('duplicate'),
    applied: !dryRun,
    matched_amount: fromCents(lines.filter((l) => l.status === 'matched').reduce((s, l) => s + toCents(l.amount!), 0n)),
  };
}
