/**
 * The drawn QPS graph: the chart (series, dashed cap steps, change marks, zoom and brush), a
 * summary table a person can read without hovering (last and peak values, the cap now, time spent
 * at the cap), the configuration changes listed, and the DataViewer link for the same partners.
 */
import { formatNumber } from '@backoffice/core/format';
import { QPS_LIMITS, type QpsGraph } from '@backoffice/core/reports';
import { Alert, Spin, Table, theme as antdTheme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EChart, type EChartOption } from '../../components/echart.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useMediaQuery } from '../../components/use-media-query.ts';
import { ButtonLink } from '../../shell/button-link.tsx';
import {
  annotationChange,
  buildQpsOption,
  formatMetric,
  shiftToZone,
  shiftedText,
  summarise,
  unshiftFromZone,
  ANNOTATION_COLOR,
  type QpsGraphAnswer,
  type SeriesSummary,
} from './qps-chart.ts';
import { dataViewerLink, intervalLabel, wallString, wallToEpoch, type QpsState } from './qps-state.ts';

/** SVG (readable DOM, crisp) for usual graphs; canvas for very many points. */
const SVG_MAX_POINTS = 8000;
const STEP_MS = QPS_LIMITS.minIntervalMinutes * 60_000;

export interface QpsResultProps {
  graph: QpsGraph;
  state: QpsState;
  answer: QpsGraphAnswer | null;
  loading: boolean;
  /** A range picked with the brush (wall times in the state's zone) and the interval to draw it at. */
  onRange: (start: string, end: string, interval: number) => void;
}

export function QpsResult({ graph, state, answer, loading, onRange }: QpsResultProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { lang } = useParams();
  const { token } = antdTheme.useToken();
  const wide = useMediaQuery('(min-width: 768px)');
  const ctx = useMemo(
    () => ({ t: (k: string, p?: Record<string, string | number>) => t(k, p ?? {}), locale }),
    [t, locale],
  );
  const option = useMemo<EChartOption | null>(
    () => (answer ? buildQpsOption(answer, ctx) : null),
    [answer, ctx],
  );
  const summary = useMemo(() => (answer ? summarise(answer) : []), [answer]);
  const points = answer
    ? answer.series.reduce((n, s) => n + s.points.length * (answer.metrics.length + 1), 0)
    : 0;
  const hasData = answer ? answer.series.some((s) => s.points.length > 0) : false;
  const link = dataViewerLink(lang ?? 'en', graph, state);
  const tz = state.timezone;

  const onEvents = useMemo(
    () => ({
      brushEnd: (params: unknown) => {
        const area = (params as { areas?: { coordRange?: unknown }[] }).areas?.[0];
        const range = area?.coordRange;
        if (!Array.isArray(range) || range.length !== 2) return;
        const [a, b] = range.map((v) => unshiftFromZone(Number(v), tz));
        if (!Number.isFinite(a) || !Number.isFinite(b)) return;
        const startMs = Math.floor(Math.min(a!, b!) / STEP_MS) * STEP_MS;
        let endMs = Math.ceil(Math.max(a!, b!) / STEP_MS) * STEP_MS;
        const limit = wallToEpoch(state.end, tz);
        if (limit !== null) endMs = Math.min(endMs, limit);
        if (endMs - startMs < STEP_MS) return;
        onRange(wallString(startMs, tz), wallString(endMs, tz), QPS_LIMITS.minIntervalMinutes);
      },
    }),
    [tz, state.end, onRange],
  );

  const names = answer?.series.map((s) => s.name).join(', ') ?? '';
  const startText = answer ? shiftedText(shiftToZone(Date.parse(answer.start), tz)) : '';
  const endText = answer ? shiftedText(shiftToZone(Date.parse(answer.end), tz)) : '';
  const cardStyle = { background: token.colorBgContainer, borderColor: token.colorBorderSecondary };

  return (
    <Spin spinning={loading && !!answer}>
      <div className="bo-qps__result-stack">
        <section
          className="bo-qps__card bo-qps__result"
          style={cardStyle}
          data-testid="qps-result"
          aria-busy={loading}
        >
          <header className="bo-qps__result-head">
            <div>
              <h2 className="bo-qps__h2">{names || t(`qps.title.${graph}`)}</h2>
              {answer ? (
                <div
                  className="bo-qps__range"
                  style={{ color: token.colorTextSecondary }}
                  data-testid="qps-range"
                >
                  {t('qpsui.range', {
                    start: startText,
                    end: endText,
                    tz,
                    interval: intervalLabel(answer.interval, t),
                  })}
                </div>
              ) : null}
            </div>
            {link ? (
              <ButtonLink to={link} data-testid="qps-dataviewer">
                {t('qpsui.dataviewer')}
              </ButtonLink>
            ) : null}
          </header>
          {!answer ? (
            <div className="bo-qps__loading">
              <Spin />
            </div>
          ) : !hasData ? (
            <Alert type="info" showIcon title={t('qpsui.no_data')} data-testid="qps-no-data" />
          ) : (
            <>
              <EChart
                option={option!}
                height={wide ? 440 : 360}
                ariaLabel={t('qpsui.chart_label', { names, start: startText, end: endText, tz })}
                testId="qps-chart"
                renderer={points <= SVG_MAX_POINTS ? 'svg' : 'canvas'}
                onEvents={onEvents}
              />
              <p className="bo-qps__hint" style={{ color: token.colorTextSecondary }}>
                {t('qpsui.hint')}
              </p>
            </>
          )}
        </section>
        {answer && hasData ? (
          <>
            <section className="bo-qps__card" style={cardStyle} data-testid="qps-summary">
              <h2 className="bo-qps__h2">{t('qpsui.summary')}</h2>
              <SummaryTable graph={graph} answer={answer} rows={summary} locale={locale} />
            </section>
            <Changes answer={answer} />
          </>
        ) : answer && answer.annotations.length > 0 ? (
          // No traffic in the range (a partner just registered, a paused one), but changes to show.
          <Changes answer={answer} />
        ) : null}
      </div>
    </Spin>
  );
}

function SummaryTable({
  graph,
  answer,
  rows,
  locale,
}: {
  graph: QpsGraph;
  answer: QpsGraphAnswer;
  rows: SeriesSummary[];
  locale: string;
}) {
  const { t } = useTranslation();
  const showCap = answer.metrics.includes('qps');
  const num = (v: number | null, metric: Parameters<typeof formatMetric>[0]) =>
    v === null ? '–' : formatMetric(metric, v, locale);
  const columns = [
    {
      key: 'name',
      title: t(`report.dimension.${graph === 'demand' ? 'demand_partner' : 'supply_endpoint'}`),
      dataIndex: 'name',
      fixed: 'left' as const,
    },
    ...answer.metrics.flatMap((metric, i) => [
      {
        key: `${metric}-latest`,
        title: t('qpsui.summary.latest', { metric: t(`qps.metric.${metric}`) }),
        align: 'right' as const,
        render: (_: unknown, r: SeriesSummary) => (
          <span className="bo-qps__num">{num(r.metrics[i]!.latest, metric)}</span>
        ),
      },
      {
        key: `${metric}-peak`,
        title: t('qpsui.summary.peak', { metric: t(`qps.metric.${metric}`) }),
        align: 'right' as const,
        render: (_: unknown, r: SeriesSummary) => (
          <span className="bo-qps__num">{num(r.metrics[i]!.peak, metric)}</span>
        ),
      },
    ]),
    ...(showCap
      ? [
          {
            key: 'cap',
            title: t('qpsui.summary.cap'),
            align: 'right' as const,
            render: (_: unknown, r: SeriesSummary) => (
              <span className="bo-qps__num" data-testid={`qps-cap-${r.id}`}>
                {r.currentCap === null ? t('qpsui.summary.no_cap') : formatNumber(r.currentCap, locale, 0)}
              </span>
            ),
          },
          {
            key: 'at-cap',
            title: t('qpsui.summary.at_cap'),
            align: 'right' as const,
            render: (_: unknown, r: SeriesSummary) => (
              <span className="bo-qps__num" data-testid={`qps-at-cap-${r.id}`}>
                {r.atCapShare === null ? '–' : `${formatNumber(r.atCapShare * 100, locale, 0)} %`}
              </span>
            ),
          },
        ]
      : []),
  ];
  return (
    <Table<SeriesSummary>
      size="small"
      rowKey="id"
      pagination={false}
      columns={columns}
      dataSource={rows}
      scroll={{ x: 'max-content' }}
    />
  );
}

function Changes({ answer }: { answer: QpsGraphAnswer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const ctx = { t: (k: string, p?: Record<string, string | number>) => t(k, p ?? {}), locale };
  return (
    <section
      className="bo-qps__card"
      style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
      data-testid="qps-changes"
    >
      <h2 className="bo-qps__h2">{t('qpsui.changes')}</h2>
      {answer.annotations.length === 0 ? (
        <p style={{ color: token.colorTextSecondary, margin: 0 }}>{t('qpsui.changes.none')}</p>
      ) : (
        <ol className="bo-qps__changes">
          {answer.annotations.map((a, i) => (
            <li key={`${a.t}-${a.entity_id}-${i}`} data-testid="qps-change">
              <span className="bo-qps__dot" style={{ background: ANNOTATION_COLOR }} aria-hidden />
              <time dateTime={a.t} className="bo-qps__when">
                {shiftedText(shiftToZone(Date.parse(a.t), answer.timezone))}
              </time>
              <span className="bo-qps__who">{a.entity_name}</span>
              <span>
                {a.actor
                  ? t('qpsui.annotation.by', { change: annotationChange(a, ctx), actor: a.actor.name })
                  : annotationChange(a, ctx)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
