/**
 * The Prebid.js floors export (issue 20; docs/decisions/020-prebid-floors-export.md): a button
 * opening a modal where a publisher (and a currency) is picked; it shows what the file holds and
 * what it leaves to our server or could not express (GET /v1/floors/prebid/:id/report), the
 * file's first lines, and downloads it or copies its URL (GET /v1/floors/prebid/:id, the bare
 * Prebid object a server reads with a session token).
 *
 * Its "Wrapper feed" section is the publisher's public URL with a token, which the publisher's
 * Prebid wrapper reads itself (GET/POST/DELETE /v1/floors/prebid/:id/feed): its state for anyone
 * who reads floors; create, rotate (confirmed: the old URL stops at once) and revoke for those who
 * may write them. The URL is shown once, after a create or a rotation, with the wrapper's
 * `pbjs.setConfig` snippet (core floors-prebid-feed.ts); afterwards only the token's hint is.
 */
import { CopyOutlined, DownloadOutlined, ExportOutlined, KeyOutlined, StopOutlined } from '@ant-design/icons';
import { FLOOR_KEYS, type FloorRule } from '@backoffice/core/floors';
import type { PrebidExportReport } from '@backoffice/core/floors-prebid';
import { FEED_AUCTION_DELAY_MS, prebidFeedSnippet } from '@backoffice/core/floors-prebid-feed';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Divider,
  Form,
  Modal,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { usePermission } from '../../lib/permission.tsx';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';

interface ReportAnswer {
  publisher: { id: number; name: string };
  report: PrebidExportReport;
  preview: string;
  preview_lines: number;
  lines: number;
  /** The file's `default`, null when it has none. */
  default: number | null;
  path: string;
}

/** A publisher's wrapper feed as GET …/feed answers it (never the token). */
interface FeedState {
  token_hint: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  rotated_at: string | null;
  last_used_at: string | null;
}

interface FeedAnswer {
  publisher: { id: number; name: string };
  feed: FeedState | null;
}

/** POST …/feed: the token and its URL path, this once. */
interface FeedCreated {
  token: string;
  path: string;
  url: string;
  feed: FeedState;
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
      {publisher === null ? null : <WrapperFeed publisher={publisher} currency={currency} data={data} />}
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
          // It scrolls: reachable with the keyboard (WCAG 2.1.1).
          tabIndex={0}
          aria-label={t('floors.prebid.preview')}
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

/** The publisher's wrapper feed: its state, create / rotate / revoke, and the URL once. */
export function WrapperFeed({
  publisher,
  currency,
  data,
}: {
  publisher: number;
  currency: string;
  data: ReportAnswer | undefined;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const notice = useNotice();
  const client = useQueryClient();
  const canWrite = usePermission('/v1/floors', 'write');
  /** The URL path of a token just created, for the publisher it was made for (shown until closed). */
  const [revealed, setRevealed] = useState<{ publisher: number; path: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const queryKey = ['api', 'floors', 'prebid', 'feed', publisher];
  const answer = useQuery<FeedAnswer>({
    queryKey,
    queryFn: ({ signal }) =>
      api.request<FeedAnswer>('floors/prebid/:id/feed', { params: { id: publisher }, signal }),
  });
  const feed = answer.data?.feed ?? null;
  const name = answer.data?.publisher.name ?? '';
  const shown = revealed?.publisher === publisher ? revealed : null;

  const change = async (method: 'POST' | 'DELETE') => {
    setBusy(true);
    try {
      if (method === 'POST') {
        const created = await api.request<FeedCreated>('floors/prebid/:id/feed', {
          method: 'POST',
          params: { id: publisher },
          body: { replaces: feed?.token_hint ?? null },
        });
        setRevealed({ publisher, path: created.path });
        void notice.success(t(feed ? 'floors.prebid.feed.rotated' : 'floors.prebid.feed.created'));
      } else {
        await api.request('floors/prebid/:id/feed', { method: 'DELETE', params: { id: publisher } });
        setRevealed(null);
        void notice.success(t('floors.prebid.feed.revoked'));
      }
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey });
    }
  };

  const confirm = (what: 'rotate' | 'revoke') =>
    modal.confirm({
      title: t(`floors.prebid.feed.${what}_confirm`, { name }),
      content: t(`floors.prebid.feed.${what}_body`),
      okText: t(`floors.prebid.feed.${what}`),
      okButtonProps: { danger: true, id: `floors-prebid-feed-${what}-confirm` },
      onOk: () => change(what === 'rotate' ? 'POST' : 'DELETE'),
    });

  const who = (f: FeedState) => f.created_by?.name ?? t('floors.prebid.feed.nobody');

  return (
    <section data-testid="floors-prebid-feed">
      <Divider />
      <Typography.Title level={5}>{t('floors.prebid.feed.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('floors.prebid.feed.intro')}</Typography.Paragraph>
      {answer.isPending ? (
        <Spin />
      ) : answer.isError ? (
        <Alert type="error" showIcon title={errorText(answer.error)} />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <div data-testid="floors-prebid-feed-state">
            {feed ? (
              <>
                <div>
                  {t(feed.rotated_at ? 'floors.prebid.feed.state_rotated' : 'floors.prebid.feed.state', {
                    hint: feed.token_hint,
                    name: who(feed),
                    at: formatDateTime(feed.created_at, locale),
                  })}
                </div>
                <Typography.Text type="secondary">
                  {feed.last_used_at
                    ? t('floors.prebid.feed.last_used', { at: formatDateTime(feed.last_used_at, locale) })
                    : t('floors.prebid.feed.never_used')}
                </Typography.Text>
              </>
            ) : (
              t('floors.prebid.feed.none')
            )}
          </div>
          {canWrite ? (
            <Space wrap>
              {feed ? (
                <>
                  <Button
                    icon={<KeyOutlined />}
                    loading={busy}
                    onClick={() => confirm('rotate')}
                    data-testid="floors-prebid-feed-rotate"
                  >
                    {t('floors.prebid.feed.rotate')}
                  </Button>
                  <Button
                    danger
                    icon={<StopOutlined />}
                    loading={busy}
                    onClick={() => confirm('revoke')}
                    data-testid="floors-prebid-feed-revoke"
                  >
                    {t('floors.prebid.feed.revoke')}
                  </Button>
                </>
              ) : (
                <Button
                  icon={<KeyOutlined />}
                  loading={busy}
                  onClick={() => void change('POST')}
                  data-testid="floors-prebid-feed-create"
                >
                  {t('floors.prebid.feed.create')}
                </Button>
              )}
            </Space>
          ) : null}
          {shown ? (
            <RevealedFeed
              path={shown.path}
              currency={currency}
              data={data}
              onDone={() => setRevealed(null)}
            />
          ) : null}
        </Space>
      )}
    </section>
  );
}

/** The feed URL just made, with a copy button and the wrapper's Prebid configuration: shown once. */
function RevealedFeed({
  path,
  currency,
  data,
  onDone,
}: {
  path: string;
  currency: string;
  data: ReportAnswer | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  // The feed serves the currencies its rules use: another one chosen above is left out of the URL
  // (the feed then serves its default, whose catch-all floor this report does not give).
  const used = data?.report.currencies.map((c) => c.currency) ?? [];
  const unused = currency !== AUTO && data !== undefined && !used.includes(currency);
  const url = new URL(
    api.url(path, { query: currency && !unused ? { currency } : {} }),
    window.location.origin,
  ).toString();
  const copy = { tooltips: [t('floors.prebid.feed.copy'), t('floors.prebid.feed.copied')] };
  const snippet = data
    ? prebidFeedSnippet({
        url,
        currency: unused ? (used[0] ?? 'USD') : data.report.currency,
        fields: data.report.fields,
        defaultFloor: unused ? null : data.default,
      })
    : null;
  return (
    <div data-testid="floors-prebid-feed-revealed">
      <Alert type="warning" showIcon title={t('floors.prebid.feed.once')} style={{ marginBottom: 12 }} />
      {unused ? (
        <Alert
          type="info"
          showIcon
          title={t('floors.prebid.feed.currency_note', { currency, served: used[0] ?? 'USD' })}
          style={{ marginBottom: 12 }}
          data-testid="floors-prebid-feed-currency-note"
        />
      ) : null}
      <Typography.Text strong>{t('floors.prebid.feed.url')}</Typography.Text>
      <Typography.Paragraph
        code
        copyable={{ text: url, ...copy }}
        style={{ wordBreak: 'break-all' }}
        data-testid="floors-prebid-feed-url"
      >
        {url}
      </Typography.Paragraph>
      {snippet ? (
        <>
          <Typography.Text strong>{t('floors.prebid.feed.snippet')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: snippet, ...copy }} style={{ marginBottom: 4 }}>
            <pre
              style={{ fontSize: 12, margin: '4px 0 0', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              data-testid="floors-prebid-feed-snippet"
            >
              {snippet}
            </pre>
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">
            {t('floors.prebid.feed.snippet_help', { delay: FEED_AUCTION_DELAY_MS })}
          </Typography.Paragraph>
        </>
      ) : null}
      <Button onClick={onDone} data-testid="floors-prebid-feed-done">
        {t('floors.prebid.feed.done')}
      </Button>
    </div>
  );
}
