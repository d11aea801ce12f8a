/**
 * An event's postback test: fire one test conversion and see the URL as it was sent and what the
 * receiving server answered (status, headers, the first 2 KB of the body), or why nothing was sent.
 * The values of the macros the saved URL uses can be given (empty: the event's own figures, a
 * fresh test click id, now, examples for the rest). It asks first (the receiver may count it), the
 * button waits while the test runs (one in flight per event, on the server too), and each click
 * carries its own idempotency key, so a retried request sends once. Earlier tests are listed below.
 */
import { SendOutlined } from '@ant-design/icons';
import {
  exampleValues,
  isPostbackMacro,
  macrosIn,
  type MacroValues,
  type PostbackMacro,
} from '@backoffice/core/postback';
import { Alert, App, Button, Descriptions, Empty, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { usePermission } from '../../lib/permission.tsx';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { useFirePostbackTest, usePostbackTests, type PostbackTest } from './campaigns-api.ts';

const TONE: Record<PostbackTest['status'], StatusTone> = {
  done: 'ok',
  refused: 'bad',
  error: 'bad',
  sending: 'info',
};

/** An answer's status read as good (2xx) or not. */
const httpTone = (status: number | null): StatusTone =>
  status !== null && status >= 200 && status < 300 ? 'ok' : 'bad';

function TestResult({ test }: { test: PostbackTest }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const headers = Object.entries(test.response_headers ?? {});
  return (
    <div className="bo-camp-test" data-testid="postback-result">
      <Space size={4} wrap>
        <StatusTag tone={TONE[test.status]} testId="postback-outcome">
          {t(`campaign.postback.outcome.${test.status}`)}
        </StatusTag>
        {test.http_status !== null ? (
          <StatusTag tone={httpTone(test.http_status)} testId="postback-http-status">
            HTTP {test.http_status}
          </StatusTag>
        ) : null}
        <Typography.Text type="secondary">{formatDateTime(test.requested_at, locale)}</Typography.Text>
      </Space>
      {test.error_key ? (
        <Alert
          type="error"
          showIcon
          className="bo-camp-test__error"
          title={t(test.error_key)}
          description={test.error_detail ?? undefined}
        />
      ) : null}
      <Descriptions
        bordered
        size="small"
        column={1}
        className="bo-camp-test__facts"
        items={[
          {
            key: 'url',
            label: t('campaign.postback.url'),
            children: (
              <code className="bo-camp-url" data-testid="postback-sent-url">
                {test.url}
              </code>
            ),
          },
          ...(test.duration_ms !== null
            ? [
                {
                  key: 'time',
                  label: t('campaign.postback.duration'),
                  children: t('campaign.postback.duration_ms', { ms: test.duration_ms }),
                },
              ]
            : []),
          ...(test.redirects.length > 0
            ? [
                {
                  key: 'redirects',
                  label: t('campaign.postback.redirects'),
                  children: (
                    <ol className="bo-camp-list">
                      {test.redirects.map((r) => (
                        <li key={r}>
                          <code className="bo-camp-url">{r}</code>
                        </li>
                      ))}
                    </ol>
                  ),
                },
              ]
            : []),
          ...(headers.length > 0
            ? [
                {
                  key: 'headers',
                  label: t('campaign.postback.headers'),
                  children: (
                    <dl className="bo-camp-headers">
                      {headers.map(([name, value]) => (
                        <div key={name}>
                          <dt>{name}</dt>
                          <dd>{value}</dd>
                        </div>
                      ))}
                    </dl>
                  ),
                },
              ]
            : []),
          ...(test.status === 'done'
            ? [
                {
                  key: 'body',
                  label: t('campaign.postback.body'),
                  children: test.response_body ? (
                    <pre className="bo-camp-body" data-testid="postback-body" tabIndex={0}>
                      {test.response_body}
                    </pre>
                  ) : (
                    <Typography.Text type="secondary">{t('campaign.postback.body_empty')}</Typography.Text>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

export interface TestedEvent {
  id: number;
  name: string;
  code: string;
  payout: string;
  revenue: string;
  /** The saved URL: the test calls it, not what the form holds. */
  postbackUrl: string;
}

export function PostbackTester({
  campaignId,
  event,
  offerId,
  currency,
}: {
  campaignId: number;
  event: TestedEvent;
  offerId: number | null;
  currency: string;
}) {
  const eventId = event.id;
  const postbackUrl = event.postbackUrl;
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const notice = useNotice();
  const canWrite = usePermission('/v1/campaigns', 'write');
  const tests = usePostbackTests(campaignId, eventId);
  const fire = useFirePostbackTest(campaignId, eventId);
  const [values, setValues] = useState<MacroValues>({});
  const [shown, setShown] = useState<number | null>(null);
  const used = macrosIn(postbackUrl).filter(isPostbackMacro);
  // What an empty value sends: the event's own figures, a fresh test click id, now, the examples.
  const defaults: Record<PostbackMacro, string> = {
    ...exampleValues({
      payout: event.payout,
      revenue: event.revenue,
      event: event.code,
      event_id: event.id,
      campaign_id: campaignId,
      offer_id: offerId,
      currency,
    }),
    click_id: t('campaign.postback.default_click_id'),
    timestamp: t('campaign.postback.default_timestamp'),
  };

  const send = () =>
    modal.confirm({
      title: t('campaign.postback.confirm_title'),
      content: t('campaign.postback.confirm_body', { name: event.name }),
      okText: t('campaign.postback.send'),
      okButtonProps: { id: 'postback-confirm' },
      onOk: async () => {
        try {
          const test = await fire.mutateAsync({ values, idempotencyKey: newIdempotencyKey('pb-') });
          setShown(test.id);
        } catch (error) {
          void notice.error(errorText(error));
        }
      },
    });

  const latest = tests.data?.find((x) => x.id === shown) ?? tests.data?.[0] ?? null;
  return (
    <div className="bo-camp-tester" data-testid="postback-tester">
      <Typography.Paragraph>{t('campaign.postback.test_intro')}</Typography.Paragraph>
      {used.length > 0 ? (
        <div className="bo-camp-values">
          {used.map((name: PostbackMacro) => (
            <label key={name} className="bo-camp-value">
              <code>{`{${name}}`}</code>
              <Input
                size="small"
                value={values[name] ?? ''}
                maxLength={500}
                placeholder={defaults[name]}
                onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                data-testid={`postback-value-${name}`}
              />
            </label>
          ))}
        </div>
      ) : null}
      <Button
        type="primary"
        icon={<SendOutlined />}
        onClick={send}
        loading={fire.isPending}
        disabled={!canWrite}
        data-testid="postback-send"
      >
        {t('campaign.postback.send')}
      </Button>
      <Typography.Title level={2} className="bo-camp-subtitle">
        {t('campaign.postback.result')}
      </Typography.Title>
      {tests.isError ? <Alert type="error" showIcon title={errorText(tests.error)} /> : null}
      {latest ? <TestResult test={latest} /> : <Empty description={t('campaign.postback.history_none')} />}
      {tests.data && tests.data.length > 1 ? (
        <>
          <Typography.Title level={2} className="bo-camp-subtitle">
            {t('campaign.postback.history')}
          </Typography.Title>
          <ScrollRegion label={t('campaign.postback.history')}>
            <Table<PostbackTest>
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={tests.data}
              rowClassName={(r) => (r.id === latest?.id ? 'bo-camp-row--shown' : '')}
              onRow={(r) => ({
                onClick: () => setShown(r.id),
                onKeyDown: (e) => e.key === 'Enter' && setShown(r.id),
                tabIndex: 0,
              })}
              data-testid="postback-history"
              columns={[
                {
                  key: 'at',
                  title: t('campaign.postback.at'),
                  render: (_: unknown, r) => formatDateTime(r.requested_at, locale),
                },
                {
                  key: 'by',
                  title: t('campaign.postback.by'),
                  render: (_: unknown, r) => r.requested_by.name ?? '—',
                },
                {
                  key: 'status',
                  title: t('campaign.postback.result'),
                  render: (_: unknown, r) => (
                    <StatusTag tone={TONE[r.status]}>{t(`campaign.postback.outcome.${r.status}`)}</StatusTag>
                  ),
                },
                {
                  key: 'http',
                  title: t('campaign.postback.http_status'),
                  render: (_: unknown, r) => (r.http_status === null ? '—' : r.http_status),
                },
              ]}
            />
          </ScrollRegion>
        </>
      ) : null}
    </div>
  );
}
