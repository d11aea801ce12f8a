/**
 * Ids are parsed strictly everywhere (core ids.ts): only canonical decimal text in paths and
 * queries, whole numbers in JSON, all within PostgreSQL's integer range. Loose forms answer 400
 * error.invalid_id and never reach the database (DELETE …/dataviewers/0x10 once deleted report 16).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const hour = (h: number) => new Date(Date.now() + h * 3600_000).toISOString().slice(0, 13);
const RANGE = `start=${hour(-24)}:00&end=${hour(0)}:00&timezone=UTC&interval=60`;
const LOOSE = ['0x10', '16.0', '16e0', '%2016', '+16', '016', '0', '-16', '2147483648', '99999999999999999999'];

describe('strict ids', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let reportId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin')).headers;
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewers',
      headers: admin,
      payload: {
        name: 'Strict ids',
        definition: { range: { start: '2025-03-01', end: '2025-03-31' }, timezone: 'UTC', dimensions: ['day'], metrics: ['revenue'], filters: [], sort: [] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    reportId = body<{ id: number }>(created).data.id;
  });
  afterAll(async () => t.close());

  it('refuses loose ids in the saved reports, schedules and firewall paths, and deletes nothing', async () => {
    const paths = (id: string) => [
      ['GET', `/v1/reports/dataviewers/${id}`],
      ['DELETE', `/v1/reports/dataviewers/${id}`],
      ['GET', `/v1/reports/dataviewers/${id}/schedules`],
      ['DELETE', `/v1/reports/dataviewers/${reportId}/schedules/${id}`],
      ['POST', `/v1/firewall/entries/${id}/disable`],
    ] as const;
    for (const loose of [...LOOSE, `0x${reportId.toString(16)}`, `${reportId}.0`, `${reportId}e0`]) {
      for (const [method, url] of paths(loose)) {
        const res = await t.app.inject({ method, url, headers: admin });
        expectErrorEnvelope(res, 400, 'error.validation');
        expect(Object.values(body(res).errors ?? {}), `${method} ${url}`).toContain('error.invalid_id');
      }
    }
    const still = await t.app.inject({ url: `/v1/reports/dataviewers/${reportId}`, headers: admin });
    expect(still.statusCode).toBe(200);
  });

  it('refuses ids out of range in bodies and id lists with 400, not a database error', async () => {
    const share = await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${reportId}`, headers: admin, payload: { shared_role_ids: [2147483648] } });
    expectErrorEnvelope(share, 400, 'error.validation', { 'shared_role_ids.0': 'error.invalid_id' });
    const fraction = await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${reportId}`, headers: admin, payload: { shared_role_ids: [1.5] } });
    expectErrorEnvelope(fraction, 400, 'error.validation', { 'shared_role_ids.0': 'error.invalid_id' });
    const graph = await t.app.inject({ url: `/v1/graphs/qps/demand?${RANGE}&metrics=qps&ids=1,99999999999999999999`, headers: admin });
    expectErrorEnvelope(graph, 400, 'error.validation', { 'ids.1': 'error.invalid_id' });
    for (const url of ['/v1/reports/dimensions/demand_partner/values?ids=99999999999999999999', '/v1/graphs/qps/demand/entities?ids=1,2147483648']) {
      expectErrorEnvelope(await t.app.inject({ url, headers: admin }), 400, 'error.validation', { ids: 'error.invalid_id' });
    }
  });

  it('still takes canonical ids, and the open auction (deal 0) in look-ups', async () => {
    expect((await t.app.inject({ url: `/v1/reports/dataviewers/${reportId}`, headers: admin })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/reports/dataviewers/2147483647', headers: admin })).statusCode).toBe(404);
    const deals = await t.app.inject({ url: '/v1/reports/dimensions/deal/values?ids=0', headers: admin });
    expect(deals.statusCode, deals.body).toBe(200);
    // This database has no warehouse: the ids pass the parser and the graph answers that it does
    // not know these partners (a domain check), not a validation error.
    const graph = await t.app.inject({ url: `/v1/graphs/qps/demand?${RANGE}&metrics=qps&ids=1,2147483647`, headers: admin });
    expectErrorEnvelope(graph, 400, 'qps.entity_unknown');
  });
});
