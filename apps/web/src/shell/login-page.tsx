/**
 * Sign-in (spec sections 2 and 5): mail, password, "remember login on this computer", submit.
 * The button reads the login title, then a loading label, then a redirecting label. The welcome
 * panel appears when the typed mail (lowercase, primary domain added without an @) matches a
 * staff entry. Success: 'Correct credentials, redirecting to dashboard'; failure: the server's
 * message as an error toast. A signed-in user is sent to /{locale}.
 */
import { BarChartOutlined, EuroCircleOutlined, LockOutlined, MailOutlined, TeamOutlined } from '@ant-design/icons';
import { parseDomains, normalizeMail } from '@backoffice/core/mail';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Input, theme as antdTheme, type InputRef } from 'antd';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { api, errorText } from '../lib/api.ts';
import type { SessionUser } from '../lib/session-store.ts';
import { useSession } from '../lib/session-store.ts';
import { toast } from '../lib/toast.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { prefetchMenus } from './use-session-sync.ts';
import { BrandMark } from './brand.tsx';
import { LanguageSwitch, ThemeSwitch } from './preference-switches.tsx';
import './login.css';

const DOMAINS = parseDomains(import.meta.env.VITE_COMPANY_DOMAINS);
/** Wait for the typing to pause before asking who the mail belongs to (the call is rate limited). */
const WELCOME_DEBOUNCE_MS = 400;
/** How long the redirecting label shows before the dashboard opens. */
const REDIRECT_DELAY_MS = 600;
const COMPLETE_MAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

interface Welcome {
  name: string;
  pic: string | null;
  text: string | null;
}

interface LoginValues {
  mail: string;
  password: string;
  remember: boolean;
}

type Phase = 'idle' | 'loading' | 'redirecting';

function useWelcome(mail: string, enabled: boolean) {
  return useQuery<Welcome | null>({
    queryKey: ['staff-welcome', mail],
    queryFn: ({ signal }) => api.request<Welcome | null>('staff/welcome', { query: { mail }, signal }),
    // No look-up once the form is sent (the call is rate limited and nobody would see it).
    enabled: enabled && COMPLETE_MAIL.test(mail),
    staleTime: Infinity,
    retry: false,
  });
}

function WelcomePanel({ welcome }: { welcome: Welcome }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const [broken, setBroken] = useState(false);
  const initials = welcome.name
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <div
      className="bo-login__welcome"
      data-testid="welcome-panel"
      style={{ background: token.colorPrimaryBg, borderColor: token.colorPrimaryBorder }}
    >
      {welcome.pic && !broken ? (
        <img className="bo-login__welcome-pic" src={api.url(welcome.pic)} alt="" width={48} height={48} onError={() => setBroken(true)} />
      ) : (
        <span className="bo-login__welcome-pic" style={{ background: token.colorPrimary }} aria-hidden>
          {initials}
        </span>
      )}
      <div>
        <div className="bo-login__welcome-name" style={{ color: token.colorText }}>
          {t('login.welcome.hello', { name: welcome.name })}
        </div>
        <div style={{ color: token.colorTextSecondary }}>{welcome.text || t('login.welcome.default')}</div>
      </div>
    </div>
  );
}

/** A labelled field with its validation message (the sign-in page skips antd Form to stay light). */
function Field({
  id,
  label,
  error,
  extra,
  children,
}: {
  id: string;
  label: string;
  error: string | null;
  extra?: string;
  children: ReactNode;
}) {
  const { token } = antdTheme.useToken();
  return (
    <div className="bo-login__field">
      <label htmlFor={id} className="bo-login__label" style={{ color: token.colorText }}>
        {label}
      </label>
      {children}
      {error ? (
        <div id={`${id}-error`} className="bo-login__error" style={{ color: token.colorError }} data-testid={`${id}-error`}>
          {error}
        </div>
      ) : extra ? (
        <div id={`${id}-extra`} className="bo-login__extra" style={{ color: token.colorTextSecondary }}>
          {extra}
        </div>
      ) : null}
    </div>
  );
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const { lang } = useParams();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const login = useSession((s) => s.login);
  const [values, setValues] = useState<LoginValues>({ mail: '', password: '', remember: false });
  const [touched, setTouched] = useState<{ mail: boolean; password: boolean }>({ mail: false, password: false });
  const [phase, setPhase] = useState<Phase>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const mailRef = useRef<InputRef>(null);
  const passwordRef = useRef<InputRef>(null);

  const mail = normalizeMail(values.mail, DOMAINS);
  const debouncedMail = useDebouncedValue(mail, WELCOME_DEBOUNCE_MS);
  const welcome = useWelcome(debouncedMail, phase === 'idle');
  const showWelcome = welcome.data && debouncedMail === mail ? welcome.data : null;

  useEffect(() => {
    document.title = `${t('login.title')} · ${t('app.name')}`;
  }, [t]);

  useEffect(() => {
    if (phase !== 'redirecting') return;
    const timer = setTimeout(() => navigate(`/${lang}`, { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, lang, navigate]);

  if (user && phase === 'idle') return <Navigate to={`/${lang}`} replace />;

  const mailError = touched.mail && values.mail.trim() === '' ? t('login.mail.required') : null;
  const passwordError = touched.password && values.password === '' ? t('login.password.required') : null;
  const busy = phase !== 'idle';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTouched({ mail: true, password: true });
    if (values.mail.trim() === '') {
      mailRef.current?.focus();
      return;
    }
    if (values.password === '') {
      passwordRef.current?.focus();
      return;
    }
    setPhase('loading');
    setFailure(null);
    try {
      const session = await api.request<SessionUser>('login', {
        method: 'POST',
        body: { email: mail, password: values.password, remember: values.remember },
      });
      setPhase('redirecting');
      // Warm the shell's code, and fetch its menus, while the redirecting label shows.
      void import('./shell-layout.tsx').catch(() => undefined);
      login(session, values.remember);
      void prefetchMenus(session.token);
      toast.success(t('login.success'));
    } catch (error) {
      const text = errorText(error);
      setPhase('idle');
      setFailure(text);
      toast.error(text);
    }
  };

  const buttonLabel = phase === 'loading' ? t('login.loading') : phase === 'redirecting' ? t('login.redirecting') : t('login.title');
  const domainHint = values.mail.trim() !== '' && !values.mail.includes('@') ? t('login.mail.domain_hint', { mail }) : undefined;
  const describedBy = (id: string, error: string | null, extra?: string) => (error ? `${id}-error` : extra ? `${id}-extra` : undefined);

  return (
    <div className="bo-login" style={{ background: token.colorBgLayout, color: token.colorText }}>
      <aside className="bo-login__brand">
        <div className="bo-login__brand-top">
          <BrandMark size={40} />
          <span className="bo-login__brand-name">{t('app.name')}</span>
        </div>
        <div className="bo-login__brand-body">
          <p className="bo-login__tagline">{t('app.tagline')}</p>
          <ul className="bo-login__features">
            <li>
              <BarChartOutlined aria-hidden /> {t('app.feature.reports')}
            </li>
            <li>
              <EuroCircleOutlined aria-hidden /> {t('app.feature.billing')}
            </li>
            <li>
              <TeamOutlined aria-hidden /> {t('app.feature.partners')}
            </li>
          </ul>
        </div>
        <p className="bo-login__brand-foot">{t('login.footer')}</p>
      </aside>

      <main className="bo-login__main">
        <div className="bo-login__prefs">
          <LanguageSwitch size="small" />
          <ThemeSwitch />
        </div>
        <div
          className="bo-login__card"
          style={{ background: token.colorBgContainer, boxShadow: token.boxShadowTertiary, borderColor: token.colorBorderSecondary }}
        >
          <div className="bo-login__card-brand">
            <BrandMark size={36} />
            <span style={{ color: token.colorText }}>{t('app.name')}</span>
          </div>
          <h1 className="bo-login__title" style={{ color: token.colorTextHeading }}>
            {t('login.heading')}
          </h1>
          <p className="bo-login__subtitle" style={{ color: token.colorTextSecondary }}>
            {t('login.subheading')}
          </p>

          <div aria-live="polite">{showWelcome ? <WelcomePanel welcome={showWelcome} /> : null}</div>

          <form noValidate onSubmit={submit} name="login" data-testid="login-form">
            <Field id="login-mail" label={t('login.mail')} error={mailError} extra={domainHint}>
              <Input
                ref={mailRef}
                id="login-mail"
                name="email"
                size="large"
                value={values.mail}
                onChange={(e) => {
                  setValues((v) => ({ ...v, mail: e.target.value }));
                  setTouched((o) => ({ ...o, mail: true }));
                }}
                status={mailError ? 'error' : undefined}
                aria-invalid={mailError ? true : undefined}
                aria-required
                aria-describedby={describedBy('login-mail', mailError, domainHint)}
                prefix={<MailOutlined aria-hidden />}
                placeholder={t('login.mail.placeholder')}
                autoComplete="username"
                inputMode="email"
                autoCapitalize="none"
                spellCheck={false}
                disabled={busy}
                autoFocus
              />
            </Field>
            <Field id="login-password" label={t('login.password')} error={passwordError}>
              <Input.Password
                ref={passwordRef}
                id="login-password"
                name="password"
                size="large"
                value={values.password}
                onChange={(e) => {
                  setValues((v) => ({ ...v, password: e.target.value }));
                  setTouched((o) => ({ ...o, password: true }));
                }}
                status={passwordError ? 'error' : undefined}
                aria-invalid={passwordError ? true : undefined}
                aria-required
                aria-describedby={describedBy('login-password', passwordError)}
                prefix={<LockOutlined aria-hidden />}
                autoComplete="current-password"
                disabled={busy}
              />
            </Field>
            <div className="bo-login__remember">
              <Checkbox
                checked={values.remember}
                onChange={(e) => setValues((v) => ({ ...v, remember: e.target.checked }))}
                disabled={busy}
                data-testid="login-remember"
              >
                {t('login.remember')}
              </Checkbox>
            </div>
            {failure ? <Alert className="bo-login__failure" type="error" showIcon title={failure} data-testid="login-failure" /> : null}
            <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
              {buttonLabel}
            </Button>
          </form>
        </div>
      </main>
    </div>
  );
}
