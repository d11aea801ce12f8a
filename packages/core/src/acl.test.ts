import { describe, expect, it } from 'vitest';
import { ACL_BYPASS, can, hasRole, isAdmin, isAllowed, mergeAcls } from './acl.ts';

describe('ACL engine', () => {
  const acl = {
    '/v1/firewall': ['read', 'write'],
    '/v1/reports': ['*'],
    '^/v1/billing/(ssp|performance)$': ['read'],
  };
  it('grants a resource and what is below it', () => {
    expect(can(acl, '/v1/firewall')).toBe(true);
    expect(can(acl, '/v1/firewall/ip', 'write')).toBe(true);
    expect(can(acl, '/v1/firewallx')).toBe(false);
  });
  it('checks actions, with * as any action', () => {
    expect(can(acl, '/v1/firewall', 'firewall_unlimited')).toBe(false);
    expect(can(acl, '/v1/reports', 'delete')).toBe(true);
  });
  it('supports regular-expression keys', () => {
    expect(can(acl, '/v1/billing/ssp', 'read')).toBe(true);
    expect(can(acl, '/v1/billing/ssp', 'write')).toBe(false);
    expect(can(acl, '/v1/billing/other')).toBe(false);
    expect(can({ '^[': ['*'] }, '/x')).toBe(false);
  });
  it('bypass marker opens everything outside the protected list', () => {
    const b = { [ACL_BYPASS]: ['*'] };
    expect(can(b, '/v1/anything', 'write')).toBe(true);
    expect(can(b, '/v1/admin/role')).toBe(false);
    expect(can(b, '/v1/scheduler-api')).toBe(false);
    expect(can(b, 'resources_manager')).toBe(false);
  });
  it('matches roles by id or name', () => {
    const roles = [{ id: 1, name: 'ADMIN' }];
    expect(hasRole(roles, 1)).toBe(true);
    expect(hasRole(roles, '1')).toBe(true);
    expect(hasRole(roles, 'admin')).toBe(true);
    expect(isAdmin([{ id: 2, name: 'FINANCE' }])).toBe(false);
    expect(isAllowed({ roles, acl: {} }, { resource: '/v1/admin' })).toBe(true);
    expect(isAllowed({ roles: [], acl }, { resource: '/v1/admin' })).toBe(false);
  });
  it('merges role ACLs as a union', () => {
    expect(mergeAcls([{ a: ['read'] }, { a: ['write'], b: ['*'] }])).toEqual({ a: ['read', 'write'], b: ['*'] });
  });
});
