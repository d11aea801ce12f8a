/**
 * Demo price floors (`/partners/floors`): a rule set over the demo warehouse's publishers, sites,
 * ad units, partners and a deal, saved as three versions by the SSP supply lead (an initial
 * import, a raise of video floors, a removal), so that the screen, its tester, its comparison
 * and its restore have something real to show after `npm start`. Runs once (when no version
 * exists), after the warehouse and the demo partners are loaded.
 */
import { floorKeys, type FloorKey, type FloorRule } from '@backoffice/core/floors';
import { loadRules, writeVersion } from '../modules/floors/store.ts';
import { query } from '../reports-data/sql.ts';
import type { Database } from './client.ts';

const rule = (
  keys: Partial<Record<FloorKey, string>>,
  cpm: string,
  extra: Partial<FloorRule> = {},
): FloorRule => ({
  keys: floorKeys(keys),
  cpm,
  currency: 'USD',
  type: 'hard',
  ...extra,
});

export async function seedDemoFloors(database: Database): Promise<void> {
  const [{ n } = { n: 0 }] = await query<{ n: number }>(
    database,
    'SELECT count(*)::int AS n FROM floor_versions',
  );
  if (Number(n) > 0) return;
  const pubs = await query<{ id: number }>(
    database,
    "SELECT id FROM publishers WHERE status = 'live' ORDER BY id LIMIT 6",
  );
  if (pubs.length < 3) return;
  const units = await query<{ site: string; unit: string; publisher_id: number }>(
    database,
    `SELECT DISTINCT ON (s.publisher_id) s.name AS site, u.name AS unit, s.publisher_id
       FROM sites s JOIN ad_units u ON u.site_id = s.id WHERE s.publisher_id = ANY($1::int4[]) ORDER BY s.publisher_id, s.id, u.id`,
    [pubs.map((p) => p.id)],
  );
  const partners = await query<{ id: number }>(
    database,
    "SELECT id FROM demand_partners WHERE side = 'ssp' ORDER BY id LIMIT 3",
  );
  const [deal] = await query<{ code: string }>(database, 'SELECT code FROM deals ORDER BY id LIMIT 1');
  const [lead] = await query<{ id: number }>(
    database,
    "SELECT id FROM users WHERE mail LIKE 'ssp.lead@%' LIMIT 1",
  );
  const who = { userId: lead?.id ?? null, simulatedById: null, simulatedRoleId: null, ip: null };
  const p = pubs.map((x) => String(x.id));

  const rules: FloorRule[] = [
    // The house floors by media type, then by country for the biggest markets.
    rule({ media_type: 'banner' }, '0.15'),
    rule({ media_type: 'video' }, '1.2'),
    rule({ media_type: 'native' }, '0.25'),
    rule({ media_type: 'audio' }, '0.6'),
    rule({ country: 'US', media_type: 'banner' }, '0.35'),
    rule({ country: 'GB', media_type: 'banner' }, '0.3'),
    rule({ country: 'ES', media_type: 'banner' }, '0.22'),
    rule({ country: 'US', media_type: 'video' }, '2.4'),
    rule({ device: 'ctv' }, '3.5'),
    rule({ device: 'ctv', country: 'US' }, '5'),
    rule({ size: '300x600' }, '0.45'),
    rule({ size: '970x250' }, '0.55'),
    // Publisher agreements.
    rule({ publisher: p[0] }, '0.4'),
    rule({ publisher: p[0], country: 'ES', size: '300x250' }, '0.65'),
    rule({ publisher: p[0], media_type: 'video' }, '2.1'),
    rule({ publisher: p[1] }, '0.3', { currency: 'EUR' }),
    rule({ publisher: p[1], device: 'phone' }, '0.25', { currency: 'EUR' }),
    rule({ publisher: p[2], media_type: 'video' }, '1.8'),
    rule({ publisher: p[2], country: 'US' }, '0.5'),
    // A test of a soft floor: bids below are flagged, not dropped.
    rule({ publisher: p[3] ?? p[0], size: '320x50' }, '0.12', { type: 'soft' }),
  ];
  for (const u of units.slice(0, 4)) {
    rules.push(rule({ publisher: String(u.publisher_id), site: u.site }, '0.45'));
    rules.push(rule({ publisher: String(u.publisher_id), site: u.site, ad_unit: u.unit }, '0.8'));
  }
  partners.forEach((dp, i) =>
    rules.push(rule({ demand_partner: String(dp.id), media_type: 'video' }, ['1.5', '1.35', '1.1'][i]!)),
  );
  if (deal) rules.push(rule({ deal: deal.code }, '4.5'));
  const testRule = rule({ site: 'staging.example', device: 'desktop' }, '0.01', { type: 'soft' });
  rules.push(testRule);

  await writeVersion(
    database,
    {
      source: 'import',
      comment: 'Initial floors from the 2026 rate card',
      added: rules,
      changed: [],
      removed: [],
    },
    who,
  );
  const v1 = await loadRules(database);
  const byCpm = (keys: Partial<Record<FloorKey, string>>) =>
    v1.find((r) => JSON.stringify(r.keys) === JSON.stringify(floorKeys(keys)))!;
  const video = byCpm({ media_type: 'video' });
  const usVideo = byCpm({ country: 'US', media_type: 'video' });
  await writeVersion(
    database,
    {
      source: 'edit',
      comment: 'Q4: video floors up 15 %',
      added: [],
      changed: [
        { id: video.id, after: { ...video, cpm: '1.38' } },
        { id: usVideo.id, after: { ...usVideo, cpm: '2.76' } },
      ],
      removed: [],
    },
    who,
  );
  const staging = v1.find((r) => r.keys.site === 'staging.example')!;
  await writeVersion(
    database,
    { source: 'delete', comment: 'The staging site is gone', added: [], changed: [], removed: [staging.id] },
    who,
  );
}
