/** QPS graph picker: partners/endpoints under the graphs permission (a graphs-only role can pick). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';

describe('GET /v1/graphs/qps/:graph/entities', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(t.app.ctx.database, {
      endMs: Date.UTC(2025, 3, 2),
      days: 1,
      scale: 0.1,
      qpsDays: 1,
      seed: 5,
    });
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  }, 180_000);
  afterAll(async () => t?.close());

  const get = (url: string, headers = admin) => t.app.inject({ url, headers });

  it('searches demand partners and supply endpoints, prefix matches first', async () => {
    const demand = await get('/v1/graphs/qps/demand/entities?search=nim');
    expect(demand.statusCode, demand.body).toBe(200);
    expect(body<{ id: number; value: string }[]>(demand).data[0]).toEqual({
      id: 1,
      value: 'Nimbus Exchange',
    });
    const supply = body<{ id: number; value: string }[]>(
      await get('/v1/graphs/qps/supply/entities?search=eu-west&limit=5'),
    ).data;
    expect(supply.length).toBeGreaterThan(0);
    expect(supply.every((s) => s.value.startsWith('eu-west'))).toBe(true);
  });

  it('resolves ids to names (a shared link) and rejects a bad graph', async () => {
    const res = body<{ id: number; value: string }[]>(
      await get('/v1/graphs/qps/demand/entities?ids=2,1'),
    ).data;
    expect(res.map((r) => r.id).sort()).toEqual([1, 2]);
    expect(res.find((r) => r.id === 1)?.value).toBe('Nimbus Exchange');
    const bad = await get('/v1/graphs/qps/other/entities?search=ni');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).message).toBe('qps.graph_invalid');
  });

  it('needs /v1/graphs, not /v1/reports', async () => {
    // A person whose only role is TECH_SUPPLY (graphs, no reports).
    const [user] = await query<{ id: number }>(
      t.app.ctx.database,
      `SELECT id FROM users WHERE mail = 'marketing@adtech.example'`,
    );
    await query(t.app.ctx.database, `DELETE FROM user_roles WHERE user_id = $1`, [user!.id]);
    await query(
      t.app.ctx.database,
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'TECH_SUPPLY'`,
      [user!.id],
    );
    const tech = (await signIn(t.app, 'marketing@adtech.example')).headers;
    expect((await get('/v1/reports/dimensions/supply_endpoint/values?search=eu', tech)).statusCode).toBe(403);
    const res = await get('/v1/graphs/qps/supply/entities?search=eu', tech);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<unknown[]>(res).data.length).toBeGreaterThan(0);
    const finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    expect((await get('/v1/graphs/qps/demand/entities?search=nim', finance)).statusCode).toBe(403);
  });
});
