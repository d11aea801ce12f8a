/**
 * Demo billing accounts: the demo partners (apps/api/src/db/demo-partners.ts) given what the
 * billing accounts screens show: a billing mode (two prepayment accounts, the rest on credit with
 * a limit), billing contacts at their company's domain, the VAT id their invoices print (the
 * company's tax id with its country prefix) and two past changes of terms by finance, so the
 * accounts' history tab has entries. Runs once (a settings marker), after the demo partners;
 * partners it does not know are left as they are. Amazon TAM keeps no company: its account shows
 * the spec's 'Inexisting data in user_billinginfo table'.
 */
import { EU_COUNTRIES } from '@backoffice/core/tax-ids';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, companies, settings, users } from '../../db/schema.ts';
import { demandPartners } from '../../db/schema-reports.ts';

export const BILLING_ACCOUNTS_DEMO_KEY = 'demo_billing_accounts_seeded';

/** Prepayment accounts (they pay before; spend is charged): no credit limit. */
const PREPAYMENT = new Set(['Aurora Demand', 'Garbí Affiliates']);
/** Credit limits by partner (others: 25,000). */
const CREDIT_LIMITS: Record<string, string> = {
  'Nimbus Exchange': '80000.00',
  'BlueOrbit DSP': '60000.00',
  'Helios Bidder': '120000.00',
  'Atlas Bidder': '90000.00',
  'Cobalt Network': '40000.00',
  'Orion Network': '50000.00',
  'Tramuntana Performance': '15000.00',
  'Levante Leads': '10000.00',
  'Cierzo Installs': '5000.00',
};
/** Partners whose minimum invoice amount is raised from 0. */
const MIN_AMOUNTS: Record<string, string> = { 'Kappa Media': '500.00', 'Vertex Ads': '250.00', 'Tramuntana Performance': '100.00', 'Levante Leads': '100.00' };

/** People in finance teams, by the company's country. */
const PEOPLE: Record<string, [string, string][]> = {
  DE: [['Anna Becker', 'Lukas Wagner'], ['Jonas Hoffmann', 'Mia Schulz']],
  FR: [['Camille Dubois', 'Julien Moreau'], ['Léa Fontaine', 'Hugo Lefèvre']],
  NL: [['Sanne de Vries', 'Daan Jansen'], ['Eva Bakker', 'Thijs Visser']],
  IE: [['Aoife Byrne', 'Conor Walsh']],
  SE: [['Erik Lindqvist', 'Maja Nilsson'], ['Elin Berg', 'Oskar Holm']],
  ES: [['Laura Gómez', 'Miguel Santos'], ['Carmen Ruiz', 'Pablo Ortega'], ['Lucía Navarro', 'Sergio Vidal']],
  US: [['Emily Carter', 'Jason Miller'], ['Megan Brooks', 'Ryan Cooper']],
};
const FALLBACK_PEOPLE: [string, string] = ['Alex Morgan', 'Sam Taylor'];

/** first.last, in plain ASCII, for an e-mail address. */
const mailbox = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');

/** The invoice VAT id: an EU company's tax id with its country prefix (EL for Greece), others as they are. */
const vatIdOf = (country: string, taxId: string) =>
  (EU_COUNTRIES as readonly string[]).includes(country) ? `${country === 'GR' ? 'EL' : country}${taxId}` : taxId;

export async function seedBillingAccountsDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: BILLING_ACCOUNTS_DEMO_KEY, value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const [finance] = await t.select({ id: users.id }).from(users).where(sql`${users.mail} like 'finance@%'`);
    const partners = await t
      .select({
        id: demandPartners.id,
        name: demandPartners.name,
        paymentTerms: demandPartners.paymentTerms,
        country: companies.country,
        taxId: companies.taxId,
        companyMail: companies.billingEmail,
      })
      .from(demandPartners)
      .leftJoin(companies, eq(companies.id, demandPartners.companyId))
      .orderBy(demandPartners.id);
    const used = new Map<string, number>();
    for (const p of partners) {
      const prepayment = PREPAYMENT.has(p.name);
      let contacts: { name: string; email: string; role: string }[] = [];
      let vatId: string | null = null;
      if (p.country && p.taxId && p.companyMail) {
        const domain = p.companyMail.split('@')[1]!;
        const teams = PEOPLE[p.country] ?? [FALLBACK_PEOPLE];
        // Two partners of one company share its finance team; the next company of the country gets the next team.
        const k = `${p.country}:${domain}`;
        if (!used.has(k)) used.set(k, [...used.keys()].filter((x) => x.startsWith(`${p.country}:`)).length);
        const [payable, controller] = teams[used.get(k)! % teams.length]!;
        contacts = [
          { name: payable, email: `${mailbox(payable)}@${domain}`, role: 'accounts_payable' },
          { name: controller, email: `${mailbox(controller)}@${domain}`, role: 'finance' },
        ];
        vatId = vatIdOf(p.country, p.taxId);
      }
      await t
        .update(demandPartners)
        .set({
          billingMode: prepayment ? 'prepayment' : 'credit',
          creditLimit: prepayment ? null : (CREDIT_LIMITS[p.name] ?? '25000.00'),
          billingContacts: contacts,
          vatId,
          minAmount: MIN_AMOUNTS[p.name] ?? sql`${demandPartners.minAmount}`,
        })
        .where(eq(demandPartners.id, p.id));
    }

    // Two past changes by finance: a credit limit raised, a partner moved to prepayment.
    const changes: { name: string; days: number; ip: string; before: Record<string, unknown>; after: Record<string, unknown> }[] = [
      { name: 'Nimbus Exchange', days: 18, ip: '10.20.0.57', before: { credit_limit: '50000.00' }, after: { credit_limit: '80000.00' } },
      { name: 'Garbí Affiliates', days: 9, ip: '10.20.0.57', before: { billing_mode: 'credit', credit_limit: '10000.00' }, after: { billing_mode: 'prepayment', credit_limit: null } },
    ];
    for (const c of changes) {
      const [row] = await t
        .update(demandPartners)
        .set({
          version: sql`${demandPartners.version} + 1`,
          updatedBy: finance?.id ?? null,
          updatedAt: sql`now() - make_interval(days => ${c.days}::int)`,
        })
        .where(eq(demandPartners.name, c.name))
        .returning({ id: demandPartners.id, version: demandPartners.version });
      if (!row) continue;
      await t.insert(auditLog).values({
        actorId: finance?.id ?? null,
        ip: c.ip,
        action: 'demand_partner.billing_update',
        entity: 'demand_partner',
        entityId: String(row.id),
        before: { ...c.before, version: row.version - 1 },
        after: { ...c.after, version: row.version },
        at: sql`now() - make_interval(days => ${c.days}::int)`,
      });
    }
  });
}
