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
import { demandPartners, precreation, publishers } from './schema-reports.ts';

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

/** Publishers of the performance side (the warehouse's are the SSP's). */
const PERFORMANCE_PUBLISHERS = [
  { name: 'Ofertas Costa Brava', sellerId: 'perf-0001', sellerDomain: 'ofertascostabrava.example', manager: 'Pablo Navarro Gil', revenueSharePct: '65', minPayout: '50', billingEmail: 'pagos@ofertascostabrava.example' },
  { name: 'Recetas de la Abuela', sellerId: 'perf-0002', sellerDomain: 'recetasabuela.example', manager: 'Pablo Navarro Gil', revenueSharePct: '70', minPayout: '50', billingEmail: 'admin@recetasabuela.example' },
  { name: 'Motor Ibérico Apps', sellerId: 'perf-0003', sellerDomain: 'motoriberico.example', manager: 'Raúl Moreno', revenueSharePct: '60', minPayout: '100', billingEmail: 'finance@motoriberico.example' },
  { name: 'Viajes Cantábrico Network', sellerId: 'perf-0004', sellerType: 'INTERMEDIARY', sellerDomain: null, manager: 'Raúl Moreno', revenueSharePct: '55', minPayout: '200', billingEmail: 'billing@cantabrico.example' },
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
    // The warehouse's publishers (SSP side): an account manager, their share and terms.
    await t.execute(sql`
      UPDATE publishers SET
        manager = (ARRAY['Marco Bianchi', 'Montserrat Puig', 'Jordi Ferrer', 'Aitana Romero'])[id % 4 + 1],
        revenue_share_pct = 60 + (id % 5) * 5,
        payment_terms = (ARRAY['net30', 'net45', 'net60'])[id % 3 + 1],
        min_payout = 50 + (id % 4) * 50,
        billing_email = 'payments@' || coalesce(seller_domain, 'publisher.example'),
        created_by = ${lead?.id ?? null}, updated_by = ${lead?.id ?? null}
      WHERE side = 'ssp'`);
    for (const [i, p] of PERFORMANCE_PUBLISHERS.entries()) {
      const at = sql`now() - make_interval(days => ${30 - i * 6}::int)`;
      await t
        .insert(publishers)
        .values({ ...p, side: 'performance', status: 'live', currency: 'EUR', paymentTerms: 'net30', createdBy: lead?.id ?? null, updatedBy: lead?.id ?? null, createdAt: at, updatedAt: at })
        .onConflictDoNothing();
    }
    // Onboarding drafts in each state (the created one points at a partner made above).
    const [aurora] = await t.select({ id: demandPartners.id }).from(demandPartners).where(sql`${demandPartners.name} = 'Aurora Demand'`);
    const drafts = [
      { name: 'Noticias del Duero', side: 'performance', target: 'publisher', state: 'draft', sellerId: 'perf-0101', sellerDomain: 'noticiasduero.example', revenueSharePct: '65', contractSigned: true, contactEmail: 'ads@noticiasduero.example' },
      { name: 'Guía Gastronómica Norte', side: 'performance', target: 'publisher', state: 'in_review', sellerId: 'perf-0102', sellerDomain: 'guiagastronorte.example', revenueSharePct: '70', contractSigned: true, billingInfo: true, adsTxtVerified: true, testTraffic: true, contactEmail: 'hola@guiagastronorte.example' },
      { name: 'Clickfarm Media', side: 'performance', target: 'publisher', state: 'rejected', sellerId: 'perf-0103', sellerDomain: 'clickfarm.example', revenueSharePct: '80', rejectReason: 'Invalid traffic in the test week (62 % of clicks from data centres)', contactEmail: 'sales@clickfarm.example' },
      { name: 'Balearic Bidder', side: 'ssp', target: 'demand_partner', state: 'in_review', endpointUrl: 'https://rtb.balearicbidder.example/openrtb2', qpsCap: 6000, contractSigned: true, billingInfo: true, testTraffic: false, contactEmail: 'partners@balearicbidder.example' },
      { name: 'Aurora Demand', side: 'ssp', target: 'demand_partner', state: 'created', endpointUrl: 'https://rtb.aurorademand.example/openrtb2/auction', qpsCap: 4000, contractSigned: true, billingInfo: true, adsTxtVerified: true, testTraffic: true, createdEntityId: aurora?.id ?? null },
    ];
    for (const [i, d] of drafts.entries()) {
      const at = sql`now() - make_interval(days => ${12 - i * 2}::int)`;
      const [row] = await t.insert(precreation).values({ ...d, createdBy: lead?.id ?? null, updatedBy: lead?.id ?? null, createdAt: at, updatedAt: at }).returning();
      await t.insert(auditLog).values({ actorId: lead?.id ?? null, ip: '10.20.0.41', action: 'precreation.create', entity: 'precreation', entityId: String(row!.id), after: { name: d.name, target: d.target }, at });
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
