/**
 * A deal's page beyond its form: the floor check against the rules of its inventory (a tab, and a
 * warning above the tabs while its floor is below a rule), its delivery from the warehouse (a date
 * range, a chart and a table by UTC day) and the OpenRTB 2.6 `pmp` object it produces.
 */
import { CopyOutlined } from '@ant-design/icons';
import {
  blockingRule,
  ruleKeysText,
  type AppliedRule,
  type DealDelivery,
  type DealFloorCheck,
  type DealFloorReport,
  type DeliveryDay,
  type DeliveryFigures,
  type FloorVerdict,
  type OpenRtbPmp,
} from '@backoffice/core/deals';
import type { DateRangeValue } from '@backoffice/core/dates';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeInput } from '../../components/date-range-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText } from '../../lib/api.ts';
import type { ResourceRow } from '../../resources/resource-api.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';

const DealDeliveryChart = lazy(() => import('./deal-delivery-chart.tsx'));

export type DealRow = ResourceRow & {
  code?: string;
  status?: string;
  bidfloor?: string;
  bidfloorcur?: string;
  start_date?: string | null;
  end_date?: string | null;
  floor_below?: boolean;
  floor_check?: DealFloorReport;
};

/** Decimals an amount needs: 2, or up to 4 when it has them (a 0.0125 CPM). */
const decimalsOf = (amount: string) =>
  Math.min(4, Math.max(2, (amount.split('.')[1] ?? '').replace(/0+$/, '').length));

/** A CPM with its currency, as the locale writes money. */
export function floorText(amount: string | undefined, currency: string | undefined, locale: string): string {
  if (amount === undefined) return '—';
  return formatMoney(amount, currency ?? 'USD', locale, decimalsOf(amount));
}

const VERDICT_TONE: Record<FloorVerdict, StatusTone> = {
  ok: 'ok',
  below: 'bad',
  not_comparable: 'info',
  no_rule: 'off',
};

function useRuleText() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (rule: AppliedRule) =>
    t('deal.floor.rule_text', {
      cpm: formatNumber(rule.cpm, locale, decimalsOf(rule.cpm)),
      currency: rule.currency,
      type: t(`deal.floor.rule_type.${rule.type}`),
      keys: ruleKeysText(rule.keys),
    });
}

/** Above the tabs while the deal's floor is below the rule of some of its inventory. */
export function FloorNotice({ row }: { row: DealRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const rule = row.floor_check ? blockingRule(row.floor_check.checks) : null;
  if (!row.floor_below || !rule) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="bo-deal-notice"
      data-testid="deal-floor-warning"
      title={t('deal.floor.warning_title')}
      description={t('deal.floor.warning', {
        floor: floorText(row.bidfloor, row.bidfloorcur, locale),
        cpm: formatNumber(rule.cpm, locale, decimalsOf(rule.cpm)),
        currency: rule.currency,
        rule: rule.id ?? '?',
        keys: ruleKeysText(rule.keys),
      })}
    />
  );
}

/** The rule that applies to each piece of the deal's inventory, and how the deal's floor stands. */
export function FloorTab({ row }: { row: DealRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const ruleText = useRuleText();
  const report = row.floor_check;
  if (!report) return <Spin />;
  const inventory = (c: DealFloorCheck) =>
    c.item.ad_unit
      ? `${c.item.publisher ?? ''} · ${c.item.ad_unit}`
      : (c.item.publisher ?? t('deal.floor.all_inventory'));
  const columns: TableColumnsType<DealFloorCheck & { key: number }> = [
    { key: 'inventory', title: t('deal.floor.inventory'), render: (_: unknown, c) => inventory(c) },
    {
      key: 'rule',
      title: t('deal.floor.rule'),
      render: (_: unknown, c) =>
        c.rule ? ruleText(c.rule) : <span className="bo-res-empty">{t('deal.floor.verdict.no_rule')}</span>,
    },
    {
      key: 'verdict',
      title: `${t('deal.floor.check')}: ${floorText(row.bidfloor, row.bidfloorcur, locale)}`,
      render: (_: unknown, c) => (
        <StatusTag tone={VERDICT_TONE[c.verdict]} testId="deal-floor-verdict">
          {t(`deal.floor.verdict.${c.verdict}`)}
        </StatusTag>
      ),
    },
  ];
  return (
    <div data-testid="deal-floor" className="bo-deal-tab">
      <Typography.Paragraph>{t('deal.floor.intro', { version: report.version })}</Typography.Paragraph>
      <ScrollRegion label={t('deal.tab.floors')}>
        <Table
          size="small"
          pagination={false}
          columns={columns}
          dataSource={report.checks.map((c, i) => ({ ...c, key: i }))}
        />
      </ScrollRegion>
      <div className="bo-deal-notes">
        {report.checks.some((c) => c.verdict === 'not_comparable') ? (
          <Typography.Paragraph type="warning">{t('deal.floor.not_comparable')}</Typography.Paragraph>
        ) : null}
        <Typography.Paragraph type="secondary">{t('deal.floor.unknown_keys')}</Typography.Paragraph>
      </div>
    </div>
  );
}

type DeliveryRow = DeliveryDay & { key: string };

/**
 * A table wider than a phone scrolls sideways in a region the keyboard can reach (axe:
 * scrollable-region-focusable), as antd's own scroll box cannot be focused.
 */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="bo-deal-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** Impressions, bids, wins, win rate and revenue by UTC day for a range (the last 30 days by default). */
export function DeliveryTab({ row }: { row: DealRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [range, setRange] = useState<DateRangeValue | null>(null);
  const delivery = useQuery<DealDelivery>({
    queryKey: ['api', 'deals', row.id, 'delivery', range?.start ?? null, range?.end ?? null],
    queryFn: ({ signal }) =>
      api.request<DealDelivery>(`deals/${row.id}/delivery`, {
        query: range ? { from: range.start, to: range.end } : {},
        signal,
      }),
    placeholderData: (previous) => previous,
  });
  const data = delivery.data;
  const count = (v: number) => formatNumber(v, locale, 0);
  const rate = (v: number | null) => (v === null ? '—' : `${formatNumber(v, locale, 2)} %`);
  // The figures' columns, in the table and in its total row.
  const figures: { key: string; title: string; text: (r: DeliveryFigures) => string }[] = [
    { key: 'impressions', title: t('report.metric.impressions'), text: (r) => count(r.impressions) },
    { key: 'bid_requests', title: t('report.metric.bid_requests'), text: (r) => count(r.bid_requests) },
    { key: 'bids', title: t('report.metric.bids'), text: (r) => count(r.bids) },
    { key: 'wins', title: t('report.metric.wins'), text: (r) => count(r.wins) },
    { key: 'win_rate', title: t('report.metric.win_rate'), text: (r) => rate(r.win_rate) },
    ...(data?.money_visible
      ? [
          {
            key: 'revenue',
            title: t('deal.delivery.revenue'),
            text: (r: DeliveryFigures) => formatMoney(r.revenue, data.currency, locale),
          },
        ]
      : []),
  ];
  const columns: TableColumnsType<DeliveryRow> = [
    {
      key: 'day',
      title: t('deal.delivery.day'),
      render: (_: unknown, r) => <span className="bo-deal-figure">{r.day}</span>,
    },
    ...figures.map((f) => ({
      key: f.key,
      title: f.title,
      align: 'right' as const,
      render: (_: unknown, r: DeliveryRow) => <span className="bo-deal-figure">{f.text(r)}</span>,
    })),
  ];
  const empty = data !== undefined && data.totals.bid_requests === 0 && data.totals.impressions === 0;
  return (
    <div data-testid="deal-delivery" className="bo-deal-tab">
      <Space wrap className="bo-deal-toolbar">
        <DateRangeInput
          aria-label={t('deal.delivery.range')}
          value={range ?? (data ? { start: data.from, end: data.to } : null)}
          onChange={(v) => setRange(v)}
          allowClear={false}
        />
      </Space>
      {delivery.isError ? <Alert type="error" showIcon title={errorText(delivery.error)} /> : null}
      {!data ? (
        <Skeleton active />
      ) : empty ? (
        <Empty description={t('deal.delivery.empty')} />
      ) : (
        <>
          <Suspense fallback={<Skeleton.Node active className="bo-deal-chart-placeholder" />}>
            <DealDeliveryChart days={data.days} locale={locale} />
          </Suspense>
          <ScrollRegion label={t('deal.tab.delivery')}>
            <Table<DeliveryRow>
              size="small"
              className="bo-deal-delivery-table"
              data-testid="deal-delivery-table"
              rowKey="key"
              pagination={{ pageSize: 31, hideOnSinglePage: true, showSizeChanger: false }}
              columns={columns}
              dataSource={data.days.map((d) => ({ ...d, key: d.day }))}
              summary={() => (
                <Table.Summary fixed>
                  <Table.Summary.Row>
                    <Table.Summary.Cell index={0}>
                      <strong>{t('deal.delivery.total')}</strong>
                    </Table.Summary.Cell>
                    {figures.map((f, i) => (
                      <Table.Summary.Cell key={f.key} index={i + 1} align="right">
                        <strong className="bo-deal-figure">{f.text(data.totals)}</strong>
                      </Table.Summary.Cell>
                    ))}
                  </Table.Summary.Row>
                </Table.Summary>
              )}
            />
          </ScrollRegion>
        </>
      )}
      <div className="bo-deal-notes">
        <Typography.Paragraph type="secondary">{t('deal.delivery.help')}</Typography.Paragraph>
        {data && !data.money_visible ? (
          <Typography.Paragraph type="secondary" data-testid="deal-money-hidden">
            {t('deal.delivery.money_hidden')}
          </Typography.Paragraph>
        ) : null}
      </div>
    </div>
  );
}

/** Whether bid requests carry the deal today: active, and today within its dates (UTC). */
function liveNote(row: DealRow, t: (key: string, params?: Record<string, string>) => string): string | null {
  if (row.status !== 'active')
    return t('deal.pmp.not_live', { status: t(`deal.status.${row.status ?? 'draft'}`).toLowerCase() });
  const today = new Date().toISOString().slice(0, 10);
  if ((row.start_date && today < row.start_date) || (row.end_date && today > row.end_date)) {
    return t('deal.pmp.outside_dates', { start: row.start_date ?? '…', end: row.end_date ?? '…' });
  }
  return null;
}

/** The pmp object as pretty JSON, with a copy button. */
export function PmpTab({ row }: { row: DealRow }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const pmp = useQuery<OpenRtbPmp>({
    queryKey: ['api', 'deals', row.id, 'pmp', row.version],
    queryFn: ({ signal }) => api.request<OpenRtbPmp>(`deals/${row.id}/pmp`, { signal }),
  });
  if (pmp.isError) return <Alert type="error" showIcon title={errorText(pmp.error)} />;
  if (!pmp.data) return <Skeleton active />;
  const json = JSON.stringify(pmp.data, null, 2);
  const live = liveNote(row, t);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      void notice.success(t('deal.pmp.copied'));
    } catch (error) {
      void notice.error(errorText(error));
    }
  };
  return (
    <div data-testid="deal-pmp" className="bo-deal-tab">
      <Typography.Paragraph>{t('deal.pmp.intro')}</Typography.Paragraph>
      {live ? <Alert type="info" showIcon className="bo-deal-notice" title={live} /> : null}
      <div className="bo-deal-json">
        <Button
          icon={<CopyOutlined />}
          onClick={() => void copy()}
          className="bo-deal-json__copy"
          data-testid="deal-pmp-copy"
        >
          {t('deal.pmp.copy')}
        </Button>
        <pre data-testid="deal-pmp-json" tabIndex={0} aria-label={t('deal.tab.pmp')}>
          {json}
        </pre>
      </div>
      <Typography.Paragraph type="secondary" className="bo-deal-notes">
        {t('deal.pmp.private_auction')}
      </Typography.Paragraph>
    </div>
  );
}
