/**
 * The top-bar firewall control's rules (spec sections 5, 8 and 9): durations of 1, 2, 3, 6, 9
 * and 12 hours, Unlimited (99) only with the firewall_unlimited permission (or ADMIN), and the
 * messages for the answer of POST /v1/firewall/ip.
 */
import { can, FIREWALL_UNLIMITED, isAdmin, type Acl, type RoleRef } from '@backoffice/core/acl';

export const FIREWALL_RESOURCE = '/v1/firewall';

export type FirewallType = 'HOUR_1' | 'HOUR_2' | 'HOUR_3' | 'HOUR_6' | 'HOUR_9' | 'HOUR_12' | 'UNLIMITED';

export const FIREWALL_DURATIONS: ReadonlyArray<{ type: FirewallType; hours: number }> = [
  { type: 'HOUR_1', hours: 1 },
  { type: 'HOUR_2', hours: 2 },
  { type: 'HOUR_3', hours: 3 },
  { type: 'HOUR_6', hours: 6 },
  { type: 'HOUR_9', hours: 9 },
  { type: 'HOUR_12', hours: 12 },
  { type: 'UNLIMITED', hours: 99 },
];

export function canUseUnlimited(who: { roles: readonly RoleRef[]; acl: Acl } | null | undefined): boolean {
  if (!who) return false;
  return isAdmin(who.roles) || can(who.acl, FIREWALL_RESOURCE, FIREWALL_UNLIMITED);
}

export function firewallDurations(unlimited: boolean) {
  return FIREWALL_DURATIONS.filter((d) => unlimited || d.type !== 'UNLIMITED');
}

export interface FirewallUpdate {
  update_db_ip: string;
  update_firewall_ip: string;
}

/** What to tell the user about an update: a message key or the server's own text. */
export type FirewallOutcome =
  | { kind: 'success'; key: 'firewall.update_success' }
  | { kind: 'error'; key: 'common.something_wrong' | 'firewall.update_error_updateDBIp' }
  | { kind: 'error'; text: string };

export function firewallOutcome(result: FirewallUpdate): FirewallOutcome {
  const dbOk = result.update_db_ip === 'OK';
  const fwOk = result.update_firewall_ip === 'OK';
  if (!dbOk && !fwOk) return { kind: 'error', key: 'common.something_wrong' };
  if (!dbOk) return { kind: 'error', key: 'firewall.update_error_updateDBIp' };
  if (!fwOk) return { kind: 'error', text: String(result.update_firewall_ip) };
  return { kind: 'success', key: 'firewall.update_success' };
}
