/**
 * A deal's delivery by day: impressions (bars) and win rate (line, right axis). Loaded lazily by
 * the delivery tab, so ECharts stays out of the list's first paint.
 */
import type { DeliveryDay } from '@backoffice/core/deals';
import { formatNumber } from '@backoffice/core/format';
import { theme as antdTheme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, type EChartOption } from '../../components/echart.tsx';

interface TooltipParam {
  dataIndex: number;
  seriesName: string;
  marker: string;
}

export default function DealDeliveryChart({
  days,
  locale,
}: {
  days: readonly DeliveryDay[];
  locale: string;
}) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const option = useMemo<EChartOption>(() => {
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
    const impressions = t('report.metric.impressions');
    const winRate = t('report.metric.win_rate');
    return {
      animationDuration: 300,
      grid: { left: 8, right: 8, top: 36, bottom: 4, containLabel: true },
      legend: { top: 0, left: 0, textStyle: { color: token.colorTextSecondary }, itemGap: 16 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: unknown) => {
          const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
          const day = days[list[0]?.dataIndex ?? -1];
          if (!day) return '';
          const rate = day.win_rate === null ? '—' : `${formatNumber(day.win_rate, locale, 2)} %`;
          return [
            day.day,
            ...list.map(
              (p) =>
                `${p.marker}${p.seriesName}: <b>${p.seriesName === winRate ? rate : formatNumber(day.impressions, locale, 0)}</b>`,
            ),
          ].join('<br/>');
        },
      },
      xAxis: {
        type: 'category',
        data: days.map((d) => d.day.slice(5)),
        axisTick: { alignWithLabel: true },
        axisLabel: { color: token.colorTextSecondary, hideOverlap: true },
      },
      yAxis: [
        {
          type: 'value',
          axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => compact.format(v) },
          splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        },
        {
          type: 'value',
          min: 0,
          max: 100,
          axisLabel: { color: token.colorTextSecondary, formatter: '{value} %' },
          splitLine: { show: false },
        },
      ],
      series: [
        {
          name: impressions,
          type: 'bar',
          data: days.map((d) => d.impressions),
          itemStyle: { color: token.colorPrimary, borderRadius: [3, 3, 0, 0] },
          barMaxWidth: 22,
        },
        {
          name: winRate,
          type: 'line',
          yAxisIndex: 1,
          data: days.map((d) => d.win_rate),
          itemStyle: { color: token.colorSuccess },
          lineStyle: { width: 2.5 },
          symbolSize: 5,
          connectNulls: false,
        },
      ],
    };
  }, [days, locale, t, token]);
  return (
    <EChart
      option={option}
      height={260}
      ariaLabel={t('deal.delivery.chart')}
      testId="deal-delivery-chart"
      renderer="svg"
    />
  );
}
