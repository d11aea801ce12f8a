/**
 * "Waiting for you": the caller's firewall entries about to expire, payouts to confirm,
 * discrepancy rows over tolerance and failed scheduler jobs. Zero counts are shown calmly (grey),
 * and a link only when the person may open its screen.
 */
import { CheckCircleOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { Skeleton, theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WaitingRow } from './dashboard-model.ts';
import { formatTime } from '../../lib/date-format.ts';

export interface DashboardWaitingProps {
  rows: readonly WaitingRow[];
  lang: string;
  locale: 'en' | 'es';
  timezone: string;
}

export function DashboardWaiting({ rows, lang, locale, timezone }: DashboardWaitingProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const total = rows.reduce((n, r) => n + r.count, 0);
  const open = (link: string | null, label: string) =>
    link ? (
      <Link to={`/${lang}${link}`} className="bo-dash-waiting__open bo-dash-link" style={{ color: token.colorLink }} aria-label={`${t('home.waiting.open')}: ${label}`}>
        {t('home.waiting.open')}
      </Link>
    ) : null;
  return (
    <section className="bo-dash-card bo-dash-waiting" data-testid="waiting" data-total={total} style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
      <h2 className="bo-dash-card__title" style={{ color: token.colorTextHeading }}>
        {t('dashboard.waiting')}
      </h2>
      {total === 0 ? (
        <p className="bo-dash-waiting__calm" style={{ color: token.colorTextSecondary }}>
          <CheckCircleOutlined aria-hidden style={{ color: token.colorSuccess }} /> {t('dashboard.waiting.empty')}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <ul className="bo-dash-waiting__list">
          {rows.flatMap((row) => {
            if (row.kind === 'firewall_expiring') {
              return row.items.map((item) => {
                const label = t('dashboard.waiting.firewall_expiring', { ip: item.ip ?? '', time: item.expires_at ? formatTime(item.expires_at, timezone, locale) : '' });
                return (
                  <li key={`fw-${item.id}`} className="bo-dash-waiting__item" data-testid="waiting-firewall_expiring" style={{ borderColor: token.colorBorderSecondary }}>
                    <ClockCircleOutlined aria-hidden style={{ color: token.colorWarning }} />
                    <span className="bo-dash-waiting__label">{label}</span>
                    {open(row.link, label)}
                  </li>
                );
              });
            }
            const label = t(row.label);
            const calm = row.count === 0;
            return [
              <li key={row.kind} className="bo-dash-waiting__item" data-testid={`waiting-${row.kind}`} data-count={row.count} style={{ borderColor: token.colorBorderSecondary }}>
                <span
                  className="bo-dash-waiting__count"
                  style={{ color: calm ? token.colorTextSecondary : token.colorWarningText, background: calm ? token.colorFillTertiary : token.colorWarningBg }}
                >
                  {row.count}
                </span>
                <span className="bo-dash-waiting__label" style={{ color: calm ? token.colorTextSecondary : token.colorText }}>
                  {label}
                </span>
                {open(row.link, label)}
              </li>,
            ];
          })}
        </ul>
      ) : null}
    </section>
  );
}

export function DashboardWaitingSkeleton() {
  const { token } = antdTheme.useToken();
  return (
    <div className="bo-dash-card bo-dash-waiting" aria-hidden style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
      <Skeleton active title={{ width: '40%' }} paragraph={{ rows: 3 }} />
    </div>
  );
}
