/**
 * QPS graph (screens: /graphs/qps/{graph}, graph = demand | supply; spec section 5 "Graph"):
 * pick partners or endpoints, metrics, range, zone and interval; the choice lives in the URL (a
 * shareable link, drawn on load); the rules are the API's (qps-state.ts); the chart shows each
 * series with its cap line and the audit log's configuration changes, which are also listed.
 */
import { QPS_GRAPHS, type QpsGraph } from '@backoffice/core/reports';
import { Result, theme as antdTheme } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ButtonLink } from '../../shell/button-link.tsx';
import { Page } from '../../shell/page.tsx';
import { QpsScreen } from './qps-screen.tsx';
import './qps.css';

const isGraph = (g: string | undefined): g is QpsGraph => (QPS_GRAPHS as readonly string[]).includes(g ?? '');

function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
}

function UnknownGraph() {
  const { t } = useTranslation();
  const { lang } = useParams();
  const { token } = antdTheme.useToken();
  return (
    <Page testId="qps-not-found">
      <div
        className="bo-qps__card"
        style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
      >
        <Result
          status="404"
          title={<h1 className="bo-result-title">{t('qpsui.not_found.title')}</h1>}
          subTitle={t('qpsui.not_found.text')}
          extra={QPS_GRAPHS.map((g) => (
            <ButtonLink key={g} to={`/${lang}/graphs/qps/${g}`} type={g === 'demand' ? 'primary' : 'default'}>
              {t(`qps.title.${g}`)}
            </ButtonLink>
          ))}
        />
      </div>
    </Page>
  );
}

export default function QpsPage() {
  const { graph } = useParams();
  const { t } = useTranslation();
  const title = isGraph(graph) ? t(`qps.title.${graph}`) : t('qpsui.not_found.title');
  useDocumentTitle(title);
  if (!isGraph(graph)) return <UnknownGraph />;
  return (
    <Page title={title} testId="qps-page">
      {/* A new screen per graph: demand ids mean nothing to the supply graph. */}
      <QpsScreen key={graph} graph={graph} />
    </Page>
  );
}
