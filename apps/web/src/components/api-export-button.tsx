/**
 * Export of what a list filters, written by the API (done.md 3: CSV and XLSX with the spec's file
 * names): a CSV / XLSX menu that downloads `path?query&format=` with the session's token and
 * saves it under the server's file name. Errors (an empty export, a session that ended) show as
 * the API's translated message.
 */
import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isSessionError } from '../lib/api.ts';
import { downloadApiFile } from '../lib/api-file.ts';
import { useNotice } from './use-notice.ts';

export interface ApiExportButtonProps {
  /** API path, `/v1/…/export`. */
  path: string;
  /** The list's query (page and page_size are dropped). */
  query: Record<string, string | number>;
  /** The file's base name when the server gives none. */
  name: string;
  disabled?: boolean;
  testId?: string;
}

export function ApiExportButton({ path, query, name, disabled, testId }: ApiExportButtonProps) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [busy, setBusy] = useState(false);
  const run = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      await downloadApiFile(path, { ...query, format }, `${name}.${format}`);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      disabled={disabled || busy}
      menu={{
        items: [
          { key: 'csv', label: 'CSV', onClick: () => void run('csv') },
          { key: 'xlsx', label: 'XLSX', onClick: () => void run('xlsx') },
        ],
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} disabled={disabled} data-testid={testId}>
        {t('resource.export')} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
