/**
 * The Prebid.js floors export (issue 20; docs/decisions/020-prebid-floors-export.md): a button
 * opening a modal where a publisher (and a currency) is picked; it shows what the file holds and
 * what it leaves to our server or could not express (GET /v1/floors/prebid/:id/report), the
 * file's first lines, and downloads it or copies its URL (GET /v1/floors/prebid/:id, the bare
 * Prebid object a wrapper's server reads with a token).
 */
import { CopyOutlined, DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { FLOOR_KEYS, type FloorRule } from '@backoffice/core/floors';
import type { PrebidExportReport } from '@backoffice/core/floors-prebid';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Modal, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';

interface ReportAnswer {
  publisher: { id: number; name: string };
  report: PrebidExportReport;
  preview: string;
  preview_lines: number;
  lines: number;
  path: string;
}

/** "Currency as the rules say" or one currency. */
const AUTO = '';

export function PrebidExportButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<ExportOutlined />} onClick={() => setOpen(true)} data-testid="floors-prebid-open">
        {t('floors.prebid.button')}
      </Button>
      {open ? <PrebidExportModal onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PrebidExportModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [publisher, setPublisher] = useState<number | null>(null);
  const [currency, setCurrency] = useState(AUTO);
  const [busy, setBusy] = useState(false);
  const query: Record<string, string> = currency ? { currency } : {};

  const answer = useQuery<ReportAnswer>({
    queryKey: ['api', 'floors', 'prebid', publisher, currency],
    queryFn: ({ signal }) =>
      api.request<ReportAnswer>(`floors/prebid/${publisher}/report`, { query, signal }),
    enabled: publisher !== null,
  });
  const data = answer.data;
  const report = data?.report;

  const download = async () => {
    if (publisher === null) return;
    setBusy(true);
    try {
      const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      await downloadApiFile(
        `/v1/floors/prebid/${publisher}`,
        { ...query, download: 1, ...(timezone ? { timezone } : {}) },
        `prebid-floors_${publisher}.json`,
      );
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const copyUrl = async () => {
    if (!data) return;
    const url = new URL(api.url(data.path), window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(url);
      void notice.success(t('floors.prebid.url_copied'));
    } catch {
      void notice.error(t('floors.prebid.url_copy_failed'));
    }
  };

  const currencyOptions = [
    { value: AUTO, label: t('floors.prebid.currency_auto') },
    ...[...new Set([...(report?.currencies.map((c) => c.currency) ?? []), ...CURRENCIES])].map((c) => ({
      value: c,
      label: c,
    })),
  ];

  return (
    <Modal
      open
      title={t('floors.prebid.title')}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.close')}</Button>
          <Button
            icon={<CopyOutlined />}
            disabled={!data}
            onClick={() => void copyUrl()}
            data-testid="floors-prebid-copy"
          >
            {t('floors.prebid.copy_url')}
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!data}
            loading={busy}
            onClick={() => void download()}
            data-testid="floors-prebid-download"
          >
            {t('floors.prebid.download')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('floors.prebid.intro')}</Typography.Paragraph>
      <Form layout="vertical">
        <Space wrap align="start">
          <Form.Item label={t('floors.prebid.publisher')} style={{ minWidth: 320 }}>
            <ReferenceSelect
              resource="publishers"
              path="floors/autocomplete/publishers"
              value={publisher}
              onChange={setPublisher}
              placeholder={t('floors.prebid.publisher_placeholder')}
              aria-label={t('floors.prebid.publisher')}
            />
          </Form.Item>
          <Form.Item label={t('floors.prebid.currency')} style={{ minWidth: 200 }}>
            <Select
              value={currency}
              onChange={setCurrency}
              options={currencyOptions}
              aria-label={t('floors.prebid.currency')}
            />
          </Form.Item>
        </Space>
      </Form>
      {publisher === null ? null : answer.isPending ? (
        <Spin />
      ) : answer.isError ? (
        <Alert type="error" showIcon title={errorText(answer.error)} />
      ) : report && data ? (
        <PrebidReport report={report} data={data} />
      ) : null}
    </Modal>
  );
}

/** A rule's named keys, as one line ("Site or bundle: news.example · Country: ES"), and its CPM. */
function RuleLine({ rule }: { rule: FloorRule }) {
  const { t } = useTranslation();
  const named = FLOOR_KEYS.filter((k) => rule.keys[k] !== '*');
  const keys =
    named.length === 0
      ? t('floors.any')
      : named.map((k) => `${t(`floors.key.${k}`)}: ${rule.keys[k]}`).join(' · ');
  return (
    <li>
      {keys} → {rule.cpm} {rule.currency} ({t(`floors.type.${rule.type}`)})
    </li>
  );
}

function Examples({ title, rules, count }: { title: string; rules: FloorRule[]; count: number }) {
  const { t } = useTranslation();
  return (
    <div>
      {title}
      <ul className="bo-floors-prebid-examples">
        {rules.map((r, i) => (
          <RuleLine key={r.id ?? i} rule={r} />
        ))}
        {count > rules.length ? (
          <li>{t('floors.prebid.and_more', { count: count - rules.length })}</li>
        ) : null}
      </ul>
    </div>
  );
}

function PrebidReport({ report, data }: { report: PrebidExportReport; data: ReportAnswer }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="floors-prebid-report">
      <Descriptions
        size="small"
        column={2}
        bordered
        items={[
          { key: 'values', label: t('floors.prebid.values'), children: report.values },
          { key: 'included', label: t('floors.prebid.included'), children: report.included },
          { key: 'currency', label: t('floors.prebid.currency'), children: report.currency },
          { key: 'version', label: t('floors.prebid.version'), children: report.version },
          {
            key: 'fields',
            label: t('floors.prebid.fields'),
            span: 2,
            children: <Typography.Text code>{report.fields.join(' | ')}</Typography.Text>,
          },
          {
            key: 'combined',
            label: t('floors.prebid.combined'),
            span: 2,
            children: t('floors.prebid.combined_text', { combined: report.combined, pruned: report.pruned }),
          },
        ]}
      />
      {report.empty ? <Alert type="warning" showIcon title={t('floors.prebid.empty')} /> : null}
      {report.truncated ? (
        <Alert type="error" showIcon title={t('floors.prebid.truncated', { max: report.maxClosure })} />
      ) : null}
      {report.serverOnly.count > 0 ? (
        <Alert
          type="info"
          showIcon
          title={t('floors.prebid.server_only', { count: report.serverOnly.count })}
          description={
            <Examples
              title={t('floors.prebid.server_only_help')}
              rules={report.serverOnly.examples}
              count={report.serverOnly.count}
            />
          }
        />
      ) : null}
      {report.otherCurrency.count > 0 ? (
        <Alert
          type="warning"
          showIcon
          title={t('floors.prebid.other_currency', {
            count: report.otherCurrency.count,
            currency: report.currency,
          })}
          description={
            <Examples
              title={t('floors.prebid.zero_help')}
              rules={report.otherCurrency.examples.map((e) => e.rule)}
              count={report.otherCurrency.count}
            />
          }
        />
      ) : null}
      {report.softAsZero.count > 0 ? (
        <Alert
          type="info"
          showIcon
          title={t('floors.prebid.soft', { count: report.softAsZero.count })}
          description={
            <Examples
              title={t('floors.prebid.zero_help')}
              rules={report.softAsZero.examples.map((e) => e.rule)}
              count={report.softAsZero.count}
            />
          }
        />
      ) : null}
      {report.unexpressible.count > 0 ? (
        <Alert
          type="warning"
          showIcon
          title={t('floors.prebid.unexpressible', { count: report.unexpressible.count })}
          description={
            <Examples title="" rules={report.unexpressible.examples} count={report.unexpressible.count} />
          }
        />
      ) : null}
      <div>
        <Typography.Text strong>{t('floors.prebid.preview')}</Typography.Text>
        <pre
          className="bo-floors-prebid-preview"
          style={{ maxHeight: 280, overflow: 'auto', fontSize: 12, margin: '4px 0 0' }}
          data-testid="floors-prebid-preview"
        >
          {data.preview}
          {data.lines > data.preview_lines
            ? `\n${t('floors.prebid.more_lines', { count: data.lines - data.preview_lines })}`
            : ''}
        </pre>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('floors.prebid.auth_help')}
      </Typography.Paragraph>
    </Space>
  );
}
