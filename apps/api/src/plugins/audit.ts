/**
 * Audit records for every state-changing call: actor, simulated-by, simulated role, source address,
 * action, entity, before, after. While an ADMIN simulates a user, the actor is the user and
 * simulated_by the ADMIN; while simulating a role, the actor and simulated_by are the ADMIN and
 * simulated_role_id the role.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** Defaults to the request's caller. */
  actorId?: number | null;
  simulatedById?: number | null;
  /** Defaults to the request's simulated role (role simulation). */
  simulatedRoleId?: number | null;
}

/** Writes one audit record; pass a transaction as `db` to keep it atomic with the change. */
export async function audit(db: Db, request: FastifyRequest | null, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId !== undefined ? entry.actorId : (request?.caller?.id ?? null),
    simulatedById: entry.simulatedById !== undefined ? entry.simulatedById : (request?.caller?.simulatedBy ?? null),
    simulatedRoleId: entry.simulatedRoleId !== undefined ? entry.simulatedRoleId : (request?.caller?.simulatedRole?.id ?? null),
    ip: request?.ip ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    before: entry.before === undefined ? null : (entry.before as object),
    after: entry.after === undefined ? null : (entry.after as object),
  });
}
