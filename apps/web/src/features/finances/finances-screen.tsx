/**
 * Finance entries of one team (`/finances/supply`, `/finances/demand`; spec section 5, Finances;
 * docs/decisions/029-prepayments-finances.md): the list filtered by period, counterparty, network,
 * item and e-mail status, sorted and paged by the server (the view in the URL), with the totals per
 * currency of every filtered entry, a column chooser, a CSV/XLSX export and a card per entry on a
 * phone (components/data-table.tsx). "New entry" and each entry open a drawer: the details with the
 * e-mail's status (sent, failed with its error and "send again", not requested), the edit form and
 * the history.
 */
import { MailOutlined, PlusOutlined } from '@ant-design/icons';
import {
  EMAIL_STATUSES,
  FINANCE_DEFAULT_SORT,
  FINANCE_ITEMS,
  FINANCE_PAGE_SIZE,
  FINANCE_PAGE_SIZES,
  FINANCE_SORTS,
  FINANCES_RESOURCE,
  type EmailStatus,
  type FinanceEntry,
  type FinanceTeam,
} from '@backoffice/core/finances';
import { Alert, App, Button, Descriptions, Drawer, Empty, List, Result, Select, Skeleton, Space, Tabs, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { CurrencyTotals } from '../../components/currency-totals.tsx';
import { DataTable, EmptyList, ListError, sortChoices, tableParams, type DataColumn } from '../../components/data-table.tsx';
import { DateRangeInput } from '../../components/date-range-input.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useUrlState } from '../../lib/use-url-state.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag, formatDateTime, type StatusTone } from '../../resources/resource-cells.tsx';
import { EntryForm } from './entry-form.tsx';
import { entriesExport, filterCount, readView, useCreateEntry, useEntries, useEntry, useEntryHistory, useOptions, useResend, useUpdateEntry, type FinancesView, type ViewPatch } from './finances-api.ts';
import '../../resources/resources.css';
import './finances.css';

const TONE: Record<EmailStatus, StatusTone> = { not_requested: 'off', pending: 'info', sent: 'ok', failed: 'bad' };
const COLUMNS = ['id', 'period_start', 'counterparty', 'network', 'item', 'amount', 'comment', 'email', 'created_at'] as const;
type ColumnKey = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: ColumnKey[] = ['id', 'period_start', 'counterparty', 'network', 'item', 'amount', 'comment', 'email'];
/** A tablet starts with the columns a person scans for (the rest is in the entry's drawer). */
const TABLET_COLUMNS: ColumnKey[] = ['id', 'period_start', 'counterparty', 'item', 'amount', 'email'];
const TITLE: Record<Exclude<ColumnKey, 'counterparty'>, string> = {
  id: 'finances.field.id',
  period_start: 'finances.field.period',
  network: 'finances.field.network',
  item: 'finances.field.item',
  amount: 'finances.field.amount',
  comment: 'finances.field.comment',
  email: 'finances.field.email',
  created_at: 'finances.field.created_at',
};
const SORTS: readonly string[] = FINANCE_SORTS;
const TABS = ['details', 'edit', 'history'] as const;
type Tab = (typeof TABS)[number];

export function EmailTag({ entry }: { entry: Pick<FinanceEntry, 'email_status' | 'id'> }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={TONE[entry.email_status]} testId={`finance-email-${entry.id}`}>
      {t(`finances.email.${entry.email_status}`)}
    </StatusTag>
  );
}

/** A filter of the bar: counterparties or networks, searched by the API. */
function PartyFilter({ team, kind, value, onChange, label }: { team: FinanceTeam; kind: 'counterparty' | 'network'; value: number[]; onChange: (v: number[]) => void; label: string }) {
  const [search, setSearch] = useState('');
  const { options } = useOptions(team, kind, search.trim(), value);
  return (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      className="bo-filter"
      aria-label={label}
      placeholder={label}
      value={value}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      options={options.map((o) => ({ value: o.id, label: o.name }))}
      onChange={onChange}
      data-testid={`finances-filter-${kind}`}
    />
  );
}

// ------------------------------------------------------------------------------------ drawer

function Details({ team, entry }: { team: FinanceTeam; entry: FinanceEntry }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const canWrite = usePermission(FINANCES_RESOURCE, 'write');
  const resend = useResend(team, entry.id);
  const dash = <span className="bo-res-empty">—</span>;
  const doResend = async () => {
    try {
      const out = await resend.mutateAsync();
      if (out.email_status === 'sent') void notice.success(t('finances.email_sent'));
      else void notice.error(t('finances.email_failed'));
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    }
  };
  return (
    <div data-testid="finance-details">
      {entry.email_status === 'failed' ? (
        <Alert
          type="error"
          showIcon
          className="bo-fin-gap"
          title={t('finances.email_failed')}
          description={entry.email_error ?? undefined}
          action={
            canWrite ? (
              <Button size="small" icon={<MailOutlined />} loading={resend.isPending} onClick={() => void doResend()} data-testid="finance-resend">
                {t('finances.resend')}
              </Button>
            ) : null
          }
        />
      ) : null}
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          { key: 'cp', label: t(`finances.field.counterparty.${team}`), children: entry.counterparty.name },
          { key: 'net', label: t('finances.field.network'), children: entry.network.name },
          { key: 'item', label: t('finances.field.item'), children: t(`finances.item.${entry.item}`) },
          { key: 'amount', label: t('finances.field.amount'), children: <MoneyCell amount={entry.amount} currency={entry.currency} highlightNegative /> },
          { key: 'period', label: t('finances.field.period'), children: `${entry.period_start} – ${entry.period_end}` },
          { key: 'email', label: t('finances.field.email'), children: <EmailTag entry={entry} /> },
          { key: 'to', label: t('finances.field.email_to'), children: entry.email_to ?? dash },
          { key: 'sent', label: t('finances.field.email_sent_at'), children: entry.email_sent_at ? formatDateTime(entry.email_sent_at, locale) : dash },
          { key: 'comment', label: t('finances.field.comment'), children: entry.comment || dash, span: 'filled' },
          { key: 'created', label: t('finances.field.created_by'), children: `${entry.created_by.name ?? '—'} · ${formatDateTime(entry.created_at, locale)}` },
          { key: 'updated', label: t('finances.field.updated'), children: `${entry.updated_by.name ?? '—'} · ${formatDateTime(entry.updated_at, locale)}` },
        ]}
      />
    </div>
  );
}

function History({ team, id }: { team: FinanceTeam; id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const history = useEntryHistory(team, id, true);
  if (history.isPending) return <Skeleton active />;
  if (history.isError) return <Alert type="error" showIcon title={errorText(history.error)} />;
  if (history.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('finances.history_empty')} />;
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
  return (
    <List
      className="bo-res-history"
      dataSource={history.data}
      data-testid="finance-history"
      renderItem={(e) => (
        <List.Item key={e.id}>
          <div>
            <Typography.Text strong>{t('finances.history.by', { action: t(`finances.action.${e.action}`, { defaultValue: e.action }), name: e.actor.name ?? t('resource.nobody') })}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              {formatDateTime(e.at, locale)}
              {e.ip ? ` · ${t('resource.history.from_ip', { ip: e.ip })}` : ''}
            </Typography.Text>
            <ul className="bo-res-history__changes">
              {Object.entries(e.changes).map(([field, [before, after]]) => (
                <li key={field}>
                  <Typography.Text type="secondary">{field}:</Typography.Text> {before === null || before === undefined ? null : <del>{text(before)}</del>} → <ins>{text(after)}</ins>
                </li>
              ))}
            </ul>
          </div>
        </List.Item>
      )}
    />
  );
}

function EntryDrawer({ team, view, onView }: { team: FinanceTeam; view: FinancesView; onView: (patch: ViewPatch) => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const { isMobile } = useViewport();
  const canWrite = usePermission(FINANCES_RESOURCE, 'write');
  const id = typeof view.entry === 'number' ? view.entry : null;
  const entry = useEntry(team, id);
  const create = useCreateEntry(team);
  const update = useUpdateEntry(team, id ?? 0);
  const [dirty, setDirty] = useState(false);
  const tab: Tab = (TABS as readonly string[]).includes(view.tab ?? '') ? (view.tab as Tab) : 'details';
  const close = () => {
    const done = () => {
      setDirty(false);
      onView({ entry: null, tab: null });
    };
    if (!dirty) return done();
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true },
      onOk: done,
    });
  };
  const mailNotice = (e: FinanceEntry) => {
    if (e.email_status === 'sent') void notice.success(`${t('finances.created')} · ${t('finances.email_sent')}`);
    else if (e.email_status === 'failed') void notice.warning(`${t('finances.created')} · ${t('finances.email_failed')}`);
    else void notice.success(t('finances.created'));
  };
  let body: ReactNode;
  let title = '\u00a0';
  if (view.entry === 'new') {
    title = t('finances.new_title');
    body = (
      <EntryForm
        team={team}
        onDirtyChange={setDirty}
        onCancel={close}
        onSave={async (payload) => {
          const saved = await create.mutateAsync(payload);
          mailNotice(saved);
          setDirty(false);
          onView({ entry: String(saved.id), tab: null });
        }}
      />
    );
  } else if (entry.isError) {
    body = <Result status={entry.error.httpStatus === 404 ? '404' : 'error'} title={errorText(entry.error)} />;
  } else if (!entry.data || entry.data.id !== id) {
    body = <Skeleton active paragraph={{ rows: 8 }} />;
  } else {
    const e = entry.data;
    title = t('finances.edit_title', { id: e.id });
    body = (
      <div className="bo-res-detail" data-testid="finance-detail" data-entry={e.id}>
        <Space className="bo-fin-gap">
          <EmailTag entry={e} />
          <MoneyCell amount={e.amount} currency={e.currency} highlightNegative />
        </Space>
        <Tabs
          activeKey={tab}
          onChange={(k) => onView({ tab: k === 'details' ? null : k })}
          items={[
            { key: 'details', label: t('finances.tab.details'), children: <Details team={team} entry={e} /> },
            {
              key: 'edit',
              label: t('finances.tab.edit'),
              children: (
                <>
                  {!canWrite ? <Alert type="info" showIcon className="bo-fin-gap" title={t('finances.read_only')} /> : null}
                  <EntryForm
                    key={e.id}
                    team={team}
                    entry={e}
                    disabled={!canWrite}
                    onDirtyChange={setDirty}
                    onSave={async (payload) => {
                      await update.mutateAsync(payload);
                      void notice.success(t('finances.saved'));
                      onView({ tab: null });
                    }}
                  />
                </>
              ),
            },
            { key: 'history', label: t('finances.tab.history'), children: <History team={team} id={e.id} /> },
          ]}
        />
      </div>
    );
  }
  return (
    <Drawer
      open={view.entry !== null}
      onClose={close}
      size={isMobile ? '100%' : 820}
      title={<span data-testid="finance-title">{title}</span>}
      closable={{ 'aria-label': t('finances.close') }}
      destroyOnHidden
      data-testid="finance-drawer"
    >
      {body}
    </Drawer>
  );
}

// ------------------------------------------------------------------------------------ list

export function FinancesScreen({ team }: { team: FinanceTeam }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const list = useEntries(team, view);
  const canWrite = usePermission(FINANCES_RESOURCE, 'write');
  const { isTablet } = useViewport();
  const [visible, setVisible] = useStoredColumns(`finances.${team}`, COLUMNS, isTablet ? TABLET_COLUMNS : DEFAULT_COLUMNS);
  const data = list.data;
  const filters = filterCount(view);
  const apply = (patch: ViewPatch) => update({ page: null, ...patch });
  const clear = () => apply({ from: null, to: null, counterparty: null, network: null, item: null, email: null });
  const openHref = (id: number) => {
    const next = new URLSearchParams(location.search);
    next.set('entry', String(id));
    next.delete('tab');
    return { search: `?${next.toString()}` };
  };
  const title = (key: ColumnKey) => t(key === 'counterparty' ? `finances.field.counterparty.${team}` : TITLE[key]);
  const openLink = (e: FinanceEntry, className?: string) => (
    <Link to={openHref(e.id)} replace aria-label={t('finances.open', { id: e.id })} data-testid={`finance-open-${e.id}`} className={className}>
      FE-{e.id}
    </Link>
  );
  const amount = (e: FinanceEntry) => <MoneyCell amount={e.amount} currency={e.currency} highlightNegative />;
  const cell: Record<ColumnKey, (e: FinanceEntry) => ReactNode> = {
    id: (e) => openLink(e),
    period_start: (e) => (
      <>
        <span className="bo-fin-nowrap">{e.period_start}</span> – <span className="bo-fin-nowrap">{e.period_end}</span>
      </>
    ),
    counterparty: (e) => e.counterparty.name,
    network: (e) => e.network.name,
    item: (e) => t(`finances.item.${e.item}`),
    amount,
    comment: (e) => <span className="bo-fin-comment">{e.comment || <span className="bo-res-empty">—</span>}</span>,
    email: (e) => <EmailTag entry={e} />,
    created_at: (e) => formatDateTime(e.created_at, locale),
  };
  const column = (key: ColumnKey): DataColumn<FinanceEntry> => ({
    key,
    title: title(key),
    align: key === 'amount' ? 'right' : undefined,
    sort: SORTS.includes(key) ? key : undefined,
    render: cell[key],
  });
  const cpLabel = t(`finances.filter.counterparty.${team}`);
  return (
    <div className="bo-page bo-fin" data-testid={`finances-${team}`} data-state={data ? 'ready' : list.isError ? 'error' : 'loading'}>
      <div className="bo-res-head">
        <div>
          <h1 className="bo-page__title">
            {t(`menu.finances_${team}`)} · {t('menu.group.finances')}
          </h1>
          <Typography.Text type="secondary">{t(`finances.subtitle.${team}`)}</Typography.Text>
        </div>
        <Space wrap>
          {canWrite ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => update({ entry: 'new', tab: null })} data-testid="finance-new">
              {t('finances.new')}
            </Button>
          ) : null}
          <ApiExportButton {...entriesExport(team, view)} disabled={!data || data.total === 0} testId="finances-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={title} required={['id']} testId="finances-columns" />
        </Space>
      </div>

      <FiltersBar count={filters} filtered={filters > 0} onClear={clear} testId="finances">
        <DateRangeInput
          allowFuture
          aria-label={t('finances.filter.period')}
          value={view.from && view.to ? { start: view.from, end: view.to } : null}
          onChange={(v) => apply({ from: v?.start ?? null, to: v?.end ?? null })}
          className="bo-filter bo-fin-period"
        />
        <PartyFilter team={team} kind="counterparty" label={cpLabel} value={view.counterparty} onChange={(v) => apply({ counterparty: v.length > 0 ? v.join(',') : null })} />
        <PartyFilter team={team} kind="network" label={t('finances.filter.network')} value={view.network} onChange={(v) => apply({ network: v.length > 0 ? v.join(',') : null })} />
        <FilterSelect
          multiple
          label={t('finances.filter.item')}
          value={view.item}
          onChange={(v) => apply({ item: v.length > 0 ? v.join(',') : null })}
          options={FINANCE_ITEMS[team].map((i) => ({ value: i, label: t(`finances.item.${i}`) }))}
          testId="finances-filter-item"
        />
        <FilterSelect<EmailStatus>
          label={t('finances.filter.email')}
          value={view.email ?? ''}
          onChange={(email) => apply({ email: email || null })}
          options={EMAIL_STATUSES.map((s) => ({ value: s, label: t(`finances.email.${s}`) }))}
          testId="finances-filter-email"
        />
      </FiltersBar>

      {data && data.totals.length > 0 ? (
        <CurrencyTotals
          label={t('finances.totals')}
          testId="finances"
          cards={data.totals.map((x) => ({
            key: x.currency,
            title: x.currency,
            aside: t('finances.rows', { count: x.count }),
            figures: [{ label: t('finances.field.amount'), amount: x.amount, currency: x.currency }],
          }))}
        />
      ) : null}

      {list.isError ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<FinanceEntry, number>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(e) => e.id}
        columns={visible.map(column)}
        view={view}
        onView={(patch) => update(tableParams(patch, { sort: FINANCE_DEFAULT_SORT, pageSize: FINANCE_PAGE_SIZE }))}
        defaultSort={FINANCE_DEFAULT_SORT}
        pageSizes={FINANCE_PAGE_SIZES}
        sortOptions={sortChoices(FINANCE_SORTS, title)}
        sortLabel={t('finances.sort_by')}
        regionLabel={t(`menu.finances_${team}`)}
        countText={(count) => t('finances.rows', { count })}
        testId="finance"
        card={{
          title: (e, className) => openLink(e, className),
          tag: (e) => <EmailTag entry={e} />,
          fields: (e) => [
            { label: title('counterparty'), value: e.counterparty.name },
            { label: title('amount'), value: amount(e) },
            { label: title('period_start'), value: cell.period_start(e) },
            { label: title('item'), value: cell.item(e) },
          ],
        }}
        empty={<EmptyList description={filters > 0 ? t('common.no_data_found') : t('common.no_data_available')} testId="finances-empty" onClear={filters > 0 ? clear : undefined} />}
      />

      <EntryDrawer team={team} view={view} onView={(patch) => update(patch)} />
    </div>
  );
}
