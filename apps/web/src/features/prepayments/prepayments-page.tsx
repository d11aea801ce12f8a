/**
 * Prepayments (`/billing_performance/prepayments`; docs/decisions/029-prepayments-finances.md): the
 * prepaid advertisers of the performance side with their balance, low-balance threshold and flag
 * and last top-up, searched, filtered ("under threshold"), sorted and paged by the server, the view
 * in the URL; an alert with how many are under their threshold; the daily spend posted up to
 * yesterday on demand (confirmation; idempotent); a column chooser; CSV/XLSX export; a card per
 * advertiser on a phone (components/data-table.tsx). An advertiser opens its ledger in a drawer.
 */
import { FieldTimeOutlined } from '@ant-design/icons';
import { utcToday } from '@backoffice/core/billing-accounts';
import { PREPAYMENT_CURRENCY, PREPAYMENT_DEFAULT_SORT, PREPAYMENT_PAGE_SIZE, PREPAYMENT_PAGE_SIZES, PREPAYMENT_SORTS, dayBefore, type PrepaymentAccount } from '@backoffice/core/prepayments';
import { Alert, App, Button, Space, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { CurrencyTotals } from '../../components/currency-totals.tsx';
import { DataTable, EmptyList, ListError, sortChoices, tableParams, type DataColumn } from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useUrlState } from '../../lib/use-url-state.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import { LEDGER_TABS, LedgerDrawer, type LedgerTab } from './ledger-drawer.tsx';
import { prepaymentsExport, readView, usePostSpend, usePrepayments, type ViewPatch } from './prepayments-api.ts';
import '../../resources/resources.css';
import './prepayments.css';

const COLUMNS = ['name', 'id', 'company', 'balance', 'threshold', 'last_top_up', 'posted'] as const;
type ColumnKey = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: ColumnKey[] = ['name', 'company', 'balance', 'threshold', 'last_top_up', 'posted'];
const TITLE: Record<ColumnKey, string> = {
  name: 'prepayments.column.advertiser',
  id: 'prepayments.column.id',
  company: 'prepayments.column.company',
  balance: 'prepayments.column.balance',
  threshold: 'prepayments.column.threshold',
  last_top_up: 'prepayments.column.last_top_up',
  posted: 'prepayments.column.spend_posted_through',
};
const SORTS: readonly string[] = PREPAYMENT_SORTS;

export default function PrepaymentsPage() {
  const { t } = useTranslation();
  const notice = useNotice();
  const { modal } = App.useApp();
  const location = useLocation();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const list = usePrepayments(view);
  const postSpend = usePostSpend();
  const canWrite = usePermission('/v1/prepayments', 'write');
  const [visible, setVisible] = useStoredColumns('prepayments', COLUMNS, DEFAULT_COLUMNS);
  const data = list.data;
  const tab: LedgerTab = (LEDGER_TABS as readonly string[]).includes(view.tab ?? '') ? (view.tab as LedgerTab) : 'ledger';
  const filters = (view.search ? 1 : 0) + (view.under ? 1 : 0);
  const apply = (patch: ViewPatch) => update({ page: null, ...patch });
  const clear = () => apply({ q: null, under: null });
  const openHref = (id: number) => {
    const next = new URLSearchParams(location.search);
    next.set('advertiser', String(id));
    for (const k of ['tab', 'lpage', 'kind']) next.delete(k);
    return { search: `?${next.toString()}` };
  };

  const confirmPostSpend = () => {
    const through = dayBefore(utcToday());
    modal.confirm({
      title: t('prepayments.post_spend_title', { date: through }),
      content: t('prepayments.post_spend_body'),
      okText: t('prepayments.post_spend_ok'),
      cancelText: t('prepayments.cancel'),
      okButtonProps: { id: 'post-spend-confirm' },
      onOk: async () => {
        try {
          const out = await postSpend.mutateAsync({ through });
          void notice.success(out.posted > 0 ? t('prepayments.spend_posted_result', { posted: out.posted, date: out.through ?? through }) : t('prepayments.spend_nothing'));
        } catch (error) {
          if (!isSessionError(error)) void notice.error(errorText(error));
        }
      },
    });
  };

  const dash = <span className="bo-res-empty">—</span>;
  /** "Low balance" and "Now on credit", if either applies. */
  const badges = (a: PrepaymentAccount) =>
    a.low || a.billing_mode !== 'prepayment' ? (
      <span className="bo-pp-badges">
        {a.low ? (
          <StatusTag tone="bad" testId={`prepayment-low-${a.id}`}>
            {t('prepayments.badge.low')}
          </StatusTag>
        ) : null}
        {a.billing_mode !== 'prepayment' ? <StatusTag tone="off">{t('prepayments.badge.credit')}</StatusTag> : null}
      </span>
    ) : null;
  const openLink = (a: PrepaymentAccount, className?: string) => (
    <Link to={openHref(a.id)} replace aria-label={t('prepayments.open', { name: a.name })} data-testid={`prepayment-open-${a.id}`} className={className}>
      {a.name}
    </Link>
  );
  const cell: Record<ColumnKey, (a: PrepaymentAccount) => ReactNode> = {
    name: (a) => (
      <div className="bo-pp-name">
        {openLink(a)}
        {badges(a)}
      </div>
    ),
    id: (a) => a.id,
    company: (a) => a.company ?? dash,
    balance: (a) => <MoneyCell amount={a.balance} currency={a.currency} highlightNegative />,
    threshold: (a) => <MoneyCell amount={a.threshold} currency={a.currency} />,
    last_top_up: (a) =>
      a.last_top_up ? (
        <>
          {a.last_top_up.date} · <MoneyCell amount={a.last_top_up.amount} currency={a.currency} />
        </>
      ) : (
        <Typography.Text type="secondary">{t('prepayments.none')}</Typography.Text>
      ),
    posted: (a) => a.spend_posted_through ?? <Typography.Text type="secondary">{t('prepayments.never')}</Typography.Text>,
  };
  const column = (key: ColumnKey): DataColumn<PrepaymentAccount> => ({
    key,
    title: t(TITLE[key]),
    align: key === 'balance' || key === 'threshold' ? 'right' : undefined,
    sort: SORTS.includes(key) ? key : undefined,
    render: cell[key],
  });

  return (
    <div className="bo-page bo-pp" data-testid="prepayments" data-state={data ? 'ready' : list.isError ? 'error' : 'loading'}>
      <div className="bo-res-head">
        <div>
          <h1 className="bo-page__title">
            {t('menu.bp_prepayments')} · {t('menu.group.billing_performance')}
          </h1>
          <Typography.Text type="secondary">{t('prepayments.subtitle')}</Typography.Text>
        </div>
        <Space wrap>
          {canWrite ? (
            <Button icon={<FieldTimeOutlined />} onClick={confirmPostSpend} loading={postSpend.isPending} data-testid="post-spend">
              {t('prepayments.post_spend')}
            </Button>
          ) : null}
          <ApiExportButton {...prepaymentsExport(view)} disabled={!data || data.total === 0} testId="prepayments-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(TITLE[k])} required={['name']} testId="prepayments-columns" />
        </Space>
      </div>

      {data && data.low_count > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="bo-pp-gap"
          data-testid="prepayments-low-alert"
          title={t('prepayments.low_alert', { count: data.low_count })}
          action={
            view.under === 'true' ? (
              <Button size="small" onClick={() => apply({ under: null })}>
                {t('prepayments.show_all')}
              </Button>
            ) : (
              <Button size="small" onClick={() => apply({ under: 'true' })} data-testid="prepayments-show-low">
                {t('prepayments.show_low')}
              </Button>
            )
          }
        />
      ) : null}

      <FiltersBar search={view.search} onSearch={(q) => apply({ q: q || null })} searchLabel={t('prepayments.search')} count={filters} filtered={filters > 0} onClear={clear} testId="prepayments">
        <FilterSelect
          label={t('prepayments.filter.under')}
          value={view.under ?? ''}
          onChange={(under) => apply({ under: under || null })}
          options={(['true', 'false'] as const).map((v) => ({ value: v, label: t(`prepayments.filter.under.${v}`) }))}
          testId="prepayments-filter-under"
        />
      </FiltersBar>

      {data ? (
        <CurrencyTotals
          label={t('prepayments.total_balance')}
          testId="prepayments"
          cards={[
            {
              key: PREPAYMENT_CURRENCY,
              title: t('prepayments.total_balance'),
              aside: t('prepayments.rows', { count: data.total }),
              figures: [{ label: PREPAYMENT_CURRENCY, amount: data.total_balance, currency: PREPAYMENT_CURRENCY, testId: 'prepayments-total-balance' }],
            },
          ]}
        />
      ) : null}

      {list.isError ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<PrepaymentAccount, number>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(a) => a.id}
        columns={visible.map(column)}
        view={view}
        onView={(patch) => update(tableParams(patch, { sort: PREPAYMENT_DEFAULT_SORT, pageSize: PREPAYMENT_PAGE_SIZE }))}
        defaultSort={PREPAYMENT_DEFAULT_SORT}
        pageSizes={PREPAYMENT_PAGE_SIZES}
        sortOptions={sortChoices(PREPAYMENT_SORTS, (f) => t(TITLE[f]))}
        sortLabel={t('prepayments.sort_by')}
        regionLabel={t('menu.bp_prepayments')}
        countText={(count) => t('prepayments.rows', { count })}
        testId="prepayment"
        card={{
          title: (a, className) => openLink(a, className),
          tag: badges,
          note: (a) => (a.company ? <Typography.Text type="secondary">{a.company}</Typography.Text> : null),
          fields: (a) => [
            { label: t('prepayments.column.balance'), value: cell.balance(a) },
            { label: t('prepayments.column.threshold'), value: cell.threshold(a) },
            { label: t('prepayments.column.last_top_up'), value: a.last_top_up ? a.last_top_up.date : t('prepayments.none') },
          ],
        }}
        empty={<EmptyList description={filters > 0 ? t('common.no_data_found') : t('common.no_data_available')} testId="prepayments-empty" onClear={filters > 0 ? clear : undefined} />}
      />

      <LedgerDrawer
        id={view.advertiser}
        tab={tab}
        page={view.ledger_page}
        kind={view.kind}
        onView={(patch) => update(patch)}
        onClose={() => update({ advertiser: null, tab: null, lpage: null, kind: null })}
      />
    </div>
  );
}
