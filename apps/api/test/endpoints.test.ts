/**
 * Endpoints on the resource layer: the token (shown once at creation and on rotation, kept only as
 * a SHA-256, never in a list, a row, the history, an export or the audit log), the shared schema's
 * rules (URL schemes, QPS cap, formats, unique name), filters by side and active, rotation with
 * its version check, read-only roles, and the company an endpoint uses that cannot be deleted.
 */
import { createHash } from 'node:crypto';
import { eq, like, or, sql } from 'drizzle-orm';
import { auditLog, endpoints } from '../src/db/schema.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Endpoint {
  id: number;
  name: string;
  side: string;
  company_id: number;
  company_id_label: string;
  active: boolean;
  token_hint: string;
  version: number;
  token?: string;
}
interface PageOf<T> {
  items: T[];
  total: number;
}

describe('endpoints (resource layer)', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let reader: Record<string, string>;
  let companyId: number;
  beforeAll(async () => {
    t = await createTestApp();
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'ep.reader@adtech.example', { '/v1/endpoints': ['read'], '/v1/companies': ['read'] })).headers;
    const companies = body<PageOf<{ id: number }>>(await t.app.inject({ url: '/v1/companies?page_size=1', headers: tech })).data;
    companyId = companies.items[0]!.id;
  });
  afterAll(async () => t?.close());

  const valid = () => ({
    name: `Test bidder ${Math.random().toString(36).slice(2, 8)}`,
    side: 'demand',
    company_id: companyId,
    region: 'eu-west',
    url: 'https://bid.example.com/openrtb2',
    openrtb_version: '2.6',
    qps_cap: 25000,
    formats: ['banner', 'video'],
    active: true,
  });
  const create = (payload: object, headers = tech) => t.app.inject({ method: 'POST', url: '/v1/endpoints', payload, headers });

  it('shows the token once at creation and keeps only its hash and last four characters', async () => {
    const res = await create(valid());
    expect(res.statusCode).toBe(201);
    const made = body<Endpoint>(res).data;
    expect(made.token).toMatch(/^boep_[A-Za-z0-9_-]{43}$/);
    expect(made.token_hint).toBe(made.token!.slice(-4));
    const [stored] = await dbOf(t.app).select({ hash: endpoints.tokenHash }).from(endpoints).where(eq(endpoints.id, made.id));
    expect(stored!.hash).toBe(createHash('sha256').update(made.token!).digest('hex'));

    const row = body<Endpoint>(await t.app.inject({ url: `/v1/endpoints/${made.id}`, headers: tech })).data;
    expect(row).toMatchObject({ id: made.id, token_hint: made.token_hint, company_id_label: expect.any(String) });
    for (const url of [`/v1/endpoints/${made.id}`, `/v1/endpoints?f[name]=${encodeURIComponent(made.name)}`, `/v1/endpoints/${made.id}/history`, '/v1/endpoints/export']) {
      const text = (await t.app.inject({ url, headers: tech })).body;
      expect(text).not.toContain(made.token!);
      expect(text).not.toContain('token_hash');
    }
    const leaked = await dbOf(t.app)
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(or(like(sql`${auditLog.before}::text`, `%${made.token}%`), like(sql`${auditLog.after}::text`, `%${made.token}%`)));
    expect(leaked).toEqual([]);
  });

  it('checks the fields with the shared schema: URL scheme, QPS cap, formats, unique name, known company', async () => {
    const errors = async (patch: object) => body(await create({ ...valid(), ...patch })).errors;
    expect(await errors({ url: 'javascript:alert(1)' })).toMatchObject({ url: 'inputs.url.invalid' });
    expect(await errors({ url: 'mailto:ops@example.com' })).toMatchObject({ url: 'inputs.url.invalid' });
    expect((await create({ ...valid(), url: 'ftps://files.example.com/feed' })).statusCode).toBe(201);
    expect(await errors({ qps_cap: 0 })).toMatchObject({ qps_cap: 'endpoint.qps_invalid' });
    expect(await errors({ qps_cap: 1_000_001 })).toMatchObject({ qps_cap: 'endpoint.qps_invalid' });
    expect(await errors({ qps_cap: 10.5 })).toMatchObject({ qps_cap: 'endpoint.qps_invalid' });
    expect(await errors({ formats: [] })).toMatchObject({ formats: 'endpoint.formats_required' });
    expect(await errors({ formats: ['banner', 'banner'] })).toMatchObject({ formats: 'error.invalid_value' });
    expect(await errors({ openrtb_version: '3.0' })).toMatchObject({ openrtb_version: 'error.invalid_value' });
    expect(await errors({ company_id: 999999 })).toMatchObject({ company_id: 'resource.ref_unknown' });
    expect(await errors({ token_hash: 'x' })).toBeTruthy();
    const first = valid();
    expect((await create(first)).statusCode).toBe(201);
    expect(await errors({ name: first.name })).toMatchObject({ name: 'endpoint.name_taken' });
  });

  it('rotates the token with the row version: the old one is gone, the history says when, a stale version is refused', async () => {
    const made = body<Endpoint>(await create(valid())).data;
    const rotate = (version: number, headers = tech) =>
      t.app.inject({ method: 'POST', url: `/v1/endpoints/${made.id}/actions/rotate-token`, payload: { version }, headers });
    expect((await rotate(made.version, reader)).statusCode).toBe(403);
    const res = await rotate(made.version);
    expect(res.statusCode).toBe(200);
    const rotated = body<{ token: string; row: { version: number; token_hint: string } }>(res).data;
    expect(rotated.token).not.toBe(made.token);
    expect(rotated.row).toMatchObject({ version: made.version + 1, token_hint: rotated.token.slice(-4) });
    const stale = await rotate(made.version);
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    const [stored] = await dbOf(t.app).select({ hash: endpoints.tokenHash }).from(endpoints).where(eq(endpoints.id, made.id));
    expect(stored!.hash).toBe(createHash('sha256').update(rotated.token).digest('hex'));
    const history = body<{ action: string; changes: Record<string, unknown[]> }[]>(await t.app.inject({ url: `/v1/endpoints/${made.id}/history`, headers: tech })).data;
    expect(history[0]).toMatchObject({ action: 'endpoint.rotate_token', changes: { token_hint: [made.token_hint, rotated.row.token_hint] } });
    // An edit with the version from before the rotation is a conflict too.
    const put = await t.app.inject({ method: 'PUT', url: `/v1/endpoints/${made.id}`, headers: tech, payload: { ...valid(), name: made.name, version: made.version } });
    expect(put.statusCode).toBe(409);
  });

  it('filters by side and active, and read-only roles read but do not change', async () => {
    const paused = body<PageOf<Endpoint>>(await t.app.inject({ url: '/v1/endpoints?f[active]=false&page_size=100', headers: reader })).data;
    expect(paused.total).toBeGreaterThan(0);
    expect(paused.items.every((e) => e.active === false)).toBe(true);
    const demand = body<PageOf<Endpoint>>(await t.app.inject({ url: '/v1/endpoints?f[side]=demand&page_size=100', headers: reader })).data;
    expect(demand.items.every((e) => e.side === 'demand')).toBe(true);
    expect((await t.app.inject({ url: '/v1/endpoints?f[active]=maybe', headers: reader })).statusCode).toBe(400);
    // A fractional bound on a whole-number column reads as the whole numbers it allows.
    const atLeast = body<PageOf<Endpoint & { qps_cap: number }>>(await t.app.inject({ url: '/v1/endpoints?f[qps_cap][min]=99999.5&page_size=100', headers: reader })).data;
    expect(atLeast.items.map((e) => e.qps_cap)).toEqual(atLeast.items.map(() => 100000));
    expect(atLeast.total).toBeGreaterThan(0);
    expect((await create(valid(), reader)).statusCode).toBe(403);
  });

  it('keeps a company an endpoint uses from being deleted, and says where it is used', async () => {
    const made = body<Endpoint>(await create(valid())).data;
    const used = body<{ resource: string; count: number }[]>(await t.app.inject({ url: `/v1/companies/${made.company_id}/used-by`, headers: tech })).data;
    expect(used).toEqual(expect.arrayContaining([expect.objectContaining({ resource: 'endpoints' })]));
    const admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/companies/${made.company_id}`, headers: admin });
    expect(del.statusCode).toBe(409);
    expect(body(del).message).toBe('resource.in_use');
  });
});
