/**
 * Who may open and who may change a saved DataViewer (and so its schedules): ADMIN and the owner
 * change it, when their ACL grants 'write' on saved DataViewers; they and the roles it is shared
 * with open it.
 */
import { isAdmin, isAllowed } from '@backoffice/core/acl';
import { DATAVIEWERS_RESOURCE } from '@backoffice/core/reports';
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
