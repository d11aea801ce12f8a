/**
 * Export of the whole result (CSV or XLSX), streamed by the server: a spinner and the bytes
 * received while it downloads; 'Export empty' when the report has no rows.
 */
import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { downloadExport } from './dataviewer-api.ts';
import type { ReportDefinitionBody } from './dataviewer-model.ts';

export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

export function ExportActions({ def, disabled }: { def: ReportDefinitionBody | null; disabled?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const [received, setReceived] = useState(0);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = async (format: 'csv' | 'xlsx') => {
    if (!def) return;
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setBusy(format);
    setReceived(0);
    try {
      const name = await downloadExport(def, format, (p) => setReceived(p.received), own.signal);
      void notice.success(t('dv.export.done', { name }));
    } catch (error) {
      if (own.signal.aborted || isSessionError(error)) return;
      const key = (error as { key?: string | null }).key;
      if (key === 'report.export_empty') void notice.warning(t('report.export_empty'));
      else void notice.error(errorText(error));
    } finally {
      if (controller.current === own) {
        controller.current = null;
        setBusy(null);
      }
    }
  };

  return (
    <Space wrap size={8} className="dv-export">
      <Button
        icon={<DownloadOutlined />}
        loading={busy === 'csv'}
        disabled={disabled || !def || (busy !== null && busy !== 'csv')}
        onClick={() => void run('csv')}
        data-testid="dv-export-csv"
      >
        {t('report.export_csv')}
      </Button>
      <Button
        icon={<FileExcelOutlined />}
        loading={busy === 'xlsx'}
        disabled={disabled || !def || (busy !== null && busy !== 'xlsx')}
        onClick={() => void run('xlsx')}
        data-testid="dv-export-xlsx"
      >
        {t('report.export_xlsx')}
      </Button>
      {busy ? (
        <Typography.Text type="secondary" role="status" data-testid="dv-export-progress">
          {t('dv.export.downloading', { size: formatBytes(received, locale) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
