/**
 * The crash screen (spec sections 2 and 8): shown on render errors, with steps to report the
 * issue (the URL and the stack, ready to copy) and a Back to dashboard button. Inside the shell
 * it replaces only the broken screen; `fullPage` is for a failure of the shell itself.
 */
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { resolveLocale } from '@backoffice/core/locale';
import { Button, Result, Space, theme as antdTheme } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { toast } from '../lib/toast.ts';
import { ButtonLink } from './button-link.tsx';
import { Page } from './page.tsx';
import './shell.css';

export interface CrashReport {
  url: string;
  time: string;
  error: string;
  stack: string;
}

export function describeError(error: unknown): { error: string; stack: string } {
  if (isRouteErrorResponse(error)) {
    return { error: `${error.status} ${error.statusText}`.trim(), stack: typeof error.data === 'string' ? error.data : JSON.stringify(error.data ?? null) };
  }
  if (error instanceof Error) {
    return { error: error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message, stack: error.stack ?? '' };
  }
  return { error: String(error), stack: '' };
}

export function crashReportText(report: CrashReport, label: (key: string) => string): string {
  return [
    `${label('crash.url')}: ${report.url}`,
    `${label('crash.time')}: ${report.time}`,
    `${label('crash.error')}: ${report.error}`,
    `${label('crash.stack')}:`,
    report.stack || '-',
  ].join('\n');
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (permissions, http): fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

export default function CrashScreen({ error, fullPage = false }: { error: unknown; fullPage?: boolean }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const reportId = useId();
  const [time] = useState(() => new Date().toISOString());
  const lang = resolveLocale(window.location.pathname, document.cookie);
  const { error: message, stack } = describeError(error);
  const report = crashReportText({ url: window.location.href, time, error: message, stack }, (k) => t(k));

  const copy = async () => {
    if (await copyText(report)) toast.success(t('crash.copied'));
    else toast.error(t('crash.copy_failed'));
  };

  const home = `/${lang}`;
  const content = (
    <Result
      status="error"
      className="bo-crash"
      title={<h1 className="bo-result-title">{t('crash.title')}</h1>}
      subTitle={t('crash.text')}
      extra={
        <Space wrap>
          {fullPage ? (
            <Button type="primary" href={home} data-testid="back-to-dashboard">
              {t('shell.back_to_dashboard')}
            </Button>
          ) : (
            <ButtonLink type="primary" to={home} data-testid="back-to-dashboard">
              {t('shell.back_to_dashboard')}
            </ButtonLink>
          )}
          <Button icon={<CopyOutlined />} onClick={copy} data-testid="crash-copy">
            {t('crash.copy')}
          </Button>
          {/* A screen whose code failed to load (a new deploy) needs a fresh page. */}
          <Button icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
            {t('crash.reload')}
          </Button>
        </Space>
      }
    >
      <div className="bo-crash__body">
        <h2 className="bo-crash__steps-title" style={{ color: token.colorTextHeading }}>
          {t('crash.steps')}
        </h2>
        <ol className="bo-crash__steps" style={{ color: token.colorText }}>
          <li>{t('crash.step.copy')}</li>
          <li>{t('crash.step.send')}</li>
          <li>{t('crash.step.back')}</li>
        </ol>
        <label htmlFor={reportId} className="bo-crash__report-label" style={{ color: token.colorTextSecondary }}>
          {t('crash.report')}
        </label>
        <textarea
          id={reportId}
          className="bo-crash__report"
          readOnly
          value={report}
          rows={8}
          data-testid="crash-report"
          style={{
            background: token.colorFillTertiary,
            color: token.colorText,
            borderColor: token.colorBorder,
          }}
        />
      </div>
    </Result>
  );

  if (fullPage) {
    return (
      <main className="bo-crash-page" style={{ background: token.colorBgLayout }} data-testid="crash-screen">
        {content}
      </main>
    );
  }
  return <Page testId="crash-screen">{content}</Page>;
}

/** The error boundary of the screens area: the shell stays, the screen shows the crash. */
export function ScreenErrorBoundary() {
  const error = useRouteError();
  return <CrashScreen error={error} />;
}
