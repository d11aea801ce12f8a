import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from './helpers.ts';

describe('health, envelope and security basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers /healthz and /readyz with the database kind', async () => {
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(body<{ database: string }>(ready).data.database).toBe(t.config.databaseUrl ? 'postgres' : 'pglite');
  });

  it('answers unknown /v1 routes with a translated 404 envelope and a request id', async () => {
    const res = await t.app.inject({ url: '/v1/nope', headers: { 'accept-language': 'es' } });
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ status: 'error', message: 'error.not_found', data: null, text: 'No encontrado' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('sends security headers: the API set on JSON answers', async () => {
    for (const url of ['/healthz', '/v1/nope', '/v1/staff/pic/1.svg']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it("sends helmet's full set, with a CSP the web app works under, on pages", async () => {
    const res = await t.app.inject('/en/login');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject('/v1/docs/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });
});
