/**
 * Demo allow-list entries for the IP firewall screen: a few per demo user, in every status the
 * screen shows (ACTIVE, PENDING, DISABLED by a person or by expiry, ERROR with the firewall's
 * message), on the documentation address ranges (RFC 5737, RFC 3849), with their audit history.
 */
import { durationHours, type FirewallType } from '@backoffice/core/firewall';
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { auditLog, firewallEntries, settings, users } from './schema.ts';

interface DemoEntry {
  owner: string;
  ip: string;
  type: FirewallType;
  status: 'ACTIVE' | 'PENDING' | 'DISABLED' | 'ERROR';
  /** Hours ago it was asked for. */
  agoHours: number;
  reason?: 'manual' | 'expired';
  error?: string;
}

const DEMO_ENTRIES: readonly DemoEntry[] = [
  { owner: 'admin', ip: '198.51.100.10', type: 'UNLIMITED', status: 'ACTIVE', agoHours: 24 * 40 },
  { owner: 'admin', ip: '2001:db8:10::1', type: 'UNLIMITED', status: 'ACTIVE', agoHours: 24 * 12 },
  { owner: 'tech', ip: '203.0.113.45', type: 'UNLIMITED', status: 'ERROR', agoHours: 2, error: 'firewall.reload_failed' },
  { owner: 'tech', ip: '203.0.113.46', type: 'HOUR_12', status: 'ACTIVE', agoHours: 1 },
  { owner: 'tech', ip: '203.0.113.47', type: 'HOUR_6', status: 'DISABLED', agoHours: 30, reason: 'expired' },
  { owner: 'finance', ip: '192.0.2.20', type: 'HOUR_12', status: 'ACTIVE', agoHours: 3 },
  { owner: 'finance', ip: '192.0.2.21', type: 'HOUR_3', status: 'DISABLED', agoHours: 50, reason: 'expired' },
  { owner: 'demand.lead', ip: '192.0.2.33', type: 'HOUR_9', status: 'DISABLED', agoHours: 5, reason: 'manual' },
  { owner: 'demand.lead', ip: '192.0.2.34', type: 'HOUR_12', status: 'PENDING', agoHours: 0 },
  { owner: 'ssp.lead', ip: '198.51.100.77', type: 'HOUR_12', status: 'ACTIVE', agoHours: 2 },
  { owner: 'marketing', ip: '198.51.100.91', type: 'HOUR_2', status: 'DISABLED', agoHours: 72, reason: 'expired' },
];

export async function seedDemoFirewall(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [marker] = await t.insert(settings).values({ key: 'demo_firewall_seeded', value: new Date().toISOString() }).onConflictDoNothing().returning();
    if (!marker) return;
    const people = await t.select({ id: users.id, mail: users.mail }).from(users);
    for (const e of DEMO_ENTRIES) {
      const owner = people.find((p) => p.mail.startsWith(`${e.owner}@`));
      if (!owner) continue;
      const hours = durationHours(e.type);
      const at = sql`now() - make_interval(hours => ${e.agoHours}::int)`;
      const expires = hours === null ? null : sql`now() - make_interval(hours => ${e.agoHours}::int) + make_interval(hours => ${hours}::int)`;
      const disabledAt = e.reason === 'expired' ? expires : e.reason === 'manual' ? sql`now() - make_interval(mins => 30)` : at;
      const [row] = await t
        .insert(firewallEntries)
        .values({
          ownerId: owner.id,
          ip: e.ip,
          type: e.type,
          status: e.status,
          error: e.error ?? null,
          disabledReason: e.reason ?? null,
          createdAt: at,
          updatedAt: disabledAt ?? at,
          expiresAt: expires,
        })
        .returning();
      const entry = {
        id: row!.id,
        ip: e.ip,
        type: e.type,
        expires_at: row!.expiresAt?.toISOString() ?? null,
        created_at: row!.createdAt.toISOString(),
      };
      const base = { ip: '10.20.0.15', entity: 'firewall_entry', entityId: String(row!.id) };
      await t.insert(auditLog).values({
        ...base,
        actorId: owner.id,
        action: 'firewall.allow',
        after: { ...entry, status: 'PENDING', error: null, disabled_reason: null },
        at,
      });
      if (e.status === 'DISABLED') {
        await t.insert(auditLog).values({
          ...base,
          actorId: e.reason === 'manual' ? owner.id : null,
          ip: e.reason === 'manual' ? base.ip : null,
          action: e.reason === 'manual' ? 'firewall.disable' : 'firewall.expire',
          before: { ...entry, status: 'ACTIVE', error: null, disabled_reason: null },
          after: { ...entry, status: 'DISABLED', error: null, disabled_reason: e.reason },
          at: disabledAt ?? at,
        });
      }
    }
  });
}
