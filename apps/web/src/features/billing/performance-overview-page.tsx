/**
 * Performance billing (`/billing_performance/performance`, issue 21): the performance side's
 * month at a glance (GET /v1/billing/performance/overview): revenue, cost, margin and margin %
 * per pricing model and in total against the month before, and how many rows of what we invoice
 * and what we owe are in each state, each a link to that list filtered by the state. The month
 * lives in the URL.
 */
import { BILLING_STATES, isLowMargin, marginPct, type BillingState } from '@backoffice/core/billing';
import { isBillingMonth, type BillingKind, type PerformanceOverview } from '@backoffice/core/billing-api';
import { formatNumber } from '@backoffice/core/format';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Button, Skeleton, Table, Typography, theme as antdTheme } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { Page } from '../../shell/page.tsx';
import { lastMonth } from './billing-api.ts';
import { EmptyText, MarginCell } from './row-cells.tsx';
import { MonthField } from './rows-filters.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import './billing.css';

const LIST_PATH: Record<BillingKind, string> = {
  advertiser: '/billing_performance/advertiser-billing',
  supply: '/billing_performance/supply-billing',
};

/** The change from `prev` to `cur` in percent (2 decimals, exact), or null without a previous figure. */
export function changePct(cur: string, prev: string): string | null {
  // (cur - prev) / prev is minus the "margin" of prev over cur.
  const m = marginPct(prev, cur);
  if (m === null) return null;
  return m.startsWith('-') ? m.slice(1) : /^0\.00$/.test(m) ? m : `-${m}`;
}

type Product = PerformanceOverview['products'][number];

function Kpi({
  label,
  value,
  previous,
  testId,
}: {
  label: string;
  value: ReactNode;
  previous: ReactNode;
  testId: string;
}) {
  const { token } = antdTheme.useToken();
  return (
    <div
      className="bo-bill-kpi"
      style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
      data-testid={testId}
    >
      <span className="bo-bill-kpi__label" style={{ color: token.colorTextSecondary }}>
        {label}
      </span>
      <strong className="bo-bill-kpi__value">{value}</strong>
      <span className="bo-bill-kpi__prev" style={{ color: token.colorTextSecondary }}>
        {previous}
      </span>
    </div>
  );
}

export default function PerformanceOverviewPage() {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const locale = useLocale();
  const [params, update] = useUrlState();
  const month = isBillingMonth(params.get('month')) ? params.get('month')! : lastMonth();
  useEffect(() => {
    if (!params.get('month')) update({ month });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per missing month
  }, [params]);
  const overview = useApiQuery<PerformanceOverview>(
    'billing/performance/overview',
    { query: { month } },
    { placeholderData: keepPreviousData },
  );
  const data = overview.data;
  const pct = (v: string | null) =>
    v === null ? '—' : `${formatNumber(v, locale, 2)}${locale === 'es' ? '\u00a0%' : '%'}`;
  const signed = (v: string | null) => (v === null ? '—' : `${v.startsWith('-') ? '' : '+'}${pct(v)}`);
  const vs = (cur: string, prev: string | undefined) =>
    prev === undefined
      ? t('billing.ui.no_previous')
      : t('billing.ui.vs_previous', { change: signed(changePct(cur, prev)) });

  const money = (v: string) => <MoneyCell amount={v} currency={data?.currency ?? 'EUR'} highlightNegative />;
  const prevMargin = data?.previous ? marginPct(data.previous.revenue, data.previous.cost) : null;

  return (
    <Page title={t('menu.bp_performance')} testId="billing-performance-overview">
      <div className="bo-bill-head">
        <MonthField month={month} onChange={(m) => update({ month: m })} />
        <Typography.Text type="secondary">{t('billing.ui.overview_subtitle')}</Typography.Text>
      </div>
      {overview.isError ? (
        <Alert
          type="error"
          showIcon
          title={errorText(overview.error)}
          action={
            <Button size="small" onClick={() => void overview.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      {!data ? (
        overview.isError ? null : (
          <Skeleton active />
        )
      ) : (
        <div data-testid="billing-overview" data-state="ready">
          <section className="bo-bill-kpis" aria-label={t('billing.ui.totals')}>
            <Kpi
              label={t('billing.ui.revenue')}
              value={money(data.totals.revenue)}
              previous={vs(data.totals.revenue, data.previous?.revenue)}
              testId="billing-kpi-revenue"
            />
            <Kpi
              label={t('billing.ui.cost')}
              value={money(data.totals.cost)}
              previous={vs(data.totals.cost, data.previous?.cost)}
              testId="billing-kpi-cost"
            />
            <Kpi
              label={t('billing.ui.margin')}
              value={money(data.totals.margin)}
              previous={vs(data.totals.margin, data.previous?.margin)}
              testId="billing-kpi-margin"
            />
            <Kpi
              label={t('billing.col.margin_pct')}
              value={pct(data.totals.margin_pct)}
              previous={
                data.previous
                  ? t('billing.ui.previous_pct', { pct: pct(prevMargin) })
                  : t('billing.ui.no_previous')
              }
              testId="billing-kpi-margin-pct"
            />
          </section>
          <Typography.Title level={2} className="bo-bill-subtitle bo-bill-gap">
            {t('billing.ui.by_product')}
          </Typography.Title>
          <ScrollRegion label={t('billing.ui.by_product')}>
            <Table<Product>
              size="small"
              className="bo-bill-table"
              rowKey="product"
              pagination={false}
              dataSource={data.products}
              locale={{ emptyText: <EmptyText>{t('billing.not_found')}</EmptyText> }}
              data-testid="billing-overview-products"
              columns={[
                {
                  key: 'product',
                  title: t('billing.col.product'),
                  render: (_: unknown, p) => <strong>{p.product.toUpperCase()}</strong>,
                },
                {
                  key: 'revenue',
                  title: t('billing.ui.revenue'),
                  align: 'right',
                  render: (_: unknown, p) => money(p.revenue),
                },
                {
                  key: 'cost',
                  title: t('billing.ui.cost'),
                  align: 'right',
                  render: (_: unknown, p) => money(p.cost),
                },
                {
                  key: 'margin',
                  title: t('billing.ui.margin'),
                  align: 'right',
                  render: (_: unknown, p) => money(p.margin),
                },
                {
                  key: 'pct',
                  title: t('billing.col.margin_pct'),
                  align: 'right',
                  render: (_: unknown, p) => (
                    <MarginCell pct={p.margin_pct} low={isLowMargin(p.revenue, p.cost)} />
                  ),
                },
                {
                  key: 'advertisers',
                  title: t('billing.ui.advertisers'),
                  align: 'right',
                  render: (_: unknown, p) => p.advertisers,
                },
                {
                  key: 'publishers',
                  title: t('billing.ui.publishers'),
                  align: 'right',
                  render: (_: unknown, p) => p.publishers,
                },
              ]}
              summary={() =>
                data.products.length > 0 ? (
                  <Table.Summary.Row>
                    <Table.Summary.Cell index={0}>
                      <strong>{t('billing.ui.total')}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={1} align="right">
                      <strong>{money(data.totals.revenue)}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={2} align="right">
                      <strong>{money(data.totals.cost)}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={3} align="right">
                      <strong>{money(data.totals.margin)}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={4} align="right">
                      <strong>{pct(data.totals.margin_pct)}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={5} colSpan={2} />
                  </Table.Summary.Row>
                ) : null
              }
            />
          </ScrollRegion>
          <div className="bo-bill-overview-states">
            {(['advertiser', 'supply'] as const).map((kind) => (
              <section
                key={kind}
                className="bo-bill-overview-state"
                aria-labelledby={`billing-states-${kind}`}
                data-testid={`billing-overview-states-${kind}`}
              >
                <Typography.Title level={2} className="bo-bill-subtitle" id={`billing-states-${kind}`}>
                  {t(`billing.ui.states_of.${kind}`)}
                </Typography.Title>
                <ul className="bo-bill-state-links">
                  {BILLING_STATES.map((s: BillingState) => (
                    <li key={s}>
                      <Link
                        to={`/${locale}${LIST_PATH[kind]}?month=${month}&state=${s}`}
                        style={{ color: token.colorLink }}
                        data-testid={`billing-overview-${kind}-${s}`}
                      >
                        {t(`billing.state.${s}`)}
                      </Link>
                      <span className="bo-bill-num">{data.states[kind][s]}</span>
                    </li>
                  ))}
                </ul>
                <Link to={`/${locale}${LIST_PATH[kind]}?month=${month}`} style={{ color: token.colorLink }}>
                  {t(`billing.ui.open_list.${kind}`)}
                </Link>
              </section>
            ))}
          </div>
        </div>
      )}
    </Page>
  );
}
