/**
 * The SDK builder and the app tracking manager through the HTTP API (docs/decisions/041): the
 * render route gives what the screen renders, with the rules at their paths and lines; the iOS
 * property list is checked against Apple's PropertyList-1.0 grammar; versions save for apps; the
 * ACL (`/v1/sdk` read vs write, and a builders-only role refused); the apps list (platform,
 * publisher, bundle, app-ads.txt status), the profile (its rules with the form's keys, 409 when
 * stale, audited), and the app-ads.txt check through the publishers' ads.txt check against a
 * local HTTP server standing in for the developers' websites; the demo apps.
 */
import { appTrackingBuilder, type AppTrackingConfig } from '@backoffice/core/builders/app-tracking';
import type { BuilderRenderAnswer, BuilderVersionDto } from '@backoffice/core/builders/common';
import { sdkBuilder, type SdkConfig } from '@backoffice/core/builders/sdk';
import type { SdkApp, SdkAppPage } from '@backoffice/core/sdk-apps';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APPS, seedDemoApps } from '../src/db/demo-apps.ts';
import { httpAdsTxtFetcher } from '../src/modules/publishers/ads-txt-check.ts';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const SDK = '/v1/builders/sdk';
const TRACKING = '/v1/builders/app-tracking';
const APPS = '/v1/sdk/apps';

describe('SDK builder and app tracking manager', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let reader: Record<string, string>;
  let buildersOnly: Record<string, string>;
  let iosApp = 0;
  let androidApp = 0;
  let webSite = 0;
  /** The stand-in for developers' websites: path `/<host>/<file>` → [status, body]. */
  const files = new Map<string, [number, string]>();
  const requested: string[] = [];
  let server: http.Server;
  const db = () => t.app.ctx.database;
  const [newsIos, puzzleAndroid] = sdkBuilder.examples().map((e) => e.config) as [SdkConfig, SdkConfig];
  const [trackingIos, trackingAndroid] = appTrackingBuilder.examples().map((e) => e.config) as [AppTrackingConfig, AppTrackingConfig];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requested.push(req.url ?? '');
      const [status, text] = files.get(req.url ?? '') ?? [404, 'not found'];
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    t = await createTestApp();
    // The check reads https://<domain>/app-ads.txt; here the same HTTP fetcher reads it from the local server.
    t.app.ctx.adsTxtFetcher = (url) => {
      const u = new URL(url);
      return httpAdsTxtFetcher(`http://127.0.0.1:${port}/${u.host}${u.pathname}`);
    };
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'sdk.reader@adtech.example', { '/v1/sdk': ['read'] })).headers;
    buildersOnly = (await userWithAcl(t.app, 'sdk.builders@adtech.example', { '/v1/builders': ['*'] })).headers;
    const pubs = await query<{ id: number }>(
      db(),
      `INSERT INTO publishers (name, side, seller_id, seller_domain) VALUES ('Nimbus News Media', 'ssp', 'pub-sdk-01', 'nimbusmedia.example'), ('Runa Games Studio', 'ssp', 'pub-sdk-02', 'runagames.example') RETURNING id`,
    );
    const sites = await query<{ id: number }>(
      db(),
      `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'com.nimbusnews.reader', 2), ($2, 'com.runagames.puzzle', 2), ($1, 'nimbusmedia.example', 1) RETURNING id`,
      [pubs[0]!.id, pubs[1]!.id],
    );
    [iosApp, androidApp, webSite] = sites.map((s) => s.id) as [number, number, number];
    await query(db(), `INSERT INTO app_profiles (site_id, platform, store_id, developer_domain) VALUES ($1, 'ios', 'id1482750917', 'nimbusnews.example')`, [iosApp]);
    await query(db(), `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'nimbusnews_ios/home_320x50', 1, 3), ($1, 'nimbusnews_ios/feed_native', 3, 12)`, [iosApp]);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const post = (url: string, payload: unknown, headers = tech) => t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  const put = (url: string, payload: unknown, headers = tech) => t.app.inject({ method: 'PUT', url, headers, payload: payload as Record<string, unknown> });
  const get = (url: string, headers = tech) => t.app.inject({ method: 'GET', url, headers });
  const render = async (url: string, payload: unknown) => {
    const res = await post(`${url}/render`, payload);
    expect(res.statusCode, res.body).toBe(200);
    return body<BuilderRenderAnswer>(res).data;
  };

  describe('render', () => {
    it('renders the SDK configuration exactly as the screen does, and its rules at their paths and lines', async () => {
      for (const config of [newsIos, puzzleAndroid]) {
        const a = await render(SDK, { config });
        expect(a.output).toEqual(sdkBuilder.render(config));
        expect(a.valid).toBe(true);
      }
      const bad = structuredClone(newsIos);
      bad.placements[2]!.refresh_seconds = 30;
      bad.placements[1]!.id = 'home_banner';
      const a = await render(SDK, { config: bad });
      expect(a.valid).toBe(false);
      const refresh = a.issues.find((i) => i.path === 'placements.2.refresh_seconds')!;
      expect(refresh).toMatchObject({ key: 'sdk.placement.refresh_not_allowed', severity: 'error' });
      expect(a.output!.code.split('\n')[refresh.line! - 1]).toContain('"refresh_seconds": 30');
      expect(a.issues.find((i) => i.path === 'placements.1.id')).toMatchObject({ key: 'sdk.placement.id_duplicate', params: { first: 1 } });
    });

    it('reads edited SDK JSON back, and answers unreadable JSON with its syntax errors and no output', async () => {
      const code = sdkBuilder.render(puzzleAndroid).code.replace('"amount": 3', '"amount": 0');
      const a = await render(SDK, { code });
      expect((a.config as SdkConfig).placements[0]!.reward).toEqual({ name: 'Lives', amount: 0 });
      expect(a.issues).toEqual([expect.objectContaining({ path: 'placements.0.reward.amount', key: 'sdk.placement.reward_amount_range' })]);
      const broken = await render(SDK, { code: code.replace('"platform": "android",', '"platform": "android"') });
      expect(broken).toMatchObject({ output: null, valid: false, config: null });
      expect(broken.issues[0]).toMatchObject({ source: 'syntax', key: 'sdk.json.comma_expected', line: 3 });
    });

    it('refuses a configuration that is not the SDK file’s shape, at its paths', async () => {
      const res = await post(`${SDK}/render`, { config: { ...newsIos, request_timeout_ms: '3000', placements: [{ ...newsIos.placements[0], format: 'video' }] } });
      expect(res.statusCode).toBe(400);
      expect(body(res).errors).toMatchObject({ 'config.request_timeout_ms': 'error.invalid_type', 'config.placements.0.format': 'error.invalid_value' });
    });

    it('checks the iOS property list against Apple’s PropertyList-1.0 grammar, and renders Android as JSON', async () => {
      const ios = await render(TRACKING, { config: trackingIos });
      expect(ios.output).toEqual(appTrackingBuilder.render(trackingIos));
      expect(ios).toMatchObject({ valid: true, issues: [] });
      const android = await render(TRACKING, { config: trackingAndroid });
      expect(android.output!.language).toBe('json');
      expect(android.valid).toBe(true);
      // A dict whose key has no value: the builder's reader refuses it (not the property list it writes).
      const code = appTrackingBuilder.render(trackingIos).code.replace('<key>StoreId</key>', '<key>StoreId</key>\n    <key>Orphan</key>');
      const broken = await render(TRACKING, { code });
      expect(broken.valid).toBe(false);
      expect(broken.issues.some((i) => i.source === 'syntax' && i.key === 'app_tracking.plist_structure')).toBe(true);
      // What the builder's reader lets through, the grammar does not: an attribute the DTD does not declare.
      const typed = appTrackingBuilder.render(trackingIos).code.replace('<plist version="1.0">', '<plist version="1.0" encoding="UTF-8">');
      const bySchema = await render(TRACKING, { code: typed });
      expect(bySchema.config).toEqual(trackingIos);
      expect(bySchema.valid).toBe(false);
      expect(bySchema.issues).toEqual([expect.objectContaining({ source: 'schema', line: 4, text: expect.stringContaining('Invalid attribute encoding for element plist') })]);
    });

    it('puts a pasted bad SKAdNetwork id’s error at its line of the property list', async () => {
      const config = { ...trackingIos, skadnetwork_ids: ['cstr6suwn9.skadnetwork', 'ydx93a7ass.skadnetwork', 'YDX93A7ASS.skadnetwork', 'not-an-id'] };
      const a = await render(TRACKING, { config });
      expect(a.valid).toBe(false);
      const lines = a.output!.code.split('\n');
      const dup = a.issues.find((i) => i.path === 'skadnetwork_ids.2')!;
      expect(dup).toMatchObject({ key: 'app_tracking.skan.lowercase', params: { line: 3 } });
      expect(lines[dup.line!]).toContain('YDX93A7ASS.skadnetwork');
      const bad = a.issues.find((i) => i.path === 'skadnetwork_ids.3')!;
      expect(bad).toMatchObject({ key: 'app_tracking.skan.format', params: { line: 4 } });
      expect(lines[bad.line!]).toContain('not-an-id');
    });
  });

  describe('versions and ACL', () => {
    it('saves versions for an app, and refuses a configuration that breaks a rule', async () => {
      const ok = await post(`${SDK}/versions`, { subject_type: 'app', subject_id: iosApp, name: 'Launch config', config: newsIos });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(body<BuilderVersionDto>(ok).data).toMatchObject({ number: 1, subject_name: 'com.nimbusnews.reader' });
      const bad = structuredClone(newsIos);
      bad.placements[0]!.refresh_seconds = 5;
      const refused = await post(`${SDK}/versions`, { subject_type: 'app', subject_id: iosApp, name: 'Too fast', config: bad });
      expect(refused.statusCode).toBe(400);
      expect(body(refused).errors).toMatchObject({ 'config.placements.0.refresh_seconds': 'sdk.placement.refresh_range' });
      const notAnApp = await post(`${TRACKING}/versions`, { subject_type: 'app', subject_id: webSite, name: 'x', config: trackingIos });
      expect(notAnApp.statusCode).toBe(400);
    });

    it('lets /v1/sdk readers render and list but not save, change or check; refuses a builders-only role', async () => {
      expect((await post(`${SDK}/render`, { config: newsIos }, reader)).statusCode).toBe(200);
      expect((await get(APPS, reader)).statusCode).toBe(200);
      expect((await get(`${APPS}/${iosApp}`, reader)).statusCode).toBe(200);
      expect((await post(`${SDK}/versions`, { subject_type: 'app', subject_id: iosApp, name: 'x', config: newsIos }, reader)).statusCode).toBe(403);
      expect((await put(`${APPS}/${androidApp}`, { platform: 'android', store_id: '', developer_domain: '', version: 0 }, reader)).statusCode).toBe(403);
      expect((await post(`${APPS}/${iosApp}/app-ads-check`, {}, reader)).statusCode).toBe(403);
      for (const res of [
        await post(`${SDK}/render`, { config: newsIos }, buildersOnly),
        await post(`${TRACKING}/render`, { config: trackingIos }, buildersOnly),
        await get(APPS, buildersOnly),
        await post(`${APPS}/${iosApp}/app-ads-check`, {}, buildersOnly),
      ])
        expect(res.statusCode).toBe(403);
    });
  });

  describe('apps', () => {
    it('lists apps (not sites) with platform, publisher, bundle and where app-ads.txt is read', async () => {
      const page = body<SdkAppPage>(await get(`${APPS}?q=nimbus`)).data;
      expect(page.items.map((a) => a.bundle)).toEqual(['com.nimbusnews.reader']);
      expect(page.items[0]).toMatchObject({
        id: iosApp,
        platform: 'ios',
        store_id: 'id1482750917',
        developer_domain: 'nimbusnews.example',
        publisher: { name: 'Nimbus News Media', seller_domain: 'nimbusmedia.example' },
        app_ads_txt: { status: 'unchecked', checked_at: null, url: 'https://nimbusnews.example/app-ads.txt' },
        version: 1,
      });
      const unset = body<SdkAppPage>(await get(`${APPS}?platform=unset&q=runa`)).data;
      expect(unset.items).toMatchObject([{ id: androidApp, platform: null, version: 0, app_ads_txt: { url: 'https://runagames.example/app-ads.txt' } }]);
      expect(body<SdkAppPage>(await get(`${APPS}?platform=android&q=runa`)).data.total).toBe(0);
      expect((await get(`${APPS}?platform=windows`)).statusCode).toBe(400);
      const one = body<SdkApp>(await get(`${APPS}/${iosApp}`)).data;
      expect(one.ad_units).toEqual([
        expect.objectContaining({ name: 'nimbusnews_ios/feed_native', format: 'native', size: 'fluid' }),
        expect.objectContaining({ name: 'nimbusnews_ios/home_320x50', format: 'banner', size: '320x50' }),
      ]);
      expect((await get(`${APPS}/${webSite}`)).statusCode).toBe(404);
    });

    it('sets a profile with the builders’ rules, refuses a stale version with 409, and audits', async () => {
      const bad = await put(`${APPS}/${androidApp}`, { platform: 'ios', store_id: '12345', developer_domain: 'https://runagames.example/games', version: 0 });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).errors).toEqual({ store_id: 'app_tracking.store_id_ios', developer_domain: 'app_tracking.app.developer_domain_format' });
      const androidStore = await put(`${APPS}/${androidApp}`, { platform: 'android', store_id: 'com.other.game', developer_domain: '', version: 0 });
      expect(body(androidStore).errors).toEqual({ store_id: 'app_tracking.store_id_android' });

      const saved = await put(`${APPS}/${androidApp}`, { platform: 'android', store_id: '', developer_domain: 'Play.RunaGames.example', version: 0 });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(body<SdkApp>(saved).data).toMatchObject({ platform: 'android', store_id: 'com.runagames.puzzle', developer_domain: 'play.runagames.example', version: 1 });
      const stale = await put(`${APPS}/${androidApp}`, { platform: 'android', store_id: '', developer_domain: 'runagames.example', version: 0 });
      expect(stale.statusCode).toBe(409);
      expect(body<{ current: SdkApp }>(stale).data.current.developer_domain).toBe('play.runagames.example');
      const audit = await query<{ action: string; before: { version: number }; after: { developer_domain: string } }>(
        db(),
        `SELECT action, before, after FROM audit_log WHERE entity = 'app_profile' AND entity_id = $1 ORDER BY id`,
        [String(androidApp)],
      );
      expect(audit).toEqual([{ action: 'app_profile.update', before: expect.objectContaining({ version: 0 }), after: expect.objectContaining({ developer_domain: 'play.runagames.example' }) }]);
    });

    it('checks app-ads.txt at the developer domain with the publishers’ check: verified, missing line, unreachable', async () => {
      files.set('/nimbusnews.example/app-ads.txt', [200, '# Nimbus News apps\ngoogle.com, pub-000111, DIRECT, f08c47fec0942fa0\nadtech.example, pub-sdk-01, DIRECT\n']);
      const res = await post(`${APPS}/${iosApp}/app-ads-check`, {});
      expect(res.statusCode, res.body).toBe(200);
      const app = body<SdkApp>(res).data;
      expect(app.app_ads_txt).toMatchObject({ status: 'verified', url: 'https://nimbusnews.example/app-ads.txt', detail: { http_status: 200, records: 2 } });
      expect(Date.now() - Date.parse(app.app_ads_txt.checked_at!)).toBeLessThan(60_000);
      expect(body(res).message).toBe('publisher.ads_txt_status.verified');
      expect(requested).toContain('/nimbusnews.example/app-ads.txt');

      // The file is there but without our line.
      files.set('/play.runagames.example/app-ads.txt', [200, 'adtech.example, pub-someone-else, DIRECT\n']);
      const missing = body<SdkApp>(await post(`${APPS}/${androidApp}/app-ads-check`, {})).data;
      expect(missing.app_ads_txt.status).toBe('missing_line');

      // Moving the developer domain resets the status; the new place has no file.
      const moved = body<SdkApp>(await put(`${APPS}/${androidApp}`, { platform: 'android', store_id: '', developer_domain: 'runagames-new.example', version: 1 })).data;
      expect(moved.app_ads_txt).toMatchObject({ status: 'unchecked', checked_at: null, url: 'https://runagames-new.example/app-ads.txt' });
      const gone = body<SdkApp>(await post(`${APPS}/${androidApp}/app-ads-check`, {})).data;
      expect(gone.app_ads_txt).toMatchObject({ status: 'unreachable', detail: { http_status: 404 } });

      // The list (both screens' picker) shows the result; each check is audited.
      const listed = body<SdkAppPage>(await get(`${APPS}?q=nimbusnews`)).data.items[0]!;
      expect(listed.app_ads_txt.status).toBe('verified');
      const checks = await query<{ n: string }>(db(), `SELECT count(*)::text AS n FROM audit_log WHERE action = 'app_profile.check_app_ads_txt'`);
      expect(Number(checks[0]!.n)).toBe(3);
      // Only that app was read: the publisher's other properties were not touched.
      const [web] = await query<{ ads_txt_status: string }>(db(), 'SELECT ads_txt_status FROM sites WHERE id = $1', [webSite]);
      expect(web!.ads_txt_status).toBe('unchecked');
      expect((await post(`${APPS}/${webSite}/app-ads-check`, {})).statusCode).toBe(404);
    });

    it('seeds demo apps with realistic bundles, profiles and past checks, once', async () => {
      expect(await seedDemoApps(db())).toBe(DEMO_APPS.length - 2);
      expect(await seedDemoApps(db())).toBe(0);
      const page = body<SdkAppPage>(await get(`${APPS}?page_size=100`)).data;
      const byBundle = new Map(page.items.map((a) => [a.bundle, a]));
      expect(byBundle.get('es.meteoclaro.tiempo')).toMatchObject({ platform: 'ios', store_id: 'id1093264118', app_ads_txt: { status: 'unreachable' } });
      expect(byBundle.get('com.pixelracer.drift')).toMatchObject({ platform: 'android', app_ads_txt: { status: 'unchecked' } });
      // Every app has a platform now, and the examples' apps are among them.
      expect(page.items.every((a) => a.platform !== null)).toBe(true);
      for (const a of page.items) expect(a.platform === 'ios' ? /^id\d{6,12}$/.test(a.store_id) : a.store_id === a.bundle).toBe(true);
    });
  });
});
