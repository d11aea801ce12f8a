/**
 * Home (screens.md "Home", issue 4): for the signed-in person's areas, today's tiles against
 * yesterday and the same weekday last week, the 30-day chart, the top partners and publishers
 * of the week, and what is waiting for them; people without a report area get their areas'
 * shortcuts instead. One request (the sections the person needs), skeletons of the final size
 * while it loads, the chart (ECharts) loaded after the tiles, and a refresh every 5 minutes.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Select, Skeleton, theme as antdTheme } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { hasMoneyArea, hasReportArea } from '@backoffice/core/dashboard';
import { wallTimeOf } from '@backoffice/core/time-zones';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useSession } from '../../lib/session-store.ts';
import { Page } from '../../shell/page.tsx';
import {
  asOfKind,
  canOpen,
  dayPart,
  firstName,
  shortcutGroups,
  timeZoneChoices,
  visibility,
  visibleEntries,
  visibleTiles,
  waitingRows,
  type Person,
} from './dashboard-model.ts';
import { sectionsFor } from './dashboard-access.ts';
import { formatDay, formatTime } from '../../lib/date-format.ts';
import { DashboardShortcuts } from './dashboard-shortcuts.tsx';
import { DashboardTileCard, DashboardTileSkeleton } from './dashboard-tiles.tsx';
import { DashboardTop, DashboardTopSkeleton } from './dashboard-top.tsx';
import { DashboardWaiting, DashboardWaitingSkeleton } from './dashboard-waiting.tsx';
import { useChosenTimeZone } from '../../lib/time-zone-choice.ts';
import { startDashboardRequest, useDashboard } from './use-dashboard.ts';
import './dashboard.css';

// The figures are asked for as soon as this code arrives, while React still renders the shell.
startDashboardRequest();

const DashboardChart = lazy(() => import('./dashboard-chart.tsx'));
const CHART_HEIGHT = 300;
/** Performance mark set when the tiles first show figures (read by the e2e timing). */
export const TILES_MARK = 'dashboard:tiles';

/**
 * True once the page has painted with `active` set: the chart's code (ECharts, about 200 ms of
 * script work on a slow machine) is asked for only then, so it never delays the first paint of
 * the figures (the largest paint of the page).
 */
function useAfterPaint(active: boolean): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!active || done) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs just before the next paint; a task queued from it runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setDone(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [active, done]);
  return done;
}

function ChartSkeleton() {
  return (
    <div className="bo-dash-chart__placeholder" style={{ height: CHART_HEIGHT }} aria-hidden>
      <Skeleton.Node active style={{ width: '100%', height: CHART_HEIGHT }} />
    </div>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const locale = useLocale();
  const { lang = locale } = useParams();
  const user = useSession((s) => s.user);
  const menus = useSession((s) => s.menus);
  const [timezone, setTimezone, browserZone] = useChosenTimeZone();

  const roles = user?.roles;
  const acl = user?.acl;
  const person = useMemo<Person | null>(() => (roles && acl ? { roles, acl } : null), [roles, acl]);
  const sections = useMemo(() => sectionsFor(person), [person]);
  const query = useDashboard(timezone, sections);
  const answer = query.data;
  const chartReady = useAfterPaint(!!answer?.series?.length);
  const entries = useMemo(() => visibleEntries(menus, person), [menus, person]);

  // Before the answer, the person's ACL says what will come: skeletons of the final layout.
  const expected = { reports: hasReportArea(person), money: hasMoneyArea(person) };
  const seen = answer ? visibility(answer, person) : expected;
  const tiles = answer?.tiles ? visibleTiles(answer.tiles.tiles, seen.money) : null;
  const waiting = answer?.waiting ? waitingRows(answer.waiting, entries, person) : null;
  const dataViewerAllowed = canOpen('/reports/dataviewer', entries, person);

  const marked = useRef(false);
  useEffect(() => {
    if (marked.current || !tiles || tiles.length === 0) return;
    marked.current = true;
    performance.mark(TILES_MARK);
  }, [tiles]);

  useEffect(() => {
    document.title = `${t('dashboard.title')} · ${t('app.name')}`;
  }, [t]);

  // "Now" for the greeting and the as-of day: when the figures arrived (or the page opened).
  const [openedAt] = useState(() => Date.now());
  const now = query.dataUpdatedAt || openedAt;
  const greeting = t(`home.greeting.${dayPart(wallTimeOf(now, timezone).hour)}`, { name: firstName(user?.name) });
  let asOfText: string | null = null;
  if (answer && seen.reports) {
    const asOf = Date.parse(answer.as_of);
    const kind = asOfKind(asOf, now, timezone);
    asOfText =
      kind === 'today'
        ? t('home.as_of', { time: formatTime(asOf, timezone, locale) })
        : kind === 'yesterday'
          ? t('home.as_of_yesterday')
          : t('home.as_of_stale', { date: formatDay(asOf, timezone, locale), time: formatTime(asOf, timezone, locale) });
  }
  const zones = timeZoneChoices(browserZone).concat(timeZoneChoices(browserZone).includes(timezone) ? [] : [timezone]);
  const topLink = answer?.top && dataViewerAllowed ? { lang, from: answer.top.from, asOf: answer.as_of, timezone: answer.timezone } : null;
  const updated = query.dataUpdatedAt ? t('home.updated', { time: formatTime(query.dataUpdatedAt, timezone, locale) }) : undefined;

  return (
    <Page title={t('dashboard.title')} testId="dashboard">
      <div className="bo-dash" data-state={answer ? 'ready' : query.isError ? 'error' : 'loading'} data-reports={seen.reports} data-money={seen.money}>
        <header className="bo-dash-head">
          <div className="bo-dash-head__hello">
            <p className="bo-dash-head__greeting" data-testid="greeting" style={{ color: token.colorTextHeading }}>
              {greeting}
            </p>
            <p className="bo-dash-muted" style={{ color: token.colorTextSecondary }}>
              {seen.reports ? t('home.subtitle.figures') : t('home.subtitle.areas')}
            </p>
          </div>
          {seen.reports ? (
            <div className="bo-dash-head__tools">
              <span className="bo-dash-head__asof" data-testid="as-of" style={{ color: token.colorTextSecondary }}>
                {asOfText ?? <Skeleton.Input active size="small" style={{ width: 120, minWidth: 120 }} />}
              </span>
              <Select
                size="small"
                className="bo-dash-head__tz"
                value={timezone}
                onChange={setTimezone}
                aria-label={t('home.timezone')}
                data-testid="dashboard-timezone"
                popupMatchSelectWidth={false}
                options={zones.map((z) => ({ value: z, label: z === browserZone ? t('home.timezone_browser', { zone: z }) : z }))}
              />
              <Button
                size="small"
                icon={<ReloadOutlined aria-hidden />}
                loading={query.isFetching}
                onClick={() => void query.refetch()}
                aria-label={t('home.refresh')}
                title={updated}
                data-testid="dashboard-refresh"
              />
            </div>
          ) : null}
        </header>

        {query.isError && !answer ? (
          <Alert
            type="error"
            showIcon
            className="bo-dash-alert"
            title={t('home.load_failed')}
            description={errorText(query.error)}
            action={
              <Button size="small" onClick={() => void query.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        ) : null}

        {seen.reports ? (
          <>
            {!seen.money ? <Alert type="info" showIcon className="bo-dash-alert" data-testid="money-hidden" title={t('dashboard.money_hidden')} /> : null}
            <h2 className="bo-visually-hidden">{t('home.tiles')}</h2>
            <div className="bo-dash-tiles" data-count={tiles?.length ?? (expected.money ? 6 : 1)} data-testid="tiles" aria-busy={!tiles}>
              {tiles
                ? tiles.map((tile) => <DashboardTileCard key={tile.key} tile={tile} currency={answer?.currency ?? 'USD'} locale={locale} />)
                : Array.from({ length: expected.money ? 6 : 1 }, (_, i) => <DashboardTileSkeleton key={i} />)}
            </div>

            <div className="bo-dash-row bo-dash-row--chart">
              <section className="bo-dash-card bo-dash-chart" style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
                <h2 className="bo-dash-card__title" style={{ color: token.colorTextHeading }}>
                  {seen.money ? t('dashboard.series') : t('home.series_impressions')}
                </h2>
                {answer?.series ? (
                  answer.series.length > 0 && !chartReady ? (
                    <ChartSkeleton />
                  ) : answer.series.length > 0 ? (
                    <Suspense fallback={<ChartSkeleton />}>
                      <DashboardChart series={answer.series} money={seen.money} currency={answer.currency} locale={locale} height={CHART_HEIGHT} />
                    </Suspense>
                  ) : (
                    <p className="bo-dash-chart__empty" style={{ height: CHART_HEIGHT, color: token.colorTextTertiary }}>
                      {t('home.chart.empty')}
                    </p>
                  )
                ) : (
                  <ChartSkeleton />
                )}
              </section>
              {waiting ? <DashboardWaiting rows={waiting} lang={lang} locale={locale} timezone={timezone} /> : <DashboardWaitingSkeleton />}
            </div>

            <div className="bo-dash-row bo-dash-row--top">
              {answer?.top ? (
                <>
                  <DashboardTop kind="demand_partner" title={t('dashboard.top_partners')} rows={answer.top.partners} money={seen.money} currency={answer.currency} locale={locale} link={topLink} />
                  <DashboardTop kind="publisher" title={t('dashboard.top_publishers')} rows={answer.top.publishers} money={seen.money} currency={answer.currency} locale={locale} link={topLink} />
                </>
              ) : (
                <>
                  <DashboardTopSkeleton />
                  <DashboardTopSkeleton />
                </>
              )}
            </div>
          </>
        ) : (
          <div className="bo-dash-row bo-dash-row--areas">
            <DashboardShortcuts groups={shortcutGroups(entries)} lang={lang} />
            {waiting ? <DashboardWaiting rows={waiting} lang={lang} locale={locale} timezone={timezone} /> : <DashboardWaitingSkeleton />}
          </div>
        )}
      </div>
    </Page>
  );
}
