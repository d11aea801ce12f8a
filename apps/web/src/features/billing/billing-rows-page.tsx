/**
 * A billing list (issue 21): `/billing_ssp/advertiser-billing` (what demand partners owe us),
 * `/billing_performance/advertiser-billing` and `/billing_performance/supply-billing` (what we owe
 * performance publishers). One month's rows per counterparty and product, filtered, sorted and
 * paged by the API, with totals per currency and in EUR and the rows per state; bulk actions on
 * the selected rows; a drawer per row (figures, edit, payments, history); CSV/XLSX export; a
 * bank statement import; exchange rates; and the Netting (SSP) and Reconciliation tabs. The
 * month, filters, sort, page, tab and open row live in the URL.
 */
import { EllipsisOutlined, ReloadOutlined, SwapOutlined, UploadOutlined } from '@ant-design/icons';
import {
  billingExportName,
  billingResource,
  type BillingKind,
  type BillingListAnswer,
  type BillingRowDto,
  type BillingSide,
} from '@backoffice/core/billing-api';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Space, Tabs, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { EmptyList, ListError, useFreshSelection } from '../../components/data-table.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { Page } from '../../shell/page.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { ActionBar } from './action-bar.tsx';
import { BankImportModal } from './bank-import-modal.tsx';
import {
  isFiltered,
  listQuery,
  readView,
  rowsPath,
  viewPatch,
  type BillingView,
  type ListTab,
} from './billing-api.ts';
import { NettingTab } from './netting-tab.tsx';
import { RatesModal } from './rates-modal.tsx';
import { ReconciliationTab } from './reconciliation-tab.tsx';
import { RowDrawer } from './row-drawer.tsx';
import { MonthField, RowsFilters } from './rows-filters.tsx';
import { COLUMN_KEYS, DEFAULT_VISIBLE, REQUIRED, type ColumnKey } from './rows-columns.tsx';
import { RowsTable } from './rows-table.tsx';
import { TotalsBar } from './totals-bar.tsx';
import { useBulkAction } from './use-bulk-action.tsx';
import './billing.css';

const SSP_ADVERTISER_TABS: readonly ListTab[] = ['rows', 'netting', 'reconciliation'];
const OTHER_TABS: readonly ListTab[] = ['rows', 'reconciliation'];

export interface BillingRowsPageProps {
  side: BillingSide;
  kind: BillingKind;
  /** The menu entry naming the screen (`menu.<id>`). */
  menuId: string;
}

export function BillingRowsPage({ side, kind, menuId }: BillingRowsPageProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { modal } = App.useApp();
  const queries = useQueryClient();
  const resource = billingResource(side);
  const canWrite = usePermission(resource, 'write');
  const canApprove = usePermission(resource, 'approve');
  const canSetRates = usePermission('/v1/billing/rates', 'write');
  const tabs = side === 'ssp' && kind === 'advertiser' ? SSP_ADVERTISER_TABS : OTHER_TABS;
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params, tabs), [params, tabs]);
  const query = listQuery(kind, view);
  const list = useApiQuery<BillingListAnswer>(
    rowsPath(side),
    { query },
    { placeholderData: keepPreviousData, enabled: view.tab === 'rows' },
  );
  const data = list.data;
  const [visible, setVisible] = useStoredColumns<ColumnKey>(
    `billing_${side}_${kind}`,
    COLUMN_KEYS,
    DEFAULT_VISIBLE,
  );
  const [selected, setSelected] = useState<Map<number, BillingRowDto>>(new Map());
  const [ratesOpen, setRatesOpen] = useState(false);
  const [bankOpen, setBankOpen] = useState(false);
  const [computing, setComputing] = useState(false);
  const { isMobile } = useViewport();

  // The month's link always names its month, so that it reproduces this view later.
  useEffect(() => {
    if (!params.get('month')) update({ month: view.month });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per missing month
  }, [params]);
  // A fresh list brings the selected rows' new versions (and actions).
  useFreshSelection(data?.rows, selected, setSelected, (r) => r.id);

  const apply = (patch: Partial<BillingView>) => {
    const withPage = 'page' in patch || 'row' in patch || 'tab' in patch ? patch : { ...patch, page: 1 };
    if ('month' in patch && patch.month !== view.month) setSelected(new Map());
    update(viewPatch(withPage));
  };
  const reload = () =>
    void queries.invalidateQueries({
      predicate: (q) =>
        q.queryKey[0] === 'api' &&
        typeof q.queryKey[1] === 'string' &&
        q.queryKey[1].startsWith(`billing/${side}/`),
    });
  const bulk = useBulkAction(side, (outcome) => {
    reload();
    if (outcome === 'done') setSelected(new Map());
  });

  const compute = () =>
    modal.confirm({
      title: t('billing.ui.compute_title', { month: view.month }),
      content: t('billing.ui.compute_body'),
      okText: t('billing.ui.compute'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'billing-compute-ok' } as Record<string, string>,
      onOk: async () => {
        setComputing(true);
        try {
          await api.request(`billing/${side}/compute`, { method: 'POST', body: { month: view.month } });
          void notice.success(t('billing.computed'));
          reload();
        } catch (e) {
          if (!isSessionError(e)) void notice.error(errorText(e));
        } finally {
          setComputing(false);
        }
      },
    });

  /** The screen's tools: buttons on a wide screen, a "More" menu on a phone. */
  const tools = [
    ...(canWrite
      ? [
          {
            key: 'bank-open',
            label: t('billing.ui.bank_import'),
            icon: <UploadOutlined />,
            run: () => setBankOpen(true),
          },
        ]
      : []),
    ...(canSetRates
      ? [
          {
            key: 'rates-button',
            label: t('billing.ui.rates'),
            icon: <SwapOutlined />,
            run: () => setRatesOpen(true),
          },
        ]
      : []),
    ...(canWrite
      ? [{ key: 'compute', label: t('billing.ui.compute'), icon: <ReloadOutlined />, run: compute }]
      : []),
  ];

  const empty = (
    <EmptyList
      description={t('billing.not_found')}
      testId="billing-empty"
      onClear={
        isFiltered(view)
          ? () => apply({ search: '', counterparty: [], state: [], badge: [], currency: '', product: '' })
          : undefined
      }
    >
      {canWrite ? (
        <Button type="primary" loading={computing} onClick={compute} data-testid="billing-compute-empty">
          {t('billing.ui.compute')}
        </Button>
      ) : null}
    </EmptyList>
  );

  const rowsTab = (
    <div data-testid="billing-rows" data-state={data ? 'ready' : list.isError ? 'error' : 'loading'}>
      <RowsFilters
        side={side}
        view={view}
        currencies={data?.totals.by_currency.map((c) => c.currency) ?? []}
        onChange={apply}
      />
      {list.isError ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      {data && data.total > 0 ? (
        <TotalsBar
          totals={data.totals}
          activeStates={view.state}
          onState={(s) =>
            apply({ state: view.state.includes(s) ? view.state.filter((x) => x !== s) : [...view.state, s] })
          }
          onRates={() => setRatesOpen(true)}
          canSetRates={canSetRates}
        />
      ) : null}
      <ActionBar
        hideEmpty={isMobile}
        selected={[...selected.values()]}
        canWrite={canWrite}
        canApprove={canApprove}
        bulk={bulk}
        onClear={() => setSelected(new Map())}
      />
      <RowsTable
        rows={data?.rows ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        view={view}
        visible={visible}
        selectable={canWrite || canApprove}
        selected={selected}
        onSelect={setSelected}
        onOpen={(r) => apply({ row: r.id })}
        onView={apply}
        empty={empty}
      />
    </div>
  );

  return (
    <Page title={t(`menu.${menuId}`)} testId={`billing-page-${side}-${kind}`}>
      <div className="bo-bill-head">
        <MonthField month={view.month} onChange={(month) => apply({ month })} />
        <Typography.Text type="secondary" data-testid="billing-computed-at">
          {data?.computed_at
            ? t('billing.ui.computed_line', { when: formatDateTime(data.computed_at, locale) })
            : t(`billing.ui.subtitle.${side}_${kind}`)}
        </Typography.Text>
        <Space wrap>
          {isMobile ? (
            tools.length > 0 ? (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: tools.map(({ key, label, icon, run }) => ({ key, label, icon, onClick: run })),
                }}
              >
                <Button icon={<EllipsisOutlined />} data-testid="billing-more">
                  {t('billing.ui.more')}
                </Button>
              </Dropdown>
            ) : null
          ) : (
            tools.map(({ key, label, icon, run }) => (
              <Button
                key={key}
                icon={icon}
                loading={key === 'compute' && computing}
                onClick={run}
                data-testid={`billing-${key}`}
              >
                {label}
              </Button>
            ))
          )}
          {view.tab === 'rows' && !isMobile ? (
            <ColumnChooser<ColumnKey>
              all={COLUMN_KEYS}
              visible={visible}
              onChange={setVisible}
              label={(k) => t(`billing.col.${k}`)}
              required={REQUIRED}
              testId="billing-columns"
            />
          ) : null}
          {view.tab === 'rows' ? (
            <ApiExportButton
              path={`/v1/billing/${side}/rows/export`}
              query={query}
              name={billingExportName(side, kind)}
              disabled={!data || data.total === 0}
              testId="billing-export"
            />
          ) : null}
        </Space>
      </div>
      <Tabs
        activeKey={view.tab}
        onChange={(tab) => apply({ tab: tab as ListTab })}
        className="bo-bill-tabs"
        items={tabs.map((tab) => ({
          key: tab,
          label: t(`billing.ui.tab.${tab}`),
          children:
            tab === 'rows' ? (
              rowsTab
            ) : tab === 'netting' ? (
              <NettingTab month={view.month} canWrite={canWrite} onChanged={reload} />
            ) : (
              <ReconciliationTab side={side} kind={kind} month={view.month} />
            ),
        }))}
      />
      {view.row !== null ? (
        <RowDrawer
          key={view.row}
          side={side}
          rowId={view.row}
          listed={data?.rows.find((r) => r.id === view.row) ?? selected.get(view.row) ?? null}
          canWrite={canWrite}
          bulk={bulk}
          onClose={() => apply({ row: null })}
          onChanged={reload}
          onCounterparty={(id) => apply({ counterparty: [id], row: null, tab: 'rows', page: 1 })}
        />
      ) : null}
      {bulk.dialogs}
      <RatesModal
        open={ratesOpen}
        month={view.month}
        onClose={() => setRatesOpen(false)}
        onChanged={reload}
      />
      <BankImportModal side={side} open={bankOpen} onClose={() => setBankOpen(false)} onApplied={reload} />
    </Page>
  );
}
