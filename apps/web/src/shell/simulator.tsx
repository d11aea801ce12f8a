/**
 * The ADMIN simulator (spec sections 2, 4 and 5): choose a role (a session with that role's ACL)
 * or type a user id of at most 5 characters (sign in as that user). The two are mutually
 * exclusive, Simulate is disabled with nothing chosen, and both return to the root. Both are
 * sessions the API issues and enforces (POST login/as with id_role or id_user, from the ADMIN's own
 * session, which is kept); "Back to my session" ends the simulated session on the server and
 * restores the ADMIN's.
 */
import { UserSwitchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Form, Input, Popover, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api, endSessionsOnServer, errorText, isSessionError } from '../lib/api.ts';
import { useSession, type SessionUser } from '../lib/session-store.ts';
import { toast } from '../lib/toast.ts';
import { useViewport } from '../lib/use-viewport.ts';

export const SIMULATION_USER_MAX_LENGTH = 5;

interface Role {
  id: number;
  name: string;
}

/** The ADMIN's own token: the simulated user's token cannot call the admin endpoints. */
function adminToken(): string | undefined {
  const { original, user } = useSession.getState();
  return (original?.user ?? user)?.token;
}

/**
 * How a simulation goes to the root before it applies the new permissions: the navigation's
 * render is committed at once (flushSync), not as a transition. As a transition, a slow machine
 * could still be showing the old screen when the new permissions arrived, and the guard judged
 * that screen with them (the scheduler, as FINANCE: not allowed) and redirected there, over the
 * navigation to the root.
 */
const ROOT_FIRST = { flushSync: true } as const;

/** Leaves a simulation: the simulated session ends on the server; the admin's own session, menus and the root. */
export function useStopSimulation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lang } = useParams();
  const queryClient = useQueryClient();
  return async () => {
    await navigate(`/${lang}`, ROOT_FIRST);
    const { original, user } = useSession.getState();
    if (original && user && user.token !== original.user.token) endSessionsOnServer([user.token]);
    useSession.getState().stopSimulation();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === 'api' });
    toast.info(t('simulation.stopped'));
  };
}

function SimulatorForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lang } = useParams();
  const queryClient = useQueryClient();
  const [roleId, setRoleId] = useState<number | undefined>(undefined);
  const [userId, setUserId] = useState('');
  const [busy, setBusy] = useState(false);

  const roles = useQuery<Role[]>({
    queryKey: ['simulation-roles'],
    queryFn: ({ signal }) => api.request<Role[]>('admin/role', { signal, token: adminToken() }),
    staleTime: 5 * 60_000,
  });

  const canSubmit = (roleId !== undefined || userId.trim() !== '') && !busy;

  const submit = async () => {
    if (!canSubmit) return;
    setBusy(true);
    try {
      // Load first, then go to the root, then apply: the guard must not judge the current
      // path with the new permissions (it would send it to not_allowed).
      // A new simulation replaces the previous one on the server too.
      const session = await api.request<SessionUser>('login/as', {
        method: 'POST',
        body: roleId !== undefined ? { id_role: roleId } : { id_user: Number(userId) },
        token: adminToken(),
      });
      onDone();
      await navigate(`/${lang}`, ROOT_FIRST);
      useSession.getState().simulate(session);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === 'api' });
      toast.success(t('simulation.started'));
    } catch (error) {
      if (!isSessionError(error)) toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form layout="vertical" className="bo-simulator" onFinish={submit} data-testid="simulator-form">
      <Form.Item label={t('simulation.role')} htmlFor="bo-simulate-role" className="bo-simulator__field">
        <Select<number>
          id="bo-simulate-role"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('simulation.role.placeholder')}
          value={roleId}
          onChange={(v) => setRoleId(v ?? undefined)}
          disabled={userId.trim() !== ''}
          loading={roles.isLoading}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          notFoundContent={roles.isError ? t('simulation.roles_failed') : undefined}
          aria-label={t('simulation.role')}
          data-testid="simulate-role"
          getPopupContainer={(node) => node.parentElement ?? document.body}
        />
      </Form.Item>
      <Divider plain className="bo-simulator__or">
        {t('simulation.or')}
      </Divider>
      <Form.Item label={t('simulation.user')} htmlFor="bo-simulate-user" className="bo-simulator__field">
        <Input
          id="bo-simulate-user"
          value={userId}
          onChange={(e) => setUserId(e.target.value.replace(/\D/g, '').slice(0, SIMULATION_USER_MAX_LENGTH))}
          maxLength={SIMULATION_USER_MAX_LENGTH}
          inputMode="numeric"
          placeholder={t('simulation.user.placeholder')}
          disabled={roleId !== undefined}
          data-testid="simulate-user"
          autoComplete="off"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block disabled={!canSubmit} loading={busy} data-testid="simulate-submit">
        {t('simulation.submit')}
      </Button>
    </Form>
  );
}

export function Simulator({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { isMobile } = useViewport();
  return (
    <Popover
      trigger="click"
      placement={isMobile ? 'bottom' : 'bottomRight'}
      open={open}
      onOpenChange={setOpen}
      title={<Typography.Text strong>{t('simulation.title')}</Typography.Text>}
      content={<SimulatorForm onDone={() => setOpen(false)} />}
      destroyOnHidden
    >
      <Button
        type="text"
        icon={<UserSwitchOutlined />}
        aria-label={compact ? t('simulation.open') : undefined}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="simulator-open"
      >
        {compact ? null : t('simulation.open')}
      </Button>
    </Popover>
  );
}
