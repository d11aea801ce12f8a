/**
 * Demo apps for the SDK builder and the app tracking manager (issue 25;
 * docs/decisions/041-sdk-and-app-tracking.md). The generated warehouse already has app sites
 * (`com.<publisher>.app`); this gives each a profile (platform, store id) and adds four apps with
 * real-looking bundles, ad units, developer domains and a past app-ads.txt check each (verified,
 * our line missing, unreachable, never checked), so both screens show what they are for. The two
 * builders' examples are for two of these apps (com.nimbusnews.reader, com.runagames.puzzle).
 * Runs after the warehouse is loaded; a second run changes nothing.
 */
import { ENVIRONMENTS, FORMATS, SIZES } from '@backoffice/core/reports';
import type { Database } from './client.ts';
import { query } from '../reports-data/sql.ts';

const APP_ENV = ENVIRONMENTS.indexOf('app') + 1;
const format = (f: (typeof FORMATS)[number]) => FORMATS.indexOf(f) + 1;
const size = (s: (typeof SIZES)[number]) => SIZES.indexOf(s) + 1;

interface DemoApp {
  bundle: string;
  platform: 'ios' | 'android';
  storeId: string;
  developerDomain: string;
  /** Which publisher owns it: the first whose name has one of these words. */
  publisherWords: string[];
  /** The ad units' code prefix (`nimbusnews_ios/home_320x50`). */
  unitPrefix: string;
  units: [string, (typeof FORMATS)[number], (typeof SIZES)[number]][];
  check: { status: 'verified' | 'missing_line' | 'unreachable' | 'unchecked'; daysAgo: number; detail: object | null };
}

export const DEMO_APPS: readonly DemoApp[] = [
  {
    bundle: 'com.nimbusnews.reader',
    unitPrefix: 'nimbusnews_ios',
    platform: 'ios',
    storeId: 'id1482750917',
    developerDomain: 'nimbusnews.example',
    publisherWords: ['News'],
    units: [['home_320x50', 'banner', '320x50'], ['article_300x250', 'banner', '300x250'], ['gallery_interstitial', 'banner', '320x50'], ['feed_native', 'native', 'fluid']],
    check: { status: 'verified', daysAgo: 2, detail: { url: 'https://nimbusnews.example/app-ads.txt', http_status: 200, records: 41, malformed: [] } },
  },
  {
    bundle: 'com.runagames.puzzle',
    unitPrefix: 'runapuzzle_android',
    platform: 'android',
    storeId: 'com.runagames.puzzle',
    developerDomain: 'runagames.example',
    publisherWords: ['Puzzles', 'Games'],
    units: [['rewarded_lives', 'video', '1280x720'], ['level_320x50', 'banner', '320x50'], ['app_open', 'banner', '320x50']],
    check: { status: 'missing_line', daysAgo: 1, detail: { url: 'https://runagames.example/app-ads.txt', http_status: 200, records: 17, malformed: [{ line: 9, reason: 'too_few_fields' }] } },
  },
  {
    bundle: 'es.meteoclaro.tiempo',
    unitPrefix: 'meteoclaro_ios',
    platform: 'ios',
    storeId: 'id1093264118',
    developerDomain: 'meteoclaro.example',
    publisherWords: ['Weather'],
    units: [['forecast_320x50', 'banner', '320x50'], ['radar_interstitial', 'banner', '320x50']],
    check: { status: 'unreachable', daysAgo: 5, detail: { url: 'https://meteoclaro.example/app-ads.txt', http_status: 404 } },
  },
  {
    bundle: 'com.pixelracer.drift',
    unitPrefix: 'pixelracer_android',
    platform: 'android',
    storeId: 'com.pixelracer.drift',
    developerDomain: 'pixelracer.example',
    publisherWords: ['Motors', 'Games'],
    units: [['garage_rewarded', 'video', '1280x720'], ['race_end_interstitial', 'banner', '320x50'], ['menu_320x50', 'banner', '320x50']],
    check: { status: 'unchecked', daysAgo: 0, detail: null },
  },
];

/** Seeds the demo apps and the generated apps' profiles; answers how many apps it added. */
export async function seedDemoApps(database: Database, now = Date.now()): Promise<number> {
  const publishers = await query<{ id: number; name: string }>(database, `SELECT id, name FROM publishers WHERE status <> 'archived' ORDER BY id LIMIT 400`);
  if (publishers.length === 0) return 0;
  let added = 0;
  for (const app of DEMO_APPS) {
    const [exists] = await query<{ id: number }>(database, 'SELECT id FROM sites WHERE name = $1 AND environment_id = $2', [app.bundle, APP_ENV]);
    if (exists) continue;
    const owner = publishers.find((p) => app.publisherWords.some((w) => p.name.includes(w))) ?? publishers[added % publishers.length]!;
    const checkedAt = app.check.status === 'unchecked' ? null : new Date(now - app.check.daysAgo * 86_400_000 - 3 * 3_600_000).toISOString();
    const [site] = await query<{ id: number }>(
      database,
      `INSERT INTO sites (publisher_id, name, environment_id, ads_txt_status, ads_txt_checked_at, ads_txt_detail) VALUES ($1, $2, $3, $4, $5::timestamptz, $6::jsonb) RETURNING id`,
      [owner.id, app.bundle, APP_ENV, app.check.status, checkedAt, app.check.detail === null ? null : JSON.stringify(app.check.detail)],
    );
    await query(
      database,
      `INSERT INTO ad_units (site_id, name, format_id, size_id) SELECT $1, n, f, s FROM unnest($2::text[], $3::int2[], $4::int2[]) AS u(n, f, s)`,
      [site!.id, app.units.map(([n]) => `${app.unitPrefix}/${n}`), app.units.map(([, f]) => format(f)), app.units.map(([, , s]) => size(s))],
    );
    await query(database, `INSERT INTO app_profiles (site_id, platform, store_id, developer_domain) VALUES ($1, $2, $3, $4) ON CONFLICT (site_id) DO NOTHING`, [
      site!.id,
      app.platform,
      app.storeId,
      app.developerDomain,
    ]);
    added++;
  }
  // The generated apps: alternately iOS (an App Store id derived from the site id) and Android
  // (the package name); their developer domain is left unknown, so the check reads the publisher's.
  await query(
    database,
    `INSERT INTO app_profiles (site_id, platform, store_id)
     SELECT s.id, CASE WHEN s.id % 2 = 1 THEN 'ios' ELSE 'android' END,
            CASE WHEN s.id % 2 = 1 THEN 'id' || (1000000000 + (s.id * 7919) % 899999999)::text ELSE s.name END
     FROM sites s WHERE s.environment_id = $1 AND NOT EXISTS (SELECT 1 FROM app_profiles ap WHERE ap.site_id = s.id)`,
    [APP_ENV],
  );
  return added;
}
