/**
 * Prepayments (`/billing_performance/prepayments`; docs/decisions/029-prepayments-finances.md): the
 * prepaid advertisers of the performance side with their balance, low-balance threshold and flag
 * and last top-up, searched, filtered ("under threshold"), sorted and paged by the server, the view
 * in the URL; an alert with how many are under their threshold; the daily spend posted up to
 * yesterday on demand (confirmation; idempotent); CSV/XLSX export; a card per advertiser on a
 * phone. An advertiser opens its ledger in a drawer.
 */
import { FieldTimeOutlined } from '@ant-design/icons';
import { utcToday } from '@backoffice/core/billing-accounts';
import { PREPAYMENT_PAGE_SIZES, dayBefore, parsePrepaymentSort, type PrepaymentAccount } from '@backoffice/core/prepayments';
import { Alert, App, Button, Card, Empty, Input, Pagination, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import { useEffect, useMemo, useState, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import { LEDGER_TABS, LedgerDrawer, type LedgerTab } from './ledger-drawer.tsx';
import { prepaymentsExport, readView, usePostSpend, usePrepayments, type ViewPatch } from './prepayments-api.ts';
import '../../resources/resources.css';
import './prepayments.css';

const SORTABLE = new Set(['name', 'balance', 'threshold', 'last_top_up']);

function SearchBox({ value, onApply }: { value: string; onApply: (v: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const applied = useDebouncedValue(text.trim(), 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (applied !== value) onApply(applied);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [applied]);
  return (
    <Input.Search
      allowClear
      className="bo-res-filter"
      placeholder={t('prepayments.search')}
      aria-label={t('prepayments.search')}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => onApply(v.trim())}
      data-testid="prepayments-search"
    />
  );
}

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
  const { isMobile } = useViewport();
  const data = list.data;
  const tab: LedgerTab = (LEDGER_TABS as readonly string[]).includes(view.tab ?? '') ? (view.tab as LedgerTab) : 'ledger';
  const apply = (patch: ViewPatch) => update({ page: null, ...patch });
  const openHref = (id: number) => {
    const next = new URLSearchParams(location.search);
    next.set('advertiser', String(id));
    for (const k of ['tab', 'lpage', 'kind']) next.delete(k);
    return { search: `?${next.toString()}` };
  };
  const open = (id: number) => update({ advertiser: String(id), tab: null, lpage: null, kind: null });


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

  const sort = parsePrepaymentSort(view.sort);
  const orderOf = (key: string): SortOrder => (sort.field === key ? (sort.desc ? 'descend' : 'ascend') : null);
  const dash = <span className="bo-res-empty">—</span>;
  const badges = (a: PrepaymentAccount) => (
    <>
      {a.low ? (
        <StatusTag tone="bad" testId={`prepayment-low-${a.id}`}>
          {t('prepayments.badge.low')}
        </StatusTag>
      ) : null}
      {a.billing_mode !== 'prepayment' ? <StatusTag tone="off">{t('prepayments.badge.credit')}</StatusTag> : null}
    </>
  );
  const nameCell = (a: PrepaymentAccount) => (
    <div className="bo-pp-name">
      <Link to={openHref(a.id)} replace aria-label={t('prepayments.open', { name: a.name })} data-testid={`prepayment-open-${a.id}`}>
        {a.name}
      </Link>
      {badges(a)}
    </div>
  );
  const columns: TableColumnsType<PrepaymentAccount> = [
    { key: 'name', title: t('prepayments.column.advertiser'), sorter: true, sortOrder: orderOf('name'), render: (_, a) => nameCell(a), fixed: isMobile ? undefined : 'left' },
    { key: 'company', title: t('prepayments.column.company'), render: (_, a) => a.company ?? dash },
    { key: 'balance', title: t('prepayments.column.balance'), sorter: true, sortOrder: orderOf('balance'), align: 'right', render: (_, a) => <MoneyCell amount={a.balance} currency={a.currency} highlightNegative /> },
    { key: 'threshold', title: t('prepayments.column.threshold'), sorter: true, sortOrder: orderOf('threshold'), align: 'right', render: (_, a) => <MoneyCell amount={a.threshold} currency={a.currency} /> },
    {
      key: 'last_top_up',
      title: t('prepayments.column.last_top_up'),
      sorter: true,
      sortOrder: orderOf('last_top_up'),
      render: (_, a) =>
        a.last_top_up ? (
          <span className="bo-pp-nowrap">
            {a.last_top_up.date} · <MoneyCell amount={a.last_top_up.amount} currency={a.currency} />
          </span>
        ) : (
          <Typography.Text type="secondary">{t('prepayments.none')}</Typography.Text>
        ),
    },
    { key: 'posted', title: t('prepayments.column.spend_posted_through'), render: (_, a) => a.spend_posted_through ?? <Typography.Text type="secondary">{t('prepayments.never')}</Typography.Text> },
  ];

  const empty = (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={view.search || view.under ? t('common.no_data_found') : t('common.no_data_available')} data-testid="prepayments-empty" />
  );

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

      <div className="bo-res-filters" data-testid="prepayments-filters">
        <SearchBox value={view.search} onApply={(v) => apply({ q: v || null })} />
        <Select
          allowClear
          className="bo-res-filter"
          aria-label={t('prepayments.filter.under')}
          placeholder={`${t('prepayments.filter.under')}: ${t('resource.filter.any')}`}
          value={view.under ?? undefined}
          options={['true', 'false'].map((v) => ({ value: v, label: t(`prepayments.filter.under.${v}`) }))}
          onChange={(v?: string) => apply({ under: v ?? null })}
          data-testid="prepayments-filter-under"
        />
      </div>

      {list.isError ? (
        <Alert
          type="error"
          showIcon
          className="bo-pp-gap"
          title={t('prepayments.load_failed')}
          description={errorText(list.error)}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}

      {data ? (
        <div className="bo-pp-total" data-testid="prepayments-total">
          <Typography.Text type="secondary">{t('prepayments.total_balance')}:</Typography.Text> <MoneyCell amount={data.total_balance} currency="EUR" highlightNegative /> ·{' '}
          <Typography.Text type="secondary">{t('prepayments.rows', { count: data.total })}</Typography.Text>
        </div>
      ) : null}

      {isMobile ? (
        <div className="bo-pp-cards" data-testid="prepayments-cards">
          {!data ? null : data.items.length === 0 ? (
            empty
          ) : (
            <>
              {data.items.map((a) => (
                <Card key={a.id} size="small" className="bo-pp-card" data-testid={`prepayment-row-${a.id}`}>
                  <div className="bo-pp-name">
                    <Link to={openHref(a.id)} replace aria-label={t('prepayments.open', { name: a.name })} data-testid={`prepayment-open-${a.id}`} className="bo-pp-card__name">
                      {a.name}
                    </Link>
                    {badges(a)}
                  </div>
                  {a.company ? <div className="bo-pp-card__company">{a.company}</div> : null}
                  <dl className="bo-pp-card__figures">
                    <div>
                      <dt>{t('prepayments.column.balance')}</dt>
                      <dd>
                        <MoneyCell amount={a.balance} currency={a.currency} highlightNegative />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('prepayments.column.threshold')}</dt>
                      <dd>
                        <MoneyCell amount={a.threshold} currency={a.currency} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('prepayments.column.last_top_up')}</dt>
                      <dd>{a.last_top_up ? a.last_top_up.date : t('prepayments.none')}</dd>
                    </div>
                  </dl>
                </Card>
              ))}
              <Pagination simple current={view.page} pageSize={view.page_size} total={data.total} onChange={(page) => update({ page: page > 1 ? String(page) : null })} />
            </>
          )}
        </div>
      ) : (
        <Table<PrepaymentAccount>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={list.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: data ? empty : <span /> }}
          onRow={(a) =>
            ({
              onClick: (e: MouseEvent) => {
                if (!(e.target as HTMLElement).closest('a, button')) open(a.id);
              },
              className: 'bo-res-row',
              'data-testid': `prepayment-row-${a.id}`,
            }) as HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: view.page,
            pageSize: view.page_size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [...PREPAYMENT_PAGE_SIZES],
            showTotal: (total): ReactNode => <Typography.Text type="secondary">{t('prepayments.rows', { count: total })}</Typography.Text>,
          }}
          onChange={(pagination, _filters, sorter, extra) => {
            if (extra.action === 'paginate') {
              const size = pagination.pageSize ?? view.page_size;
              update(size !== view.page_size ? { page: null, page_size: String(size) } : { page: String(pagination.current ?? 1) });
            }
            if (extra.action === 'sort') {
              const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<PrepaymentAccount> | undefined;
              const field = s?.columnKey === undefined ? '' : String(s.columnKey);
              apply({ sort: s?.order && SORTABLE.has(field) ? `${s.order === 'descend' ? '-' : ''}${field}` : null });
            }
          }}
        />
      )}

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
