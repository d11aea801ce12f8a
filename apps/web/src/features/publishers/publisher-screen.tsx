/**
 * The publisher screens of one side (SSP or performance): the resource layer's list and detail (an
 * account tab and a sellers.json entry tab in the form), with the publisher's properties (sites and
 * apps with their ad units) and the ads.txt lines it adds for this exchange, and whether it is
 * listed in the public sellers.json.
 */
import { CopyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { PartnerSide } from '@backoffice/core/resources/demand-partners';
import { publishers } from '@backoffice/core/resources/publishers';
import { Alert, Button, Empty, Space, Spin, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { apiQueryKey, useApiQuery } from '../../lib/query.ts';
import type { ResourceRow } from '../../resources/resource-api.ts';
import { formatDateTime, statusCell, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';

const TONE: Record<string, StatusTone> = { draft: 'info', live: 'ok', paused: 'off', archived: 'off' };

interface Property {
  id: number;
  name: string;
  environment: string;
  ad_units: number;
  ads_txt_status: 'unchecked' | 'verified' | 'missing_line' | 'unreachable';
  ads_txt_checked_at: string | null;
}

const ADS_TXT_TONE: Record<Property['ads_txt_status'], StatusTone> = { unchecked: 'info', verified: 'ok', missing_line: 'bad', unreachable: 'off' };
const PROPERTIES_PATH = 'partners/publishers/:id/properties';

function PropertiesTab({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const client = useQueryClient();
  const canWrite = usePermission(publishers.acl, 'write');
  const [checking, setChecking] = useState(false);
  const props = useApiQuery<Property[]>(PROPERTIES_PATH, { params: { id: row.id } });
  if (props.isPending) return <Spin />;
  if (props.isError) return <Alert type="error" showIcon title={errorText(props.error)} />;
  if (props.data.length === 0) return <Empty description={t('publisher.properties.none')} />;
  const check = async () => {
    setChecking(true);
    try {
      const answer = await api.request<{ result: Record<string, number>; properties: Property[] }>('partners/publishers/:id/actions/check-ads-txt', { method: 'POST', params: { id: row.id } });
      client.setQueryData(apiQueryKey(PROPERTIES_PATH, { params: { id: row.id } }), answer.properties);
      const r = answer.result;
      void notice.success(t('publisher.checked', { verified: r.verified, missing: r.missing_line, unreachable: r.unreachable }));
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setChecking(false);
    }
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {canWrite ? (
        <Button icon={<SafetyCertificateOutlined />} loading={checking} onClick={() => void check()} data-testid="publisher-check-ads-txt">
          {t('publisher.check_now')}
        </Button>
      ) : null}
      <Table<Property>
        size="small"
        rowKey="id"
        pagination={props.data.length > 25 ? { pageSize: 25 } : false}
        dataSource={props.data}
        data-testid="publisher-properties"
        scroll={{ x: true }}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('publisher.properties.name') },
          { key: 'environment', dataIndex: 'environment', title: t('publisher.properties.environment'), render: (v: string) => t(`publisher.properties.environment.${v}`) },
          { key: 'ad_units', dataIndex: 'ad_units', title: t('publisher.properties.ad_units'), align: 'right' },
          {
            key: 'ads_txt',
            dataIndex: 'ads_txt_status',
            title: t('publisher.ads_txt_status'),
            render: (v: Property['ads_txt_status']) => <StatusTag tone={ADS_TXT_TONE[v] ?? 'info'} testId="property-ads-txt">{t(`publisher.ads_txt_status.${v}`)}</StatusTag>,
          },
          { key: 'checked', dataIndex: 'ads_txt_checked_at', title: t('publisher.ads_txt_checked_at'), render: (v: string | null) => (v ? formatDateTime(v, locale) : '—') },
        ]}
      />
    </Space>
  );
}

function AdsTxtTab({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const answer = useApiQuery<{ lines: string[]; in_sellers_json: boolean }>('partners/publishers/:id/ads-txt', { params: { id: row.id }, query: { v: row.version } });
  if (answer.isPending) return <Spin />;
  if (answer.isError) return <Alert type="error" showIcon title={errorText(answer.error)} />;
  const text = answer.data.lines.join('\n');
  return (
    <Space direction="vertical" size="middle" className="bo-partner-adstxt">
      <StatusTag tone={answer.data.in_sellers_json ? 'ok' : 'bad'} testId="publisher-in-sellers-json">
        {t(answer.data.in_sellers_json ? 'publisher.in_sellers_json' : 'publisher.not_in_sellers_json')}
      </StatusTag>
      <Typography.Text type="secondary">{t('publisher.ads_txt_intro')}</Typography.Text>
      <pre className="bo-partner-adstxt__lines" data-testid="publisher-ads-txt">
        {text}
      </pre>
      <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard?.writeText(text).then(() => notice.success(t('publisher.ads_txt_copied')))}>
        {t('publisher.ads_txt_copy')}
      </Button>
    </Space>
  );
}

export function PublisherScreen({ side }: { side: PartnerSide }) {
  const { t } = useTranslation();
  return (
    <ResourcePage
      def={publishers}
      basePath={side === 'ssp' ? '/partners/publishers_ssp' : '/partners/publishers_performance'}
      titleKey={side === 'ssp' ? 'publisher.title_ssp' : 'publisher.title_performance'}
      newTitleKey="publisher.new_title"
      fixed={{ side }}
      cells={{ status: statusCell(publishers.fields.status!, TONE, 'publisher-status') }}
      tabs={(row) => [
        { key: 'properties', label: t('publisher.properties'), children: <PropertiesTab row={row} /> },
        { key: 'ads-txt', label: t('publisher.ads_txt'), children: <AdsTxtTab row={row} /> },
      ]}
    />
  );
}
