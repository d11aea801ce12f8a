/**
 * The top-bar firewall control (spec sections 2, 5, 8 and 9): shows the caller's IP (GET
 * /v1/firewall/ip) and adds it to the allow-list for a chosen duration (POST /v1/firewall/ip).
 * 'Select..' until a duration is chosen; Unlimited only with firewall_unlimited. Shown only with
 * the /v1/firewall permission, and not on mobile (the shell decides).
 */
import { SafetyOutlined } from '@ant-design/icons';
import { isAdmin } from '@backoffice/core/acl';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popover, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText, isSessionError } from '../lib/api.ts';
import { useSession } from '../lib/session-store.ts';
import { toast } from '../lib/toast.ts';
import { canUseUnlimited, firewallDurations, firewallOutcome, type FirewallType, type FirewallUpdate } from './firewall-model.ts';

export function useOriginIp() {
  return useQuery<{ ip_origin: string }>({
    queryKey: ['api', 'firewall/ip'],
    queryFn: ({ signal }) => api.request<{ ip_origin: string }>('firewall/ip', { signal }),
    staleTime: 5 * 60_000,
  });
}

/**
 * The duration (and, for admins on the IP firewall screen, the address) to allow. The top bar
 * allows the caller's own address; the screen lets an admin type another one (the API allows
 * admins any address and others only their own).
 */
export function FirewallForm({ ip: origin, onDone, anyIp = false }: { ip: string | undefined; onDone: () => void; anyIp?: boolean }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const client = useQueryClient();
  const editable = anyIp && isAdmin(user?.roles ?? []);
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const ip = editable ? (typed ?? origin)?.trim() : origin;
  const [type, setType] = useState<FirewallType | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const durations = firewallDurations(canUseUnlimited(user));

  const submit = async () => {
    if (!type || !ip) return;
    setBusy(true);
    try {
      const result = await api.request<FirewallUpdate>('firewall/ip', { method: 'POST', body: { ip, type } });
      const outcome = firewallOutcome(result);
      // The entry is saved even when the firewall could not apply it (ERROR): lists show it either way.
      void client.invalidateQueries({ queryKey: ['api', 'resource', 'firewall_entries'] });
      if (outcome.kind === 'success') {
        toast.success(t(outcome.key));
        setType(undefined);
        onDone();
      } else {
        toast.error('key' in outcome ? t(outcome.key) : outcome.text);
      }
    } catch (error) {
      if (!isSessionError(error)) toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form layout="vertical" className="bo-firewall" onFinish={submit} data-testid="firewall-form">
      {editable ? (
        <Form.Item label={t('firewall.field.ip')} htmlFor="bo-firewall-ip" className="bo-firewall__field" extra={t('firewall.add_ip_hint')}>
          <Input id="bo-firewall-ip" value={typed ?? origin ?? ''} onChange={(e) => setTyped(e.target.value)} autoComplete="off" data-testid="firewall-ip-input" />
        </Form.Item>
      ) : (
        <div className="bo-firewall__ip">
          <Typography.Text type="secondary">{t('firewall.ip')}</Typography.Text>
          <Typography.Text strong copyable={ip ? { text: ip } : false} data-testid="firewall-ip">
            {ip ?? t('firewall.ip_unknown')}
          </Typography.Text>
        </div>
      )}
      <Form.Item label={t('firewall.duration')} htmlFor="bo-firewall-type" className="bo-firewall__field">
        <Select<FirewallType>
          id="bo-firewall-type"
          value={type}
          onChange={setType}
          placeholder={t('firewall.select')}
          aria-label={t('firewall.duration')}
          data-testid="firewall-type"
          getPopupContainer={(node) => node.parentElement ?? document.body}
          options={durations.map((d) => ({
            value: d.type,
            label:
              d.type === 'UNLIMITED'
                ? t('firewall.unlimited')
                : d.hours === 1
                  ? t('firewall.hour_1')
                  : t('firewall.hours_n', { count: d.hours }),
          }))}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block disabled={!type || !ip} loading={busy} data-testid="firewall-submit">
        {t('firewall.update')}
      </Button>
    </Form>
  );
}

export function FirewallControl({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ip = useOriginIp();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      title={<Typography.Text strong>{t('firewall.title')}</Typography.Text>}
      content={<FirewallForm ip={ip.data?.ip_origin} onDone={() => setOpen(false)} />}
      destroyOnHidden
    >
      <Button
        type="text"
        icon={<SafetyOutlined />}
        aria-label={compact ? `${t('firewall.open')} ${ip.data?.ip_origin ?? ''}`.trim() : undefined}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="firewall-open"
      >
        {compact ? null : (
          <span className="bo-topbar__ip">
            {t('firewall.open')}
            {ip.data?.ip_origin ? <span className="bo-topbar__ip-value">{ip.data.ip_origin}</span> : null}
          </span>
        )}
      </Button>
    </Popover>
  );
}
