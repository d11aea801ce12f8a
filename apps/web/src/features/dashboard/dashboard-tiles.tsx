/**
 * The figure tiles: today so far, yesterday and the same weekday last week (same time of day),
 * with the change as an arrow, a signed text and a colour (colour is never the only signal).
 */
import { ArrowDownOutlined, ArrowUpOutlined, MinusOutlined } from '@ant-design/icons';
import { Skeleton, theme as antdTheme } from 'antd';
import type { GlobalToken } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session-store.ts';
import { tileDelta, type DashboardTile, type Delta } from './dashboard-model.ts';
import { formatTileValue } from './dashboard-format.ts';

function deltaColours(delta: Delta, token: GlobalToken, dark: boolean): { color: string; background: string } {
  if (delta.text === null || delta.tone === 'neutral') return { color: token.colorTextSecondary, background: token.colorFillTertiary };
  // antd's success text green is below 4.5:1 on its success background: darker (lighter in dark mode).
  if (delta.tone === 'good') return { color: dark ? '#95de64' : '#2b6a12', background: token.colorSuccessBg };
  return { color: token.colorErrorText, background: token.colorErrorBg };
}

function DeltaChip({ delta, against }: { delta: Delta; against: string }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const dark = useSession((st) => st.theme) === 'dark';
  const { color, background } = deltaColours(delta, token, dark);
  const Icon = delta.direction === 'up' ? ArrowUpOutlined : delta.direction === 'down' ? ArrowDownOutlined : MinusOutlined;
  const words =
    delta.text === null
      ? t('home.delta.none')
      : `${t(`home.delta.${delta.direction}`)} ${delta.text.replace(/\s?(pp|p\.p\.)$/, ` ${t('home.delta.points')}`)}`;
  return (
    <span
      className="bo-dash-delta"
      style={{ color, background }}
      data-direction={delta.text === null ? 'none' : delta.direction}
      data-tone={delta.tone}
      title={`${against}: ${words}`}
    >
      <Icon aria-hidden />
      <span aria-hidden>{delta.text ?? '—'}</span>
      <span className="bo-visually-hidden">{`${against}: ${words}`}</span>
    </span>
  );
}

export function DashboardTileCard({ tile, currency, locale }: { tile: DashboardTile; currency: string; locale: string }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const value = (v: DashboardTile['today']) => formatTileValue(tile.key, v, currency, locale) || '—';
  const vsYesterday = tileDelta(tile.key, tile.today, tile.yesterday, tile.vs_yesterday, locale);
  const vsLastWeek = tileDelta(tile.key, tile.today, tile.last_week, tile.vs_last_week, locale);
  const labelId = `bo-dash-tile-${tile.key}`;
  return (
    <section
      className="bo-dash-card bo-dash-tile"
      aria-labelledby={labelId}
      data-testid={`tile-${tile.key}`}
      style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
    >
      <h3 id={labelId} className="bo-dash-tile__label" style={{ color: token.colorTextSecondary }}>
        {t(tile.label)}
      </h3>
      <div className="bo-dash-tile__value" data-testid="tile-today" style={{ color: token.colorTextHeading }}>
        {value(tile.today)}
      </div>
      <dl className="bo-dash-tile__compare">
        <div className="bo-dash-tile__row">
          <dt style={{ color: token.colorTextTertiary }}>{t('dashboard.yesterday')}</dt>
          <dd>
            <span className="bo-dash-tile__base" data-testid="tile-yesterday">
              {value(tile.yesterday)}
            </span>
            <DeltaChip delta={vsYesterday} against={t('dashboard.vs_yesterday')} />
          </dd>
        </div>
        <div className="bo-dash-tile__row">
          <dt style={{ color: token.colorTextTertiary }} title={t('dashboard.last_week')}>
            {t('home.tile.last_week')}
          </dt>
          <dd>
            <span className="bo-dash-tile__base" data-testid="tile-last-week">
              {value(tile.last_week)}
            </span>
            <DeltaChip delta={vsLastWeek} against={t('dashboard.vs_last_week')} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** A tile's place while the figures load: the same box, so nothing moves when they arrive. */
export function DashboardTileSkeleton() {
  const { token } = antdTheme.useToken();
  return (
    <div className="bo-dash-card bo-dash-tile" aria-hidden style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
      <Skeleton active title={{ width: '45%' }} paragraph={{ rows: 3, width: ['70%', '90%', '90%'] }} />
    </div>
  );
}
