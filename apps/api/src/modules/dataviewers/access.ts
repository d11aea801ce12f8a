/**
 * Who may open and who may change a saved DataViewer (and so its schedules): ADMIN and the owner
 * change it; they and the roles it is shared with open it.
 */
import { isAdmin } from '@backoffice/core/acl';
import type { Caller } from '../../plugins/auth.ts';

export interface DataviewerAccess {
  ownerId: number;
  sharedRoleIds: readonly number[];
}

export function canEditDataviewer(caller: Caller, dv: Pick<DataviewerAccess, 'ownerId'>): boolean {
  return isAdmin(caller.roles) || dv.ownerId === caller.id;
}

export function canSeeDataviewer(caller: Caller, dv: DataviewerAccess): boolean {
  if (canEditDataviewer(caller, dv)) return true;
  const mine = new Set(caller.roles.map((r) => Number(r.id)));
  return dv.sharedRoleIds.some((id) => mine.has(id));
}
