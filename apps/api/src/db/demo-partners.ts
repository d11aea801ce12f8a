/**
 * Demo demand partners: the warehouse's partners (the reports' and the QPS graph's) given what
 * the partner screens show (company, account manager, connection, capabilities, pricing,
 * commercial terms, our seller id at the partner), plus a few partners of the performance side.
 * Runs once, after the demo warehouse is loaded; the cap changes of the QPS story are already in
 * the partners' history (the loader writes them to the audit log).
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { auditLog, companies, settings, users } from './schema.ts';
import { demandPartners } from './schema-reports.ts';

interface PartnerDetails {
  company?: string;
  manager: string;
  status?: 'draft' | 'testing' | 'live' | 'paused' | 'archived';
  openrtb?: '2.5' | '2.6';
  timeout: number;
  media: string[];
  env: string[];
  floor: string;
  share: string;
  terms: 'net30' | 'net45' | 'net60';
  geoAllow?: string[];
  geoDeny?: string[];
  cert?: string;
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** By warehouse partner name (reports-data/catalog.ts PARTNER_NAMES). */
const SSP_DETAILS: Record<string, PartnerDetails> = {
  'Nimbus Exchange': { company: 'Rheinland AdTech GmbH', manager: 'Lucía Fernández', timeout: 250, media: ['banner', 'video', 'native'], env: ['site', 'app'], floor: '0.40', share: '15', terms: 'net45', cert: 'a1b2c3d4e5f60718' },
  'BlueOrbit DSP': { company: 'Spree Demand Platform GmbH', manager: 'Lucía Fernández', timeout: 300, media: ['banner', 'video'], env: ['site', 'app', 'ctv'], floor: '0.35', share: '12.5', terms: 'net60' },
  'Kappa Media': { company: 'Lumière Régie Numérique SAS', manager: 'Sergio Domínguez', timeout: 300, media: ['banner', 'native'], env: ['site'], floor: '0.25', share: '18', terms: 'net30', geoAllow: ['FR', 'BE', 'CH'] },
  'Vertex Ads': { company: 'Grachten Programmatic B.V.', manager: 'Sergio Domínguez', timeout: 200, media: ['banner'], env: ['site', 'app'], floor: '0.30', share: '14', terms: 'net45' },
  'Helios Bidder': { company: 'Atlantic Demand Partners Inc.', manager: 'Elena Vázquez', timeout: 350, media: ['banner', 'video', 'native', 'audio'], env: ['site', 'app', 'ctv'], floor: '0.50', share: '10', terms: 'net60', geoDeny: ['RU'] },
  'Quanta DSP': { company: 'Liffey Data Exchange Ltd', manager: 'Elena Vázquez', timeout: 250, media: ['banner', 'native'], env: ['site', 'app'], floor: '0.30', share: '15', terms: 'net45' },
  'Aurora Demand': { company: 'Öresund Ad Systems AB', manager: 'Lucía Fernández', status: 'testing', timeout: 400, media: ['video'], env: ['app', 'ctv'], floor: '1.20', share: '20', terms: 'net30' },
  'Polar Trade Desk': { company: 'Öresund Ad Systems AB', manager: 'Núria Campos', timeout: 300, media: ['banner', 'video'], env: ['site', 'app'], floor: '0.45', share: '12', terms: 'net45' },
  'Cobalt Network': { company: 'Isar Video Monetization AG', manager: 'Núria Campos', timeout: 300, media: ['banner', 'video', 'native'], env: ['site', 'app'], floor: '0.20', share: '22', terms: 'net60', cert: 'c0ba17c0ba17c0ba' },
  'Lumen Exchange': { company: 'Lumière Régie Numérique SAS', manager: 'Sergio Domínguez', timeout: 250, media: ['banner'], env: ['site'], floor: '0.25', share: '16', terms: 'net45' },
  'Zenith Ads': { company: 'Rheinland AdTech GmbH', manager: 'Iñaki Etxeberria', status: 'paused', timeout: 300, media: ['banner', 'native'], env: ['site', 'app'], floor: '0.30', share: '15', terms: 'net45' },
  'Mosaic DSP': { company: 'Grachten Programmatic B.V.', manager: 'Iñaki Etxeberria', timeout: 200, media: ['banner', 'video'], env: ['site'], floor: '0.35', share: '13.5', terms: 'net30' },
  'Atlas Bidder': { company: 'Atlantic Demand Partners Inc.', manager: 'Elena Vázquez', timeout: 300, media: ['banner', 'video', 'native'], env: ['site', 'app'], floor: '0.40', share: '11', terms: 'net60' },
  'Ember Media': { company: 'Spree Demand Platform GmbH', manager: 'Lucía Fernández', timeout: 250, media: ['banner', 'native'], env: ['app'], floor: '0.55', share: '17', terms: 'net45' },
  'Orion Network': { company: 'Isar Video Monetization AG', manager: 'Núria Campos', timeout: 500, media: ['video'], env: ['ctv', 'app'], floor: '2.50', share: '20', terms: 'net60', cert: '0r10n0r10n0r10n0' },
  'Amazon TAM': { manager: 'Lucía Fernández', timeout: 250, media: ['banner', 'video'], env: ['site', 'app'], floor: '0.60', share: '10', terms: 'net60', cert: 'f5ab79cb980f11d1' },
};

/** Partners of the performance side (not in the warehouse's SSP data). */
const PERFORMANCE_PARTNERS: (PartnerDetails & { name: string; type: 'DSP' | 'network' })[] = [
  { name: 'Tramuntana Performance', type: 'network', company: 'Rhône Mobile Performance SAS', manager: 'Pablo Navarro Gil', timeout: 300, media: ['banner', 'native'], env: ['site', 'app'], floor: '0.15', share: '25', terms: 'net30' },
  { name: 'Garbí Affiliates', type: 'network', company: 'Andalucía Native Ads S.L.', manager: 'Pablo Navarro Gil', timeout: 400, media: ['native'], env: ['site'], floor: '0.10', share: '30', terms: 'net30', geoAllow: ['ES', 'PT'] },
  { name: 'Levante Leads', type: 'DSP', company: 'Levante Streaming Networks S.L.', manager: 'Raúl Moreno', status: 'testing', timeout: 300, media: ['banner', 'video'], env: ['app'], floor: '0.20', share: '20', terms: 'net45' },
  { name: 'Cierzo Installs', type: 'DSP', company: 'Mediterránea de Publicidad Digital S.A.', manager: 'Raúl Moreno', status: 'draft', timeout: 300, media: ['banner'], env: ['app'], floor: '0.05', share: '35', terms: 'net30' },
];

export async function seedDemoPartners(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: 'demo_partners_seeded', value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const owners = new Map((await t.select({ id: companies.id, name: companies.legalName }).from(companies)).map((c) => [c.name, c.id]));
    const [lead] = await t.select({ id: users.id }).from(users).where(sql`${users.mail} like 'demand.lead@%'`);
    const values = (name: string, d: PartnerDetails) => ({
      companyId: d.company ? (owners.get(d.company) ?? null) : null,
      accountManager: d.manager,
      status: d.status ?? 'live',
      endpointUrl: `https://rtb.${slug(name)}.example/openrtb2/auction`,
      openrtbVersion: d.openrtb ?? '2.6',
      timeoutMs: d.timeout,
      mediaTypes: d.media,
      environments: d.env,
      sizes: d.media.includes('video') ? ['300x250', '640x360', '1280x720'] : ['300x250', '728x90', '320x50'],
      consentFrameworks: ['tcf_v2', 'gpp'],
      geoAllow: d.geoAllow ?? [],
      geoDeny: d.geoDeny ?? [],
      defaultFloor: d.floor,
      revenueSharePct: d.share,
      paymentTerms: d.terms,
      billingEmail: `billing@${slug(name)}.example`,
      sellerIdAtPartner: `bo-${slug(name).slice(0, 6)}-${name.length * 97}`,
      partnerDomain: `${slug(name)}.example`,
      certificationAuthorityId: d.cert ?? null,
      createdBy: lead?.id ?? null,
      updatedBy: lead?.id ?? null,
    });
    const existing = await t.select({ id: demandPartners.id, name: demandPartners.name }).from(demandPartners);
    for (const p of existing) {
      const d = SSP_DETAILS[p.name];
      if (d) await t.update(demandPartners).set(values(p.name, d)).where(sql`${demandPartners.id} = ${p.id}`);
    }
    for (const [i, p] of PERFORMANCE_PARTNERS.entries()) {
      const at = sql`now() - make_interval(days => ${40 - i * 7}::int)`;
      const [row] = await t
        .insert(demandPartners)
        .values({ name: p.name, side: 'performance', type: p.type, qpsCap: 5000 + i * 2500, ...values(p.name, p), createdAt: at, updatedAt: at })
        .onConflictDoNothing()
        .returning();
      if (!row) continue;
      await t.insert(auditLog).values({
        actorId: lead?.id ?? null,
        ip: '10.20.0.41',
        action: 'demand_partner.create',
        entity: 'demand_partner',
        entityId: String(row.id),
        after: { name: row.name, side: row.side, status: row.status, qps_cap: row.qpsCap },
        at,
      });
    }
  });
}
