/**
 * Bad input on every firewall endpoint: malformed JSON, missing fields, wrong types, unknown
 * fields, invalid values, oversized bodies and wrong content types answer a 4xx envelope with a
 * message key the web app translates, and write nothing (entries and audit log unchanged).
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countAudit, countEntries } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

describe('firewall endpoints reject bad input and write nothing', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let auth: { authorization: string };
  let entryId: number;
  let entriesBefore: number;
  let auditBefore: number;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    auth = (await signIn(app, 'tech@adtech.example')).headers;
    const res = await app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: auth, payload: { ip: '127.0.0.1' } });
    entryId = body<{ entry: { id: number } }>(res).data.entry.id;
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    entriesBefore = await countEntries(app);
    auditBefore = await countAudit(app);
  });

  async function expectRejected(opts: InjectOptions, status: number, message: string, errors?: Record<string, string>) {
    const res = await app.inject({ ...opts, headers: { ...auth, ...(opts.headers ?? {}) } });
    expect(res.statusCode, res.body).toBe(status);
    const b = body(res);
    expect(b.status).toBe('error');
    expect(b.message).toBe(message);
    expect(b.data).toBeNull();
    expect(typeof b.text).toBe('string');
    expect(b.text).not.toBe(message);
    if (errors) expect(b.errors).toEqual(errors);
    expect(await countEntries(app)).toBe(entriesBefore);
    expect(await countAudit(app)).toBe(auditBefore);
    return b;
  }

  const json = { 'content-type': 'application/json' };
  const post = (url: string, payload: string, headers: Record<string, string> = json): InjectOptions => ({ method: 'POST', url, payload, headers });
  const actionUrls = [`/v1/firewall/entries/ID/disable`, `/v1/firewall/entries/ID/enable`];

  describe('POST /v1/firewall/ip', () => {
    const url = '/v1/firewall/ip';
    it('malformed JSON', async () => {
      await expectRejected(post(url, '{"ip": "127.0.0.1",'), 400, 'error.malformed_json');
      await expectRejected(post(url, ''), 400, 'error.malformed_json');
    });
    it('missing fields', async () => {
      await expectRejected(post(url, '{}'), 400, 'error.validation', { ip: 'error.required' });
      await expectRejected(post(url, '{"type":"HOUR_2"}'), 400, 'error.validation', { ip: 'error.required' });
    });
    it('wrong types', async () => {
      await expectRejected(post(url, '{"ip":2130706433}'), 400, 'error.validation', { ip: 'error.invalid_type' });
      await expectRejected(post(url, '{"ip":"127.0.0.1","type":1}'), 400, 'error.validation', { type: 'firewall.invalid_type' });
      await expectRejected(post(url, '["127.0.0.1"]'), 400, 'error.validation');
      await expectRejected(post(url, 'null'), 400, 'error.validation');
      await expectRejected(post(url, '"127.0.0.1"'), 400, 'error.validation');
    });
    it('invalid values', async () => {
      for (const ip of ['127.0.0.256', '127.0.0', 'localhost', '10.0.0.0/8', 'fe80::1%eth0', '', ' ', '1.2.3.4; deny all']) {
        await expectRejected(post(url, JSON.stringify({ ip })), 400, 'error.validation', { ip: 'firewall.invalid_ip' });
      }
      // Valid addresses that name no single computer: an entry for them would mean nothing or all.
      for (const ip of ['0.0.0.0', '::', '255.255.255.255']) {
        await expectRejected(post(url, JSON.stringify({ ip })), 400, 'error.validation', { ip: 'firewall.not_a_host' });
      }
      await expectRejected(post(url, '{"ip":"127.0.0.1","type":"HOUR_4"}'), 400, 'error.validation', { type: 'firewall.invalid_type' });
      await expectRejected(post(url, '{"ip":"127.0.0.1","type":"unlimited"}'), 400, 'error.validation', { type: 'firewall.invalid_type' });
    });
    it('unknown fields', async () => {
      await expectRejected(post(url, '{"ip":"127.0.0.1","owner":1}'), 400, 'error.validation', { owner: 'error.unknown_field' });
    });
    it('oversized bodies', async () => {
      await expectRejected(post(url, JSON.stringify({ ip: '127.0.0.1', pad: 'x'.repeat(5000) })), 413, 'error.payload_too_large');
      await expectRejected(post(url, JSON.stringify({ ip: '127.0.0.1', pad: 'x'.repeat(2 * 1024 * 1024) })), 413, 'error.payload_too_large');
    });
    it('wrong content types', async () => {
      await expectRejected(post(url, '{"ip":"127.0.0.1"}', { 'content-type': 'text/plain' }), 415, 'error.unsupported_media_type');
      await expectRejected(post(url, 'ip=127.0.0.1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'error.unsupported_media_type');
      await expectRejected(post(url, '<ip>127.0.0.1</ip>', { 'content-type': 'application/xml' }), 415, 'error.unsupported_media_type');
    });
    it('is translated (es)', async () => {
      const b = await expectRejected({ ...post(url, '{}'), headers: { ...json, 'accept-language': 'es' } }, 400, 'error.validation');
      expect(b.text).toBe('Algunos campos no son válidos');
    });
  });

  describe('GET /v1/firewall/entries', () => {
    const get = (query: string): InjectOptions => ({ method: 'GET', url: `/v1/firewall/entries${query}` });
    it('wrong types and values', async () => {
      await expectRejected(get('?page=abc'), 400, 'error.validation');
      await expectRejected(get('?page=0'), 400, 'error.validation');
      await expectRejected(get('?page=1.5'), 400, 'error.validation');
      await expectRejected(get('?page_size=201'), 400, 'error.validation');
      await expectRejected(get('?page_size=-1'), 400, 'error.validation');
      await expectRejected(get('?f[status]=EXPIRED'), 400, 'error.validation');
    });
    it('unknown fields', async () => {
      await expectRejected(get('?pageSize=10'), 400, 'error.validation');
      await expectRejected(get('?sort=owner_id'), 400, 'error.validation');
      await expectRejected(get('?f[owner_id]=1'), 400, 'error.validation');
    });
  });

  describe('POST /v1/firewall/entries/:id/disable and /enable', () => {
    const at = (template: string, id: string | number) => template.replace('ID', String(id));
    it('malformed JSON, wrong types, unknown fields', async () => {
      for (const template of actionUrls) {
        const url = at(template, entryId);
        await expectRejected(post(url, '{'), 400, 'error.malformed_json');
        await expectRejected(post(url, '[]'), 400, 'error.validation');
        await expectRejected(post(url, '{"status":"ACTIVE"}'), 400, 'error.validation', { status: 'error.unknown_field' });
      }
    });
    it('bad ids', async () => {
      for (const template of actionUrls) {
        await expectRejected(post(at(template, 'abc'), '{}'), 400, 'error.validation');
        await expectRejected(post(at(template, 0), '{}'), 400, 'error.validation');
        await expectRejected(post(at(template, '1e3'), '{}'), 400, 'error.validation');
        await expectRejected(post(at(template, '99999999999'), '{}'), 400, 'error.validation');
        await expectRejected(post(at(template, 999_999), '{}'), 404, 'firewall.entry_not_found');
      }
    });
    it('oversized bodies and wrong content types', async () => {
      for (const template of actionUrls) {
        const url = at(template, entryId);
        await expectRejected(post(url, JSON.stringify({ pad: 'x'.repeat(5000) })), 413, 'error.payload_too_large');
        await expectRejected(post(url, '{}', { 'content-type': 'text/plain' }), 415, 'error.unsupported_media_type');
        await expectRejected(post(url, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'error.unsupported_media_type');
      }
    });
    it('an empty object or no body at all is fine', async () => {
      const res = await app.inject({ method: 'POST', url: at(actionUrls[0]!, entryId), headers: auth, payload: {} });
      expect(res.statusCode).toBe(200);
      const again = await app.inject({ method: 'POST', url: at(actionUrls[1]!, entryId), headers: auth });
      expect(again.statusCode).toBe(200);
    });
  });

  it('without a token every endpoint answers 401 before looking at the body', async () => {
    for (const opts of [post('/v1/firewall/ip', '{}'), { method: 'GET' as const, url: '/v1/firewall/ip' }, post(`/v1/firewall/entries/${entryId}/disable`, '{}')]) {
      const res = await app.inject(opts);
      expect(res.statusCode).toBe(401);
      expect(body(res).message).toBe('auth.token_missing');
    }
    expect(await countEntries(app)).toBe(entriesBefore);
  });
});
