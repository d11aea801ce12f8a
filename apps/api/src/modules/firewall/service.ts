/**
 * IP firewall rules (spec sections 3, 5, 6, 9; issue 2):
 * - a caller with /v1/firewall allow-lists an address for a duration type (default HOUR_1);
 *   UNLIMITED needs the firewall_unlimited action (ADMIN always has it);
 * - non-admins may only allow-list their own address (the request's ip_origin); admins any address;
 * - one entry per owner and address: asking again replaces it (new type, fresh expiry);
 * - entries are PENDING while being applied, ACTIVE once the adapter applied them, ERROR (with the
 *   message key) when it failed, DISABLED by a person ('manual') or by the expiry job ('expired');
 * - the allow-list is always rebuilt from the database under an advisory lock, so instances converge;
 * - disable/enable: the owner or an admin (others get 404); enabling restarts the duration from now
 *   (an expired entry comes back for its full duration), with the same rules as asking anew;
 * - retry: an entry in ERROR is applied again, its expiry kept (the owner or an admin).
 * Every change is audit-logged with the entry's fields as the list shows them (its history).
 */
import { isAdmin, isAllowed } from '@backoffice/core/acl';
import {
  FIREWALL_OK,
  FIREWALL_RESOURCE,
  FIREWALL_UNLIMITED_ACTION,
  canonicalIp,
  durationHours,
  isUnlimited,
  sameIp,
  type FirewallEntryItem,
  type FirewallType,
} from '@backoffice/core/firewall';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { withAdvisoryLock } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { callerOf, type Caller } from '../../plugins/auth.ts';
import { audit } from '../../plugins/audit.ts';
import { createAdapter, type ApplyResult, type FirewallAdapter } from './adapters.ts';
import * as repo from './repo.ts';

/** Advisory lock that serialises allow-list rebuilds across instances. */
export const FIREWALL_LOCK_ID = 7263543;
/** Queue of the expiry job (cron every minute, plus one delayed job per entry at its expiry). */
export const FIREWALL_EXPIRE_QUEUE = 'firewall-expire';

/** 'OK' or a firewall.* message key (routes translate keys into the caller's language). */
export type Outcome = typeof FIREWALL_OK | string;

export interface AllowResult {
  db: Outcome;
  firewall: Outcome;
  entry: FirewallEntryItem | null;
}

export interface EntryActionResult {
  entry: FirewallEntryItem;
  firewall: Outcome;
}

export interface FirewallService {
  readonly adapter: FirewallAdapter;
  allow(request: FastifyRequest, input: { ip: string; type: FirewallType }): Promise<AllowResult>;
  disable(request: FastifyRequest, id: number): Promise<EntryActionResult>;
  enable(request: FastifyRequest, id: number): Promise<EntryActionResult>;
  /** Applies the allow-list again for an entry in ERROR (409 firewall.not_in_error otherwise). */
  retry(request: FastifyRequest, id: number): Promise<EntryActionResult>;
  /** Rebuilds the allow-list from the database and settles PENDING/ERROR entries. */
  rebuild(log?: FastifyBaseLogger): Promise<ApplyResult>;
  /** Marks expired entries DISABLED ('expired'), audit-logged; returns their ids. Idempotent. */
  expireDue(): Promise<number[]>;
}

/** The caller's address as the firewall sees it (request.ip honours TRUST_PROXY). */
export function originIp(request: FastifyRequest): string {
  return canonicalIp(request.ip) ?? request.ip;
}

export function canUseUnlimited(caller: Caller): boolean {
  return isAllowed(caller, { resource: FIREWALL_RESOURCE, action: FIREWALL_UNLIMITED_ACTION });
}

const services = new WeakMap<AppContext, FirewallService>();

/** One service per app (routes and jobs share its adapter and its rebuild queue). */
export function firewallServiceFor(ctx: AppContext): FirewallService {
  let service = services.get(ctx);
  if (!service) {
    service = createFirewallService(ctx);
    services.set(ctx, service);
  }
  return service;
}

function createFirewallService(ctx: AppContext): FirewallService {
  const { database } = ctx;
  const db = database.db;
  const adapter = createAdapter(ctx.config);
  // Rebuilds in this process run one after another; the advisory lock does the same across
  // instances on PostgreSQL (on PGlite there is only this process).
  let queue: Promise<unknown> = Promise.resolve();

  function serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  }

  function rebuild(log?: FastifyBaseLogger): Promise<ApplyResult> {
    return serialised(() =>
      withAdvisoryLock(database, FIREWALL_LOCK_ID, async () => {
        const entries = await repo.allowedEntries(db);
        const result = await adapter.apply(entries.map((e) => e.ip));
        if (!result.ok) log?.error({ adapter: adapter.kind, key: result.key, detail: result.detail }, 'firewall: apply failed');
        const unsettled = entries.filter((e) => e.status === 'PENDING' || e.status === 'ERROR').map((e) => e.id);
        const changed = await repo.settleEntries(db, unsettled, result.ok ? { ok: true } : { ok: false, key: result.key });
        if (changed.length > 0) {
          await audit(db, null, {
            action: 'firewall.apply',
            entity: 'firewall_entry',
            entityId: null,
            after: { adapter: adapter.kind, ok: result.ok, error: result.ok ? null : result.key, entries: changed, allowed: entries.length },
          });
        }
        return result;
      }),
    );
  }

  async function applyOutcome(request: FastifyRequest): Promise<Outcome> {
    try {
      const result = await rebuild(request.log);
      return result.ok ? FIREWALL_OK : result.key;
    } catch (err) {
      request.log.error({ err }, 'firewall: rebuild failed');
      return 'firewall.apply_failed';
    }
  }

  async function scheduleExpiry(request: FastifyRequest, entry: FirewallEntryItem): Promise<void> {
    const jobs = request.server.jobs;
    if (!jobs || !entry.expires_at) return;
    try {
      // A second after expiry; the cron sweep (every minute) catches anything this misses.
      const startAfter = new Date(Date.parse(entry.expires_at) + 1000);
      await jobs.send(FIREWALL_EXPIRE_QUEUE, { entryId: entry.id }, { startAfter });
    } catch (err) {
      request.log.warn({ err, entryId: entry.id }, 'firewall: expiry job not scheduled (the cron sweep covers it)');
    }
  }

  /** The entry if the caller may act on it (owner or admin); 404 otherwise. */
  function assertVisible(caller: Caller, row: repo.EntryRow | null): repo.EntryRow {
    if (!row || (!isAdmin(caller.roles) && row.ownerId !== caller.id)) throw notFound('firewall.entry_not_found');
    return row;
  }

  function assertMayAllow(request: FastifyRequest, caller: Caller, ip: string, type: FirewallType): void {
    if (isUnlimited(type) && !canUseUnlimited(caller)) throw forbidden('firewall.unlimited_forbidden');
    if (!isAdmin(caller.roles) && !sameIp(ip, originIp(request))) throw forbidden('firewall.ip_not_own');
  }

  return {
    adapter,
    rebuild,

    async allow(request, input) {
      const caller = callerOf(request);
      assertMayAllow(request, caller, input.ip, input.type);
      let entryId: number;
      try {
        entryId = await db.transaction(async (tx) => {
          const before = await repo.lockOwnerEntry(tx, caller.id, input.ip);
          const row = await repo.upsertEntry(tx, { ownerId: caller.id, ip: input.ip, type: input.type, hours: durationHours(input.type) });
          await audit(tx, request, {
            action: before ? 'firewall.renew' : 'firewall.allow',
            entity: 'firewall_entry',
            entityId: row.id,
            before: before && repo.auditable(before),
            after: repo.auditable(row),
          });
          return row.id;
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        request.log.error({ err }, 'firewall: saving the entry failed');
        return { db: 'firewall.db_failed', firewall: 'firewall.not_applied', entry: null };
      }
      const firewall = await applyOutcome(request);
      const entry = await repo.getItem(db, entryId);
      if (entry) await scheduleExpiry(request, entry);
      return { db: FIREWALL_OK, firewall, entry };
    },

    async disable(request, id) {
      const caller = callerOf(request);
      const changed = await db.transaction(async (tx) => {
        const row = assertVisible(caller, await repo.lockEntry(tx, id));
        if (row.status === 'DISABLED') return false;
        const after = await repo.disableEntry(tx, id, 'manual');
        await audit(tx, request, { action: 'firewall.disable', entity: 'firewall_entry', entityId: id, before: repo.auditable(row), after: repo.auditable(after) });
        return true;
      });
      const firewall = changed ? await applyOutcome(request) : FIREWALL_OK;
      return { entry: (await repo.getItem(db, id))!, firewall };
    },

    async enable(request, id) {
      const caller = callerOf(request);
      await db.transaction(async (tx) => {
        const row = assertVisible(caller, await repo.lockEntry(tx, id));
        assertMayAllow(request, caller, row.ip, row.type as FirewallType);
        const after = await repo.reenableEntry(tx, id, durationHours(row.type as FirewallType));
        await audit(tx, request, { action: 'firewall.enable', entity: 'firewall_entry', entityId: id, before: repo.auditable(row), after: repo.auditable(after) });
      });
      const firewall = await applyOutcome(request);
      const entry = (await repo.getItem(db, id))!;
      await scheduleExpiry(request, entry);
      return { entry, firewall };
    },

    async retry(request, id) {
      const caller = callerOf(request);
      const row = assertVisible(caller, await repo.getRow(db, id));
      if (row.status !== 'ERROR') throw new AppError(409, 'firewall.not_in_error');
      const firewall = await applyOutcome(request);
      await audit(db, request, {
        action: 'firewall.retry',
        entity: 'firewall_entry',
        entityId: id,
        before: repo.auditable(row),
        after: repo.auditable((await repo.getRow(db, id)) ?? row),
      });
      return { entry: (await repo.getItem(db, id))!, firewall };
    },

    async expireDue() {
      return db.transaction(async (tx) => {
        const due = await repo.lockDueForExpiry(tx);
        const rows = await repo.markExpired(
          tx,
          due.map((r) => r.id),
        );
        for (const after of rows) {
          const before = due.find((r) => r.id === after.id) ?? null;
          await audit(tx, null, { action: 'firewall.expire', entity: 'firewall_entry', entityId: after.id, before: before && repo.auditable(before), after: repo.auditable(after) });
        }
        return rows.map((r) => r.id);
      });
    },
  };
}
