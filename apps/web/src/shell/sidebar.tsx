/**
 * The sidebar (spec sections 2, 4 and 9): the API's menu filtered for the caller, searchable
 * (matching groups open), with submenus; entries are real links, so a right-click or a middle
 * click opens them in a new tab. From the xl breakpoint it is a 2.5rem rail that expands to
 * 300px over the content; below it is a drawer (300px, 80% on mobile). It starts collapsed,
 * collapses after navigation and closes on an outside click or Escape.
 */
import { SearchOutlined } from '@ant-design/icons';
import type { MenuEntry } from '@backoffice/core/menu';
import { Button, Drawer, Empty, Input, Menu, theme as antdTheme, type InputRef, type MenuProps } from 'antd';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Brand } from './brand.tsx';
import { MenuIcon } from './menu-icons.tsx';
import { activeEntry, ancestorKeys, entryHref, groupKey, isGroup, leafKey, searchMenu, type VisibleMenu } from './menu-model.ts';

export const SIDEBAR_WIDTH = 300;
/** 2.5rem */
export const SIDEBAR_COLLAPSED_WIDTH = 40;
export const SIDEBAR_ID = 'bo-sidebar';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(nodes: readonly MenuEntry[], lang: string, translate: (key: string) => string, collapsed = false): MenuItem[] {
  return nodes.map((node) => {
    const title = translate(node.title);
    if (isGroup(node)) {
      const children = toItems(node.children ?? [], lang, translate);
      return {
        key: groupKey(node),
        icon: <MenuIcon name={node.icon} />,
        label: title,
        // The rail's popups name their group.
        children: collapsed ? [{ type: 'group', key: `${groupKey(node)}-title`, label: title, children }] : children,
      };
    }
    return {
      key: leafKey(node),
      icon: <MenuIcon name={node.icon} />,
      label: (
        <Link to={entryHref(lang, node)} data-menu-entry={node.id}>
          {title}
        </Link>
      ),
      title,
    };
  });
}

interface SidebarMenuProps {
  menu: VisibleMenu;
  lang: string;
  path: string;
  collapsed: boolean;
  query: string;
}

function SidebarMenu({ menu, lang, path, collapsed, query }: SidebarMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = useMemo(() => activeEntry(menu.flat, path), [menu.flat, path]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorKeys(menu.flat, active));
  const searched = useMemo(() => searchMenu(menu.tree, query, (k) => t(k)), [menu.tree, query, t]);
  const items = useMemo(() => toItems(searched.tree, lang, (k) => t(k), collapsed), [searched.tree, lang, t, collapsed]);
  const byKey = useMemo(() => new Map(menu.flat.map((e) => [leafKey(e), e])), [menu.flat]);
  const searching = query.trim() !== '';

  useEffect(() => {
    if (!active) return;
    const keys = ancestorKeys(menu.flat, active);
    setOpenKeys((open) => [...new Set([...open, ...keys])]);
  }, [active, menu.flat]);

  if (searching && items.length === 0) {
    return <Empty className="bo-sider__empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shell.menu.no_results')} />;
  }

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    // The link inside the item already navigated (and handles new-tab clicks itself).
    if ((domEvent.target as Element | null)?.closest?.('a')) return;
    const entry = byKey.get(String(key));
    if (entry) navigate(entryHref(lang, entry));
  };

  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={active ? [leafKey(active)] : []}
      {...(collapsed ? {} : { openKeys: searching ? searched.openKeys : openKeys, onOpenChange: (keys: string[]) => !searching && setOpenKeys(keys) })}
      onClick={onClick}
      className="bo-sider__menu"
    />
  );
}

function SearchBox({ value, onChange, inputRef }: { value: string; onChange: (v: string) => void; inputRef?: RefObject<InputRef | null> }) {
  const { t } = useTranslation();
  return (
    <div className="bo-sider__search">
      <Input
        ref={inputRef}
        allowClear
        value={value}
        onChange={(e) => onChange(e.target.value)}
        prefix={<SearchOutlined aria-hidden />}
        placeholder={t('shell.menu.search')}
        aria-label={t('shell.menu.search')}
        type="search"
        data-testid="menu-search"
      />
    </div>
  );
}

export interface SidebarProps {
  mode: 'rail' | 'drawer';
  open: boolean;
  onOpenChange: (open: boolean) => void;
  menu: VisibleMenu;
  lang: string;
  path: string;
  /** The top bar's toggle: clicks on it are not "outside" clicks. */
  toggleRef: RefObject<HTMLElement | null>;
  drawerWidth: number | string;
}

export function Sidebar({ mode, open, onOpenChange, menu, lang, path, toggleRef, drawerWidth }: SidebarProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const [query, setQuery] = useState('');
  const railRef = useRef<HTMLElement>(null);
  const searchRef = useRef<InputRef>(null);
  const focusSearch = useRef(false);
  // The rail's menu (an antd Menu item per entry, a large part of the shell's first render)
  // renders just after the rest: the screen, which is what a person came for, paints first.
  const railMenu = useDeferredValue(menu, null);

  // Outside click and Escape close the expanded rail.
  useEffect(() => {
    if (mode !== 'rail' || !open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (!target || railRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      onOpenChange(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onOpenChange(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [mode, open, onOpenChange, toggleRef]);

  useEffect(() => {
    if (!open) setQuery('');
    if (open && focusSearch.current) {
      focusSearch.current = false;
      searchRef.current?.focus();
    }
  }, [open]);

  if (mode === 'drawer') {
    return (
      <Drawer
        id={SIDEBAR_ID}
        placement="left"
        open={open}
        onClose={() => onOpenChange(false)}
        size={drawerWidth}
        title={<Brand size={28} />}
        closable={{ 'aria-label': t('common.close') }}
        styles={{ body: { padding: 0 }, header: { padding: '12px 16px' } }}
        rootClassName="bo-sider-drawer"
      >
        <nav aria-label={t('shell.menu')} data-testid="sidebar" data-state="open">
          <SearchBox value={query} onChange={setQuery} />
          <SidebarMenu menu={menu} lang={lang} path={path} collapsed={false} query={query} />
        </nav>
      </Drawer>
    );
  }

  return (
    <>
      <div className="bo-sider-spacer" style={{ width: SIDEBAR_COLLAPSED_WIDTH }} aria-hidden />
      <nav
        id={SIDEBAR_ID}
        ref={railRef}
        aria-label={t('shell.menu')}
        data-testid="sidebar"
        data-state={open ? 'open' : 'collapsed'}
        className={`bo-sider${open ? ' is-open' : ''}`}
        style={{
          width: open ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH,
          background: token.colorBgContainer,
          borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
          boxShadow: open ? token.boxShadowSecondary : 'none',
        }}
      >
        {open ? (
          <SearchBox value={query} onChange={setQuery} inputRef={searchRef} />
        ) : (
          <div className="bo-sider__search bo-sider__search--collapsed">
            <Button
              type="text"
              icon={<SearchOutlined />}
              aria-label={t('shell.menu.search')}
              onClick={() => {
                focusSearch.current = true;
                onOpenChange(true);
              }}
            />
          </div>
        )}
        {railMenu ? <SidebarMenu menu={railMenu} lang={lang} path={path} collapsed={!open} query={open ? query : ''} /> : null}
      </nav>
    </>
  );
}
