/**
 * Uploading daily figures (CSV or XLSX, spec 5: the right extension, comma or semicolon detected,
 * rows with an empty value dropped). The file is read in the browser; each row shows its errors
 * (core's rules, the keys the API answers with) and nothing is sent while one is wrong. Saving a
 * file that would replace days asks first, listing them.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { utcToday } from '@backoffice/core/billing-accounts';
import type { EnterStatsResult, ManualPartner } from '@backoffice/core/partner-stats';
import { Alert, App, Button, Flex, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionModal } from '../../components/action-modal.tsx';
import { CsvUpload } from '../../components/csv-upload.tsx';
import type { ParsedTable } from '../../components/table-file.ts';
import { useApiAction } from '../../components/use-api-action.ts';
import { XlsxUpload } from '../../components/xlsx-upload.tsx';
import { api } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { readUpload, replacedDaysOf, type UploadRow } from './partner-stats-api.ts';
import { ReplaceList } from './replace-list.tsx';

function exampleCsv(partners: readonly ManualPartner[]): string {
  const name = partners.find((p) => p.type !== 'amazon')?.name ?? partners[0]?.name ?? 'Orion Network';
  const today = utcToday();
  const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  return `day,partner,impressions,revenue,currency\n${day(3)},${name},182340,271.85,USD\n${day(2)},${name},179020,265.10,USD\n`;
}

export function UploadModal({ partners, onClose, onSaved }: { partners: readonly ManualPartner[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const action = useApiAction<'send'>();
  const [read, setRead] = useState<{ rows: UploadRow[]; missing: string[]; dropped: number } | null>(null);

  const onParsed = (table: ParsedTable, decimalComma: boolean) => {
    const out = readUpload(table, partners, utcToday(), decimalComma);
    setRead({ ...out, dropped: table.dropped });
  };
  const good = read?.rows.filter((r) => r.entry) ?? [];
  const bad = read?.rows.filter((r) => !r.entry) ?? [];

  const send = async (replace: boolean): Promise<string | null> => {
    const out = await api.request<EnterStatsResult>('stats-manual', { method: 'POST', body: { entries: good.map((r) => r.entry), source: 'upload', replace } });
    onSaved();
    onClose();
    return out.inserted + out.replaced === 0 ? 'stats.nothing_changed' : 'stats.saved';
  };
  const askReplace = (e: unknown) => {
    const days = replacedDaysOf(e);
    if (!days) return false;
    void modal.confirm({
      title: t('stats.replace.title', { count: days.length }),
      width: 640,
      content: <ReplaceList days={days} />,
      okText: t('stats.replace.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'stats-replace-ok' } as Record<string, string>) },
      onOk: () => void action.run('send', () => send(true)),
    });
    return true;
  };

  return (
    <ActionModal
      title={t('stats.upload.title')}
      ok={t('stats.upload.send', { count: good.length })}
      onOk={() => (good.length > 0 && bad.length === 0 ? void action.run('send', () => send(false), askReplace) : undefined)}
      onCancel={onClose}
      busy={action.busy === 'send'}
      testId="stats-upload-send"
      className="bo-ps-modal bo-ps-modal--wide"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('stats.upload.help')}</Typography.Paragraph>
      <Flex wrap gap={12} align="start">
        <CsvUpload dropEmpty onParsed={(table) => onParsed(table, false)} />
        <XlsxUpload dropEmpty onParsed={(table) => onParsed(table, false)} />
        <Button type="link" icon={<DownloadOutlined />} onClick={() => saveBlob(new Blob([exampleCsv(partners)], { type: 'text/csv' }), 'manual_stats_example.csv')} data-testid="stats-upload-example">
          {t('stats.upload.example')}
        </Button>
      </Flex>
      {read && read.missing.length > 0 ? <Alert type="error" showIcon className="bo-ps-gap" title={t('stats.upload.columns_missing', { columns: read.missing.join(', ') })} data-testid="stats-upload-missing" /> : null}
      {read && read.missing.length === 0 ? (
        <>
          <Space className="bo-ps-gap" wrap data-testid="stats-upload-summary">
            <StatusTag tone="ok">{t('stats.upload.rows_ok', { count: good.length })}</StatusTag>
            {bad.length > 0 ? <StatusTag tone="bad">{t('stats.upload.rows_bad', { count: bad.length })}</StatusTag> : null}
            {read.dropped > 0 ? <StatusTag tone="off">{t('upload.rows_dropped', { count: read.dropped })}</StatusTag> : null}
          </Space>
          {bad.length > 0 ? <Alert type="warning" showIcon className="bo-ps-gap" title={t('stats.upload.fix_first')} /> : null}
          <div className="bo-ps-scroll" tabIndex={0} role="region" aria-label={t('stats.upload.title')}>
            <Table<UploadRow>
              size="small"
              rowKey="line"
              pagination={read.rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
              dataSource={read.rows}
              data-testid="stats-upload-rows"
              columns={[
                { key: 'line', title: t('stats.upload.line'), render: (_, r) => r.line },
                { key: 'day', title: t('stats.col.day'), render: (_, r) => r.cells.day },
                { key: 'partner', title: t('stats.col.partner'), render: (_, r) => r.partnerText },
                { key: 'impressions', title: t('stats.col.impressions'), align: 'right', render: (_, r) => r.cells.impressions },
                { key: 'revenue', title: t('stats.col.revenue'), align: 'right', render: (_, r) => r.cells.revenue },
                {
                  key: 'errors',
                  title: t('stats.upload.errors'),
                  render: (_, r) =>
                    Object.keys(r.errors).length === 0 ? (
                      <StatusTag tone="ok">{t('amazon.preview.ok')}</StatusTag>
                    ) : (
                      <Flex vertical gap={2}>
                        {Object.entries(r.errors).map(([f, key]) => (
                          <Typography.Text type="danger" key={f}>
                            {t(`stats.col.${f === 'partner' ? 'partner' : f}`)}: {t(key)}
                          </Typography.Text>
                        ))}
                      </Flex>
                    ),
                },
              ]}
            />
          </div>
        </>
      ) : null}
    </ActionModal>
  );
}
