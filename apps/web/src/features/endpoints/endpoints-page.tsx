/**
 * Endpoints (`/utils/endpoints_management`, `/new`, `/{id}`) on the resource layer, with their
 * token: the server generates it and answers it once, at creation and on rotation (after a
 * confirmation, since the old token stops working at once); this screen shows it in a dialog to
 * copy, and afterwards only its last four characters.
 */
import { KeyOutlined } from '@ant-design/icons';
import { endpoints } from '@backoffice/core/resources/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { t as translate } from '../../lib/i18n.ts';
import { usePermission } from '../../lib/permission.tsx';
import { listPrefetcher, resourceKey, type ResourceRow } from '../../resources/resource-api.ts';
import { ResourcePage } from '../../resources/resource-page.tsx';

/** The dialog that shows a token this once. */
function useTokenDialog() {
  const { modal } = App.useApp();
  return (token: string) =>
    modal.info({
      title: translate('endpoint.token_title'),
      width: 560,
      okText: translate('endpoint.token_done'),
      okButtonProps: { id: 'endpoint-token-done' },
      content: (
        <div data-testid="endpoint-token">
          <Alert type="warning" showIcon title={translate('endpoint.token_once')} style={{ marginBottom: 12 }} />
          <Typography.Paragraph
            code
            copyable={{ text: token, tooltips: [translate('endpoint.token_copy'), translate('endpoint.token_copied')] }}
            className="bo-endpoint-token"
            data-testid="endpoint-token-value"
          >
            {token}
          </Typography.Paragraph>
        </div>
      ),
    });
}

function RotateButton({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const client = useQueryClient();
  const showToken = useTokenDialog();
  const canWrite = usePermission(endpoints.acl, 'write');
  const [busy, setBusy] = useState(false);
  if (!canWrite) return null;
  const rotate = async () => {
    setBusy(true);
    try {
      const result = await api.request<{ token: string }>('endpoints/:id/actions/rotate-token', {
        method: 'POST',
        params: { id: row.id },
        body: { version: row.version },
      });
      void notice.success(t('endpoint.rotated'));
      showToken(result.token);
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: resourceKey(endpoints) });
    }
  };
  return (
    <Button
      icon={<KeyOutlined />}
      loading={busy}
      onClick={() =>
        modal.confirm({
          title: t('endpoint.rotate_confirm', { name: String(row.name) }),
          content: t('endpoint.rotate_body'),
          okText: t('endpoint.rotate'),
          okButtonProps: { danger: true, id: 'endpoint-rotate-confirm' },
          onOk: rotate,
        })
      }
      data-testid="endpoint-rotate"
    >
      {t('endpoint.rotate')}
    </Button>
  );
}

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(endpoints);

export default function EndpointsPage() {
  const showToken = useTokenDialog();
  return (
    <ResourcePage
      def={endpoints}
      basePath="/utils/endpoints_management"
      titleKey="endpoint.title"
      newTitleKey="endpoint.new_title"
      cells={{ token_hint: (value) => (typeof value === 'string' ? <Typography.Text code>…{value}</Typography.Text> : null) }}
      rowActions={(row) => <RotateButton row={row} />}
      onCreated={(row) => {
        if (typeof row.token === 'string') showToken(row.token);
      }}
    />
  );
}
