/**
 * Language (es/en: changes the URL's locale segment, which is saved) and theme (light/dark,
 * saved in the session state) switches, used on the sign-in page and in the top bar.
 */
import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { LOCALES, type Locale } from '@backoffice/core/i18n/locales';
import { switchLocale } from '@backoffice/core/locale';
import { Button, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../lib/session-store.ts';

export function LanguageSwitch({ size = 'middle' }: { size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const locale = useSession((s) => s.locale);
  const navigate = useNavigate();
  const location = useLocation();
  const change = (next: Locale) => {
    if (next === locale) return;
    navigate({ pathname: switchLocale(location.pathname, next), search: location.search, hash: location.hash });
  };
  return (
    <Segmented<Locale>
      size={size}
      value={locale}
      onChange={change}
      aria-label={t('shell.language')}
      data-testid="language-switch"
      options={LOCALES.map((l) => ({
        value: l,
        label: (
          <span lang={l} title={t(`shell.language.${l}`)}>
            {l.toUpperCase()}
          </span>
        ),
      }))}
    />
  );
}

export function ThemeSwitch({ size = 'middle' }: { size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const theme = useSession((s) => s.theme);
  const toggleTheme = useSession((s) => s.toggleTheme);
  const dark = theme === 'dark';
  // A toggle button: a stable name ("Dark theme") and its pressed state.
  return (
    <Button
      size={size}
      type="text"
      shape="circle"
      aria-label={t('shell.theme.dark')}
      aria-pressed={dark}
      title={dark ? t('shell.theme.switch_to_light') : t('shell.theme.switch_to_dark')}
      data-testid="theme-switch"
      data-theme={theme}
      icon={dark ? <SunOutlined /> : <MoonOutlined />}
      onClick={toggleTheme}
    />
  );
}
