/**
 * Who may open and who may change a saved DataViewer (and so its schedules): ADMIN and the owner
 * change it, when their ACL grants 'write' on saved DataViewers; they and the roles it is shared
 * with open it. `dataviewerScope` is the same rule as SQL, for the resource layer's reads.
 */
import { isAdmin, isAllowed } from '@backoffice/core/acl';
import { DATAVIEWERS_RESOURCE } from '@backoffice/core/reports';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { dataviewers, dataviewerShares } from '../../db/schema-reports.ts';
import type { Caller } from '../../plugins/auth.ts';

export interface DataviewerAccess {
  ownerId: number;
  sharedRoleIds: readonly number[];
}

export function canEditDataviewer(caller: Caller, dv: Pick<DataviewerAccess, 'ownerId'>): boolean {
  return (isAdmin(caller.roles) || dv.ownerId === caller.id) && isAllowed(caller, { resource: DATAVIEWERS_RESOURCE, action: 'write' });
}

export function canSeeDataviewer(caller: Caller, dv: DataviewerAccess): boolean {
  if (isAdmin(caller.roles) || dv.ownerId === caller.id) return true;
  const mine = new Set(caller.roles.map((r) => Number(r.id)));
  return dv.sharedRoleIds.some((id) => mine.has(id));
}

/** The saved DataViewers a caller may open, as a condition on `dataviewers` (canSeeDataviewer). */
export function dataviewerScope(caller: Caller): SQL | undefined {
  if (isAdmin(caller.roles)) return undefined;
  const roleIds = [...new Set(caller.roles.map((r) => Number(r.id)))].filter(Number.isSafeInteger);
  const own = eq(dataviewers.ownerId, caller.id);
  if (roleIds.length === 0) return own;
  const shared = sql`exists (select 1 from ${dataviewerShares} where ${and(
    eq(dataviewerShares.dataviewerId, dataviewers.id),
    inArray(dataviewerShares.roleId, roleIds),
  )})`;
  return or(own, shared);
}
