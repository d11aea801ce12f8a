/**
 * Demo companies: realistic EU ad-tech companies with valid tax ids and IBANs. The check
 * characters are not typed in: each id is completed with the check character or digits that
 * jsvat (the countries' published rules) accepts, and each IBAN with the check digits ibantools
 * accepts, so the data stays valid by the same rules the form and the API apply.
 */
import { EU_COUNTRIES, isValidIban, isValidTaxId } from '@backoffice/core/tax-ids';
import { eq, sql } from 'drizzle-orm';
import { composeIBAN } from 'ibantools';
import type { Db } from './client.ts';
import { agencies, auditLog, companies, settings, users } from './schema.ts';

interface DemoCompany {
  legal_name: string;
  trade_name: string | null;
  country: string;
  /** The tax id without its check character(s): completed by completeTaxId. */
  tax_stem: string;
  address: string;
  city: string;
  postal_code: string;
  billing_email: string;
  /** The BBAN without national check digits where the country has them (ES: bank+branch, then account). */
  bank: string;
  currency: 'EUR' | 'USD';
}

const CHECK_CHARS = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** The stem completed with the first one or two check characters that make a valid tax id. */
export function completeTaxId(country: string, stem: string): string {
  if (!(EU_COUNTRIES as readonly string[]).includes(country)) return stem;
  for (const a of CHECK_CHARS) {
    // The check character, alone or before a fixed suffix (the Netherlands' B01, Sweden's 01).
    for (const suffix of ['', 'B01', '01']) if (isValidTaxId(country, `${stem}${a}${suffix}`)) return `${stem}${a}${suffix}`;
  }
  for (const a of '0123456789') for (const b of '0123456789') if (isValidTaxId(country, `${stem}${a}${b}`)) return `${stem}${a}${b}`;
  // Countries whose check digits come first (France: 2 digits before the SIREN).
  for (const a of '0123456789') for (const b of '0123456789') if (isValidTaxId(country, `${a}${b}${stem}`)) return `${a}${b}${stem}`;
  throw new Error(`No valid tax id for ${country} ${stem}`);
}

/** An IBAN for the country and BBAN, national check digits included (Spain: the two after the branch). */
export function completeIban(country: string, bank: string): string {
  // Spain: bank and branch (8 digits), two national check digits, the account (10 digits).
  const candidates = country === 'ES' ? Array.from({ length: 100 }, (_, i) => `${bank.slice(0, 8)}${String(i).padStart(2, '0')}${bank.slice(-10)}`) : [bank];
  for (const bban of candidates) {
    const iban = composeIBAN({ countryCode: country, bban });
    if (iban && isValidIban(iban)) return iban;
  }
  throw new Error(`No valid IBAN for ${country} ${bank}`);
}

export const DEMO_COMPANIES: readonly DemoCompany[] = [
  { legal_name: 'Iberia Media Exchange S.L.', trade_name: 'IberiaMX', country: 'ES', tax_stem: 'B8642197', address: 'Calle de Alcalá 120', city: 'Madrid', postal_code: '28009', billing_email: 'billing@iberiamx.es', bank: '21000418450200051332', currency: 'EUR' },
  { legal_name: 'Mediterránea de Publicidad Digital S.A.', trade_name: 'MedPub', country: 'ES', tax_stem: 'A0831245', address: 'Avinguda Diagonal 611', city: 'Barcelona', postal_code: '08028', billing_email: 'facturas@medpub.es', bank: '00810200250001234567', currency: 'EUR' },
  { legal_name: 'Cantábrico Apps S.L.', trade_name: null, country: 'ES', tax_stem: 'B3941876', address: 'Paseo de Pereda 22', city: 'Santander', postal_code: '39004', billing_email: 'admin@cantabricoapps.es', bank: '00490075210110000123', currency: 'EUR' },
  { legal_name: 'Levante Streaming Networks S.L.', trade_name: 'LevanteTV', country: 'ES', tax_stem: 'B9772314', address: 'Calle Colón 48', city: 'Valencia', postal_code: '46004', billing_email: 'finance@levantetv.es', bank: '21003000321234567890', currency: 'EUR' },
  { legal_name: 'Andalucía Native Ads S.L.', trade_name: 'AndaNative', country: 'ES', tax_stem: 'B9105538', address: 'Avenida de la Constitución 9', city: 'Sevilla', postal_code: '41004', billing_email: 'billing@andanative.es', bank: '01822370410201234567', currency: 'EUR' },
  { legal_name: 'Galicia Retail Media S.L.', trade_name: null, country: 'ES', tax_stem: 'B1576902', address: 'Rúa do Vilar 30', city: 'Santiago de Compostela', postal_code: '15705', billing_email: 'contabilidad@galiciaretail.es', bank: '20800300870000123456', currency: 'EUR' },
  { legal_name: 'Rheinland AdTech GmbH', trade_name: 'RheinAds', country: 'DE', tax_stem: '81237645', address: 'Hohenzollernring 72', city: 'Köln', postal_code: '50672', billing_email: 'rechnung@rheinads.de', bank: '370400440532013000', currency: 'EUR' },
  { legal_name: 'Spree Demand Platform GmbH', trade_name: 'SpreeDSP', country: 'DE', tax_stem: '29874531', address: 'Friedrichstraße 68', city: 'Berlin', postal_code: '10117', billing_email: 'billing@spreedsp.de', bank: '100700000123456789', currency: 'EUR' },
  { legal_name: 'Isar Video Monetization AG', trade_name: 'IsarVideo', country: 'DE', tax_stem: '14765209', address: 'Leopoldstraße 31', city: 'München', postal_code: '80802', billing_email: 'finance@isarvideo.de', bank: '700202700015202000', currency: 'EUR' },
  { legal_name: 'Hanse Programmatic GmbH', trade_name: null, country: 'DE', tax_stem: '31578420', address: 'Große Elbstraße 145', city: 'Hamburg', postal_code: '22767', billing_email: 'accounts@hanseprog.de', bank: '200400000654321000', currency: 'EUR' },
  { legal_name: 'Lumière Régie Numérique SAS', trade_name: 'Lumière Ads', country: 'FR', tax_stem: '532187649', address: '18 rue de la Paix', city: 'Paris', postal_code: '75002', billing_email: 'facturation@lumiere-ads.fr', bank: '30004000031234567890143', currency: 'EUR' },
  { legal_name: 'Garonne Audience SARL', trade_name: null, country: 'FR', tax_stem: '448912736', address: '5 quai de la Douane', city: 'Bordeaux', postal_code: '33000', billing_email: 'compta@garonne-audience.fr', bank: '20041010050500013M02606', currency: 'EUR' },
  { legal_name: 'Rhône Mobile Performance SAS', trade_name: 'RhôneMobile', country: 'FR', tax_stem: '812345670', address: '12 place Bellecour', city: 'Lyon', postal_code: '69002', billing_email: 'billing@rhonemobile.fr', bank: '30002005500000157845Z02', currency: 'EUR' },
  { legal_name: 'Navigli Media S.r.l.', trade_name: 'Navigli', country: 'IT', tax_stem: '0812345012', address: 'Via Tortona 27', city: 'Milano', postal_code: '20144', billing_email: 'amministrazione@navigli.it', bank: 'X0542811101000000123456', currency: 'EUR' },
  { legal_name: 'Tevere Pubblicità Digitale S.p.A.', trade_name: null, country: 'IT', tax_stem: '1432187065', address: 'Via del Corso 300', city: 'Roma', postal_code: '00186', billing_email: 'fatture@tevere.it', bank: 'W0306909606100000012345', currency: 'EUR' },
  { legal_name: 'Tejo Ad Network, Lda.', trade_name: 'TejoAds', country: 'PT', tax_stem: '50712345', address: 'Avenida da Liberdade 110', city: 'Lisboa', postal_code: '1269-046', billing_email: 'faturacao@tejoads.pt', bank: '000201231234567890154', currency: 'EUR' },
  { legal_name: 'Grachten Programmatic B.V.', trade_name: 'GrachtenPX', country: 'NL', tax_stem: '85432176', address: 'Herengracht 450', city: 'Amsterdam', postal_code: '1017 CA', billing_email: 'billing@grachtenpx.nl', bank: 'ABNA0417164300', currency: 'EUR' },
  { legal_name: 'Maas Connected TV B.V.', trade_name: null, country: 'NL', tax_stem: '81902364', address: 'Wilhelminakade 91', city: 'Rotterdam', postal_code: '3072 AP', billing_email: 'finance@maasctv.nl', bank: 'RABO0300065264', currency: 'EUR' },
  { legal_name: 'Scheldt Media Sales NV', trade_name: 'ScheldtMS', country: 'BE', tax_stem: '04123456', address: 'Meir 24', city: 'Antwerpen', postal_code: '2000', billing_email: 'facturatie@scheldtms.be', bank: '539007547034', currency: 'EUR' },
  { legal_name: 'Liffey Data Exchange Ltd', trade_name: 'LiffeyDX', country: 'IE', tax_stem: '6388047', address: '2 Grand Canal Square', city: 'Dublin', postal_code: 'D02 A342', billing_email: 'ap@liffeydx.ie', bank: 'AIBK93115212345678', currency: 'EUR' },
  { legal_name: 'Wisła Reklama Sp. z o.o.', trade_name: null, country: 'PL', tax_stem: '526000124', address: 'ul. Marszałkowska 104', city: 'Warszawa', postal_code: '00-017', billing_email: 'faktury@wislareklama.pl', bank: '109010140000071219812874', currency: 'EUR' },
  { legal_name: 'Donau Digital Werbung GmbH', trade_name: 'DonauDW', country: 'AT', tax_stem: 'U1367501', address: 'Mariahilfer Straße 77', city: 'Wien', postal_code: '1060', billing_email: 'buchhaltung@donaudw.at', bank: '1904300234573201', currency: 'EUR' },
  { legal_name: 'Öresund Ad Systems AB', trade_name: 'OresundAds', country: 'SE', tax_stem: '556467750', address: 'Sveavägen 44', city: 'Stockholm', postal_code: '111 34', billing_email: 'faktura@oresundads.se', bank: '50000000058398257466', currency: 'EUR' },
  { legal_name: 'Atlantic Demand Partners Inc.', trade_name: 'ADP', country: 'US', tax_stem: '471234567', address: '250 Greenwich Street', city: 'New York', postal_code: '10007', billing_email: 'ar@atlanticdemand.com', bank: '', currency: 'USD' },
];

const DEMO_COMPANIES_KEY = 'demo_companies_seeded';

/**
 * Seeds the demo companies once (a marker in settings), created by demo users, with a past edit
 * on a few of them so their history tab shows what it is for.
 */
export async function seedDemoCompanies(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: DEMO_COMPANIES_KEY, value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const people = await t.select({ id: users.id, mail: users.mail }).from(users).orderBy(users.id);
    const by = (local: string) => people.find((p) => p.mail.startsWith(`${local}@`))?.id ?? people[0]?.id ?? null;
    const finance = by('finance');
    const admin = by('admin');
    for (const [i, c] of DEMO_COMPANIES.entries()) {
      const values = {
        legalName: c.legal_name,
        tradeName: c.trade_name,
        country: c.country,
        taxId: completeTaxId(c.country, c.tax_stem),
        address: c.address,
        city: c.city,
        postalCode: c.postal_code,
        billingEmail: c.billing_email,
        iban: c.bank ? completeIban(c.country, c.bank) : null,
        currency: c.currency,
      };
      const creator = i % 3 === 0 ? admin : finance;
      const createdAt = sql`now() - make_interval(days => ${120 - i * 3}::int)`;
      const [row] = await t
        .insert(companies)
        .values({ ...values, createdBy: creator, updatedBy: creator, createdAt, updatedAt: createdAt })
        .onConflictDoNothing()
        .returning({ id: companies.id });
      if (!row) continue;
      const after = { id: row.id, ...snake(values), version: 1 };
      await t.insert(auditLog).values({ actorId: creator, ip: '10.20.0.15', action: 'company.create', entity: 'company', entityId: String(row.id), after, at: createdAt });
      if (i % 4 === 1) {
        // A later edit: finance corrected the billing address.
        const email = `accounts+${i}@${c.billing_email.split('@')[1]}`;
        await t.update(companies).set({ billingEmail: email, version: 2, updatedBy: finance, updatedAt: sql`now() - make_interval(days => ${(i % 17) + 1}::int)` }).where(eq(companies.id, row.id));
        await t.insert(auditLog).values({
          actorId: finance,
          ip: '10.20.0.42',
          action: 'company.update',
          entity: 'company',
          entityId: String(row.id),
          before: after,
          after: { ...after, billing_email: email, version: 2 },
          at: sql`now() - make_interval(days => ${(i % 17) + 1}::int)`,
        });
      }
    }
  });
}

/** Demo agencies, each behind one of the demo companies (by legal name). */
const DEMO_AGENCIES: readonly { name: string; company: string; commission: string; advertisers: string[]; contacts: { name: string; email: string; phone: string | null }[]; status: 'active' | 'archived' }[] = [
  { name: 'IberiaMX Agency Desk', company: 'Iberia Media Exchange S.L.', commission: '12.50', advertisers: ['Viajes Solana', 'Banco Meridiano', 'Cervezas Ondara'], contacts: [{ name: 'Lucía Prieto', email: 'lucia.prieto@iberiamx.es', phone: '+34 910 123 456' }], status: 'active' },
  { name: 'MedPub Trading', company: 'Mediterránea de Publicidad Digital S.A.', commission: '15.00', advertisers: ['Moda Brisa', 'Hoteles Cala'], contacts: [{ name: 'Jordi Puig', email: 'jordi.puig@medpub.es', phone: '+34 932 555 010' }, { name: 'Marta Vidal', email: 'marta.vidal@medpub.es', phone: null }], status: 'active' },
  { name: 'RheinAds Mediaagentur', company: 'Rheinland AdTech GmbH', commission: '10.00', advertisers: ['AutoHaus Weber', 'Kaffeerösterei Lenz'], contacts: [{ name: 'Jonas Richter', email: 'j.richter@rheinads.de', phone: '+49 221 555 1200' }], status: 'active' },
  { name: 'Lumière Trading Desk', company: 'Lumière Régie Numérique SAS', commission: '14.25', advertisers: ['Maison Garance', 'Banque Azur', 'Voyages Lumen'], contacts: [{ name: 'Camille Roux', email: 'camille.roux@lumiere-ads.fr', phone: '+33 1 44 55 66 77' }], status: 'active' },
  { name: 'Navigli Media Buying', company: 'Navigli Media S.r.l.', commission: '11.75', advertisers: ['Pasta Fiorita'], contacts: [{ name: 'Giulia Ferri', email: 'giulia.ferri@navigli.it', phone: '+39 02 5555 0101' }], status: 'active' },
  { name: 'Grachten Performance', company: 'Grachten Programmatic B.V.', commission: '9.50', advertisers: ['Fietsen Van Dijk', 'Kaas & Co'], contacts: [{ name: 'Daan de Vries', email: 'daan@grachtenpx.nl', phone: '+31 20 555 0199' }], status: 'active' },
  { name: 'Tejo Media Partners', company: 'Tejo Ad Network, Lda.', commission: '13.00', advertisers: ['Vinhos do Tejo'], contacts: [{ name: 'Inês Costa', email: 'ines.costa@tejoads.pt', phone: null }], status: 'archived' },
  { name: 'Spree Audience Lab', company: 'Spree Demand Platform GmbH', commission: '8.00', advertisers: ['Berliner Bank', 'Spree Reisen', 'Mobilfunk Nord'], contacts: [{ name: 'Lea Hoffmann', email: 'lea.hoffmann@spreedsp.de', phone: '+49 30 555 0144' }], status: 'active' },
];

/** Seeds the demo agencies once (their own marker), behind demo companies. */
export async function seedDemoAgencies(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: 'demo_agencies_seeded', value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const owners = await t.select({ id: companies.id, name: companies.legalName }).from(companies);
    const [tech] = await t.select({ id: users.id }).from(users).where(sql`${users.mail} like 'demand.lead@%'`);
    for (const [i, a] of DEMO_AGENCIES.entries()) {
      const company = owners.find((o) => o.name === a.company);
      if (!company) continue;
      const at = sql`now() - make_interval(days => ${60 - i * 5}::int)`;
      const [row] = await t
        .insert(agencies)
        .values({ name: a.name, companyId: company.id, contacts: a.contacts, commissionPct: a.commission, advertisers: a.advertisers, status: a.status, createdBy: tech?.id ?? null, updatedBy: tech?.id ?? null, createdAt: at, updatedAt: at })
        .returning({ id: agencies.id });
      await t.insert(auditLog).values({
        actorId: tech?.id ?? null,
        ip: '10.20.0.31',
        action: 'agency.create',
        entity: 'agency',
        entityId: String(row!.id),
        after: { id: row!.id, name: a.name, company_id: company.id, contacts: a.contacts, commission_pct: a.commission, advertisers: a.advertisers, status: a.status, version: 1 },
        at,
      });
    }
  });
}

function snake(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
}
