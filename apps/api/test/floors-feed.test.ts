/**
 * The Prebid wrapper feed of a publisher (docs/decisions/020-prebid-floors-export.md, "Who can read
 * it"): a read-only URL token made, rotated and revoked under write on /v1/floors, answered once
 * and kept as a hash; the public URL answers the same bare object as the authenticated route,
 * without a session, for any origin, cacheable with an ETag; a rotated or revoked token is a 404
 * like any unknown URL; last use written at most once a minute; every change audited without the
 * token.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { floorKeys, ruleKeyString, ruleSpecificity, type FloorKey } from '@backoffice/core/floors';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishers } from '../src/db/schema-reports.ts';
import { loggableUrl } from '../src/modules/floors/feed-token.ts';
import { query } from '../src/reports-data/sql.ts';
import { expectErrorEnvelope } from './auth-support.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface FeedState {
  token_hint: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  rotated_at: string | null;
  last_used_at: string | null;
}
interface Created {
  token: string;
  path: string;
  url: string;
  feed: FeedState;
}

/** What Prebid's floors fetch sends: a GET with `Content-Type: text/plain`, from the publisher's page. */
const WRAPPER = { origin: 'https://www.news.example', 'content-type': 'text/plain' };
const TOKEN = /^bofl_[A-Za-z0-9_-]{43}$/;

describe('floors: the Prebid wrapper feed (a public URL with a token)', () => {
  let t: TestApp;
  let writer: { id: number; headers: Record<string, string> };
  let reader: Record<string, string>;
  let outsider: Record<string, string>;
  let pub: number;
  let other: number;
  /** Every token answered so far: none may appear in a read or in the audit log. */
  const tokens: string[] = [];

  const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    query<T>(t.app.ctx.database, text, params);
  const feedUrl = (id: number) => `/v1/floors/prebid/${id}/feed`;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const stateOf = async (id = pub) =>
    body<{ publisher: { id: number; name: string }; feed: FeedState | null }>(await get(feedUrl(id), reader))
      .data;
  const create = async (replaces: string | null, id = pub): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url: feedUrl(id), headers: writer.headers, payload: { replaces } });
  const created = (res: LightMyRequestResponse): Created => {
    const data = body<Created>(res).data;
    tokens.push(data.token);
    return data;
  };

  async function newVersion(
    rules: { keys: Partial<Record<FloorKey, string>>; cpm: string; currency?: string }[],
  ): Promise<number> {
    const [v] = await run<{ id: number }>(
      "INSERT INTO floor_versions (source, comment) VALUES ('edit', 'feed test') RETURNING id",
    );
    const version = Number(v!.id);
    for (const r of rules) {
      const k = floorKeys({ publisher: String(pub), ...r.keys });
      await run(
        `INSERT INTO floor_rules (publisher, site, ad_unit, country, device, media_type, size, demand_partner, deal, key_string, specificity, cpm, currency, from_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          k.publisher,
          k.site,
          k.ad_unit,
          k.country,
          k.device,
          k.media_type,
          k.size,
          k.demand_partner,
          k.deal,
          ruleKeyString(k),
          ruleSpecificity(k),
          r.cpm,
          r.currency ?? 'USD',
          version,
        ],
      );
    }
    return version;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    writer = await userWithAcl(t.app, 'feed.writer@adtech.example', { '/v1/floors': ['read', 'write'] });
    reader = (await userWithAcl(t.app, 'feed.reader@adtech.example', { '/v1/floors': ['read'] })).headers;
    outsider = (await userWithAcl(t.app, 'feed.outsider@adtech.example', { '/v1/deals': ['read'] })).headers;
    const [p] = await db
      .insert(publishers)
      .values({ name: 'Feed Test Media', sellerId: 'feed-test-1' })
      .returning({ id: publishers.id });
    const [q] = await db
      .insert(publishers)
      .values({ name: 'Feed Other Media', sellerId: 'feed-test-2' })
      .returning({ id: publishers.id });
    pub = p!.id;
    other = q!.id;
    await newVersion([
      { keys: {}, cpm: '0.2' },
      { keys: { site: 'news.example' }, cpm: '0.9' },
      { keys: { size: '300x250' }, cpm: '1.5' },
      { keys: { size: '728x90' }, cpm: '2', currency: 'EUR' },
    ]);
  });
  afterAll(async () => t?.close());

  it('a publisher has no feed at first', async () => {
    expect(await stateOf()).toEqual({ publisher: { id: pub, name: 'Feed Test Media' }, feed: null });
  });

  let first: Created;

  it('creates a feed: the token and its URL are answered once, and kept only as a hash and a hint', async () => {
    const res = await create(null);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    first = created(res);
    expect(first.token).toMatch(TOKEN);
    expect(first.path).toBe(`/v1/public/floors/${first.token}.json`);
    expect(first.url).toMatch(new RegExp(`^https?://[^/]+${first.path.replace(/[.]/g, '\\.')}$`));
    expect(first.feed).toMatchObject({
      token_hint: first.token.slice(-4),
      created_by: { id: writer.id, name: 'feed.writer' },
      rotated_at: null,
      last_used_at: null,
    });
    // Read back: the hint, never the token.
    const state = await stateOf();
    expect(state.feed).toEqual(first.feed);
    expect(JSON.stringify(state)).not.toContain(first.token);
    const [row] = await run<{ token_hash: string; token_hint: string }>(
      'SELECT * FROM floor_feed_tokens WHERE publisher_id = $1',
      [pub],
    );
    expect(row!.token_hash).toBe(createHash('sha256').update(first.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(first.token);
  });

  it('the public URL answers the same object as the authenticated route, for any origin, without a session', async () => {
    const signedIn = await get(`/v1/floors/prebid/${pub}`, reader);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const res = await get(first.path, WRAPPER);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe(signedIn.body);
    expect(res.json()).toMatchObject({ currency: 'USD', default: 0.2 });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers.vary ?? '')).not.toMatch(/origin/i);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers.etag).toMatch(/^"v\d+-USD-[\w-]{16}"$/);
    // Another currency, as the authenticated route answers it.
    const eur = await get(`${first.path}?currency=eur`, WRAPPER);
    expect(eur.statusCode, eur.body).toBe(200);
    expect(eur.body).toBe((await get(`/v1/floors/prebid/${pub}?currency=eur`, reader)).body);
    expect(eur.headers.etag).not.toBe(res.headers.etag);
    // The default currency named explicitly: the same file.
    const usd = await get(`${first.path}?currency=usd`, WRAPPER);
    expect(usd.body).toBe(res.body);
    expect(usd.headers.etag).toBe(res.headers.etag);
    // A currency none of its rules use would be all zeros: refused.
    expectErrorEnvelope(await get(`${first.path}?currency=GBP`, WRAPPER), 400, 'error.validation', {
      currency: 'floors.prebid.feed.currency_unused',
    });
    expectErrorEnvelope(await get(`${first.path}?currency=EURO`), 400, 'error.validation');
    expectErrorEnvelope(await get(`${first.path}?version=1`), 400, 'error.validation');
  });

  it('the rest of the API keeps its allow-list of origins', async () => {
    const foreign = await get(`/v1/floors/prebid/${pub}`, { ...reader, origin: WRAPPER.origin });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['cross-origin-resource-policy']).toBe('same-origin');
    const ours = t.config.corsOrigins[0]!;
    const allowed = await get(`/v1/floors/prebid/${pub}`, { ...reader, origin: ours });
    expect(allowed.headers['access-control-allow-origin']).toBe(ours);
    const feedState = await get(feedUrl(pub), { ...reader, origin: WRAPPER.origin });
    expect(feedState.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match, gzip when accepted, and a new version changes the ETag', async () => {
    const res = await get(first.path, WRAPPER);
    const etag = String(res.headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(first.path, { ...WRAPPER, 'if-none-match': header });
      expect(again.statusCode, header).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['access-control-allow-origin']).toBe('*');
      expect(again.headers['cache-control']).toBe('public, max-age=300');
    }
    expect((await get(first.path, { ...WRAPPER, 'if-none-match': '"other"' })).statusCode).toBe(200);
    const zipped = await get(first.path, { ...WRAPPER, 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(res.body);
    expect(zipped.headers.etag).toBe(etag);

    const version = await newVersion([{ keys: { site: 'sports.example' }, cpm: '0.3' }]);
    // Wrappers reading at once after a save: one file for all of them.
    const reads = await Promise.all(
      Array.from({ length: 5 }, () => get(first.path, { ...WRAPPER, 'if-none-match': etag })),
    );
    expect(new Set(reads.map((r) => `${r.statusCode} ${String(r.headers.etag)}`)).size).toBe(1);
    const next = reads[0]!;
    expect(next.statusCode).toBe(200);
    expect(next.body).toBe((await get(`/v1/floors/prebid/${pub}`, reader)).body);
    expect(next.json()).toMatchObject({ modelVersion: `backoffice-v${version}` });
    expect(next.headers.etag).not.toBe(etag);
  });

  it('writes the last use at most once a minute', async () => {
    const used = (await stateOf()).feed!.last_used_at;
    expect(used).not.toBeNull();
    const res = await get(first.path, WRAPPER);
    expect((await stateOf()).feed!.last_used_at).toBe(used);
    // A minute later (moved back here), a read writes it again; a 304 is a read too.
    await run(
      "UPDATE floor_feed_tokens SET last_used_at = now() - interval '2 minutes' WHERE publisher_id = $1",
      [pub],
    );
    const before = (await stateOf()).feed!.last_used_at!;
    expect((await get(first.path, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
    const after = (await stateOf()).feed!.last_used_at!;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
  });

  let second: Created;

  it('rotates: the old URL is a 404 at once, the new one works; a stale screen gets a 409', async () => {
    const res = await create(first.feed.token_hint);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    second = created(res);
    expect(second.token).toMatch(TOKEN);
    expect(second.token).not.toBe(first.token);
    expect(second.feed).toMatchObject({ token_hint: second.token.slice(-4), last_used_at: null });
    expect(second.feed.rotated_at).not.toBeNull();
    const gone = await get(first.path, WRAPPER);
    expectErrorEnvelope(gone, 404, 'error.not_found');
    expect(gone.headers['access-control-allow-origin']).toBe('*');
    expect((await get(second.path, WRAPPER)).statusCode).toBe(200);
    // The screen still showed the first token, or none: nothing changes.
    for (const replaces of [first.feed.token_hint, null]) {
      const stale = await create(replaces);
      expect(stale.statusCode, stale.body).toBe(409);
      expect(stale.json()).toMatchObject({
        status: 'error',
        message: 'floors.prebid.feed.changed',
        data: { current: { ...second.feed, last_used_at: expect.any(String) } },
      });
      expect(stale.body).not.toContain(second.token);
    }
    expect((await get(second.path)).statusCode).toBe(200);
  });

  it('an unknown, malformed or other publisher’s token answers the same 404 as any unknown URL', async () => {
    const unknown = `bofl_${'A'.repeat(43)}`;
    const answers = [
      await get(`/v1/public/floors/${unknown}.json`, WRAPPER),
      await get('/v1/public/floors/not-a-token.json', WRAPPER),
      await get(`/v1/public/floors/${second.token}`, WRAPPER),
      await get(`/v1/public/floors/${second.token}.json/x`, WRAPPER),
      await get(`/v1/public/floors/${first.token}.json`, WRAPPER),
    ];
    for (const res of answers) {
      expectErrorEnvelope(res, 404, 'error.not_found');
      expect(res.json()).toEqual(answers[0]!.json());
    }
  });

  it('revokes: the URL is a 404 from then on, and the publisher has no feed', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: feedUrl(pub), headers: writer.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toMatchObject({ message: 'floors.prebid.feed.revoked', data: { feed: null } });
    expectErrorEnvelope(await get(second.path, WRAPPER), 404, 'error.not_found');
    expect((await stateOf()).feed).toBeNull();
    expectErrorEnvelope(
      await t.app.inject({ method: 'DELETE', url: feedUrl(pub), headers: writer.headers }),
      404,
      'floors.prebid.feed.none',
    );
    // A new feed after a revocation is a create again.
    const again = await create(null);
    expect(again.statusCode, again.body).toBe(201);
    const third = created(again);
    expect((await get(third.path)).statusCode).toBe(200);
    expectErrorEnvelope(await get(second.path), 404, 'error.not_found');
  });

  it('audits every change with the hint, never a token nor its hash', async () => {
    const entries = await run<{
      action: string;
      entity_id: string;
      actor_id: number;
      before: unknown;
      after: unknown;
    }>(
      "SELECT action, entity_id, actor_id, before, after FROM audit_log WHERE entity = 'floor_feed' ORDER BY id",
    );
    expect(entries.map((e) => e.action)).toEqual([
      'floor_feed.create',
      'floor_feed.rotate',
      'floor_feed.revoke',
      'floor_feed.create',
    ]);
    for (const e of entries) expect(e).toMatchObject({ entity_id: String(pub), actor_id: writer.id });
    expect(entries[1]).toMatchObject({
      before: { token_hint: first.token.slice(-4) },
      after: { token_hint: second.token.slice(-4) },
    });
    expect(entries[2]).toMatchObject({ before: { token_hint: second.token.slice(-4) }, after: null });
    const everything = JSON.stringify(await run('SELECT * FROM audit_log'));
    for (const token of tokens) {
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(createHash('sha256').update(token).digest('hex'));
    }
  });

  it('no read answers a token again', async () => {
    const reads = [
      await get(feedUrl(pub), reader),
      await get(feedUrl(pub), writer.headers),
      await get(`/v1/floors/prebid/${pub}/report`, reader),
      await get(`/v1/floors/prebid/${pub}`, reader),
      await get(`/v1/public/floors/${tokens.at(-1)}.json`, WRAPPER),
    ];
    for (const res of reads) {
      expect(res.statusCode, res.body).toBe(200);
      for (const token of tokens) expect(res.body).not.toContain(token);
    }
  });

  it('reading needs read on /v1/floors; creating, rotating and revoking need write', async () => {
    expect((await get(feedUrl(pub), reader)).statusCode).toBe(200);
    const current = (await stateOf()).feed!.token_hint;
    expectErrorEnvelope(
      await t.app.inject({
        method: 'POST',
        url: feedUrl(pub),
        headers: reader,
        payload: { replaces: current },
      }),
      403,
      'auth.forbidden',
    );
    expectErrorEnvelope(
      await t.app.inject({
        method: 'POST',
        url: feedUrl(other),
        headers: reader,
        payload: { replaces: null },
      }),
      403,
      'auth.forbidden',
    );
    expectErrorEnvelope(
      await t.app.inject({ method: 'DELETE', url: feedUrl(pub), headers: reader }),
      403,
      'auth.forbidden',
    );
    expectErrorEnvelope(await get(feedUrl(pub), outsider), 403, 'auth.forbidden');
    expectErrorEnvelope(await get(feedUrl(pub)), 401, 'auth.token_missing');
    expectErrorEnvelope(
      await t.app.inject({ method: 'POST', url: feedUrl(pub), payload: { replaces: current } }),
      401,
      'auth.token_missing',
    );
    // Nothing changed.
    expect((await stateOf()).feed!.token_hint).toBe(current);
    expect((await stateOf(other)).feed).toBeNull();
  });

  it('refuses an unknown publisher and bad input', async () => {
    expectErrorEnvelope(await get(feedUrl(99999999), reader), 404, 'floors.prebid.publisher_unknown');
    expectErrorEnvelope(await create(null, 99999999), 404, 'floors.prebid.publisher_unknown');
    expectErrorEnvelope(
      await t.app.inject({ method: 'DELETE', url: feedUrl(99999999), headers: writer.headers }),
      404,
      'floors.prebid.publisher_unknown',
    );
    expectErrorEnvelope(
      await t.app.inject({ method: 'POST', url: feedUrl(pub), headers: writer.headers, payload: {} }),
      400,
      'error.validation',
    );
    expectErrorEnvelope(await create('x'), 400, 'error.validation', { replaces: 'error.invalid_value' });
    expectErrorEnvelope(
      await t.app.inject({
        method: 'POST',
        url: feedUrl(pub),
        headers: writer.headers,
        payload: { replaces: null, token: 'mine' },
      }),
      400,
      'error.validation',
    );
    expectErrorEnvelope(await get('/v1/floors/prebid/abc/feed', reader), 400, 'error.validation');
  });

  it('writes a feed URL into the request log with its hint only', () => {
    const token = `bofl_${'x'.repeat(39)}Ab3z`;
    expect(loggableUrl(`/v1/public/floors/${token}.json?currency=EUR`)).toBe(
      '/v1/public/floors/bofl_…Ab3z.json?currency=EUR',
    );
    expect(loggableUrl(`/v1/public/floors/${token}`)).toBe('/v1/public/floors/bofl_…Ab3z');
    expect(loggableUrl('/v1/floors/prebid/1/feed')).toBe('/v1/floors/prebid/1/feed');
  });
});
