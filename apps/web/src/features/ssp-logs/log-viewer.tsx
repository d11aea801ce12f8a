/**
 * One SSP log in a drawer (deep link `?log={id}`): the outcome, latency (against the request's
 * tmax), prices and deal as tags, links to the publisher and the partner screens for those who may
 * open them, and the OpenRTB 2.6 request and response side by side (stacked on a phone),
 * pretty-printed and collapsible (react-json-view-lite: keyboard navigable tree, see
 * docs/decisions/035-ssp-logs.md), each with a copy button and expand / collapse all.
 */
import { CompressOutlined, CopyOutlined, ExpandOutlined } from '@ant-design/icons';
import type { SspLogDetail } from '@backoffice/core/ssp-logs';
import { Alert, Button, Descriptions, Drawer, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { allExpanded, collapseAllNested, darkStyles, defaultStyles, JsonView } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import { Link } from 'react-router';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useSession } from '../../lib/session-store.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag, formatDateTime } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { LOGS_PATH, OUTCOME_TONE, latencyTone } from './ssp-logs-api.ts';

type Expansion = 'default' | 'all' | 'none';

function JsonPanel({ title, value, testId }: { title: string; value: object; testId: string }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const dark = useSession((s) => s.theme) === 'dark';
  const [expansion, setExpansion] = useState<Expansion>('default');
  const [generation, setGeneration] = useState(0);
  const expand = (mode: Expansion) => {
    setExpansion(mode);
    setGeneration((g) => g + 1);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(value, null, 2));
      void notice.success(t('ssp_logs.viewer.copied'));
    } catch {
      void notice.error(t('ssp_logs.viewer.copy_failed'));
    }
  };
  const base = dark ? darkStyles : defaultStyles;
  // Our colours for the values (the library's fail contrast on its own background); its layout classes stay.
  const tone = dark ? 'bo-sspl-json__tree--dark' : 'bo-sspl-json__tree--light';
  const style = {
    ...base,
    container: `${base.container} bo-sspl-json__tree ${tone}`,
    label: `${base.label} bo-sspl-j-label`,
    clickableLabel: `${base.clickableLabel} bo-sspl-j-label`,
    stringValue: 'bo-sspl-j-str',
    numberValue: 'bo-sspl-j-num',
    booleanValue: 'bo-sspl-j-bool',
    nullValue: 'bo-sspl-j-null',
    undefinedValue: 'bo-sspl-j-null',
    otherValue: 'bo-sspl-j-null',
    punctuation: `${base.punctuation} bo-sspl-j-punct`,
    collapsedContent: `${base.collapsedContent} bo-sspl-j-punct`,
    ariaLables: { collapseJson: t('ssp_logs.viewer.collapse'), expandJson: t('ssp_logs.viewer.expand') },
  };
  return (
    <section className="bo-sspl-json" aria-label={title} data-testid={testId}>
      <div className="bo-sspl-json__head">
        <Typography.Title level={2} className="bo-sspl-json__title">
          {title}
        </Typography.Title>
        <Space size={4} wrap>
          <Button size="small" icon={<ExpandOutlined />} onClick={() => expand('all')} data-testid={`${testId}-expand`}>
            {t('ssp_logs.viewer.expand_all')}
          </Button>
          <Button size="small" icon={<CompressOutlined />} onClick={() => expand('none')} data-testid={`${testId}-collapse`}>
            {t('ssp_logs.viewer.collapse_all')}
          </Button>
          <Button size="small" icon={<CopyOutlined />} onClick={() => void copy()} aria-label={testId.endsWith('request') ? t('ssp_logs.viewer.copy_request') : t('ssp_logs.viewer.copy_response')} data-testid={`${testId}-copy`}>
            {t('ssp_logs.viewer.copy')}
          </Button>
        </Space>
      </div>
      <div className="bo-sspl-json__body" data-expansion={expansion}>
        <JsonView
          key={generation}
          data={value}
          style={style}
          shouldExpandNode={expansion === 'all' ? allExpanded : expansion === 'none' ? () => false : (level) => collapseAllNested(level) || level < 2}
          aria-label={title}
        />
      </div>
    </section>
  );
}

export function LogViewer({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { isMobile } = useViewport();
  const canPublishers = usePermission('/v1/partners/publishers', 'read');
  const canPartners = usePermission('/v1/partners/demand', 'read');
  const detail = useApiQuery<SspLogDetail>(`${LOGS_PATH}/${id}`);
  const log = detail.data;
  const tmax = log && typeof log.bid_request.tmax === 'number' ? log.bid_request.tmax : null;
  return (
    <Drawer open onClose={onClose} size={isMobile ? '100%' : 1240} title={t('ssp_logs.viewer.title', { id })} destroyOnHidden data-testid="ssp-log-viewer">
      {detail.error ? <Alert type="error" showIcon title={t('ssp_logs.viewer.load_failed')} description={errorText(detail.error)} /> : null}
      {!log && !detail.error ? <Skeleton active /> : null}
      {log ? (
        <>
          <Space wrap className="bo-sspl-tags" data-testid="ssp-log-tags">
            <StatusTag tone={OUTCOME_TONE[log.outcome]} testId="ssp-log-outcome">
              {t(`ssp_logs.outcome.${log.outcome}`)}
            </StatusTag>
            <StatusTag tone={latencyTone(log.latency_ms, tmax)} testId="ssp-log-latency">
              {t('ssp_logs.col.latency')}: {t('ssp_logs.viewer.latency', { ms: log.latency_ms })}
              {tmax !== null ? ` / ${tmax}` : ''}
            </StatusTag>
            <Tag>{log.media_type}</Tag>
            <Tag>{t(`ssp_logs.env.${log.environment}`)}</Tag>
            {log.deal_id ? <Tag>{log.deal_id}</Tag> : null}
          </Space>
          <Descriptions size="small" column={isMobile ? 1 : 3} className="bo-sspl-facts" data-testid="ssp-log-facts">
            <Descriptions.Item label={t('ssp_logs.col.time')}>{formatDateTime(log.logged_at, locale)}</Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.request_id')}>
              <Typography.Text code copyable={{ text: log.request_id }} className="bo-sspl-id">
                {log.request_id}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.endpoint')}>
              {log.endpoint} · {log.region}
            </Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.publisher')}>
              {canPublishers ? (
                <Link to={`/${locale}/partners/publishers_ssp/${log.publisher.id}`} aria-label={`${t('ssp_logs.viewer.link_publisher')}: ${log.publisher.name}`}>
                  {log.publisher.name}
                </Link>
              ) : (
                log.publisher.name
              )}
              {` · ${log.inventory}`}
            </Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.partner')}>
              {canPartners ? (
                <Link to={`/${locale}/partners/demandpartners_ssp/${log.partner.id}`} aria-label={`${t('ssp_logs.viewer.link_partner')}: ${log.partner.name}`}>
                  {log.partner.name}
                </Link>
              ) : (
                log.partner.name
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.floor')}>{log.floor ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.bid_price')}>{log.bid_price ? `${log.bid_price} ${log.bid_currency ?? ''}` : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('ssp_logs.col.clearing_price')}>{log.clearing_price ? `${log.clearing_price} ${log.bid_currency ?? ''}` : '—'}</Descriptions.Item>
          </Descriptions>
          <div className="bo-sspl-pair" data-testid="ssp-log-pair">
            <JsonPanel title={t('ssp_logs.viewer.request')} value={log.bid_request} testId="ssp-log-request" />
            {log.bid_response ? (
              <JsonPanel title={t('ssp_logs.viewer.response')} value={log.bid_response} testId="ssp-log-response" />
            ) : (
              <section className="bo-sspl-json" aria-label={t('ssp_logs.viewer.response')} data-testid="ssp-log-response">
                <Typography.Title level={2} className="bo-sspl-json__title">
                  {t('ssp_logs.viewer.response')}
                </Typography.Title>
                <Alert type="info" showIcon title={t('ssp_logs.viewer.no_response', { outcome: t(`ssp_logs.outcome.${log.outcome}`) })} />
              </section>
            )}
          </div>
        </>
      ) : null}
    </Drawer>
  );
}
