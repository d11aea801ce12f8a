/**
 * The IP firewall screen (`/utils/ip`, `/utils/ip/{id}`) on the resource layer: the allow-list
 * entries with their owner, address, duration, status and expiry, filtered and exported like any
 * list; admins see everyone's entries, others their own (the API scopes them). Entries change
 * through the firewall's own commands, each of which rebuilds the allow-list: allow an IP (the top
 * bar's control, here with an address field for admins), disable, enable again, and retry an
 * entry the firewall could not apply (ERROR).
 */
import { PlusOutlined, RedoOutlined, StopOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { FIREWALL_OK, type FirewallEntryItem, type FirewallStatus } from '@backoffice/core/firewall';
import { firewallEntries } from '@backoffice/core/resources/firewall-entries';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Space, Typography } from 'antd';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { listPrefetcher, resourceKey, type ResourceRow } from '../../resources/resource-api.ts';
import { formatDateTime, optionLabel, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import type { ResourceCells } from '../../resources/resource-list.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import { FirewallForm, useOriginIp } from '../../shell/firewall-control.tsx';

const STATUS_TONES: Record<FirewallStatus, StatusTone> = { ACTIVE: 'ok', PENDING: 'info', DISABLED: 'off', ERROR: 'bad' };

type Command = 'disable' | 'enable' | 'retry';

/** The commands an entry in this status offers. */
function commandsFor(status: unknown): Command[] {
  if (status === 'ERROR') return ['retry', 'disable'];
  if (status === 'DISABLED') return ['enable'];
  return ['disable'];
}

function useCommand() {
  const { t } = useTranslation();
  const notice = useNotice();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (command: Command, row: ResourceRow) => {
    const ip = String(row.ip);
    setBusy(`${command}:${row.id}`);
    try {
      const result = await api.request<{ entry: FirewallEntryItem; update_firewall_ip: string }>(`firewall/entries/:id/${command}`, {
        method: 'POST',
        params: { id: row.id },
        body: {},
      });
      if (result.update_firewall_ip === FIREWALL_OK) {
        void notice.success(t(command === 'disable' ? 'firewall.disabled_done' : command === 'enable' ? 'firewall.enabled_done' : 'firewall.retried_done', { ip }));
      } else {
        void notice.error(t('firewall.apply_result', { text: result.update_firewall_ip }));
      }
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: resourceKey(firewallEntries) });
    }
  };
  const ask = (command: Command, row: ResourceRow) => {
    if (command === 'retry') return void run(command, row);
    modal.confirm({
      title: t(command === 'disable' ? 'firewall.disable_confirm' : 'firewall.enable_confirm', { ip: String(row.ip) }),
      okText: t(command === 'disable' ? 'firewall.disable' : 'firewall.enable'),
      okButtonProps: { danger: command === 'disable', id: `firewall-${command}-confirm` },
      onOk: () => run(command, row),
    });
  };
  return { ask, busy };
}

function CommandButtons({ row, size }: { row: ResourceRow; size?: 'small' }) {
  const { t } = useTranslation();
  const canWrite = usePermission(firewallEntries.acl, 'write');
  const { ask, busy } = useCommand();
  if (!canWrite) return null;
  const icons: Record<Command, ReactNode> = { disable: <StopOutlined />, enable: <CheckCircleOutlined />, retry: <RedoOutlined /> };
  return (
    <Space size="small" wrap>
      {commandsFor(row.status).map((command) => (
        <Button
          key={command}
          size={size}
          icon={icons[command]}
          danger={command === 'disable'}
          loading={busy === `${command}:${row.id}`}
          onClick={(e: MouseEvent) => {
            e.stopPropagation();
            ask(command, row);
          }}
          data-testid={`firewall-${command}-${row.id}`}
        >
          {t(`firewall.${command}`)}
        </Button>
      ))}
    </Space>
  );
}

function AddButton() {
  const { t } = useTranslation();
  const canWrite = usePermission(firewallEntries.acl, 'write');
  const [open, setOpen] = useState(false);
  const ip = useOriginIp();
  if (!canWrite) return null;
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="firewall-add">
        {t('firewall.add')}
      </Button>
      <Modal open={open} title={t('firewall.add')} onCancel={() => setOpen(false)} footer={null} destroyOnHidden width={380}>
        <FirewallForm ip={ip.data?.ip_origin} anyIp onDone={() => setOpen(false)} />
      </Modal>
    </>
  );
}

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(firewallEntries);

export default function FirewallPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const fields = firewallEntries.fields;
  const cells: ResourceCells = {
    status: (value, row) => (
      <Space size={4} wrap>
        <StatusTag tone={STATUS_TONES[value as FirewallStatus] ?? 'off'} testId={`firewall-status-${row.id}`}>
          {optionLabel(fields.status!, String(value), locale)}
        </StatusTag>
        {row.status === 'DISABLED' && row.disabled_reason ? (
          <Typography.Text type="secondary">{optionLabel(fields.disabled_reason!, String(row.disabled_reason), locale)}</Typography.Text>
        ) : null}
        {row.status === 'ERROR' && typeof row.error === 'string' ? <Typography.Text type="danger">{t(row.error)}</Typography.Text> : null}
      </Space>
    ),
    expires_at: (value) => (value ? formatDateTime(value, locale) : <Typography.Text type="secondary">{t('firewall.never')}</Typography.Text>),
  };
  return (
    <ResourcePage
      def={firewallEntries}
      basePath="/utils/ip"
      titleKey="menu.ip_firewall"
      newTitleKey="firewall.add"
      cells={cells}
      listActions={<AddButton />}
      extraColumns={[{ key: 'actions', title: '', render: (_: unknown, row: ResourceRow) => <CommandButtons row={row} size="small" /> }]}
      rowActions={(row) => <CommandButtons row={row} />}
    />
  );
}
