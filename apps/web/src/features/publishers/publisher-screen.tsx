/**
 * The publisher screens of one side (SSP or performance): the resource layer's list and detail (an
 * account tab and a sellers.json entry tab in the form), with the publisher's properties (sites and
 * apps with their ad units) and the ads.txt lines it adds for this exchange, and whether it is
 * listed in the public sellers.json.
 */
import { CopyOutlined } from '@ant-design/icons';
import type { PartnerSide } from '@backoffice/core/resources/demand-partners';
import { publishers } from '@backoffice/core/resources/publishers';
import { Alert, Button, Empty, Space, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import type { ResourceRow } from '../../resources/resource-api.ts';
import { optionLabel, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';

const TONE: Record<string, StatusTone> = { draft: 'info', live: 'ok', paused: 'off', archived: 'off' };

interface Property {
  id: number;
  name: string;
  environment: string;
  ad_units: number;
}

function PropertiesTab({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const props = useApiQuery<Property[]>('partners/publishers/:id/properties', { params: { id: row.id } });
  if (props.isPending) return <Spin />;
  if (props.isError) return <Alert type="error" showIcon title={errorText(props.error)} />;
  if (props.data.length === 0) return <Empty description={t('publisher.properties.none')} />;
  return (
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
      ]}
    />
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
  const locale = useLocale();
  const meta = publishers.fields.status!;
  return (
    <ResourcePage
      def={publishers}
      basePath={side === 'ssp' ? '/partners/publishers_ssp' : '/partners/publishers_performance'}
      titleKey={side === 'ssp' ? 'publisher.title_ssp' : 'publisher.title_performance'}
      newTitleKey="publisher.new_title"
      fixed={{ side }}
      cells={{
        status: (value) =>
          typeof value === 'string' ? (
            <StatusTag tone={TONE[value] ?? 'info'} testId="publisher-status">
              {optionLabel(meta, value, locale)}
            </StatusTag>
          ) : null,
      }}
      tabs={(row) => [
        { key: 'properties', label: t('publisher.properties'), children: <PropertiesTab row={row} /> },
        { key: 'ads-txt', label: t('publisher.ads_txt'), children: <AdsTxtTab row={row} /> },
      ]}
    />
  );
}
