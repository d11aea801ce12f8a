/**
 * The finance reports' chart: each month's revenue, adjusted revenue and collected as bars and
 * the margin as a line (the totals of every filtered row; exact figures in the tooltip).
 */
import type { FinanceMonthTotals } from '@backoffice/core/finance-reports';
import { formatMoney } from '@backoffice/core/format';
import { theme as antdTheme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, type EChartOption } from '../../components/echart.tsx';
import { useLocale } from '../../components/use-locale.ts';

interface TooltipParam {
  dataIndex: number;
  marker: string;
  seriesName: string;
}

const SERIES = ['revenue', 'adjusted_revenue', 'collected', 'margin'] as const;

export function FinanceChart({ months, currency }: { months: FinanceMonthTotals[]; currency: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const option = useMemo<EChartOption>(() => {
    const compact = new Intl.NumberFormat(locale === 'es' ? 'es-ES' : 'en-US', {
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    const colors = [token.colorPrimary, token.colorInfoBorderHover, token.colorWarning, token.colorSuccess];
    const name = (k: (typeof SERIES)[number]) => t(`finance_reports.metric.${k}`);
    return {
      animationDuration: 300,
      grid: { left: 8, right: 12, top: 44, bottom: 4, containLabel: true },
      legend: { top: 0, left: 0, textStyle: { color: token.colorTextSecondary }, itemGap: 12 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: unknown) => {
          const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
          const row = months[list[0]?.dataIndex ?? -1];
          if (!row) return '';
          const lines = list.map((p) => {
            const key = SERIES.find((k) => name(k) === p.seriesName);
            return `${p.marker}${p.seriesName}: <b>${key ? formatMoney(row[key], currency, locale) : ''}</b>`;
          });
          return [row.month, ...lines].join('<br/>');
        },
      },
      xAxis: {
        type: 'category',
        data: months.map((m) => m.month),
        axisTick: { alignWithLabel: true },
        axisLabel: { color: token.colorTextSecondary, hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        axisLabel: {
          color: token.colorTextSecondary,
          formatter: (v: number) => `${currency === 'USD' ? '$' : ''}${compact.format(v)}`,
        },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: SERIES.map((k, i) => ({
        name: name(k),
        type: k === 'margin' ? 'line' : 'bar',
        data: months.map((m) => (m[k] === null ? null : Number(m[k]))),
        itemStyle: { color: colors[i], borderRadius: k === 'margin' ? undefined : [3, 3, 0, 0] },
        lineStyle: k === 'margin' ? { width: 2.5 } : undefined,
        symbolSize: 5,
        barMaxWidth: 18,
      })),
    };
  }, [months, currency, locale, t, token]);
  return (
    <EChart
      option={option}
      height={300}
      ariaLabel={t('finance_reports.chart.aria')}
      testId="fin-chart"
      renderer="svg"
    />
  );
}
