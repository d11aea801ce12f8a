/**
 * The builders' shared API (`/v1/builders/:kind/…`, decision 037) through HTTP, with a test-only
 * builder (builders-fixture.ts, served by this app only): render from a configuration and from
 * code (unreadable code, the standard's issues with their lines), the ACL per kind (/v1/builders vs
 * /v1/sdk, read vs write), saved versions (numbering per subject, the subject's rules, the stored
 * code is the API's render, a double click saves once, the audit, delete), subjects, compare; and
 * for every builder of the real registry, that the API renders exactly what the screen renders.
 */
import type {
  BuilderCompareAnswer,
  BuilderRenderAnswer,
  BuilderSubjectOption,
  BuilderVersionDto,
  BuilderVersionPage,
} from '@backoffice/core/builders/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBuildersDemo } from '../src/db/demo-builders.ts';
import { SERVER_BUILDERS } from '../src/modules/builders/registry.ts';
import { serveBuildersFor } from '../src/modules/builders/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { slotBuilder, slotSdkServerBuilder, slotServerBuilder } from './builders-fixture.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { operationsOf } from './openapi-ops.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const SLOT = '/v1/builders/playon';
const SDK = '/v1/builders/sdk';

describe('builders: the shared layer', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let techId: number;
  let reader: Record<string, string>;
  let sdkOnly: Record<string, string>;
  let none: Record<string, string>;
  let pub = 0;
  let otherPub = 0;
  let unit = 0;
  let app = 0;
  let partner = 0;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    serveBuildersFor(t.app.ctx, { playon: slotServerBuilder, sdk: slotSdkServerBuilder });
    const signed = await signIn(t.app, 'tech@adtech.example');
    tech = signed.headers;
    techId = signed.session.id;
    reader = (
      await userWithAcl(t.app, 'builders.reader@adtech.example', {
        '/v1/builders': ['read'],
        '/v1/sdk': ['read'],
      })
    ).headers;
    sdkOnly = (await userWithAcl(t.app, 'builders.sdk@adtech.example', { '/v1/sdk': ['read', 'write'] }))
      .headers;
    none = (await userWithAcl(t.app, 'builders.none@adtech.example', { '/v1/ssp-logs': ['read'] })).headers;
    const pubs = await query<{ id: number }>(
      db(),
      `INSERT INTO publishers (name, side, seller_id) VALUES ('Diario Levante Digital', 'ssp', 'pub-b-1'), ('Runa Games Studio', 'ssp', 'pub-b-2') RETURNING id`,
    );
    [pub, otherPub] = pubs.map((r) => r.id) as [number, number];
    const [site] = await query<{ id: number }>(
      db(),
      `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'www.diariolevante.example', 1) RETURNING id`,
      [pub],
    );
    const [appSite] = await query<{ id: number }>(
      db(),
      `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'com.runagames.puzzle', 2) RETURNING id`,
      [otherPub],
    );
    app = appSite!.id;
    const units = await query<{ id: number }>(
      db(),
      `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'dl_home_mpu', 1, 1), ($1, 'dl_article_top', 1, 2) RETURNING id`,
      [site!.id],
    );
    unit = units[0]!.id;
    const [p] = await query<{ id: number }>(
      db(),
      `INSERT INTO demand_partners (name, side, endpoint_url) VALUES ('Nimbus Builders Exchange', 'ssp', 'https://nimbus-b.example/rtb') RETURNING id`,
    );
    partner = p!.id;
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, headers = tech) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  const get = (url: string, headers = tech) => t.app.inject({ method: 'GET', url, headers });
  const config = (over: Partial<ReturnType<typeof slotBuilder.defaults>> = {}) => ({
    ...slotBuilder.defaults(),
    ...over,
  });

  describe('render', () => {
    it('renders a configuration as the screen does, with the rules’ and the standard’s issues', async () => {
      const res = await post(`${SLOT}/render`, { config: config() });
      expect(res.statusCode, res.body).toBe(200);
      const a = body<BuilderRenderAnswer>(res).data;
      expect(a.output).toEqual(slotBuilder.render(config()));
      expect(a).toMatchObject({ issues: [], valid: true });

      const bad = body<BuilderRenderAnswer>(
        await post(`${SLOT}/render`, { config: config({ code: 'Home MPU', width: 301 }) }),
      ).data;
      expect(bad.valid).toBe(false);
      expect(bad.issues).toEqual([
        { severity: 'error', path: 'code', key: 'error.invalid_value', source: 'rules' },
        expect.objectContaining({
          severity: 'error',
          source: 'schema',
          line: 3,
          text: expect.stringContaining('IAB'),
        }),
      ]);
    });

    it('refuses a configuration that does not match the builder’s schema, at its paths', async () => {
      const res = await post(`${SLOT}/render`, {
        config: { ...config(), width: 'wide', floor: '1,5', extra: true },
      });
      expect(res.statusCode).toBe(400);
      const b = body(res);
      expect(b.message).toBe('error.validation');
      expect(b.errors).toEqual({
        'config.width': 'error.invalid_type',
        'config.floor': 'error.invalid_value',
        'config.extra': 'error.unknown_field',
      });
    });

    it('reads code back: the configuration it holds, and the standard’s issues at the lines of the code as sent', async () => {
      const typed = '{\n  "slot": "home-mpu",\n\n  "size": [301, 250],\n  "floor": "0.50",\n  "gdpr": 1\n}';
      const a = body<BuilderRenderAnswer>(await post(`${SLOT}/render`, { code: typed })).data;
      expect(a.config).toEqual(config({ width: 301 }));
      expect(a.output?.code).toBe(slotBuilder.render(config({ width: 301 })).code);
      expect(a.valid).toBe(false);
      expect(a.issues).toEqual([expect.objectContaining({ source: 'schema', line: 4, column: 3 })]);
    });

    it('answers unreadable code with its syntax issues and no output (200)', async () => {
      const res = await post(`${SLOT}/render`, { code: '{\n  "slot": "home-mpu",\n  "size": [300 250]\n}' });
      expect(res.statusCode).toBe(200);
      const a = body<BuilderRenderAnswer>(res).data;
      expect(a).toMatchObject({ config: null, output: null, valid: false });
      expect(a.issues).toHaveLength(1);
      expect(a.issues[0]).toMatchObject({ severity: 'error', source: 'syntax', line: 3 });
    });

    it('refuses a body that is neither a configuration nor code, and an unknown kind', async () => {
      expect((await post(`${SLOT}/render`, { config: config(), code: '{}', extra: 1 })).statusCode).toBe(400);
      expect((await post(`${SLOT}/render`, {})).statusCode).toBe(400);
      expect((await post(`${SLOT}/render`, { code: 42 })).statusCode).toBe(400);
      const unknown = await post('/v1/builders/flash/render', { config: {} });
      expect(unknown.statusCode).toBe(404);
      expect(body(unknown).message).toBe('builders.unknown_kind');
    });
  });

  describe('ACL', () => {
    it('needs the kind’s own resource: /v1/builders for playon, /v1/sdk for sdk; read to render and list, write to save', async () => {
      const denied = async (res: Awaited<ReturnType<typeof get>>) => {
        expect(res.statusCode, res.body).toBe(403);
        expect(body(res).message).toBe('auth.forbidden');
      };
      await denied(await post(`${SLOT}/render`, { config: config() }, none));
      await denied(await get(`${SLOT}/versions`, none));
      await denied(await get(`${SLOT}/subjects?type=publisher`, none));
      await denied(await get(`${SLOT}/compare?a=1&b=2`, none));
      // Refused before the body is validated: a bad body from someone without access is still 403.
      await denied(await post(`${SLOT}/versions`, { nonsense: true }, none));

      // Read only: renders and lists, cannot save or delete.
      expect((await post(`${SLOT}/render`, { config: config() }, reader)).statusCode).toBe(200);
      expect((await get(`${SLOT}/versions`, reader)).statusCode).toBe(200);
      await denied(
        await post(
          `${SLOT}/versions`,
          { subject_type: 'publisher', subject_id: pub, name: 'x', config: config() },
          reader,
        ),
      );
      await denied(await t.app.inject({ method: 'DELETE', url: `${SLOT}/versions/1`, headers: reader }));

      // /v1/sdk only: the SDK kind, not the others.
      await denied(await post(`${SLOT}/render`, { config: config() }, sdkOnly));
      expect((await post(`${SDK}/render`, { config: config() }, sdkOnly)).statusCode).toBe(200);
      const saved = await post(
        `${SDK}/versions`,
        { subject_type: 'app', subject_id: app, name: 'Puzzle banner', config: config() },
        sdkOnly,
      );
      expect(saved.statusCode, saved.body).toBe(200);
      expect(body<BuilderVersionDto>(saved).data).toMatchObject({
        kind: 'sdk',
        subject_type: 'app',
        subject_name: 'com.runagames.puzzle',
        number: 1,
      });

      expect((await t.app.inject({ method: 'GET', url: `${SLOT}/versions` })).statusCode).toBe(401);
    });
  });

  describe('versions', () => {
    const save = (payload: Record<string, unknown>, headers = tech) =>
      post(`${SLOT}/versions`, payload, headers);

    it('numbers versions per subject, stores the API’s own render, lists newest first with author and subject', async () => {
      const first = await save({
        subject_type: 'ad_unit',
        subject_id: unit,
        name: '  Homepage MPU  ',
        config: config(),
      });
      expect(first.statusCode, first.body).toBe(200);
      expect(body(first).message).toBe('builders.version_saved');
      const v1 = body<BuilderVersionDto>(first).data;
      expect(v1).toMatchObject({
        kind: 'playon',
        subject_type: 'ad_unit',
        subject_id: unit,
        subject_name: 'www.diariolevante.example / dl_home_mpu',
        name: 'Homepage MPU',
        number: 1,
        author: { id: techId, name: 'Priya Natarajan' },
      });
      expect(v1.code).toBe(slotBuilder.render(config()).code);

      const v2 = body<BuilderVersionDto>(
        await save({
          subject_type: 'ad_unit',
          subject_id: unit,
          name: 'Homepage MPU, higher floor',
          config: config({ floor: '0.80' }),
        }),
      ).data;
      expect(v2.number).toBe(2);
      // Another subject starts at 1.
      const other = body<BuilderVersionDto>(
        await save({
          subject_type: 'publisher',
          subject_id: pub,
          name: 'Leaderboard',
          config: config({ code: 'article-top', width: 728, height: 90 }),
        }),
      ).data;
      expect(other.number).toBe(1);
      expect(other.subject_name).toBe('Diario Levante Digital');

      const list = body<BuilderVersionPage>(
        await get(`${SLOT}/versions?subject_type=ad_unit&subject_id=${unit}`),
      ).data;
      expect(list.total).toBe(2);
      expect(list.items.map((v) => v.number)).toEqual([2, 1]);
      expect(list.items[0]).not.toHaveProperty('code');
      expect(list.items[0]).not.toHaveProperty('config');
      const all = body<BuilderVersionPage>(await get(`${SLOT}/versions?page_size=1&page=2`)).data;
      expect(all).toMatchObject({ total: 3, page: 2, page_size: 1 });
      expect(all.items).toHaveLength(1);

      const detail = body<BuilderVersionDto>(await get(`${SLOT}/versions/${v2.id}`)).data;
      expect(detail.config).toEqual(config({ floor: '0.80' }));
      expect(detail.code).toBe(slotBuilder.render(config({ floor: '0.80' })).code);
      // Another builder's version is not this one's.
      expect((await get(`${SDK}/versions/${v2.id}`)).statusCode).toBe(404);
    });

    it('refuses a subject the builder does not allow, one that does not exist, and an output with errors; nothing is stored', async () => {
      const before = (await query<{ n: number }>(db(), 'SELECT count(*)::int AS n FROM builder_versions'))[0]!
        .n;
      const refused = async (
        payload: Record<string, unknown>,
        errors: Record<string, string>,
        message = 'error.validation',
      ) => {
        const res = await save(payload);
        expect(res.statusCode, res.body).toBe(400);
        expect(body(res)).toMatchObject({ message, errors });
      };
      await refused(
        { subject_type: 'partner', subject_id: partner, name: 'x', config: config() },
        { subject_type: 'builders.subject_not_allowed' },
      );
      await refused(
        { subject_type: 'publisher', subject_id: 999_999, name: 'x', config: config() },
        { subject_id: 'builders.subject_not_found' },
      );
      await refused(
        { subject_type: 'ad_unit', subject_id: null, name: 'x', config: config() },
        { subject_id: 'builders.subject_required' },
      );
      await refused(
        { subject_type: 'publisher', subject_id: pub, name: '   ', config: config() },
        { name: 'error.invalid_value' },
      );
      await refused(
        { subject_type: 'publisher', subject_id: pub, name: 'x', config: { ...config(), width: -1 } },
        { 'config.width': 'error.invalid_value' },
      );
      await refused(
        { subject_type: 'publisher', subject_id: pub, name: 'x', config: config({ code: 'Bad Code' }) },
        { 'config.code': 'error.invalid_value' },
        'builders.output_invalid',
      );
      await refused(
        { subject_type: 'publisher', subject_id: pub, name: 'x', config: config({ width: 301 }) },
        { 'config./size': 'builders.output_invalid' },
        'builders.output_invalid',
      );
      // An app is a site whose environment is app: a web site's id is not an app.
      const [web] = await query<{ id: number }>(
        db(),
        `SELECT id FROM sites WHERE environment_id = 1 LIMIT 1`,
      );
      const sdkRes = await post(`${SDK}/versions`, {
        subject_type: 'app',
        subject_id: web!.id,
        name: 'x',
        config: config(),
      });
      expect(body(sdkRes).errors).toEqual({ subject_id: 'builders.subject_not_found' });
      expect(
        (await query<{ n: number }>(db(), 'SELECT count(*)::int AS n FROM builder_versions'))[0]!.n,
      ).toBe(before);
    });

    it('saves a double click once: the same configuration, name and subject again answers the first version', async () => {
      const payload = {
        subject_type: 'publisher',
        subject_id: otherPub,
        name: 'Rewarded 320x50',
        config: config({ code: 'rewarded', width: 320, height: 50 }),
      };
      const [a, b] = await Promise.all([save(payload), save(payload)]);
      const va = body<BuilderVersionDto>(a).data;
      const vb = body<BuilderVersionDto>(b).data;
      expect(va.id).toBe(vb.id);
      expect([body(a).message, body(b).message].sort()).toEqual([
        'builders.version_already_saved',
        'builders.version_saved',
      ]);
      const c = body<BuilderVersionDto>(await save({ ...payload, name: 'Rewarded 320x50 (copy)' })).data;
      expect(c.number).toBe(2);
      const rows = await query<{ n: number }>(
        db(),
        `SELECT count(*)::int AS n FROM builder_versions WHERE subject_type = 'publisher' AND subject_id = $1`,
        [otherPub],
      );
      expect(rows[0]!.n).toBe(2);
      const audit = await query<{
        action: string;
        actor_id: number;
        after: { number: number; name: string; config: unknown };
      }>(
        db(),
        `SELECT action, actor_id, after FROM audit_log WHERE entity = 'builder_version' AND entity_id = $1`,
        [String(va.id)],
      );
      expect(audit).toEqual([
        {
          action: 'builders.version_create',
          actor_id: techId,
          after: expect.objectContaining({ number: 1, name: 'Rewarded 320x50', config: payload.config }),
        },
      ]);
    });

    it('deletes a version (write; audited) and never gives its number again', async () => {
      const payload = (name: string) => ({
        subject_type: 'publisher',
        subject_id: pub,
        name,
        config: config({ code: name.toLowerCase().replace(/\W+/g, '-'), width: 160, height: 600 }),
      });
      const last = body<BuilderVersionDto>(await save(payload('Skyscraper'))).data;
      const del = await t.app.inject({ method: 'DELETE', url: `${SLOT}/versions/${last.id}`, headers: tech });
      expect(del.statusCode, del.body).toBe(200);
      expect(body(del).message).toBe('builders.version_deleted');
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${SLOT}/versions/${last.id}`, headers: tech }))
          .statusCode,
      ).toBe(404);
      expect((await get(`${SLOT}/versions/${last.id}`)).statusCode).toBe(404);
      const list = body<BuilderVersionPage>(
        await get(`${SLOT}/versions?subject_type=publisher&subject_id=${pub}`),
      ).data;
      expect(list.items.map((v) => v.id)).not.toContain(last.id);
      const next = body<BuilderVersionDto>(await save(payload('Half page'))).data;
      expect(next.number).toBe(last.number + 1);
      const [entry] = await query<{ action: string; before: { number: number } }>(
        db(),
        `SELECT action, before FROM audit_log WHERE entity = 'builder_version' AND entity_id = $1 AND action = 'builders.version_delete'`,
        [String(last.id)],
      );
      expect(entry?.before.number).toBe(last.number);
    });
  });

  it('finds subjects by name among the types the builder allows (ad units as "site / unit"; apps only)', async () => {
    const units = body<BuilderSubjectOption[]>(await get(`${SLOT}/subjects?type=ad_unit&q=ARTICLE`)).data;
    expect(units).toEqual([
      { type: 'ad_unit', id: expect.any(Number), name: 'www.diariolevante.example / dl_article_top' },
    ]);
    const pubs = body<BuilderSubjectOption[]>(await get(`${SLOT}/subjects?type=publisher&q=levante`)).data;
    expect(pubs.map((p) => p.name)).toEqual(['Diario Levante Digital']);
    const byId = body<BuilderSubjectOption[]>(
      await get(`${SLOT}/subjects?type=publisher&id=${otherPub}`),
    ).data;
    expect(byId.map((p) => p.name)).toEqual(['Runa Games Studio']);
    // LIKE's wildcards are plain characters.
    expect(body<BuilderSubjectOption[]>(await get(`${SLOT}/subjects?type=publisher&q=%25`)).data).toEqual([]);
    const apps = body<BuilderSubjectOption[]>(await get(`${SDK}/subjects?type=app`)).data;
    expect(apps.map((a) => a.name)).toEqual(['com.runagames.puzzle']);
    const notAllowed = await get(`${SLOT}/subjects?type=partner`);
    expect(notAllowed.statusCode).toBe(400);
    expect(body(notAllowed).errors).toEqual({ type: 'builders.subject_not_allowed' });
    expect((await get(`${SLOT}/subjects?type=none`)).statusCode).toBe(400);
  });

  it('compares two versions: both codes and the configuration paths that changed', async () => {
    const list = body<BuilderVersionPage>(
      await get(`${SLOT}/versions?subject_type=ad_unit&subject_id=${unit}`),
    ).data;
    const [v2, v1] = list.items;
    const res = await get(`${SLOT}/compare?a=${v1!.id}&b=${v2!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const c = body<BuilderCompareAnswer>(res).data;
    expect(c.a.number).toBe(1);
    expect(c.b.number).toBe(2);
    expect(c.a.code).toContain('"0.50"');
    expect(c.b.code).toContain('"0.80"');
    expect(c.changed_paths).toEqual(['floor']);
    expect((await get(`${SLOT}/compare?a=${v1!.id}&b=2147483647`)).statusCode).toBe(404);
    expect((await get(`${SLOT}/compare?a=${v1!.id}&b=0x10`)).statusCode).toBe(400);
  });

  it('documents each route in the OpenAPI document, with a summary, a description and its parameters', () => {
    const ops = operationsOf(t.app).filter((op) => op.path.startsWith('/v1/builders/{kind}/'));
    expect(ops.map((op) => `${op.method} ${op.path}`).sort()).toEqual([
      'DELETE /v1/builders/{kind}/versions/{id}',
      'GET /v1/builders/{kind}/compare',
      'GET /v1/builders/{kind}/subjects',
      'GET /v1/builders/{kind}/versions',
      'GET /v1/builders/{kind}/versions/{id}',
      'POST /v1/builders/{kind}/render',
      'POST /v1/builders/{kind}/versions',
    ]);
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { summary?: string; description?: string }>> };
    for (const op of ops) {
      const entry = doc.paths[op.path]![op.method.toLowerCase()]!;
      expect(entry.summary?.length, `${op.method} ${op.path}`).toBeGreaterThan(20);
      expect(entry.description, `${op.method} ${op.path}`).toMatch(/ACL: (read|write)/);
    }
    expect(Object.keys(ops.find((op) => op.path.endsWith('/versions') && op.method === 'GET')!.query).sort()).toEqual(['page', 'page_size', 'subject_id', 'subject_type']);
  });

  it('seeds each builder’s accepted examples as demo versions for two real subjects, once per builder', async () => {
    const demo = {
      jstag: { definition: { ...slotBuilder, kind: 'jstag' as const }, validate: slotServerBuilder.validate },
    };
    const now = Date.now();
    expect(await seedBuildersDemo(db(), now, demo)).toBe(4);
    expect(await seedBuildersDemo(db(), now, demo)).toBe(0);
    const rows = await query<{
      subject_id: number;
      number: number;
      name: string;
      created_at: Date;
      author: string;
      code: string;
    }>(
      db(),
      `SELECT v.subject_id, v.number, v.name, v.created_at, u.name AS author, v.code FROM builder_versions v JOIN users u ON u.id = v.author_id
        WHERE v.kind = 'jstag' AND v.subject_type = 'ad_unit' ORDER BY v.subject_id, v.number`,
    );
    expect(rows.map((r) => [r.subject_id === unit, r.number, r.name])).toEqual([
      [true, 1, 'Homepage MPU'],
      [true, 2, 'Article leaderboard'],
      [false, 1, 'Article leaderboard'],
      [false, 2, 'Homepage MPU'],
    ]);
    // Numbered in date order, over the last weeks, by demo people; the code is the render.
    const time = (i: number) => new Date(rows[i]!.created_at).getTime();
    expect(time(0)).toBeLessThan(time(1));
    expect(time(2)).toBeLessThan(time(3));
    expect(
      rows.every(
        (r) =>
          now - new Date(r.created_at).getTime() > 3600_000 &&
          now - new Date(r.created_at).getTime() < 40 * 86_400_000,
      ),
    ).toBe(true);
    expect(new Set(rows.map((r) => r.author)).size).toBeGreaterThan(1);
    expect(rows[0]!.code).toBe(slotBuilder.render(slotBuilder.examples()[0]!.config).code);
  });

  // Every builder registered by now: the API's render is the screen's (the same pure code), and
  // each example is a valid configuration the API accepts.
  const registered = Object.entries(SERVER_BUILDERS);
  it.runIf(registered.length > 0)(
    'renders each registered builder’s examples exactly as its definition does',
    async () => {
      serveBuildersFor(t.app.ctx, null);
      const headers = tech;
      for (const [kind, builder] of registered) {
        const examples = builder!.definition.examples();
        expect(examples.length, kind).toBeGreaterThanOrEqual(2);
        for (const example of examples) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/v1/builders/${kind}/render`,
            headers,
            payload: { config: example.config },
          });
          expect(res.statusCode, `${kind} ${example.name}: ${res.body.slice(0, 300)}`).toBe(200);
          const a = body<BuilderRenderAnswer>(res).data;
          expect(a.output?.code, `${kind} ${example.name}`).toBe(builder!.definition.render(a.config).code);
          // The demo seed saves the examples as versions: each must be valid.
          expect(
            a.issues.filter((i) => i.severity === 'error'),
            `${kind} ${example.name}`,
          ).toEqual([]);
        }
      }
    },
  );
});
