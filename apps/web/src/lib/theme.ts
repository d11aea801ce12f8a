/**
 * Light and dark themes over the whole app (antd algorithms). One brand colour; the dark theme
 * gets its own surfaces so panels stand out from the page.
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { Theme } from './session-store.ts';

export const BRAND_COLOR = '#3451d1';

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

export function themeConfig(mode: Theme): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: dark ? '#5b7cfa' : BRAND_COLOR,
      colorInfo: dark ? '#5b7cfa' : BRAND_COLOR,
      borderRadius: 8,
      fontFamily: FONT,
      colorBgLayout: dark ? '#0d1017' : '#f3f5fa',
      colorBgContainer: dark ? '#161a23' : '#ffffff',
      colorBgElevated: dark ? '#1d222d' : '#ffffff',
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
      },
    },
  };
}
