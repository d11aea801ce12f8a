/**
 * Demo endpoints: the supply and demand connections of some demo companies, in several regions,
 * OpenRTB versions and formats, one paused. Their tokens are random and never shown (rotate one to
 * get a token); the seed writes their creation to the audit log like the API would.
 */
import { sql } from 'drizzle-orm';
import { newEndpointToken } from '../modules/endpoints/token.ts';
import type { Db } from './client.ts';
import { auditLog, companies, endpoints, settings, users } from './schema.ts';

interface DemoEndpoint {
  name: string;
  side: 'supply' | 'demand';
  company: string;
  region: string;
  url: string;
  openrtb: '2.5' | '2.6';
  qps: number;
  formats: string[];
  active: boolean;
}

export const DEMO_ENDPOINTS: readonly DemoEndpoint[] = [
  { name: 'IberiaMX prebid server', side: 'supply', company: 'Iberia Media Exchange S.L.', region: 'eu-west', url: 'https://pbs.iberiamx.example/openrtb2/auction', openrtb: '2.6', qps: 40000, formats: ['banner', 'video', 'native'], active: true },
  { name: 'MedPub web inventory', side: 'supply', company: 'Mediterránea de Publicidad Digital S.A.', region: 'eu-west', url: 'https://rtb.medpub.example/bid', openrtb: '2.5', qps: 12000, formats: ['banner'], active: true },
  { name: 'LevanteTV CTV', side: 'supply', company: 'Levante Streaming Networks S.L.', region: 'eu-central', url: 'https://ctv.levantetv.example/ortb', openrtb: '2.6', qps: 8000, formats: ['video'], active: true },
  { name: 'AndaNative feed', side: 'supply', company: 'Andalucía Native Ads S.L.', region: 'eu-west', url: 'https://ads.andanative.example/openrtb', openrtb: '2.5', qps: 5000, formats: ['native'], active: false },
  { name: 'RheinAds EU bidder', side: 'demand', company: 'Rheinland AdTech GmbH', region: 'eu-central', url: 'https://bid.rheinads.example/v2/openrtb', openrtb: '2.6', qps: 60000, formats: ['banner', 'video'], active: true },
  { name: 'SpreeDSP Frankfurt', side: 'demand', company: 'Spree Demand Platform GmbH', region: 'eu-central', url: 'https://fra.spreedsp.example/rtb', openrtb: '2.6', qps: 80000, formats: ['banner', 'native', 'video'], active: true },
  { name: 'IsarVideo VAST demand', side: 'demand', company: 'Isar Video Monetization AG', region: 'eu-central', url: 'https://vast.isarvideo.example/openrtb2', openrtb: '2.5', qps: 15000, formats: ['video', 'audio'], active: true },
  { name: 'Lumière Paris', side: 'demand', company: 'Lumière Régie Numérique SAS', region: 'eu-west', url: 'https://rtb.lumiere-ads.example/bid', openrtb: '2.5', qps: 20000, formats: ['banner'], active: true },
  { name: 'RhôneMobile app supply', side: 'supply', company: 'Rhône Mobile Performance SAS', region: 'eu-west', url: 'https://sdk.rhonemobile.example/ortb', openrtb: '2.6', qps: 25000, formats: ['banner', 'video', 'native'], active: true },
  { name: 'Navigli publisher sync', side: 'supply', company: 'Navigli Media S.r.l.', region: 'eu-central', url: 'https://rtb.navigli.example/auction', openrtb: '2.5', qps: 7000, formats: ['banner'], active: true },
  { name: 'GrachtenPX Amsterdam', side: 'demand', company: 'Grachten Programmatic B.V.', region: 'eu-west', url: 'https://ams.grachtenpx.example/openrtb', openrtb: '2.6', qps: 45000, formats: ['banner', 'video'], active: true },
  { name: 'LiffeyDX Dublin', side: 'demand', company: 'Liffey Data Exchange Ltd', region: 'eu-west', url: 'https://dub.liffeydx.example/bid', openrtb: '2.6', qps: 30000, formats: ['banner', 'native'], active: true },
  { name: 'ADP New York', side: 'demand', company: 'Atlantic Demand Partners Inc.', region: 'us-east', url: 'https://nyc.adp.example/openrtb2/bid', openrtb: '2.6', qps: 100000, formats: ['banner', 'video', 'native', 'audio'], active: true },
  { name: 'ADP Oregon', side: 'demand', company: 'Atlantic Demand Partners Inc.', region: 'us-west', url: 'https://pdx.adp.example/openrtb2/bid', openrtb: '2.6', qps: 50000, formats: ['banner', 'video'], active: true },
  { name: 'OresundAds Singapore', side: 'demand', company: 'Öresund Ad Systems AB', region: 'apac', url: 'https://sg.oresundads.example/rtb', openrtb: '2.5', qps: 10000, formats: ['banner'], active: false },
];

export async function seedDemoEndpoints(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: 'demo_endpoints_seeded', value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const owners = await t.select({ id: companies.id, name: companies.legalName }).from(companies);
    const [tech] = await t.select({ id: users.id }).from(users).where(sql`${users.mail} like 'tech@%'`);
    for (const [i, e] of DEMO_ENDPOINTS.entries()) {
      const company = owners.find((o) => o.name === e.company);
      if (!company) continue;
      const at = sql`now() - make_interval(days => ${45 - i * 3}::int)`;
      const { hash, hint } = newEndpointToken();
      const [row] = await t
        .insert(endpoints)
        .values({
          name: e.name,
          side: e.side,
          companyId: company.id,
          region: e.region,
          url: e.url,
          openrtbVersion: e.openrtb,
          qpsCap: e.qps,
          formats: e.formats,
          active: e.active,
          tokenHash: hash,
          tokenHint: hint,
          tokenRotatedAt: at,
          createdBy: tech?.id ?? null,
          updatedBy: tech?.id ?? null,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await t.insert(auditLog).values({
        actorId: tech?.id ?? null,
        ip: '10.20.0.40',
        action: 'endpoint.create',
        entity: 'endpoint',
        entityId: String(row!.id),
        after: {
          id: row!.id,
          name: e.name,
          side: e.side,
          company_id: company.id,
          region: e.region,
          url: e.url,
          openrtb_version: e.openrtb,
          qps_cap: e.qps,
          formats: e.formats,
          active: e.active,
          token_hint: hint,
          token_rotated_at: row!.tokenRotatedAt.toISOString(),
          version: 1,
        },
        at,
      });
    }
  });
}
