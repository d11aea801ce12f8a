import { describe, expect, it } from 'vitest';
import { buildMenuTree, filterMenu, isPathAllowed, type MenuEntry } from './menu.ts';

const e = (id: number, id_parent: number | null, prefix: string, slug: string, permission: string, hidden = false): MenuEntry => ({
  id, id_parent, title: `t${id}`, icon: 'X', prefix, slug, permission, hidden,
});
const entries = [
  e(1, null, '', '', ''),
  e(2, null, '', '', ''), // group Reports
  e(3, 2, '/reports', 'dataviewer', '/v1/reports'),
  e(4, null, '', '', ''), // group Settings
  e(5, 4, '/utils', 'ip', '/v1/firewall'),
  e(6, 4, '/utils', 'scheduler', '/v1/scheduler-api', true),
];

describe('menu filtering', () => {
  it('ADMIN sees everything, hidden included', () => {
    expect(filterMenu(entries, { roles: [{ id: 1, name: 'ADMIN' }], acl: {} })).toHaveLength(6);
  });
  it('others see permitted leaves with their parents, never hidden', () => {
    const got = filterMenu(entries, { roles: [{ id: 2, name: 'X' }], acl: { '/v1/firewall': ['read'], '/v1/scheduler-api': ['*'] } });
    expect(got.map((x) => x.id)).toEqual([1, 4, 5]);
    const tree = buildMenuTree(got);
    expect(tree.find((n) => n.id === 4)?.children?.map((c) => c.id)).toEqual([5]);
  });
  it('guards paths by visible entries', () => {
    const caller = { roles: [{ id: 2, name: 'X' }], acl: { '/v1/firewall': ['read'] } };
    const visible = filterMenu(entries, caller);
    expect(isPathAllowed('/', visible, caller)).toBe(true);
    expect(isPathAllowed('/utils/ip/', visible, caller)).toBe(true);
    expect(isPathAllowed('/utils/ip/42', visible, caller)).toBe(true);
    expect(isPathAllowed('/reports/dataviewer', visible, caller)).toBe(false);
    expect(isPathAllowed('/utils/ipx', visible, caller)).toBe(false);
  });
});
