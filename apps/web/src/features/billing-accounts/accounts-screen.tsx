/**
 * Billing accounts of one side (`/billing_ssp/advertiser`, `/billing_performance/advertiser`;
 * docs/decisions/023-billing-accounts.md): every demand partner as the account finance invoices,
 * with its terms and what it owes per currency (billed, paid, outstanding, overdue), searched,
 * filtered (billing mode, payment terms, invoice currency, billing information missing, something
 * overdue), sorted and paged by the server; filters, sort, page and the open account live in the
 * URL. A column chooser (remembered per person and side), CSV/XLSX export of what is filtered, and
 * a card per account on a phone. An account opens in a drawer with its statement, billing
 * information, terms and history.
 */
import { ArrowDownOutlined, ArrowUpOutlined, FilterOutlined, SettingOutlined } from '@ant-design/icons';
import {
  ACCOUNT_PAGE_SIZES,
  ACCOUNT_SORTS,
  BILLING_MODES,
  parseAccountSort,
  type AccountFigures,
  type BillingAccount,
} from '@backoffice/core/billing-accounts';
import type { BillingSide } from '@backoffice/core/billing-api';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { PAYMENT_TERMS } from '@backoffice/core/resources/demand-partners';
import { Alert, Button, Card, Checkbox, Dropdown, Empty, Input, Pagination, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import { useEffect, useMemo, useState, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { errorText } from '../../lib/api.ts';
import { useSession } from '../../lib/session-store.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { AccountDrawer, ACCOUNT_TABS, type AccountTab } from './account-drawer.tsx';
import { AccountBadges, FigureCell, figureClass, type Figure } from './account-parts.tsx';
import { accountsExport, filterCount, readView, useAccounts, type AccountsView, type ViewPatch } from './accounts-api.ts';
import '../../resources/resources.css';
import './billing-accounts.css';

/** The columns besides the account's name, in order; the chooser shows or hides each. */
const COLUMNS = ['company', 'status', 'billing_mode', 'payment_terms', 'invoice_currency', 'min_amount', 'credit_limit', 'vat_id', 'billed', 'paid', 'outstanding', 'overdue', 'charged'] as const;
type Column = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: readonly Column[] = ['company', 'billing_mode', 'payment_terms', 'billed', 'paid', 'outstanding', 'overdue'];
const FIGURE_COLUMNS = new Set<Column>(['billed', 'paid', 'outstanding', 'overdue', 'charged']);
const SORTABLE = new Set<string>(ACCOUNT_SORTS);

const columnLabel = (c: Column | 'name') =>
  c === 'name' || c === 'company' || c === 'status'
    ? `billing_account.column.${c}`
    : c === 'billing_mode'
      ? 'billing_account.billing_mode'
      : c === 'credit_limit'
        ? 'billing_account.credit_limit'
        : FIGURE_COLUMNS.has(c)
          ? `billing_account.figure.${c}`
          : `demand_partner.${c}`;

/** The visible columns, remembered per person and side in local storage. */
function useVisibleColumns(side: BillingSide): [Column[], (next: Column[]) => void] {
  const userId = useSession((s) => s.user?.id);
  const storageKey = `bo.columns.${userId ?? 0}.billing_${side}_accounts`;
  const [visible, setVisible] = useState<Column[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as unknown;
      if (Array.isArray(saved)) return COLUMNS.filter((c) => saved.includes(c));
    } catch {
      // a broken value: the default columns
    }
    return [...DEFAULT_COLUMNS];
  });
  const save = (next: Column[]) => {
    const ordered = COLUMNS.filter((c) => next.includes(c));
    setVisible(ordered);
    localStorage.setItem(storageKey, JSON.stringify(ordered));
  };
  return [visible, save];
}

/** The totals of every filtered account, per currency. */
function Totals({ totals, count }: { totals: readonly AccountFigures[]; count: number }) {
  const { t } = useTranslation();
  if (totals.length === 0) return null;
  const figures: Figure[] = ['billed', 'paid', 'outstanding', 'overdue'];
  return (
    <section className="bo-acc-totals" aria-label={t('billing_account.totals')} data-testid="accounts-totals">
      <Typography.Text strong className="bo-acc-totals__title">
        {t('billing_account.totals')} ({t('billing_account.rows', { count })})
      </Typography.Text>
      {totals.map((f) => (
        <dl key={f.currency} className="bo-acc-totals__row">
          {figures.map((k) => (
            <div key={k} className={figureClass(k, f[k])}>
              <dt>{t(`billing_account.figure.${k}`)}</dt>
              <dd>
                <MoneyCell amount={f[k]} currency={f.currency} />
              </dd>
            </div>
          ))}
        </dl>
      ))}
    </section>
  );
}

/** The search box: typing applies after a pause (the URL keeps the last applied text). */
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
      className="bo-res-filter bo-acc-search"
      placeholder={t('billing_account.search')}
      aria-label={t('billing_account.search')}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => onApply(v.trim())}
      data-testid="accounts-search"
    />
  );
}

export function AccountsScreen({ side, title }: { side: BillingSide; title: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const accounts = useAccounts(side, view);
  const { isMobile } = useViewport();
  const [visible, setVisible] = useVisibleColumns(side);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const data = accounts.data;
  const filters = filterCount(view);
  const tab: AccountTab = (ACCOUNT_TABS as readonly string[]).includes(view.tab ?? '') ? (view.tab as AccountTab) : 'statement';

  const apply = (patch: ViewPatch) => update({ page: null, ...patch });
  const openHref = (id: number) => {
    const next = new URLSearchParams(location.search);
    next.set('account', String(id));
    next.delete('tab');
    return { search: `?${next.toString()}` };
  };
  const open = (id: number) => update({ account: String(id), tab: null });


  const sort = parseAccountSort(view.sort);
  const orderOf = (key: string): SortOrder => (sort.field === key ? (sort.desc ? 'descend' : 'ascend') : null);
  const nameCell = (a: BillingAccount) => (
    <div className="bo-acc-name">
      <Link to={openHref(a.id)} replace aria-label={t('billing_account.open', { name: a.name })} data-testid={`account-open-${a.id}`}>
        {a.name}
      </Link>
      <AccountBadges account={a} />
    </div>
  );
  const cellOf = (c: Column, a: BillingAccount): ReactNode => {
    const dash = <span className="bo-res-empty">—</span>;
    switch (c) {
      case 'company':
        return a.company ? a.company.legal_name : <span className="bo-acc-missing">{t('common.no_billinginfo')}</span>;
      case 'status':
        return t(`demand_partner.status.${a.status}`);
      case 'billing_mode':
        return t(`billing_account.billing_mode.${a.billing_mode}`);
      case 'payment_terms':
        return t(`demand_partner.payment_terms.${a.payment_terms}`);
      case 'invoice_currency':
        return a.invoice_currency;
      case 'min_amount':
        return <MoneyCell amount={a.min_amount} currency={a.invoice_currency} />;
      case 'credit_limit':
        return a.credit_limit === null ? dash : <MoneyCell amount={a.credit_limit} currency={a.invoice_currency} />;
      case 'vat_id':
        return a.vat_id ?? dash;
      default:
        return <FigureCell statement={a.statement} figure={c} />;
    }
  };
  const columns: TableColumnsType<BillingAccount> = [
    { key: 'name', title: t('billing_account.column.name'), sorter: true, sortOrder: orderOf('name'), render: (_, a) => nameCell(a), fixed: isMobile ? undefined : 'left' },
    ...visible.map((c) => ({
      key: c,
      title: t(columnLabel(c)),
      sorter: SORTABLE.has(c),
      sortOrder: SORTABLE.has(c) ? orderOf(c) : undefined,
      align: FIGURE_COLUMNS.has(c) || c === 'credit_limit' || c === 'min_amount' ? ('right' as const) : undefined,
      render: (_: unknown, a: BillingAccount) => cellOf(c, a),
    })),
  ];

  const empty = (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filters > 0 ? t('common.no_data_found') : t('common.no_data_available')} data-testid="accounts-empty">
      {filters > 0 ? (
        <Button onClick={() => apply({ q: null, mode: null, terms: null, currency: null, missing: null, overdue: null })}>{t('resource.filters.clear')}</Button>
      ) : null}
    </Empty>
  );

  const chooser = (
    <div className="bo-res-chooser-pop">
      <div className="bo-res-chooser" role="group" aria-label={t('resource.columns')}>
        {COLUMNS.map((c) => (
          <Checkbox key={c} checked={visible.includes(c)} onChange={(e) => setVisible(e.target.checked ? [...visible, c] : visible.filter((x) => x !== c))} data-testid={`accounts-column-${c}`}>
            {t(columnLabel(c))}
          </Checkbox>
        ))}
      </div>
    </div>
  );

  const multi = (key: 'mode' | 'terms' | 'currency', label: string, values: string[], options: { value: string; label: string }[]) => (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      className="bo-res-filter"
      aria-label={label}
      placeholder={`${label}: ${t('resource.filter.any')}`}
      value={values}
      options={options}
      optionFilterProp="label"
      onChange={(v: string[]) => apply({ [key]: v.length > 0 ? v.join(',') : null })}
      data-testid={`accounts-filter-${key}`}
    />
  );
  const flag = (key: 'missing' | 'overdue', value: string | null) => {
    const label = t(`billing_account.filter.${key}`);
    return (
      <Select
        allowClear
        className="bo-res-filter"
        aria-label={label}
        placeholder={`${label}: ${t('resource.filter.any')}`}
        value={value ?? undefined}
        options={['true', 'false'].map((v) => ({ value: v, label: t(`billing_account.filter.${key}.${v}`) }))}
        onChange={(v?: string) => apply({ [key]: v ?? null })}
        data-testid={`accounts-filter-${key}`}
      />
    );
  };

  const sortOptions = ['name', ...COLUMNS.filter((c) => SORTABLE.has(c))].map((c) => ({ value: c, label: t(columnLabel(c as Column)) }));

  return (
    <div className="bo-page bo-acc" data-testid={`billing-accounts-${side}`} data-state={data ? 'ready' : accounts.isError ? 'error' : 'loading'}>
      <div className="bo-res-head">
        <div>
          <h1 className="bo-page__title">{title}</h1>
          <Typography.Text type="secondary">{t(`billing_account.subtitle.${side}`)}</Typography.Text>
        </div>
        <Space wrap>
          {!isMobile ? (
            <Dropdown trigger={['click']} popupRender={() => chooser}>
              <Button icon={<SettingOutlined />} data-testid="accounts-columns">
                {t('resource.columns')}
              </Button>
            </Dropdown>
          ) : null}
          <ApiExportButton {...accountsExport(side, view)} disabled={!data || data.total === 0} testId="accounts-export" />
        </Space>
      </div>

      {isMobile ? (
        <Button
          block
          icon={<FilterOutlined />}
          onClick={() => setFiltersOpen((o) => !o)}
          aria-expanded={filtersOpen}
          aria-controls="bo-acc-filters"
          className="bo-res-filters-toggle"
          data-testid="accounts-filters-toggle"
        >
          {t('resource.filters', { count: filters })}
        </Button>
      ) : null}
      <div id="bo-acc-filters" className="bo-res-filters" hidden={isMobile && !filtersOpen} data-testid="accounts-filters">
        <SearchBox value={view.search} onApply={(v) => apply({ q: v || null })} />
        {multi('mode', t('billing_account.filter.billing_mode'), view.billing_mode, BILLING_MODES.map((m) => ({ value: m, label: t(`billing_account.billing_mode.${m}`) })))}
        {multi('terms', t('billing_account.filter.payment_terms'), view.payment_terms, PAYMENT_TERMS.map((p) => ({ value: p, label: t(`demand_partner.payment_terms.${p}`) })))}
        {multi('currency', t('billing_account.filter.currency'), view.currency, CURRENCIES.map((c) => ({ value: c, label: c })))}
        {flag('missing', view.missing)}
        {flag('overdue', view.overdue)}
        {filters > 0 ? (
          <Button type="link" onClick={() => apply({ q: null, mode: null, terms: null, currency: null, missing: null, overdue: null })} data-testid="accounts-clear-filters">
            {t('resource.filters.clear')}
          </Button>
        ) : null}
      </div>

      {accounts.isError ? (
        <Alert
          type="error"
          showIcon
          className="bo-acc-gap"
          title={t('billing_account.load_failed')}
          description={errorText(accounts.error)}
          action={
            <Button size="small" onClick={() => void accounts.refetch()}>
              {t('common.retry')}
            </Button>
          }
          data-testid="accounts-error"
        />
      ) : null}

      {data ? <Totals totals={data.totals} count={data.total} /> : null}

      {isMobile ? (
        <MobileList view={view} accounts={data?.items} total={data?.total ?? 0} empty={empty} sortOptions={sortOptions} onApply={apply} onOpen={open} openHref={openHref} />
      ) : (
        <Table<BillingAccount>
          rowKey="id"
          size="middle"
          className="bo-acc-table"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={accounts.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: data ? empty : <span /> }}
          onRow={(a) =>
            ({
              onClick: (e: MouseEvent) => {
                if (!(e.target as HTMLElement).closest('a, button')) open(a.id);
              },
              className: 'bo-res-row',
              'data-testid': `account-row-${a.id}`,
            }) as HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: view.page,
            pageSize: view.page_size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [...ACCOUNT_PAGE_SIZES],
            showTotal: (total) => <Typography.Text type="secondary">{t('billing_account.rows', { count: total })}</Typography.Text>,
          }}
          onChange={(pagination, _filters, sorter, extra) => {
            if (extra.action === 'paginate') {
              const size = pagination.pageSize ?? view.page_size;
              update(size !== view.page_size ? { page: null, page_size: String(size) } : { page: String(pagination.current ?? 1) });
            }
            if (extra.action === 'sort') {
              const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<BillingAccount> | undefined;
              const field = s?.columnKey === undefined ? '' : String(s.columnKey);
              apply({ sort: s?.order && SORTABLE.has(field) ? `${s.order === 'descend' ? '-' : ''}${field}` : null });
            }
          }}
        />
      )}

      <AccountDrawer side={side} id={view.account} tab={tab} onTab={(next) => update({ tab: next === 'statement' ? null : next })} onClose={() => update({ account: null, tab: null })} />
    </div>
  );
}

interface MobileListProps {
  view: AccountsView;
  accounts: BillingAccount[] | undefined;
  total: number;
  empty: ReactNode;
  sortOptions: { value: string; label: string }[];
  onApply: (patch: ViewPatch) => void;
  onOpen: (id: number) => void;
  openHref: (id: number) => { search: string };
}

/** A card per account on a phone: its name and badges, company, terms, and what it owes. */
function MobileList({ view, accounts, total, empty, sortOptions, onApply, openHref }: MobileListProps) {
  const { t } = useTranslation();
  const sort = parseAccountSort(view.sort);
  return (
    <div className="bo-acc-cards" data-testid="accounts-cards">
      <div className="bo-acc-cards__sort">
        <label htmlFor="accounts-sort" className="bo-acc-label">
          {t('billing_account.sort_by')}
        </label>
        <div className="bo-acc-cards__sort-row">
          <Select id="accounts-sort" value={sort.field} options={sortOptions} onChange={(f: string) => onApply({ sort: `${sort.desc ? '-' : ''}${f}` })} className="bo-acc-cards__sort-field" />
          <Segmented
            value={sort.desc ? 'desc' : 'asc'}
            onChange={(d) => onApply({ sort: `${d === 'desc' ? '-' : ''}${sort.field}` })}
            options={[
              { value: 'asc', label: <ArrowUpOutlined aria-label={t('billing_account.sort.asc')} />, title: t('billing_account.sort.asc') },
              { value: 'desc', label: <ArrowDownOutlined aria-label={t('billing_account.sort.desc')} />, title: t('billing_account.sort.desc') },
            ]}
          />
        </div>
      </div>
      {!accounts ? null : accounts.length === 0 ? (
        empty
      ) : (
        <>
          {accounts.map((a) => (
            <Card key={a.id} size="small" className="bo-acc-card" data-testid={`account-row-${a.id}`}>
              <div className="bo-acc-card__head">
                <Link to={openHref(a.id)} replace className="bo-acc-card__name" aria-label={t('billing_account.open', { name: a.name })} data-testid={`account-open-${a.id}`}>
                  {a.name}
                </Link>
              </div>
              <div className="bo-acc-card__company">{a.company ? a.company.legal_name : <span className="bo-acc-missing">{t('common.no_billinginfo')}</span>}</div>
              <AccountBadges account={a} />
              <div className="bo-acc-card__terms">
                {t(`billing_account.billing_mode.${a.billing_mode}`)} · {t(`demand_partner.payment_terms.${a.payment_terms}`)} · {a.invoice_currency}
              </div>
              {a.statement.length === 0 ? (
                <Typography.Text type="secondary">{t('billing_account.nothing_billed')}</Typography.Text>
              ) : (
                <dl className="bo-acc-card__figures">
                  {(['billed', 'outstanding', 'overdue'] as const).map((k) => (
                    <div key={k} className={`bo-acc-figure${k === 'overdue' && a.has_overdue ? ' bo-acc-figure--alert' : ''}`}>
                      <dt>{t(`billing_account.figure.${k}`)}</dt>
                      <dd>
                        <FigureCell statement={a.statement} figure={k} />
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
            </Card>
          ))}
          <Pagination
            simple
            className="bo-acc-cards__pages"
            current={view.page}
            pageSize={view.page_size}
            total={total}
            onChange={(page) => onApply({ page: page > 1 ? String(page) : null })}
          />
          <Typography.Text type="secondary">{t('billing_account.rows', { count: total })}</Typography.Text>
        </>
      )}
    </div>
  );
}
