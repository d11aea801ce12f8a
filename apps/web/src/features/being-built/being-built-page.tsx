/**
 * The translated "being built" state of a screen whose feature is not built yet. It sits inside
 * the shell at the screen's real route, behind its real guard; the title is its menu title.
 */
import { ToolOutlined } from '@ant-design/icons';
import { Result, theme as antdTheme } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';

/** The deepest route handle naming a menu entry (shape: lib/route-handle.ts; read inline because
 * the lint rule for features also rejects '../../lib' paths). */
function useScreenHandle(): { menuId: string | null; screen: string } | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as { menuId?: unknown; screen?: unknown } | undefined;
    if (handle && typeof handle.screen === 'string') {
      return { menuId: typeof handle.menuId === 'string' ? handle.menuId : null, screen: handle.screen };
    }
  }
  return null;
}

export default function BeingBuiltPage() {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const handle = useScreenHandle();
  const title = handle?.menuId ? t(`menu.${handle.menuId}`) : t('app.name');

  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  return (
    <div className="bo-page" data-testid="being-built" data-screen={handle?.screen}>
      <h1 className="bo-page__title" style={{ color: token.colorTextHeading }}>
        {title}
      </h1>
      <div
        className="bo-being-built"
        style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary, borderRadius: token.borderRadiusLG }}
      >
        <Result
          icon={<ToolOutlined style={{ color: token.colorPrimary }} aria-hidden />}
          title={<h2 className="bo-result-title">{t('shell.being_built.title')}</h2>}
          subTitle={t('shell.being_built.text')}
        />
      </div>
    </div>
  );
}
