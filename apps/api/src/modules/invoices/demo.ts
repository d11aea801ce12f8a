/**
 * Invoices' demo data (issue 22), after the billing demo: the two issuing companies (the SSP's and
 * the performance side's), the older months' approved rows invoiced through the real service (so
 * the numbers, the customer snapshots and the VERI*FACTU chain are what issuing writes), their
 * payments from the billing demo's, one credit note, last month's approved rows as drafts in the
 * preview (one with a fraud deduction) and one counterparty whose invoicing is blocked.
 */
import { nextMonth, monthOf } from '@backoffice/core/billing-api';
import { fromCents, toCents } from '@backoffice/core/invoices';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';
import type { Who } from '../billing/actions.ts';
import {
  addDays,
  candidates,
  createCreditNote,
  issueOne,
  markSent,
  patchDraft,
  precreate,
  readInvoice,
  recordPayment,
  setBlocked,
  todayMadrid,
} from './service.ts';

export const DEMO_ISSUERS = [
  {
    team: 'ssp',
    legal_name: 'Adtech Media Iberia, S.L.',
    tax_id: 'B86561412',
    address: 'Calle de Alcalá 21, 3º',
    city: 'Madrid',
    postal_code: '28014',
    email: 'billing@adtech.example',
    iban: 'ES9121000418450200051332',
    bic: 'CAIXESBBXXX',
    registry: 'Registro Mercantil de Madrid, tomo 31.250, folio 1, hoja M-562.300',
    invoice_prefix: 'F',
    credit_prefix: 'R',
  },
  {
    team: 'performance',
    legal_name: 'Adtech Performance, S.A.',
    tax_id: 'A58818501',
    address: 'Avinguda Diagonal 640, 6º',
    city: 'Barcelona',
    postal_code: '08017',
    email: 'billing-performance@adtech.example',
    iban: 'ES7620770024003102575766',
    bic: 'CVALESVVXXX',
    registry: 'Registro Mercantil de Barcelona, tomo 45.118, folio 12, hoja B-477.901',
    invoice_prefix: 'P',
    credit_prefix: 'PR',
  },
] as const;

/** The issuing companies: configuration every install needs (the demo's, until finance edits them). */
export async function seedInvoiceIssuers(database: Database): Promise<void> {
  await query(
    database,
    `INSERT INTO invoice_issuers (team, legal_name, tax_id, address, city, postal_code, email, iban, bic, registry, invoice_prefix, credit_prefix)
     SELECT i.team, i.legal_name, i.tax_id, i.address, i.city, i.postal_code, i.email, i.iban, i.bic, i.registry, i.invoice_prefix, i.credit_prefix
     FROM jsonb_to_recordset($1::jsonb) AS i(team text, legal_name text, tax_id text, address text, city text, postal_code text, email text,
       iban text, bic text, registry text, invoice_prefix text, credit_prefix text)
     ON CONFLICT (team) DO NOTHING`,
    [JSON.stringify(DEMO_ISSUERS)],
  );
}

export async function seedInvoicesDemo(database: Database, now = Date.now()): Promise<void> {
  await seedInvoiceIssuers(database);
  const [marker] = await query<{ key: string }>(
    database,
    `SELECT key FROM settings WHERE key = 'demo_invoices_seeded'`,
  );
  if (marker) return;
  const [finance] = await query<{ id: number }>(
    database,
    `SELECT id FROM users WHERE mail LIKE 'finance@%' LIMIT 1`,
  );
  const who: Who = { userId: finance?.id ?? null, simulatedById: null, simulatedRoleId: null, ip: null };
  const current = monthOf(now);
  const last = nextMonth(current, -1);
  const today = todayMadrid(new Date(now));
  const months = (
    await query<{ month: string }>(
      database,
      `SELECT DISTINCT month FROM billing_rows WHERE month < $1 ORDER BY month`,
      [last],
    )
  ).map((m) => m.month);

  // Older months: invoiced on the 3rd of the month after (numbers in date order), paid as billed.
  let credited = false;
  for (const month of months) {
    const issueDate = `${nextMonth(month)}-03` > today ? today : `${nextMonth(month)}-03`;
    for (const team of ['ssp', 'performance'] as const) {
      const { created } = await precreate(database, who, { team, months: [month] });
      for (const id of created) {
        const result = await issueOne(database, who, id, issueDate, 'test');
        if (result.status !== 'issued') continue;
        const inv = (await readInvoice(database, id))!;
        if (id % 4 !== 0) await markSent(database, who, id, [inv.billing_email ?? 'billing@example.com']);
        // The billing demo's payments: paid in full, or part (its rows' paid share of the total).
        const [paidShare] = await query<{ paid: string; gross: string; last: string | null }>(
          database,
          `SELECT sum(paid_revenue)::text AS paid, sum(revenue_gross)::text AS gross, max(received_payment_date)::text AS last FROM billing_rows WHERE invoice_id = $1`,
          [id],
        );
        const gross = toCents(paidShare!.gross);
        const paid = toCents(paidShare!.paid);
        if (gross <= 0n || paid <= 0n) continue;
        const amount = paid >= gross ? toCents(inv.total) : (toCents(inv.total) * paid) / gross;
        const paidOn = [paidShare!.last ?? addDays(issueDate, 30), today].sort()[0]!;
        await recordPayment(database, who, id, {
          amount: fromCents(amount),
          paid_on: paidOn < issueDate ? issueDate : paidOn,
          reference: `Transfer ${inv.number ?? ''}`.trim(),
        });
      }
      // One credit note: part of the first partly paid invoice, for a discrepancy found later.
      if (!credited && team === 'ssp') {
        const [target] = await query<{ id: number; base: string }>(
          database,
          `SELECT id, base::text FROM invoices WHERE team = 'ssp' AND kind = 'invoice' AND state IN ('partly_paid', 'sent') AND currency = 'USD' ORDER BY id LIMIT 1`,
        );
        if (target) {
          await createCreditNote(
            database,
            who,
            target.id,
            {
              reason: 'Partner report: 4% invalid traffic confirmed after the month closed',
              amount: fromCents(toCents(target.base) / 25n),
            },
            'test',
          );
          credited = true;
        }
      }
    }
  }

  // Last month: the approved rows wait in the preview as drafts (one with a fraud deduction), all
  // but one counterparty's, which "Create invoices" still offers.
  for (const team of ['ssp', 'performance'] as const) {
    const offered = [...new Set((await candidates(database, team, [last])).map((c) => c.counterparty_id))];
    const drafted = offered.slice(0, -1);
    if (drafted.length === 0) continue;
    const { created } = await precreate(database, who, { team, months: [last], counterparty_ids: drafted });
    const first = created[0];
    if (first) {
      const draft = (await readInvoice(database, first))!;
      await patchDraft(database, who, first, {
        version: draft.version,
        fraud_percentage: '2.50',
        comments: 'IVT report from the partner: 2.5% of impressions flagged',
      });
    }
  }
  // A counterparty whose invoicing is on hold (a dispute), shown as blocked in the preview.
  const [disputed] = await query<{ counterparty_id: number }>(
    database,
    `SELECT counterparty_id FROM invoices WHERE state = 'draft' AND team = 'ssp' ORDER BY revenue LIMIT 1`,
  );
  if (disputed)
    await setBlocked(
      database,
      who,
      disputed.counterparty_id,
      true,
      'Payment dispute open since last quarter',
    );
  await query(
    database,
    `INSERT INTO settings (key, value) VALUES ('demo_invoices_seeded', $1) ON CONFLICT DO NOTHING`,
    [new Date(now).toISOString()],
  );
}
