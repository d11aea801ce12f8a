import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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

  it('answers CORS only for the configured origins (CORS_ORIGINS)', async () => {
    const allowed = t.config.corsOrigins[0]!;
    const login = { method: 'POST' as const, url: '/v1/login', payload: { email: 'admin', password: 'wrong-password' } };
    // A listed origin: its own value back (never *), the headers a script may read, Vary: Origin.
    const listed = await t.app.inject({ ...login, headers: { origin: allowed } });
    expect(listed.statusCode).toBe(401);
    expect(listed.headers['access-control-allow-origin']).toBe(allowed);
    expect(listed.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(listed.headers['access-control-expose-headers'])).toContain('content-disposition');
    expect(String(listed.headers.vary)).toContain('Origin');
    // Its preflight is answered with 204 and what the web app sends.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/admin/menu',
      headers: { origin: allowed, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(allowed);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('GET');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('authorization');
    expect(preflight.body).toBe('');
    // Any other origin gets no Access-Control-Allow-Origin, so a browser refuses the answer and its
    // preflight (@fastify/cors answers that preflight 204 with the methods, but no allowed origin).
    const other = await t.app.inject({ ...login, headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(other.headers.vary)).toContain('Origin');
    const otherPreflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/admin/menu',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(otherPreflight.headers['access-control-allow-origin']).toBeUndefined();
    // No Origin (same-origin pages, curl): nothing but Vary.
    const none = await t.app.inject('/healthz');
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(none.headers.vary)).toContain('Origin');
  });

  it("sends helmet's full set, with a CSP the web app works under, on pages", async () => {
    const res = await t.app.inject('/en/login');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Media (the VAST preview's video) from any HTTPS host; nothing else is widened.
    expect(csp).toContain("media-src 'self' https: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject('/v1/docs/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });

  it('serves the web build pre-compressed to browsers that accept it, and plain to others', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-web-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Back Office</title>');
    const js = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
    fs.writeFileSync(path.join(dist, 'assets', 'app-1.js'), js);
    fs.writeFileSync(path.join(dist, 'assets', 'app-1.js.br'), zlib.brotliCompressSync(js));
    fs.writeFileSync(path.join(dist, 'assets', 'app-1.js.gz'), zlib.gzipSync(js));
    const web = await createTestApp({ webDist: dist });
    try {
      const br = await web.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
      const gz = await web.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(js);
      const plain = await web.app.inject({ url: '/assets/app-1.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
      expect(plain.headers['cache-control']).toContain('immutable');
    } finally {
      await web.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
