/**
 * Permissions in the UI (spec section 6): a check is a resource plus an optional action, ADMIN
 * passes every check, and fields that need a missing permission are disabled.
 */
import { isAdmin, isAllowed } from '@backoffice/core/acl';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { useSession } from './session-store.ts';

/** Does the signed-in user (or the simulated role/user) hold `action` (any when omitted) on `resource`? */
export function usePermission(resource: string, action?: string): boolean {
  const user = useSession((s) => s.user);
  return isAllowed(user, action === undefined ? { resource } : { resource, action });
}

/** Is the signed-in person an ADMIN (their own session, also while simulating someone else)? */
export function useIsRealAdmin(): boolean {
  return useSession((s) => isAdmin((s.original?.user ?? s.user)?.roles));
}

export interface PermissionProps {
  resource: string;
  action?: string;
  /** 'disable' (default) disables every antd field inside; 'hide' renders nothing. */
  mode?: 'disable' | 'hide';
  children: ReactNode | ((allowed: boolean) => ReactNode);
}

/** Wraps fields that need a permission: disabled (or hidden) when the user lacks it. */
export function Permission({ resource, action, mode = 'disable', children }: PermissionProps) {
  const allowed = usePermission(resource, action);
  if (typeof children === 'function') return <>{children(allowed)}</>;
  if (allowed) return <>{children}</>;
  if (mode === 'hide') return null;
  return <ConfigProvider componentDisabled>{children}</ConfigProvider>;
}
