import { translate } from '@backoffice/core/i18n/catalogues';
import { describe, expect, it } from 'vitest';
import { canUseUnlimited, firewallDurations, firewallOutcome } from './firewall-model.ts';

describe('firewall control rules', () => {
  it('offers 1, 2, 3, 6, 9 and 12 hours, and Unlimited only when allowed', () => {
    expect(firewallDurations(false).map((d) => d.hours)).toEqual([1, 2, 3, 6, 9, 12]);
    expect(firewallDurations(true).map((d) => d.type)).toEqual(['HOUR_1', 'HOUR_2', 'HOUR_3', 'HOUR_6', 'HOUR_9', 'HOUR_12', 'UNLIMITED']);
    expect(firewallDurations(true).at(-1)?.hours).toBe(99);
  });

  it('allows Unlimited with firewall_unlimited on /v1/firewall, or to ADMIN', () => {
    expect(canUseUnlimited({ roles: [{ id: 5, name: 'TECH' }], acl: { '/v1/firewall': ['read', 'firewall_unlimited'] } })).toBe(true);
    expect(canUseUnlimited({ roles: [{ id: 5, name: 'TECH' }], acl: { '/v1/firewall': ['*'] } })).toBe(true);
    expect(canUseUnlimited({ roles: [{ id: 6, name: 'FINANCE' }], acl: { '/v1/firewall': ['read', 'write'] } })).toBe(false);
    expect(canUseUnlimited({ roles: [{ id: 1, name: 'ADMIN' }], acl: {} })).toBe(true);
    expect(canUseUnlimited(null)).toBe(false);
  });

  it('maps the update answer to the spec messages', () => {
    expect(firewallOutcome({ update_db_ip: 'OK', update_firewall_ip: 'OK' })).toEqual({ kind: 'success', key: 'firewall.update_success' });
    expect(firewallOutcome({ update_db_ip: 'duplicate', update_firewall_ip: 'OK' })).toEqual({
      kind: 'error',
      key: 'firewall.update_error_updateDBIp',
    });
    expect(firewallOutcome({ update_db_ip: 'OK', update_firewall_ip: 'iptables refused' })).toEqual({ kind: 'error', text: 'iptables refused' });
    expect(firewallOutcome({ update_db_ip: 'x', update_firewall_ip: 'y' })).toEqual({ kind: 'error', key: 'common.something_wrong' });
    expect(translate('en', 'common.something_wrong')).toBe('Something wrong happened');
  });
});
