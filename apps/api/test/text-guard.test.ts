/**
 * Text PostgreSQL cannot store (a NUL, a lone surrogate) is refused before any route sees it:
 * 400 error.validation with the field marked error.invalid_text, on every endpoint (these used to
 * answer 500 from the database).
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from './auth-support.ts';
import { createTestApp, DEMO_PASSWORD, signIn, type TestApp } from './helpers.ts';

const definition = { range: { start: '2025-03-01', end: '2025-03-31' }, timezone: 'UTC', dimensions: ['day'], metrics: ['revenue'], filters: [], sort: [] };

describe('unsafe text', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin')).headers;
  });
  afterAll(async () => t.close());

  it('answers 400 with the field for a NUL or a lone surrogate in a body, a query or a path', async () => {
    const cases: [InjectOptions, string][] = [
      [{ method: 'POST', url: '/v1/login', payload: { email: 'admin\u0000', password: DEMO_PASSWORD } }, 'email'],
      [{ method: 'POST', url: '/v1/login', payload: { email: '\uD800admin', password: DEMO_PASSWORD } }, 'email'],
      [{ method: 'POST', url: '/v1/reports/dataviewers', headers: admin, payload: { name: 'Q3\u0000', definition } }, 'name'],
      [{ method: 'POST', url: '/v1/reports/dataviewers', headers: admin, payload: { name: 'Q3 \uDFFF', definition } }, 'name'],
      [{ method: 'POST', url: '/v1/reports/dataviewers', headers: admin, payload: { name: 'Q3', ['defi\u0000nition']: definition } }, 'defi?nition'],
      [{ method: 'GET', url: '/v1/graphs/qps/demand/entities?search=nim%00', headers: admin }, 'search'],
      [{ method: 'GET', url: '/v1/staff/welcome?mail=ana%00%40adtech.example' }, 'mail'],
      [{ method: 'GET', url: '/v1/reports/dataviewers/%00', headers: admin }, 'id'],
    ];
    for (const [request, field] of cases) {
      const res = await t.app.inject(request);
      expectErrorEnvelope(res, 400, 'error.validation', { [field]: 'error.invalid_text' });
    }
  });

  it('keeps real characters, pairs of surrogates (emoji) included', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewers', headers: admin, payload: { name: 'Q3 España 📊', definition } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.name).toBe('Q3 España 📊');
  });
});
