/**
 * The 30-day chart: revenue (bars) and margin (line) per local day, or impressions for people
 * without money. Loaded lazily by the page, so ECharts stays out of the tiles' first paint.
 */
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { theme as antdTheme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, type EChartOption } from '../../components/echart.tsx';
import type { SeriesRow } from './dashboard-model.ts';
import { formatDateLabel } from '../../lib/date-format.ts';

export interface DashboardChartProps {
  series: readonly SeriesRow[];
  money: boolean;
  currency: string;
  locale: 'en' | 'es';
  height: number;
}

interface TooltipParam {
  dataIndex: number;
  seriesName: string;
  marker: string;
}

export default function DashboardChart({ series, money, currency, locale, height }: DashboardChartProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const title = money ? t('dashboard.series') : t('home.series_impressions');

  const option = useMemo<EChartOption>(() => {
    const compact = new Intl.NumberFormat(locale === 'es' ? 'es-ES' : 'en-US', { notation: 'compact', maximumFractionDigits: 1 });
    const days = series.map((r) => formatDateLabel(r.day, locale));
    const lines = money
      ? [
          { key: 'revenue' as const, name: t('report.metric.revenue'), type: 'bar', color: token.colorPrimary },
          { key: 'margin' as const, name: t('report.metric.margin'), type: 'line', color: token.colorSuccess },
        ]
      : [{ key: 'impressions' as const, name: t('report.metric.impressions'), type: 'bar', color: token.colorPrimary }];
    const text = (key: 'revenue' | 'margin' | 'impressions', row: SeriesRow | undefined) => {
      const v = row?.[key];
      if (v === undefined || v === null) return '—';
      return key === 'impressions' ? formatNumber(v, locale, 0) : formatMoney(v, currency, locale);
    };
    return {
      animationDuration: 300,
      grid: { left: 8, right: 12, top: 36, bottom: 4, containLabel: true },
      legend: { top: 0, left: 0, textStyle: { color: token.colorTextSecondary }, itemGap: 16 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: unknown) => {
          const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
          const row = series[list[0]?.dataIndex ?? -1];
          const head = row ? formatDateLabel(row.day, locale) : '';
          const body = list.map((p) => {
            const line = lines.find((l) => l.name === p.seriesName);
            return `${p.marker}${p.seriesName}: <b>${line ? text(line.key, row) : ''}</b>`;
          });
          return [head, ...body].join('<br/>');
        },
      },
      xAxis: {
        type: 'category',
        data: days,
        axisTick: { alignWithLabel: true },
        axisLabel: { color: token.colorTextSecondary, hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        axisLabel: {
          color: token.colorTextSecondary,
          formatter: (v: number) => (money ? `${currency === 'USD' ? '$' : ''}${compact.format(v)}` : compact.format(v)),
        },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: lines.map((l) => ({
        name: l.name,
        type: l.type,
        data: series.map((r) => (r[l.key] === undefined ? null : Number(r[l.key]))),
        itemStyle: { color: l.color, borderRadius: l.type === 'bar' ? [3, 3, 0, 0] : undefined },
        lineStyle: l.type === 'line' ? { width: 2.5 } : undefined,
        symbolSize: 5,
        barMaxWidth: 22,
      })),
    };
  }, [series, money, currency, locale, t, token]);

  return <EChart option={option} height={height} ariaLabel={title} testId="dashboard-chart" renderer="svg" />;
}
