/**
 * Demo finance entries: a few manual entries of each team over the last two months, by finance,
 * with their history (created; one edited). One entry of each team has its e-mail marked sent and
 * one supply entry failed (the counterparty's mail server refused it), so the screens show every
 * e-mail status and the resend action; the demo does not really send (its addresses are
 * `.example`). Runs once (a settings marker), after the demo partners and publishers.
 */
import type { Database } from '../../db/client.ts';
import { transaction } from '../../reports-data/sql.ts';

export const FINANCES_DEMO_KEY = 'demo_finances_seeded';
const DAY_MS = 86_400_000;

interface DemoEntry {
  team: 'supply' | 'demand';
  counterparty: string;
  network: string;
  amount: string;
  currency: string;
  item: string;
  comment: string;
  /** Months back (1: last month). */
  month: number;
  email: 'not_requested' | 'sent' | 'failed';
  edited?: { amount: string };
}

const ENTRIES: DemoEntry[] = [
  { team: 'supply', counterparty: 'Ofertas Costa Brava', network: 'Tramuntana Performance', amount: '350.00', currency: 'EUR', item: 'bonus', comment: 'Q3 volume bonus agreed with Pablo', month: 1, email: 'sent' },
  { team: 'supply', counterparty: 'Motor Ibérico Apps', network: 'Garbí Affiliates', amount: '-212.40', currency: 'EUR', item: 'fraud_deduction', comment: 'Invalid clicks flagged by the network (3.1%)', month: 1, email: 'failed' },
  { team: 'supply', counterparty: 'Recetas de la Abuela', network: 'Tramuntana Performance', amount: '-45.00', currency: 'EUR', item: 'platform_fee', comment: 'Monthly reporting fee', month: 2, email: 'not_requested', edited: { amount: '-40.00' } },
  { team: 'supply', counterparty: 'Viajes Cantábrico Network', network: 'Levante Leads', amount: '1200.00', currency: 'EUR', item: 'advance_payment', comment: 'Advance on next month’s payout', month: 1, email: 'not_requested' },
  { team: 'demand', counterparty: 'Tramuntana Performance', network: 'Tramuntana Performance', amount: '-780.00', currency: 'EUR', item: 'make_good', comment: 'Under-delivery on the spring campaign', month: 1, email: 'sent' },
  { team: 'demand', counterparty: 'Nimbus Exchange', network: 'Nimbus Exchange', amount: '-1500.00', currency: 'USD', item: 'volume_rebate', comment: 'Tier 2 rebate, H1', month: 2, email: 'not_requested' },
  { team: 'demand', counterparty: 'Helios Bidder', network: 'Helios Bidder', amount: '96.30', currency: 'USD', item: 'late_payment_fee', comment: 'Invoice paid 34 days late', month: 1, email: 'not_requested' },
  { team: 'demand', counterparty: 'Levante Leads', network: 'Levante Leads', amount: '-250.00', currency: 'EUR', item: 'credit_note', comment: 'Test campaign goodwill', month: 2, email: 'not_requested' },
];

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The first and last day of the month `back` months before `now`'s. */
function monthRange(now: number, back: number): [string, string] {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - back;
  const start = new Date(Date.UTC(y, m, 1));
  const end = new Date(Date.UTC(y, m + 1, 0));
  return [`${start.getUTCFullYear()}-${pad2(start.getUTCMonth() + 1)}-01`, `${end.getUTCFullYear()}-${pad2(end.getUTCMonth() + 1)}-${pad2(end.getUTCDate())}`];
}

export async function seedFinancesDemo(database: Database, now = Date.now()): Promise<void> {
  await transaction(database, async (q) => {
    const [marker] = await q(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`, [FINANCES_DEMO_KEY, new Date(now).toISOString()]);
    if (!marker) return;
    const [finance] = await q<{ id: number }>(`SELECT id FROM users WHERE mail LIKE 'finance@%' LIMIT 1`);
    const who = finance?.id ?? null;
    for (const [i, e] of ENTRIES.entries()) {
      const table = e.team === 'supply' ? 'publishers' : 'demand_partners';
      const [cp] = await q<{ id: number; email: string | null }>(
        `SELECT x.id, coalesce(nullif(btrim(x.billing_email), ''), c.billing_email) AS email FROM ${table} x LEFT JOIN companies c ON c.id = x.company_id WHERE x.name = $1 ORDER BY x.id LIMIT 1`,
        [e.counterparty],
      );
      const [net] = await q<{ id: number }>(`SELECT id FROM demand_partners WHERE name = $1 LIMIT 1`, [e.network]);
      if (!cp || !net) continue;
      const [start, end] = monthRange(now, e.month);
      const created = new Date(now - (e.month * 30 - 3 - i) * DAY_MS).toISOString();
      const email = e.email !== 'not_requested' && cp.email ? e.email : 'not_requested';
      const amount = e.edited?.amount ?? e.amount;
      const [row] = await q<{ id: number }>(
        `INSERT INTO finance_entries (team, counterparty_id, network_id, amount, currency, item, comment, period_start, period_end, send_email, email_status,
           email_to, email_sent_at, email_error, email_message_id, created_by, created_at, updated_by, updated_at, version)
         VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8::date, $9::date, $10, $11, $12, $13::timestamptz, $14, $15, $16, $17::timestamptz, $16, $17::timestamptz, $18) RETURNING id`,
        [
          e.team, cp.id, net.id, amount, e.currency, e.item, e.comment, start, end, email !== 'not_requested', email,
          email === 'not_requested' ? null : cp.email,
          email === 'sent' ? created : null,
          email === 'failed' ? 'SMTP RCPT TO: 550 5.1.1 mailbox unavailable' : null,
          email === 'sent' ? `<demo-finance-${i + 1}@adtech.example>` : null,
          who, created, e.edited ? 2 : 1,
        ],
      );
      const id = Number(row!.id);
      const fields = { counterparty_id: cp.id, network_id: net.id, amount: e.amount, currency: e.currency, item: e.item, comment: e.comment, period_start: start, period_end: end, send_email: email !== 'not_requested', email_status: email === 'not_requested' ? 'not_requested' : 'pending', version: 1 };
      const audit = (action: string, before: unknown, after: unknown, at: string) =>
        q(`INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, before, after, at) VALUES ($1, '10.20.0.57', $2, 'finance_entry', $3, $4::jsonb, $5::jsonb, $6::timestamptz)`, [
          who, action, String(id), before === null ? null : JSON.stringify(before), JSON.stringify(after), at,
        ]);
      await audit('finance_entry.create', null, fields, created);
      if (email !== 'not_requested')
        await audit(email === 'sent' ? 'finance_entry.email_sent' : 'finance_entry.email_failed', { email_status: 'pending' }, { email_status: email, email_to: cp.email }, created);
      if (e.edited) await audit('finance_entry.update', fields, { ...fields, amount: e.edited.amount, version: 2 }, new Date(Date.parse(created) + 2 * DAY_MS).toISOString());
    }
  });
}
