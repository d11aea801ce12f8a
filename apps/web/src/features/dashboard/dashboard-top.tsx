/**
 * Top 5 demand partners or publishers of the last 7 days: revenue, impressions and eCPM (money
 * columns only with money), each name a link to the DataViewer prefilled for it when the person
 * may open the DataViewer.
 */
import { formatMoney, formatNumber } from '@backoffice/core/format';
import type { ReportRow } from '@backoffice/core/reports';
import { Skeleton, theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { topRowHref, type TopKind } from './dashboard-model.ts';

export interface DashboardTopProps {
  kind: TopKind;
  title: string;
  rows: readonly ReportRow[];
  money: boolean;
  currency: string;
  locale: 'en' | 'es';
  /** Link context; null when the person may not open the DataViewer. */
  link: { lang: string; from: string; asOf: string; timezone: string } | null;
}

export function DashboardTop({ kind, title, rows, money, currency, locale, link }: DashboardTopProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const headStyle = { color: token.colorTextSecondary, borderColor: token.colorBorderSecondary };
  const cellStyle = { borderColor: token.colorBorderSecondary };
  return (
    <section className="bo-dash-card bo-dash-top" data-testid={`top-${kind}`} style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
      <h2 className="bo-dash-card__title" style={{ color: token.colorTextHeading }}>
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="bo-dash-muted" style={{ color: token.colorTextTertiary }}>
          {t('home.top.empty')}
        </p>
      ) : (
        <div className="bo-dash-top__scroll">
          <table className="bo-dash-table">
            <thead>
              <tr>
                <th scope="col" style={headStyle}>
                  {t(`report.dimension.${kind}`)}
                </th>
                {money ? (
                  <th scope="col" className="bo-dash-num" style={headStyle}>
                    {t('report.metric.revenue')}
                  </th>
                ) : null}
                <th scope="col" className="bo-dash-num" style={headStyle}>
                  {t('report.metric.impressions')}
                </th>
                {money ? (
                  <th scope="col" className="bo-dash-num" style={headStyle}>
                    {t('report.metric.ecpm')}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => {
                const name = String(row[kind] ?? '');
                const href = link ? topRowHref(kind, row, { ...link, money }) : null;
                return (
                  <tr key={String(row[`${kind}_id`] ?? i)} data-testid="top-row">
                    <th scope="row" className="bo-dash-top__name" style={cellStyle}>
                      {href ? (
                        <Link to={href} className="bo-dash-link" style={{ color: token.colorLink }} title={t('home.top.open', { name })} data-testid="top-link">
                          {name}
                        </Link>
                      ) : (
                        <span>{name}</span>
                      )}
                    </th>
                    {money ? (
                      <td className="bo-dash-num" style={cellStyle}>
                        {formatMoney(row.revenue, currency, locale) || '—'}
                      </td>
                    ) : null}
                    <td className="bo-dash-num" style={cellStyle}>
                      {formatNumber(row.impressions, locale, 0) || '—'}
                    </td>
                    {money ? (
                      <td className="bo-dash-num" style={cellStyle}>
                        {formatMoney(row.ecpm, currency, locale) || '—'}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function DashboardTopSkeleton() {
  const { token } = antdTheme.useToken();
  return (
    <div className="bo-dash-card bo-dash-top" aria-hidden style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}>
      <Skeleton active title={{ width: '55%' }} paragraph={{ rows: 6 }} />
    </div>
  );
}
