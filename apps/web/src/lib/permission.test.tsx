import { render, renderHook, screen } from '@testing-library/react';
import { Input } from 'antd';
import { beforeEach, describe, expect, it } from 'vitest';
import { Permission, useIsRealAdmin, usePermission } from './permission.tsx';
import { initialSession, useSession, type SessionUser } from './session-store.ts';

function signIn(over: Partial<SessionUser>) {
  useSession.setState({
    ...initialSession(),
    user: {
      id: 7,
      mail: 'tech@adtech.example',
      name: 'Tess Tech',
      token: 't',
      roles: [{ id: 5, name: 'TECH' }],
      acl: { '/v1/firewall': ['read', 'write'], '/v1/signatures': ['*'] },
      exp: Math.floor(Date.now() / 1000) + 3600,
      picture: null,
      simulated_by: null,
      ...over,
    },
  });
}

beforeEach(() => {
  localStorage.clear();
  useSession.setState({ ...initialSession() });
});

describe('permissions in the UI', () => {
  it('checks a resource and an optional action against the ACL', () => {
    signIn({});
    expect(renderHook(() => usePermission('/v1/firewall')).result.current).toBe(true);
    expect(renderHook(() => usePermission('/v1/firewall', 'write')).result.current).toBe(true);
    expect(renderHook(() => usePermission('/v1/firewall', 'firewall_unlimited')).result.current).toBe(false);
    expect(renderHook(() => usePermission('/v1/signatures', 'anything')).result.current).toBe(true);
    expect(renderHook(() => usePermission('/v1/billing')).result.current).toBe(false);
  });

  it('lets ADMIN pass every check, and denies when signed out', () => {
    signIn({ roles: [{ id: 1, name: 'ADMIN' }], acl: {} });
    expect(renderHook(() => usePermission('/v1/anything', 'delete')).result.current).toBe(true);
    useSession.setState({ ...initialSession() });
    expect(renderHook(() => usePermission('/v1/firewall')).result.current).toBe(false);
  });

  it('knows the real admin while a role is simulated', () => {
    signIn({ roles: [{ id: 1, name: 'ADMIN' }], acl: {} });
    const admin = useSession.getState().user!;
    useSession.getState().simulate({
      ...admin,
      token: 'role-token',
      roles: [{ id: 3, name: 'FINANCE' }],
      acl: { '/v1/billing': ['*'] },
      simulated_by: { id: admin.id, mail: admin.mail, name: admin.name },
      simulated_role: { id: 3, name: 'FINANCE' },
    });
    expect(renderHook(() => useIsRealAdmin()).result.current).toBe(true);
    expect(renderHook(() => usePermission('/v1/firewall')).result.current).toBe(false);
    expect(renderHook(() => usePermission('/v1/billing')).result.current).toBe(true);
  });

  it('disables the fields that need a missing permission', () => {
    signIn({});
    render(
      <>
        <Permission resource="/v1/firewall" action="write">
          <Input aria-label="allowed" />
        </Permission>
        <Permission resource="/v1/billing" action="write">
          <Input aria-label="denied" />
        </Permission>
        <Permission resource="/v1/billing" mode="hide">
          <Input aria-label="hidden" />
        </Permission>
        <Permission resource="/v1/firewall">{(ok) => <span>{ok ? 'yes' : 'no'}</span>}</Permission>
      </>,
    );
    expect((screen.getByLabelText('allowed') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByLabelText('denied') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByLabelText('hidden')).toBeNull();
    expect(screen.getByText('yes')).toBeTruthy();
  });
});
