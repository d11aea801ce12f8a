/**
 * IP firewall API (adapter none): ip_origin and trusted proxies, allow-listing with the duration and
 * address rules, one entry per owner and address, the list, disable/enable, expiry and audit.
 */
import type { FirewallEntryItem, FirewallEntryRow } from '@backoffice/core/firewall';
import type { Page } from '@backoffice/core/resources/define';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { auditLog } from '../src/db/schema.ts';
import { firewallServiceFor } from '../src/modules/firewall/service.ts';
import { countAudit, countEntries, dbOf, entryById, expireNow, setRoleAcl, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

type FirewallEntryPage = Page<FirewallEntryRow>;

type Update = { update_db_ip: string; update_firewall_ip: string; entry: FirewallEntryItem | null };
type Action = { entry: FirewallEntryItem; update_firewall_ip: string };

describe('IP firewall API', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: { authorization: string };
  let tech: { authorization: string };
  let finance: { authorization: string };
  let financeId: number;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    const a = await signIn(app, 'admin@adtech.example');
    const te = await signIn(app, 'tech@adtech.example');
    const f = await signIn(app, 'finance@adtech.example');
    admin = a.headers;
    tech = te.headers;
    finance = f.headers;
    financeId = f.session.id;
  });
  afterAll(async () => t.close());

  const allow = (headers: Record<string, string>, payload: unknown, extra: { remoteAddress?: string; lang?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/firewall/ip',
      headers: { ...headers, ...(extra.lang ? { 'accept-language': extra.lang } : {}) },
      payload: payload as object,
      ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
    });

  describe('GET /v1/firewall/ip', () => {
    it('needs a token and the /v1/firewall permission', async () => {
      expect((await app.inject('/v1/firewall/ip')).statusCode).toBe(401);
      const noFirewall = await userWithAcl(app, 'nofw@adtech.example', { '/v1/reports': ['read'] });
      const res = await app.inject({ url: '/v1/firewall/ip', headers: noFirewall.headers });
      expect(res.statusCode).toBe(403);
      expect(body(res).message).toBe('auth.forbidden');
    });

    it("answers the caller's address; IPv4-mapped IPv6 as IPv4; X-Forwarded-For ignored without a trusted proxy", async () => {
      const res = await app.inject({ url: '/v1/firewall/ip', headers: { ...finance, 'x-forwarded-for': '203.0.113.9' } });
      expect(res.statusCode).toBe(200);
      expect(body(res)).toMatchObject({ status: 'success', data: { ip_origin: '127.0.0.1' } });
      const mapped = await app.inject({ url: '/v1/firewall/ip', headers: finance, remoteAddress: '::ffff:10.20.30.40' });
      expect(body(mapped).data).toEqual({ ip_origin: '10.20.30.40' });
      const v6 = await app.inject({ url: '/v1/firewall/ip', headers: finance, remoteAddress: '2001:DB8:0::7' });
      expect(body(v6).data).toEqual({ ip_origin: '2001:db8::7' });
    });

    it('honours X-Forwarded-For from a trusted proxy only (TRUST_PROXY)', async () => {
      const proxied = await buildApp(
        { ...t.config, trustProxy: ['127.0.0.1', '::1'] },
        { database: app.ctx.database, keepDatabase: true, skipPrepare: true },
      );
      try {
        const viaProxy = await proxied.inject({ url: '/v1/firewall/ip', headers: { ...finance, 'x-forwarded-for': '198.51.100.4, 203.0.113.9' } });
        expect(body(viaProxy).data).toEqual({ ip_origin: '203.0.113.9' });
        const spoofed = await proxied.inject({
          url: '/v1/firewall/ip',
          headers: { ...finance, 'x-forwarded-for': '198.51.100.4' },
          remoteAddress: '192.0.2.50',
        });
        expect(body(spoofed).data).toEqual({ ip_origin: '192.0.2.50' });
        // A non-admin behind the proxy may allow-list the forwarded address (theirs), not the proxy's.
        const own = await proxied.inject({
          method: 'POST',
          url: '/v1/firewall/ip',
          headers: { ...finance, 'x-forwarded-for': '203.0.113.9' },
          payload: { ip: '203.0.113.9' },
        });
        expect(body<Update>(own).data).toMatchObject({ update_db_ip: 'OK', update_firewall_ip: 'OK' });
        const proxyAddress = await proxied.inject({
          method: 'POST',
          url: '/v1/firewall/ip',
          headers: { ...finance, 'x-forwarded-for': '203.0.113.9' },
          payload: { ip: '127.0.0.1' },
        });
        expect(proxyAddress.statusCode).toBe(403);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('POST /v1/firewall/ip', () => {
    it('allow-lists the caller for HOUR_1 by default: saved, applied (ACTIVE), audited', async () => {
      const before = await countAudit(app, 'firewall.allow');
      const res = await allow(finance, { ip: '127.0.0.1' });
      expect(res.statusCode).toBe(200);
      const data = body<Update>(res).data;
      expect(data).toMatchObject({ update_db_ip: 'OK', update_firewall_ip: 'OK' });
      const entry = data.entry!;
      expect(entry).toMatchObject({ ip: '127.0.0.1', type: 'HOUR_1', status: 'ACTIVE', error: null, owner: { id: financeId, mail: 'finance@adtech.example' } });
      const hours = (Date.parse(entry.expires_at!) - Date.parse(entry.created_at)) / 3_600_000;
      expect(hours).toBeGreaterThan(0.99);
      expect(hours).toBeLessThan(1.01);
      expect(await countAudit(app, 'firewall.allow')).toBe(before + 1);
      const [row] = await dbOf(app)
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'firewall.allow'), eq(auditLog.entityId, String(entry.id))));
      expect(row).toMatchObject({ actorId: financeId, entity: 'firewall_entry', entityId: String(entry.id), ip: '127.0.0.1' });
      expect(row!.after).toMatchObject({ ip: '127.0.0.1', status: 'PENDING', type: 'HOUR_1' });
      // The adapter applied it: the system recorded the PENDING -> ACTIVE step too.
      expect(await countAudit(app, 'firewall.apply')).toBeGreaterThan(0);
    });

    it('asking again for the same address replaces the entry (new type and expiry), never duplicates it', async () => {
      const first = body<Update>(await allow(tech, { ip: '127.0.0.1', type: 'HOUR_2' })).data.entry!;
      const count = await countEntries(app);
      const second = body<Update>(await allow(tech, { ip: '127.0.0.1', type: 'HOUR_12' })).data.entry!;
      expect(second.id).toBe(first.id);
      expect(second.type).toBe('HOUR_12');
      expect(Date.parse(second.expires_at!) - Date.parse(first.expires_at!)).toBeGreaterThan(9.9 * 3_600_000);
      expect(second.created_at).toBe(first.created_at);
      expect(await countEntries(app)).toBe(count);
      expect(await countAudit(app, 'firewall.renew', first.id)).toBe(1);
      // The same address spelled differently is still the same entry.
      const mapped = await allow(tech, { ip: '::ffff:127.0.0.1', type: 'HOUR_3' });
      expect(body<Update>(mapped).data.entry!.id).toBe(first.id);
      expect(await countEntries(app)).toBe(count);
    });

    it('UNLIMITED needs firewall_unlimited (tech has it, finance does not); it never expires', async () => {
      const refused = await allow(finance, { ip: '127.0.0.1', type: 'UNLIMITED' }, { lang: 'es' });
      expect(refused.statusCode).toBe(403);
      expect(body(refused)).toMatchObject({ status: 'error', message: 'firewall.unlimited_forbidden', text: 'No tienes permiso para una duración ilimitada' });
      const granted = await allow(tech, { ip: '127.0.0.1', type: 'UNLIMITED' });
      expect(body<Update>(granted).data.entry).toMatchObject({ type: 'UNLIMITED', expires_at: null, status: 'ACTIVE' });
      const viaAcl = await userWithAcl(app, 'unl@adtech.example', { '/v1/firewall': ['read', 'write', 'firewall_unlimited'] });
      expect((await allow(viaAcl.headers, { ip: '127.0.0.1', type: 'UNLIMITED' })).statusCode).toBe(200);
      // Allow-listing is a write: read (even with firewall_unlimited) only shows the control.
      const readOnly = await userWithAcl(app, 'ro@adtech.example', { '/v1/firewall': ['read', 'firewall_unlimited'] });
      expect((await allow(readOnly.headers, { ip: '127.0.0.1', type: 'HOUR_1' })).statusCode).toBe(403);
      expect((await app.inject({ url: '/v1/firewall/ip', headers: readOnly.headers })).statusCode).toBe(200);
    });

    it('non-admins may only allow-list their own address; admins any address (IPv4 or IPv6)', async () => {
      const count = await countEntries(app);
      const other = await allow(finance, { ip: '198.51.100.20' });
      expect(other.statusCode).toBe(403);
      expect(body(other)).toMatchObject({ message: 'firewall.ip_not_own', text: 'You can only allow your own IP address' });
      expect(await countEntries(app)).toBe(count);
      const fromThere = await allow(finance, { ip: '198.51.100.20' }, { remoteAddress: '198.51.100.20' });
      expect(body<Update>(fromThere).data.update_db_ip).toBe('OK');
      const byAdmin = await allow(admin, { ip: '2001:DB8::20', type: 'UNLIMITED' });
      expect(body<Update>(byAdmin).data.entry).toMatchObject({ ip: '2001:db8::20', type: 'UNLIMITED', status: 'ACTIVE' });
    });
  });

  describe('GET /v1/firewall/entries', () => {
    it('lists every entry for admins and only their own for others, newest first, paginated with a total', async () => {
      const all = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?page_size=100', headers: admin })).data;
      expect(all.total).toBe(await countEntries(app));
      expect(new Set(all.items.map((i) => i.owner_id)).size).toBeGreaterThan(2);
      const created = all.items.map((i) => i.created_at);
      expect(created).toEqual([...created].sort().reverse());

      const own = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries', headers: finance })).data;
      expect(own.total).toBeGreaterThan(0);
      expect(own.items.every((i) => i.owner_id === financeId)).toBe(true);
      expect(own.total).toBeLessThan(all.total);

      const page1 = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?page=1&page_size=2', headers: admin })).data;
      const page2 = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?page=2&page_size=2', headers: admin })).data;
      expect(page1).toMatchObject({ page: 1, page_size: 2, total: all.total });
      expect(page1.items).toHaveLength(2);
      expect(page2.items[0]!.id).toBe(all.items[2]!.id);
      const far = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?page=999', headers: admin })).data;
      expect(far).toMatchObject({ items: [], total: all.total });
    });

    it("keeps others' entries out of a non-admin's row, history, export and autocomplete (404, as if absent)", async () => {
      const mine = body<Update>(await allow(admin, { ip: '203.0.113.77', type: 'HOUR_2' })).data.entry!;
      for (const url of [`/v1/firewall/entries/${mine.id}`, `/v1/firewall/entries/${mine.id}/history`, `/v1/firewall/entries/${mine.id}/used-by`]) {
        expect((await app.inject({ url, headers: finance })).statusCode).toBe(404);
        expect((await app.inject({ url, headers: admin })).statusCode).toBe(200);
      }
      const row = body<FirewallEntryRow>(await app.inject({ url: `/v1/firewall/entries/${mine.id}`, headers: admin })).data;
      expect(row).toMatchObject({ ip: '203.0.113.77', type: 'HOUR_2', status: 'ACTIVE', owner_id_label: 'Carmen Ortega' });
      const csv = (await app.inject({ url: '/v1/firewall/entries/export?f[ip]=203.0.113', headers: finance })).body;
      expect(csv).not.toContain('203.0.113.77');
      expect((await app.inject({ url: '/v1/firewall/entries/export?f[ip]=203.0.113', headers: admin })).body).toContain('203.0.113.77');
      const found = body<{ id: number; value: string }[]>(await app.inject({ url: '/v1/firewall/entries/autocomplete?ip=113.77', headers: finance })).data;
      expect(found).toEqual([]);
      // No generic changes: the firewall's own commands change entries.
      expect((await app.inject({ method: 'DELETE', url: `/v1/firewall/entries/${mine.id}`, headers: admin })).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: '/v1/firewall/entries', headers: admin, payload: { ip: '203.0.113.78', type: 'HOUR_1' } })).statusCode).toBe(404);
    });

    it('records each change in the entry history with a field diff', async () => {
      const entry = body<Update>(await allow(admin, { ip: '203.0.113.79', type: 'HOUR_3' })).data.entry!;
      await app.inject({ method: 'POST', url: `/v1/firewall/entries/${entry.id}/disable`, headers: admin });
      const history = body<{ action: string; actor: { name: string }; changes: Record<string, unknown[]> }[]>(
        await app.inject({ url: `/v1/firewall/entries/${entry.id}/history`, headers: admin }),
      ).data;
      expect(history.map((h) => h.action)).toEqual(['firewall.disable', 'firewall.allow']);
      expect(history[0]).toMatchObject({ actor: { name: 'Carmen Ortega' }, changes: { status: ['ACTIVE', 'DISABLED'], disabled_reason: [null, 'manual'] } });
    });

    it('filters by status', async () => {
      const active = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?f[status]=ACTIVE&page_size=100', headers: admin })).data;
      expect(active.items.length).toBeGreaterThan(0);
      expect(active.items.every((i) => i.status === 'ACTIVE')).toBe(true);
      const disabled = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?f[status]=DISABLED', headers: admin })).data;
      expect(disabled.items.every((i) => i.status === 'DISABLED')).toBe(true);
    });
  });

  describe('disable and enable', () => {
    let entryId: number;
    beforeAll(async () => {
      entryId = body<Update>(await allow(finance, { ip: '192.0.2.77' }, { remoteAddress: '192.0.2.77' })).data.entry!.id;
    });
    const act = (headers: Record<string, string>, id: number, action: 'disable' | 'enable', remoteAddress?: string) =>
      app.inject({ method: 'POST', url: `/v1/firewall/entries/${id}/${action}`, headers, ...(remoteAddress ? { remoteAddress } : {}) });

    it('only the owner or an admin can act on an entry (others get 404)', async () => {
      const res = await act(tech, entryId, 'disable');
      expect(res.statusCode).toBe(404);
      expect(body(res).message).toBe('firewall.entry_not_found');
      expect((await entryById(app, entryId))!.status).toBe('ACTIVE');
      expect((await act(admin, 999_999, 'disable')).statusCode).toBe(404);
    });

    it('the owner disables (DISABLED, manual, audited); disabling twice changes nothing', async () => {
      const res = await act(finance, entryId, 'disable');
      expect(res.statusCode).toBe(200);
      expect(body<Action>(res).data).toMatchObject({ update_firewall_ip: 'OK', entry: { id: entryId, status: 'DISABLED', disabled_reason: 'manual' } });
      expect(await countAudit(app, 'firewall.disable', entryId)).toBe(1);
      expect((await act(finance, entryId, 'disable')).statusCode).toBe(200);
      expect(await countAudit(app, 'firewall.disable', entryId)).toBe(1);
    });

    it('enabling from another address is refused for non-admins; from the same address it is back for its full duration', async () => {
      expect((await act(finance, entryId, 'enable', '192.0.2.99')).statusCode).toBe(403);
      await expireNow(app, entryId, 3600);
      const res = await act(finance, entryId, 'enable', '192.0.2.77');
      expect(res.statusCode).toBe(200);
      const entry = body<Action>(res).data.entry;
      expect(entry).toMatchObject({ status: 'ACTIVE', disabled_reason: null });
      const left = (Date.parse(entry.expires_at!) - Date.now()) / 3_600_000;
      expect(left).toBeGreaterThan(0.95);
      expect(left).toBeLessThan(1.01);
      expect(await countAudit(app, 'firewall.enable', entryId)).toBe(1);
    });

    it("an admin can disable and enable anyone's entry from anywhere", async () => {
      expect(body<Action>(await act(admin, entryId, 'disable', '203.0.113.1')).data.entry.status).toBe('DISABLED');
      expect(body<Action>(await act(admin, entryId, 'enable', '203.0.113.1')).data.entry.status).toBe('ACTIVE');
    });

    it('enabling an UNLIMITED entry needs firewall_unlimited at that moment', async () => {
      const user = await userWithAcl(app, 'revoked@adtech.example', { '/v1/firewall': ['read', 'write', 'firewall_unlimited'] });
      const id = body<Update>(await allow(user.headers, { ip: '127.0.0.1', type: 'UNLIMITED' })).data.entry!.id;
      expect((await act(user.headers, id, 'disable')).statusCode).toBe(200);
      await setRoleAcl(app, user.roleId, { '/v1/firewall': ['read', 'write'] });
      const res = await act(user.headers, id, 'enable');
      expect(res.statusCode).toBe(403);
      expect(body(res).message).toBe('firewall.unlimited_forbidden');
      expect((await entryById(app, id))!.status).toBe('DISABLED');
    });
  });

  describe('expiry', () => {
    it('marks expired entries DISABLED (expired) once, audit-logged, and drops them from the allow-list', async () => {
      const entry = body<Update>(await allow(finance, { ip: '192.0.2.150' }, { remoteAddress: '192.0.2.150' })).data.entry!;
      await expireNow(app, entry.id);
      const service = firewallServiceFor(app.ctx);
      const expired = await service.expireDue();
      expect(expired).toContain(entry.id);
      expect(await entryById(app, entry.id)).toMatchObject({ status: 'DISABLED', disabledReason: 'expired' });
      expect(await countAudit(app, 'firewall.expire', entry.id)).toBe(1);
      expect(await service.expireDue()).toEqual([]);
      expect(await countAudit(app, 'firewall.expire', entry.id)).toBe(1);
      const listed = body<FirewallEntryPage>(await app.inject({ url: '/v1/firewall/entries?f[status]=DISABLED&page_size=100', headers: finance })).data;
      expect(listed.items.find((i) => i.id === entry.id)).toMatchObject({ disabled_reason: 'expired' });
    });

    it('never expires UNLIMITED entries', async () => {
      const entry = body<Update>(await allow(admin, { ip: '192.0.2.151', type: 'UNLIMITED' })).data.entry!;
      await firewallServiceFor(app.ctx).expireDue();
      expect((await entryById(app, entry.id))!.status).toBe('ACTIVE');
    });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await app.inject('/v1/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/firewall/ip', '/v1/firewall/entries', '/v1/firewall/entries/{id}/disable', '/v1/firewall/entries/{id}/enable']),
    );
  });
});
