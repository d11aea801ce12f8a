/** Dashboard: shape, figures against the raw facts, and what each kind of caller sees. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { dashboard } from '../src/modules/dashboard/routes.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { micros6, ratio6, rawFacts, type RawFact } from './reports-fixtures.ts';

const END = Date.UTC(2025, 3, 2);
const DAY = 86_400_000;

interface Tile {
  key: string;
  today: string | number | null;
  yesterday: string | number | null;
  last_week: string | number | null;
  vs_yesterday: number | null;
}
interface Dashboard {
  as_of: string;
  money_visible: boolean;
  reports_visible: boolean;
  tiles: { tiles: Tile[]; windows: Record<string, { start: string; end: string }> } | null;
  series: Record<string, unknown>[] | null;
  top: { partners: { demand_partner: string; revenue?: string; impressions: number }[]; publishers: unknown[] } | null;
  waiting: { kind: string; count: number; items: { ip: string }[] }[];
}

describe('dashboard', () => {
  let t: TestApp;
  let facts: RawFact[];

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(t.app.ctx.database, { endMs: END, days: 9, scale: 0.2, qpsDays: 0, seed: 3 });
    facts = await rawFacts(t.app.ctx.database);
  }, 180_000);
  afterAll(async () => t?.close());

  const sum = (from: number, to: number, col: string) => facts.filter((f) => f.ts >= from && f.ts < to).reduce((s, f) => s + f.m[col]!, 0n);

  it('answers tiles, 30-day series, top lists and the waiting list for an admin, matching the raw facts', async () => {
    const admin = await signIn(t.app, 'admin@adtech.example');
    // A firewall entry of the admin that expires in 20 minutes is waiting for them.
    await query(t.app.ctx.database, `INSERT INTO firewall_entries (ip, owner_id, type, status, expires_at) VALUES ('203.0.113.9', $1, 'HOUR_1', 'ACTIVE', now() + interval '20 minutes')`, [admin.session.id]);
    const res = await t.app.inject({ url: '/v1/dashboard?timezone=UTC', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const d = body<Dashboard>(res).data;
    expect(d).toMatchObject({ as_of: '2025-04-02T00:00:00.000Z', money_visible: true, reports_visible: true });
    // Just after midnight (data ends at 00:00): whole days are compared.
    const today = END - DAY;
    const tiles = Object.fromEntries(d.tiles!.tiles.map((x) => [x.key, x]));
    expect(Object.keys(tiles)).toEqual(['revenue', 'cost', 'margin', 'margin_pct', 'impressions', 'ecpm']);
    const rev = sum(today, END, 'revenue_micros');
    const cost = sum(today, END, 'cost_micros');
    const imps = sum(today, END, 'impressions');
    expect(tiles.revenue!.today).toBe(micros6(rev));
    expect(tiles.revenue!.yesterday).toBe(micros6(sum(today - DAY, today, 'revenue_micros')));
    expect(tiles.revenue!.last_week).toBe(micros6(sum(today - 7 * DAY, today - 6 * DAY, 'revenue_micros')));
    expect(tiles.margin!.today).toBe(micros6(rev - cost));
    expect(tiles.margin_pct!.today).toBe(ratio6(rev - cost, rev));
    expect(tiles.impressions!.today).toBe(Number(imps));
    expect(tiles.ecpm!.today).toBe(ratio6(rev, imps * 1000n));
    expect(tiles.revenue!.vs_yesterday).toBeTypeOf('number');

    expect(d.series!.length).toBe(9);
    expect(d.series![8]).toMatchObject({ day: '2025-04-01', revenue: micros6(rev), impressions: Number(imps) });
    expect(d.top!.partners).toHaveLength(5);
    const revenues = d.top!.partners.map((p) => Number(p.revenue));
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    const firewall = d.waiting.find((w) => w.kind === 'firewall_expiring')!;
    expect(firewall.count).toBe(1);
    expect(firewall.items[0]!.ip).toBe('203.0.113.9');
    expect(d.waiting.map((w) => w.kind)).toEqual(['firewall_expiring', 'payouts', 'discrepancies', 'scheduler_failures']);
  });

  it('returns only the sections asked for, and validates the time zone', async () => {
    const admin = await signIn(t.app, 'admin@adtech.example');
    const res = await t.app.inject({ url: '/v1/dashboard?timezone=Europe/Madrid&sections=tiles', headers: admin.headers });
    const d = body<Record<string, unknown>>(res).data;
    expect(d.tiles).toBeTruthy();
    expect(d).not.toHaveProperty('series');
    const bad = await t.app.inject({ url: '/v1/dashboard?timezone=Nowhere/City', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).message).toBe('report.timezone_invalid');
    expect((await t.app.inject({ url: '/v1/dashboard' })).statusCode).toBe(401);
  });

  it('compares today with the same wall time of yesterday and last week, across a DST change', async () => {
    const admin = await signIn(t.app, 'admin@adtech.example');
    const caller = { ...admin.session, mail: 'admin@adtech.example', name: 'Admin', simulatedBy: null, simulatedRole: null, sessionId: 'test', remember: false, exp: 0 };
    const at = (iso: string) => Date.parse(iso);
    // Monday 31 March 2025, 14:30 in Madrid (CEST): the day before had 23 hours (spring forward).
    const d = (await dashboard(t.app.ctx, caller, 'Europe/Madrid', ['tiles'], 'en', at('2025-03-31T12:30:00Z'))) as unknown as Dashboard;
    expect(d.as_of).toBe('2025-03-31T12:00:00.000Z');
    const w = d.tiles!.windows;
    // Today from 00:00 to 14:00 CEST; yesterday also to 14:00 (CEST), not 14 hours after its midnight (15:00).
    expect(w.today).toEqual({ start: '2025-03-30T22:00:00.000Z', end: '2025-03-31T12:00:00.000Z' });
    expect(w.yesterday).toEqual({ start: '2025-03-29T23:00:00.000Z', end: '2025-03-30T12:00:00.000Z' });
    expect(w.last_week).toEqual({ start: '2025-03-23T23:00:00.000Z', end: '2025-03-24T13:00:00.000Z' });
    const revenue = d.tiles!.tiles.find((x) => x.key === 'revenue')!;
    expect(revenue.today).toBe(micros6(sum(at(w.today!.start), at(w.today!.end), 'revenue_micros')));
    expect(revenue.yesterday).toBe(micros6(sum(at(w.yesterday!.start), at(w.yesterday!.end), 'revenue_micros')));

    // In the first hour after midnight, whole days: Sunday 30 March (23 hours) against Saturday 29 (24).
    const night = (await dashboard(t.app.ctx, caller, 'Europe/Madrid', ['tiles'], 'en', at('2025-03-30T22:10:00Z'))) as unknown as Dashboard;
    expect(night.tiles!.windows.today).toEqual({ start: '2025-03-29T23:00:00.000Z', end: '2025-03-30T22:00:00.000Z' });
    expect(night.tiles!.windows.yesterday).toEqual({ start: '2025-03-28T23:00:00.000Z', end: '2025-03-29T23:00:00.000Z' });
  });

  it('hides money from people without money permissions and reports from people without report areas', async () => {
    // A role with graphs only: impressions but no money.
    const [role] = await query<{ id: number }>(t.app.ctx.database, `INSERT INTO roles (name, acl) VALUES ('GRAPHS_ONLY', '{"/v1/graphs":["read"]}') RETURNING id`);
    const [user] = await query<{ id: number }>(t.app.ctx.database, `INSERT INTO users (mail, name, password_hash) VALUES ('graphs@adtech.example', 'Graphs Only', 'x') RETURNING id`);
    await query(t.app.ctx.database, `INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user!.id, role!.id]);
    const { token } = await t.app.sessions.issue(Number(user!.id));
    const res = await t.app.inject({ url: '/v1/dashboard', headers: { authorization: `Bearer ${token}` } });
    const d = body<Dashboard>(res).data;
    expect(d.money_visible).toBe(false);
    expect(d.tiles!.tiles.map((x) => x.key)).toEqual(['impressions']);
    expect(Object.keys(d.series![0]!)).toEqual(['day', 'impressions']);
    expect(d.top!.partners[0]).not.toHaveProperty('revenue');

    const viewer = await signIn(t.app, 'scheduler.viewer@adtech.example');
    const v = body<Dashboard>(await t.app.inject({ url: '/v1/dashboard', headers: viewer.headers })).data;
    expect(v).toMatchObject({ reports_visible: false, tiles: null, series: null, top: null });
    expect(v.waiting).toHaveLength(4);
  });
});
