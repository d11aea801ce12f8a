/**
 * "Invoices preview" (`/billing/{team}`, team ssp or performance; issue 22): the drafts that
 * precreation made from approved billing rows (the spec's preview columns), the issued invoices
 * and the credit notes of the team, each a tab. Search, states and month filter, sort and page
 * through the API; totals per currency and counts per state as the API adds them up; a column
 * chooser; CSV/XLSX export of what is filtered; cards on a phone. Drafts are selected and issued
 * (final, asked first); a document opens in a drawer (its id in the URL) with its actions. The
 * "Verify VERI*FACTU chain" button recomputes the record chains. Tab, filters, sort, page and the
 * open document live in the URL.
 */
import { FileAddOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import {
  INVOICES_RESOURCE,
  invoicesExportName,
  type InvoiceList,
  type InvoiceListItem,
  type InvoiceTeam,
} from '@backoffice/core/invoices';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Result, Space, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { EmptyList, ListError, useFreshSelection } from '../../components/data-table.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { ButtonLink } from '../../shell/button-link.tsx';
import { Page } from '../../shell/page.tsx';
import { StatusTag } from '../../resources/resource-cells.tsx';
import { InvoiceDrawer } from './invoice-drawer.tsx';
import { InvoiceTotals } from './invoice-totals.tsx';
import {
  invoicesPath,
  isFiltered,
  isTeam,
  PREVIEW_TABS,
  previewPatch,
  previewQuery,
  readPreviewView,
  totalsByCurrency,
  type ChainCheck,
  type PreviewTab,
  type PreviewView,
} from './invoices-api.ts';
import { InvoicesFilters } from './invoices-filters.tsx';
import { columnsOf, columnTitle, InvoicesTable, requiredOf, type InvoiceColumn } from './invoices-table.tsx';
import { useIssue } from './use-issue.tsx';
import { useUrlView } from './use-url-view.ts';
import '../../resources/resources.css';
import './invoices.css';

function useDocumentTitle(title: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
}

/** The result of "Verify VERI*FACTU chain": one line per issuing company. */
function ChainResult({ checks }: { checks: ChainCheck[] }) {
  const { t } = useTranslation();
  if (checks.length === 0) return <p>{t('invoice.ui.chain_empty')}</p>;
  return (
    <ul className="bo-inv-plain-list" data-testid="invoice-chain-result">
      {checks.map((c) => (
        <li key={c.issuer_id} className="bo-inv-chain">
          <strong>{c.legal_name}</strong>{' '}
          <StatusTag tone={c.ok ? 'ok' : 'bad'} testId={`invoice-chain-${c.issuer_id}`}>
            {t(c.ok ? 'invoice.ui.chain_ok' : 'invoice.ui.chain_broken')}
          </StatusTag>
          <div>
            {c.ok || !c.broken
              ? t('invoice.verifactu.ok', { count: c.count })
              : t('invoice.verifactu.broken', {
                  id: c.broken.id,
                  number: c.broken.number,
                  reason: t(`invoice.ui.chain_reason.${c.broken.reason}`, { defaultValue: c.broken.reason }),
                })}
          </div>
        </li>
      ))}
    </ul>
  );
}

function UnknownTeam() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <Page testId="invoices-not-found">
      <Result
        status="404"
        title={<h1 className="bo-result-title">{t('invoice.ui.unknown_team')}</h1>}
        extra={(['ssp', 'performance'] as const).map((team) => (
          <ButtonLink
            key={team}
            to={`/${lang ?? 'en'}/billing/${team}`}
            type={team === 'ssp' ? 'primary' : 'default'}
          >
            {t(`menu.invoices_preview_${team}`)} · {t(`invoice.ui.team.${team}`)}
          </ButtonLink>
        ))}
      />
    </Page>
  );
}

export default function InvoicesPreviewPage() {
  const { team } = useParams();
  if (!isTeam(team)) return <UnknownTeam />;
  // A new screen per team: a selection or an open document means nothing to the other team.
  return <InvoicesPreview key={team} team={team} />;
}

function InvoicesPreview({ team }: { team: InvoiceTeam }) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const notice = useNotice();
  const queries = useQueryClient();
  const canWrite = usePermission(INVOICES_RESOURCE, 'write');
  const canApprove = usePermission(INVOICES_RESOURCE, 'approve');
  const { isMobile } = useViewport();
  const [view, setView] = useUrlView(readPreviewView, previewPatch);
  const query = previewQuery(team, view);
  const list = useApiQuery<InvoiceList>(invoicesPath, { query }, { placeholderData: keepPreviousData });
  const data = list.data;
  const [visible, setVisible] = useStoredColumns<InvoiceColumn>(
    `invoices_${team}_${view.tab}`,
    columnsOf(view.tab),
    columnsOf(view.tab),
  );
  const [selected, setSelected] = useState<Map<number, InvoiceListItem>>(new Map());
  const [chain, setChain] = useState<{ busy: boolean; checks: ChainCheck[] | null }>({
    busy: false,
    checks: null,
  });
  const title = `${t(`menu.invoices_preview_${team}`)} · ${t(`invoice.ui.team.${team}`)}`;
  useDocumentTitle(title);

  const apply = (patch: Partial<PreviewView>) => {
    if ('tab' in patch && patch.tab !== view.tab) setSelected(new Map());
    setView((current) => {
      const next: Partial<PreviewView> =
        'page' in patch || 'open' in patch ? { ...patch } : { ...patch, page: 1 };
      // Another tab starts without the Invoices tab's states and sort.
      if ('tab' in patch && patch.tab !== current.tab) Object.assign(next, { state: [], sort: '-id' });
      return next;
    });
  };
  const reload = () =>
    void queries.invalidateQueries({
      predicate: (q) =>
        q.queryKey[0] === 'api' && typeof q.queryKey[1] === 'string' && q.queryKey[1].startsWith('invoices'),
    });
  const issue = useIssue((results) => {
    reload();
    const issuedIds = new Set(results.filter((r) => r.status === 'issued').map((r) => r.id));
    setSelected((s) => new Map([...s].filter(([id]) => !issuedIds.has(id))));
  });
  // A fresh list brings the selected drafts' new figures; drafts no longer listed (issued, discarded) leave the selection.
  useFreshSelection(data?.rows, selected, setSelected, (r) => r.id, view.tab === 'drafts');

  const verify = async () => {
    setChain({ busy: true, checks: null });
    try {
      const checks = await api.request<ChainCheck[]>('invoices/verifactu/verify');
      setChain({ busy: false, checks });
    } catch (e) {
      setChain({ busy: false, checks: null });
      if (!isSessionError(e)) void notice.error(errorText(e));
    }
  };

  const precreationLink = `/${lang ?? 'en'}/billing_ssp/invoice-precreation${team === 'ssp' ? '' : `?team=${team}`}`;
  const filtered = isFiltered(view);
  const empty = (
    <EmptyList
      description={t(filtered ? 'invoice.ui.none_found' : `invoice.ui.empty.${view.tab}`)}
      testId="invoice-empty"
      onClear={filtered ? () => apply({ search: '', state: [], month: '' }) : undefined}
    >
      {view.tab === 'drafts' && canWrite ? (
        <ButtonLink type="primary" icon={<FileAddOutlined />} to={precreationLink}>
          {t('invoice.ui.create_drafts')}
        </ButtonLink>
      ) : null}
    </EmptyList>
  );

  const selectedList = [...selected.values()];
  const tabContent = (tab: PreviewTab) =>
    tab !== view.tab ? null : (
      <div
        data-testid={`invoice-tab-${tab}`}
        data-state={data ? 'ready' : list.isError ? 'error' : 'loading'}
      >
        <InvoicesFilters view={view} onChange={apply} />
        {list.isError ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
        {data && data.total > 0 ? (
          <InvoiceTotals
            tab={view.tab}
            list={data}
            activeStates={view.state}
            onState={(s) =>
              apply({
                state: view.state.includes(s) ? view.state.filter((x) => x !== s) : [...view.state, s],
              })
            }
          />
        ) : null}
        {tab === 'drafts' && canApprove && (!isMobile || selected.size > 0) ? (
          <div
            className="bo-inv-actionbar"
            role="group"
            aria-label={t('invoice.ui.bulk_actions')}
            data-testid="invoice-actionbar"
          >
            <Typography.Text data-testid="invoice-selected-count">
              {t('invoice.ui.selected', { count: selected.size })}
              {totalsByCurrency(selectedList).map((c) => (
                <span key={c.currency}>
                  {' · '}
                  <MoneyCell amount={c.total} currency={c.currency} />
                </span>
              ))}
            </Typography.Text>
            <Space wrap>
              <Button
                type="primary"
                loading={issue.busy}
                disabled={issue.busy}
                onClick={() => issue.start(selectedList)}
                data-testid="invoice-bulk-issue"
              >
                {selected.size > 0 ? `${t('invoice.ui.issue')} (${selected.size})` : t('invoice.ui.issue')}
              </Button>
              {selected.size > 0 ? (
                <Button
                  type="link"
                  onClick={() => setSelected(new Map())}
                  data-testid="invoice-clear-selection"
                >
                  {t('invoice.ui.clear_selection')}
                </Button>
              ) : null}
            </Space>
          </div>
        ) : null}
        <InvoicesTable
          tab={tab}
          rows={data?.rows ?? []}
          total={data?.total ?? 0}
          loading={list.isFetching}
          view={view}
          visible={visible}
          selectable={tab === 'drafts' && canApprove}
          selected={selected}
          onSelect={setSelected}
          onOpen={(open) => apply({ open })}
          onView={apply}
          empty={empty}
        />
      </div>
    );

  return (
    <Page title={title} testId={`invoices-page-${team}`}>
      <div className="bo-inv-head">
        <Typography.Text type="secondary" className="bo-inv-head__text">
          {t(`invoice.ui.subtitle.${view.tab}`)}
        </Typography.Text>
        <Space wrap>
          {canWrite ? (
            <ButtonLink
              icon={<FileAddOutlined />}
              to={precreationLink}
              data-testid="invoice-precreation-link"
            >
              {t('invoice.ui.create_drafts')}
            </ButtonLink>
          ) : null}
          <Button
            icon={<SafetyCertificateOutlined />}
            loading={chain.busy}
            onClick={() => void verify()}
            data-testid="invoice-verify-chain"
          >
            {t('invoice.ui.verify_chain')}
          </Button>
          {!isMobile ? (
            <ColumnChooser<InvoiceColumn>
              all={columnsOf(view.tab)}
              visible={visible}
              onChange={setVisible}
              label={(c) => columnTitle(c, t)}
              required={[requiredOf(view.tab)]}
              testId="invoice-columns"
            />
          ) : null}
          <ApiExportButton
            path="/v1/invoices/export"
            query={query}
            name={invoicesExportName(team)}
            disabled={!data || data.total === 0}
            testId="invoice-export"
          />
        </Space>
      </div>
      <Tabs
        activeKey={view.tab}
        onChange={(tab) => apply({ tab: tab as PreviewTab })}
        className="bo-inv-tabs"
        items={PREVIEW_TABS.map((tab) => ({
          key: tab,
          label: t(`invoice.ui.tab.${tab}`),
          children: tabContent(tab),
        }))}
      />
      {view.open !== null ? (
        <InvoiceDrawer
          key={view.open}
          id={view.open}
          listed={data?.rows.find((r) => r.id === view.open) ?? selected.get(view.open) ?? null}
          canWrite={canWrite}
          canApprove={canApprove}
          issue={issue}
          onClose={() => apply({ open: null })}
          onOpen={(open) => apply({ open })}
          onChanged={reload}
        />
      ) : null}
      {issue.dialogs}
      <Modal
        open={chain.checks !== null}
        title={t('invoice.ui.verify_chain')}
        onCancel={() => setChain({ busy: false, checks: null })}
        onOk={() => setChain({ busy: false, checks: null })}
        okText={t('common.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
        okButtonProps={{ 'data-testid': 'invoice-chain-close' } as Record<string, string>}
      >
        {chain.checks ? <ChainResult checks={chain.checks} /> : null}
      </Modal>
    </Page>
  );
}
