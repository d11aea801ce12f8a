/**
 * The top bar (spec section 2, Shell): sidebar toggle, brand, the ADMIN simulator, the firewall
 * IP control (with /v1/firewall, hidden on mobile), language and theme switches, profile menu.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, theme as antdTheme } from 'antd';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useIsRealAdmin, usePermission } from '../lib/permission.tsx';
import { useViewport } from '../lib/use-viewport.ts';
import { Brand } from './brand.tsx';
import { FirewallControl } from './firewall-control.tsx';
import { FIREWALL_RESOURCE } from './firewall-model.ts';
import { LanguageSwitch, ThemeSwitch } from './preference-switches.tsx';
import { ProfileMenu } from './profile-menu.tsx';
import { SIDEBAR_ID } from './sidebar.tsx';
import { Simulator } from './simulator.tsx';

export interface TopBarProps {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  toggleRef: RefObject<HTMLButtonElement | null>;
}

export function TopBar({ sidebarOpen, onToggleSidebar, toggleRef }: TopBarProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const { lang } = useParams();
  const { isMobile, isDesktop } = useViewport();
  const isAdmin = useIsRealAdmin();
  const canFirewall = usePermission(FIREWALL_RESOURCE);

  return (
    <header
      className="bo-topbar"
      style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="top-bar"
    >
      <Button
        ref={toggleRef}
        type="text"
        icon={sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={onToggleSidebar}
        aria-label={t('shell.toggle_menu')}
        aria-expanded={sidebarOpen}
        aria-controls={SIDEBAR_ID}
        data-testid="sidebar-toggle"
      />
      <Link to={`/${lang}`} className="bo-topbar__brand" style={{ color: token.colorText }}>
        <Brand size={28} showName={!isMobile} />
      </Link>
      <div className="bo-topbar__spacer" />
      <div className="bo-topbar__actions">
        {isAdmin ? <Simulator compact={!isDesktop} /> : null}
        {canFirewall && !isMobile ? <FirewallControl compact={!isDesktop} /> : null}
        <LanguageSwitch size="small" />
        <ThemeSwitch />
        <ProfileMenu compact={isMobile} />
      </div>
    </header>
  );
}
