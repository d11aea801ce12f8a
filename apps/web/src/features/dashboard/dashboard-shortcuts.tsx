/** The friendly home of people without a report area: their areas (menu groups) as shortcuts. */
import {
  AccountBookOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  BuildOutlined,
  EuroCircleOutlined,
  GlobalOutlined,
  LineChartOutlined,
  PictureOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { theme as antdTheme } from 'antd';
import type { ComponentType, CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ShortcutGroup } from './dashboard-model.ts';

/** The menu groups' icons (core/routes MENU_GROUPS); other names fall back to AppstoreOutlined. */
const GROUP_ICONS: Record<string, ComponentType<{ 'aria-hidden'?: boolean; style?: CSSProperties }>> = {
  BarChartOutlined,
  LineChartOutlined,
  EuroCircleOutlined,
  AccountBookOutlined,
  BankOutlined,
  ApiOutlined,
  GlobalOutlined,
  ToolOutlined,
  SettingOutlined,
  BuildOutlined,
  PictureOutlined,
  SafetyCertificateOutlined,
  RocketOutlined,
};

export function DashboardShortcuts({ groups, lang }: { groups: readonly ShortcutGroup[]; lang: string }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  return (
    <section className="bo-dash-areas" data-testid="areas" aria-labelledby="bo-dash-areas-title">
      <h2 id="bo-dash-areas-title" className="bo-dash-section-title" style={{ color: token.colorTextHeading }}>
        {t('home.areas')}
      </h2>
      <p className="bo-dash-muted" style={{ color: token.colorTextSecondary }}>
        {groups.length > 0 ? t('home.areas.intro') : t('home.areas.none')}
      </p>
      {groups.length > 0 ? (
        <div className="bo-dash-areas__grid">
          {groups.map((g) => {
            const Icon = GROUP_ICONS[g.icon] ?? AppstoreOutlined;
            return (
              <nav
                key={g.key}
                className="bo-dash-card bo-dash-area"
                aria-label={t(g.title)}
                data-testid="area"
                style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
              >
                <h3 className="bo-dash-area__title" style={{ color: token.colorTextHeading }}>
                  <span className="bo-dash-area__icon" style={{ color: token.colorPrimary, background: token.colorPrimaryBg }}>
                    <Icon aria-hidden />
                  </span>
                  {t(g.title)}
                </h3>
                <ul className="bo-dash-area__links">
                  {g.links.map((l) => (
                    <li key={l.key}>
                      <Link to={`/${lang}${l.path}`} className="bo-dash-link" style={{ color: token.colorLink }}>{t(l.title)}</Link>
                    </li>
                  ))}
                </ul>
              </nav>
            );
          })}
        </div>
      ) : null}
    </section>
  );
}
