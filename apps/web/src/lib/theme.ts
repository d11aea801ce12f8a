/**
 * Light and dark themes over the whole app (antd algorithms). One brand colour; the dark theme
 * gets its own surfaces so panels stand out from the page.
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { Theme } from './session-store.ts';

export const BRAND_COLOR = '#3451d1';

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

export interface ThemeOptions {
  /** The system asks for reduced motion: antd's animations (menus, popups, modals) are off. */
  reducedMotion?: boolean;
}

export function themeConfig(mode: Theme, { reducedMotion = false }: ThemeOptions = {}): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      motion: !reducedMotion,
      colorPrimary: dark ? '#5b7cfa' : BRAND_COLOR,
      colorInfo: dark ? '#5b7cfa' : BRAND_COLOR,
      // Links are text: the dark primary is under 4.5:1 on dark surfaces, so links get a lighter blue.
      colorLink: dark ? '#8fa5ff' : BRAND_COLOR,
      borderRadius: 8,
      fontFamily: FONT,
      colorBgLayout: dark ? '#0d1017' : '#f3f5fa',
      colorBgContainer: dark ? '#161a23' : '#ffffff',
      colorBgElevated: dark ? '#1d222d' : '#ffffff',
      // Contrast (WCAG AA, 4.5:1 for body text): antd's defaults for secondary texts and the
      // error red are lighter than that on white.
      colorError: dark ? '#ff6b6b' : '#d4282b',
      colorTextTertiary: dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.6)',
      colorTextPlaceholder: dark ? 'rgba(255, 255, 255, 0.56)' : 'rgba(0, 0, 0, 0.56)',
    },
    components: {
      Layout: {
        headerBg: dark ? '#161a23' : '#ffffff',
        siderBg: dark ? '#161a23' : '#ffffff',
        bodyBg: dark ? '#0d1017' : '#f3f5fa',
        headerHeight: 56,
        headerPadding: '0 12px',
      },
      Menu: {
        itemBg: 'transparent',
        subMenuItemBg: 'transparent',
        itemHeight: 38,
        itemMarginInline: 4,
        collapsedWidth: 40,
        collapsedIconSize: 16,
        iconSize: 16,
        ...(dark ? { itemSelectedColor: '#a8b8ff', itemSelectedBg: 'rgba(91, 124, 250, 0.2)' } : {}),
      },
      // The selected tab is text in the primary colour: on the dark page it needs the lighter blue.
      ...(dark ? { Tabs: { itemSelectedColor: '#a8b8ff', itemActiveColor: '#a8b8ff', itemHoverColor: '#c3cfff', inkBarColor: '#a8b8ff' } } : {}),
    },
  };
}
