/**
 * Saved DataViewers: save, open, rename, share with roles, delete; ownership ACL and audit. Their
 * reads are the resource layer's (list with a total, filters, export, history), scoped to what the
 * caller may open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { query } from '../src/reports-data/sql.ts';

interface Dv {
  id: number;
  name: string;
  owner_id: number;
  owner: { id: number; name: string };
  shared_roles: { id: number; name: string }[];
  shared_role_ids: number[];
  can_edit: boolean;
  updated_at: string;
  definition?: Record<string, unknown>;
}

interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

interface HistoryEntry {
  action: string;
  actor: { id: number | null; name: string | null };
  changes: Record<string, [unknown, unknown]>;
}

const definition = {
  range: { start: '2025-03-01', end: '2025-03-31' },
  timezone: 'Europe/Madrid',
  dimensions: ['day', 'demand_partner'],
  metrics: ['revenue', 'ecpm'],
  filters: [{ dimension: 'country', op: 'include', values: ['ES'] }],
  sort: [{ field: 'revenue', dir: 'desc' }],
};

describe('saved DataViewers', () => {
  let t: TestApp;
  let lead: Record<string, string>;
  let finance: Record<string, string>;
  let ssp: Record<string, string>;
  let admin: Record<string, string>;
  let financeRoleId: number;

  beforeAll(async () => {
    t = await createTestApp();
    lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    const f = await signIn(t.app, 'finance@adtech.example');
    finance = f.headers;
    financeRoleId = Number(f.session.roles[0]!.id);
    ssp = (await signIn(t.app, 'ssp.lead@adtech.example')).headers;
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  });
  afterAll(async () => t?.close());

  const create = (payload: unknown, headers = lead) => t.app.inject({ method: 'POST', url: '/v1/reports/dataviewers', payload: payload as object, headers });

  it('validates the name and the definition with the report rules', async () => {
    const noName = await create({ name: ' ', definition });
    expect(noName.statusCode).toBe(400);
    expect(body(noName).message).toBe('report.name_required');
    const empty = await create({ name: 'x', definition: { ...definition, dimensions: [], metrics: [] } });
    expect(body(empty).message).toBe('report.dimension_or_metric_required');
    const badMetric = await create({ name: 'x', definition: { ...definition, metrics: ['nope'] } });
    expect(body(badMetric).message).toBe('report.metric_unknown');
    const badRole = await create({ name: 'x', definition, shared_role_ids: [999_999] });
    expect(body(badRole).message).toBe('report.role_unknown');
    // A preset instead of fixed dates is allowed (the screen resolves it when opening).
    const preset = await create({ name: 'Yesterday by partner', definition: { ...definition, range: undefined, preset: 'yesterday' } });
    expect(preset.statusCode).toBe(201);
  });

  it('saves, lists, opens, renames, shares and deletes, with ownership rules', async () => {
    const created = await create({ name: 'Spain by partner', definition, shared_role_ids: [] });
    expect(created.statusCode).toBe(201);
    const dv = body<Dv>(created).data;
    expect(dv).toMatchObject({ name: 'Spain by partner', can_edit: true, shared_role_ids: [] });
    expect(dv.definition).toMatchObject(definition);

    // Not shared yet: others do not even see it.
    expect((await t.app.inject({ url: `/v1/reports/dataviewers/${dv.id}`, headers: finance })).statusCode).toBe(404);
    expect(body<Page<Dv>>(await t.app.inject({ url: '/v1/reports/dataviewers?page_size=200', headers: finance })).data.items.map((d) => d.id)).not.toContain(dv.id);

    // Share with the FINANCE role: finance opens it but cannot change it; SSP still cannot see it.
    const shared = await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${dv.id}`, payload: { shared_role_ids: [financeRoleId] }, headers: lead });
    expect(body<Dv>(shared).data.shared_role_ids).toEqual([financeRoleId]);
    const opened = await t.app.inject({ url: `/v1/reports/dataviewers/${dv.id}`, headers: finance });
    expect(opened.statusCode).toBe(200);
    expect(body<Dv>(opened).data).toMatchObject({ id: dv.id, can_edit: false, owner: { name: 'Lucía Fernández' } });
    expect(body<Page<Dv>>(await t.app.inject({ url: '/v1/reports/dataviewers?page_size=200', headers: finance })).data.items.map((d) => d.id)).toContain(dv.id);
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${dv.id}`, payload: { name: 'mine now' }, headers: finance })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${dv.id}`, headers: finance })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v1/reports/dataviewers/${dv.id}`, headers: ssp })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${dv.id}`, headers: ssp })).statusCode).toBe(404);

    // Rename by the owner; ADMIN sees and may edit everything.
    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${dv.id}`, payload: { name: 'Spain by partner (March)' }, headers: lead });
    expect(body<Dv>(renamed).data.name).toBe('Spain by partner (March)');
    expect(body<Dv>(await t.app.inject({ url: `/v1/reports/dataviewers/${dv.id}`, headers: admin })).data.can_edit).toBe(true);

    // Without the reports permission at all: 403 before anything else.
    const marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
    expect((await t.app.inject({ url: '/v1/reports/dataviewers', headers: marketing })).statusCode).toBe(403);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${dv.id}`, headers: lead });
    expect(body(deleted).data).toEqual({ id: dv.id, deleted: true });
    expect((await t.app.inject({ url: `/v1/reports/dataviewers/${dv.id}`, headers: lead })).statusCode).toBe(404);

    const audits = await query<{ action: string }>(t.app.ctx.database, `SELECT action FROM audit_log WHERE entity = 'dataviewer' AND entity_id = $1 ORDER BY id`, [String(dv.id)]);
    expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'update', 'delete']);
  });

  it("needs 'write' on saved DataViewers to save, change, share, delete and schedule; 'read' on reports runs and opens them", async () => {
    const readOnly = await userWithAcl(t.app, 'reports.reader@adtech.example', { '/v1/reports': ['read'] });
    const mine = body<Dv>(await create({ name: 'Shared with readers', definition }, admin)).data;
    // Opening and listing: allowed.
    expect((await t.app.inject({ url: '/v1/reports/dataviewers', headers: readOnly.headers })).statusCode).toBe(200);
    // Every write: 403, and nothing changes.
    const denied = [
      await create({ name: 'Mine', definition }, readOnly.headers),
      await t.app.inject({ method: 'PATCH', url: `/v1/reports/dataviewers/${mine.id}`, payload: { name: 'x' }, headers: readOnly.headers }),
      await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${mine.id}`, headers: readOnly.headers }),
      await t.app.inject({ method: 'POST', url: `/v1/reports/dataviewers/${mine.id}/schedules`, payload: {}, headers: readOnly.headers }),
    ];
    for (const res of denied) expect(body(res).message, res.body).toBe('auth.forbidden');
    expect(denied.map((r) => r.statusCode)).toEqual([403, 403, 403, 403]);
    expect(body<Dv>(await t.app.inject({ url: `/v1/reports/dataviewers/${mine.id}`, headers: admin })).data.name).toBe('Shared with readers');
    // With write granted, the same person saves their own.
    const writer = await userWithAcl(t.app, 'reports.writer@adtech.example', { '/v1/reports': ['read'], '/v1/reports/dataviewers': ['read', 'write'] });
    const saved = await create({ name: 'Mine', definition }, writer.headers);
    expect(saved.statusCode, saved.body).toBe(201);
    expect(body<Dv>(saved).data.can_edit).toBe(true);
  });

  it('lists the roles to share with for anyone with reports (not only ADMIN), and refuses people without reports', async () => {
    const res = await t.app.inject({ url: '/v1/reports/roles', headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    const list = body<{ id: number; name: string }[]>(res).data;
    expect(list.map((r) => r.name)).toEqual(expect.arrayContaining(['ADMIN', 'FINANCE', 'DEMAND_LEAD']));
    expect(Object.keys(list[0]!).sort()).toEqual(['id', 'name']);
    const marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
    expect((await t.app.inject({ url: '/v1/reports/roles', headers: marketing })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/reports/roles' })).statusCode).toBe(401);
  });

  it('answers 404 for ids that do not exist and 400 for ids that are not ids', async () => {
    expect((await t.app.inject({ url: '/v1/reports/dataviewers/987654', headers: lead })).statusCode).toBe(404);
    const bad = await t.app.inject({ url: '/v1/reports/dataviewers/abc', headers: lead });
    expect(bad.statusCode).toBe(400);
  });
  describe('reads on the resource layer', () => {
    const tag = 'Layer list';
    const list = async (headers: Record<string, string>, query = '') => {
      const res = await t.app.inject({ url: `/v1/reports/dataviewers?f[name]=${encodeURIComponent(tag)}${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return body<Page<Dv>>(res).data;
    };
    let sspOwn: Dv;
    let leadPrivate: Dv;

    beforeAll(async () => {
      // finance owns two; lead shares one with FINANCE and keeps one; SSP keeps one.
      const made = [
        await create({ name: `${tag} B finance`, definition }, finance),
        await create({ name: `${tag} A finance`, definition }, finance),
        await create({ name: `${tag} C shared with finance`, definition, shared_role_ids: [financeRoleId] }, lead),
        await create({ name: `${tag} D lead only`, definition }, lead),
        await create({ name: `${tag} E ssp only`, definition }, ssp),
      ];
      for (const res of made) expect(res.statusCode, res.body).toBe(201);
      leadPrivate = body<Dv>(made[3]!).data;
      sspOwn = body<Dv>(made[4]!).data;
    });

    it("lists the caller's own and those shared with one of its roles, with a total, never others'", async () => {
      const page = await list(finance, '&sort=name');
      expect(page).toMatchObject({ total: 3, page: 1, page_size: 25 });
      expect(page.items.map((d) => d.name)).toEqual([`${tag} A finance`, `${tag} B finance`, `${tag} C shared with finance`]);
      // What the saved list on the screen shows: owner, roles shared with, whether I may change it.
      const [own, , shared] = page.items;
      expect(own).toMatchObject({ can_edit: true, owner: { name: expect.any(String) as string }, shared_roles: [], shared_role_ids: [] });
      expect(shared).toMatchObject({ can_edit: false, owner: { name: 'Lucía Fernández' }, shared_role_ids: [financeRoleId] });
      expect(shared!.shared_roles.map((r) => r.name)).toEqual(['FINANCE']);
      expect(own).not.toHaveProperty('definition');

      const second = await list(finance, '&sort=-name&page_size=2&page=2');
      expect(second).toMatchObject({ total: 3, page: 2, page_size: 2 });
      expect(second.items.map((d) => d.name)).toEqual([`${tag} A finance`]);

      expect((await list(ssp)).items.map((d) => d.id)).toEqual([sspOwn.id]);
      expect((await list(lead, '&sort=name')).items.map((d) => d.name)).toEqual([`${tag} C shared with finance`, `${tag} D lead only`]);
      expect((await list(admin)).total).toBe(5);
      // Others' DataViewers answer 404 in every read.
      for (const url of [`/v1/reports/dataviewers/${leadPrivate.id}`, `/v1/reports/dataviewers/${leadPrivate.id}/history`, `/v1/reports/dataviewers/${leadPrivate.id}/used-by`]) {
        expect((await t.app.inject({ url, headers: finance })).statusCode, url).toBe(404);
      }
      const suggested = body<{ id: number; value: string }[]>(await t.app.inject({ url: `/v1/reports/dataviewers/autocomplete?name=${encodeURIComponent(tag)}&limit=50`, headers: ssp })).data;
      expect(suggested).toEqual([{ id: sspOwn.id, value: sspOwn.name }]);
    });

    it('filters by name (contains, any case) and refuses unknown filters and sorts with 400', async () => {
      const direct = body<Page<Dv>>(await t.app.inject({ url: `/v1/reports/dataviewers?f[name]=${encodeURIComponent('b FINANCE')}`, headers: finance })).data;
      expect(direct.items.map((d) => d.name)).toEqual([`${tag} B finance`]);
      expect(direct.total).toBe(1);
      const none = body<Page<Dv>>(await t.app.inject({ url: `/v1/reports/dataviewers?f[name]=${encodeURIComponent('lead only')}`, headers: finance })).data;
      expect(none).toMatchObject({ items: [], total: 0 });
      expect((await t.app.inject({ url: '/v1/reports/dataviewers?f[definition]=x', headers: finance })).statusCode).toBe(400);
      expect((await t.app.inject({ url: '/v1/reports/dataviewers?sort=owner_id', headers: finance })).statusCode).toBe(400);
      expect((await t.app.inject({ url: '/v1/reports/dataviewers?page_size=201', headers: finance })).statusCode).toBe(400);
    });

    it("shows a saved DataViewer's history with each change's diff, to those who may open it", async () => {
      const created = body<Dv>(await create({ name: 'History of a DataViewer', definition }, lead)).data;
      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/v1/reports/dataviewers/${created.id}`,
        payload: { name: 'History of a DataViewer (renamed)', shared_role_ids: [financeRoleId] },
        headers: lead,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const res = await t.app.inject({ url: `/v1/reports/dataviewers/${created.id}/history`, headers: finance });
      expect(res.statusCode, res.body).toBe(200);
      const history = body<HistoryEntry[]>(res).data;
      expect(history.map((h) => h.action)).toEqual(['update', 'create']);
      // Only what changed: the definition was not sent, so it is not in the diff.
      expect(history[0]!.changes).toEqual({
        name: ['History of a DataViewer', 'History of a DataViewer (renamed)'],
        shared_role_ids: [[], [financeRoleId]],
      });
      expect(history[0]!.actor.name).toBe('Lucía Fernández');
      expect((await t.app.inject({ url: `/v1/reports/dataviewers/${created.id}/history`, headers: ssp })).statusCode).toBe(404);
    });

    it('exports the list as CSV with the same scope and filters', async () => {
      const csv = async (headers: Record<string, string>) => {
        const res = await t.app.inject({ url: `/v1/reports/dataviewers/export?format=csv&sort=name&f[name]=${encodeURIComponent(tag)}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toContain('text/csv');
        expect(res.headers['content-disposition']).toMatch(/saved_dataviewers_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
        return res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
      };
      const financeLines = await csv(finance);
      expect(financeLines).toHaveLength(4);
      expect(financeLines.slice(1).map((l) => l.split(',')[1])).toEqual([`${tag} A finance`, `${tag} B finance`, `${tag} C shared with finance`]);
      const sspLines = await csv(ssp);
      expect(sspLines).toHaveLength(2);
      expect(sspLines[1]).toContain(`${tag} E ssp only`);
      expect((await csv(admin)).length).toBe(6);
    });
  });
});
