/**
 * Finance entries of one team (`/finances/supply`, `/finances/demand`; spec section 5, Finances;
 * docs/decisions/029-prepayments-finances.md): the list filtered by period, counterparty, network,
 * item and e-mail status, sorted and paged by the server (the view in the URL), with the totals per
 * currency of every filtered entry and a CSV/XLSX export. "New entry" and each entry open a drawer:
 * the details with the e-mail's status (sent, failed with its error and "send again", not
 * requested), the edit form and the history.
 */
import { MailOutlined, PlusOutlined } from '@ant-design/icons';
import {
  EMAIL_STATUSES,
  FINANCE_ITEMS,
  FINANCE_PAGE_SIZES,
  FINANCES_RESOURCE,
  parseFinanceSort,
  type EmailStatus,
  type FinanceEntry,
  type FinanceTeam,
} from '@backoffice/core/finances';
import { Alert, App, Button, Descriptions, Drawer, Empty, List, Result, Select, Skeleton, Space, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import { useMemo, useState, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { DateRangeInput } from '../../components/date-range-input.tsx';
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
const SORTABLE = new Set(['id', 'period_start', 'amount', 'counterparty', 'network', 'item', 'created_at']);
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

function PartyFilter({ team, kind, value, onChange, label }: { team: FinanceTeam; kind: 'counterparty' | 'network'; value: number[]; onChange: (v: number[]) => void; label: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { options } = useOptions(team, kind, search.trim(), value);
  return (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      className="bo-res-filter"
      aria-label={label}
      placeholder={`${label}: ${t('resource.filter.any')}`}
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
  const location = useLocation();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const list = useEntries(team, view);
  const canWrite = usePermission(FINANCES_RESOURCE, 'write');
  const { isMobile, isTablet } = useViewport();
  const data = list.data;
  const filters = filterCount(view);
  // Narrower screens keep the columns a person scans for (the rest is in the entry's drawer).
  const shown = isMobile ? ['id', 'counterparty', 'amount', 'email'] : isTablet ? ['id', 'period_start', 'counterparty', 'item', 'amount', 'email'] : null;
  const apply = (patch: ViewPatch) => update({ page: null, ...patch });
  const openHref = (id: number) => {
    const next = new URLSearchParams(location.search);
    next.set('entry', String(id));
    next.delete('tab');
    return { search: `?${next.toString()}` };
  };
  const sort = parseFinanceSort(view.sort);
  const orderOf = (key: string): SortOrder => (sort.field === key ? (sort.desc ? 'descend' : 'ascend') : null);
  const col = (key: string, title: string, render: (e: FinanceEntry) => ReactNode, extra: object = {}) => ({
    key,
    title,
    sorter: SORTABLE.has(key),
    sortOrder: SORTABLE.has(key) ? orderOf(key) : undefined,
    render: (_: unknown, e: FinanceEntry) => render(e),
    ...extra,
  });
  const columns: TableColumnsType<FinanceEntry> = [
    col('id', t('finances.field.id'), (e) => (
      <Link to={openHref(e.id)} replace aria-label={t('finances.open', { id: e.id })} data-testid={`finance-open-${e.id}`} className="bo-fin-nowrap">
        FE-{e.id}
      </Link>
    )),
    col('period_start', t('finances.field.period'), (e) => <span className="bo-fin-nowrap">{`${e.period_start} – ${e.period_end}`}</span>),
    col('counterparty', t(`finances.field.counterparty.${team}`), (e) => e.counterparty.name),
    col('network', t('finances.field.network'), (e) => e.network.name),
    col('item', t('finances.field.item'), (e) => t(`finances.item.${e.item}`)),
    col('amount', t('finances.field.amount'), (e) => <MoneyCell amount={e.amount} currency={e.currency} highlightNegative />, { align: 'right' }),
    col('comment', t('finances.field.comment'), (e) => <span className="bo-fin-comment">{e.comment || <span className="bo-res-empty">—</span>}</span>),
    col('email', t('finances.field.email'), (e) => <EmailTag entry={e} />),
  ];
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filters > 0 ? t('common.no_data_found') : t('common.no_data_available')} data-testid="finances-empty" />;
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
        </Space>
      </div>

      <div className="bo-res-filters" data-testid="finances-filters">
        <DateRangeInput
          allowFuture
          aria-label={t('finances.filter.period')}
          value={view.from && view.to ? { start: view.from, end: view.to } : null}
          onChange={(v) => apply({ from: v?.start ?? null, to: v?.end ?? null })}
          className="bo-res-filter"
        />
        <PartyFilter team={team} kind="counterparty" label={cpLabel} value={view.counterparty} onChange={(v) => apply({ counterparty: v.length > 0 ? v.join(',') : null })} />
        <PartyFilter team={team} kind="network" label={t('finances.filter.network')} value={view.network} onChange={(v) => apply({ network: v.length > 0 ? v.join(',') : null })} />
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          className="bo-res-filter"
          aria-label={t('finances.filter.item')}
          placeholder={`${t('finances.filter.item')}: ${t('resource.filter.any')}`}
          value={view.item}
          options={FINANCE_ITEMS[team].map((i) => ({ value: i, label: t(`finances.item.${i}`) }))}
          onChange={(v: string[]) => apply({ item: v.length > 0 ? v.join(',') : null })}
          data-testid="finances-filter-item"
        />
        <Select
          allowClear
          className="bo-res-filter"
          aria-label={t('finances.filter.email')}
          placeholder={`${t('finances.filter.email')}: ${t('resource.filter.any')}`}
          value={view.email ?? undefined}
          options={EMAIL_STATUSES.map((s) => ({ value: s, label: t(`finances.email.${s}`) }))}
          onChange={(v?: string) => apply({ email: v ?? null })}
          data-testid="finances-filter-email"
        />
        {filters > 0 ? (
          <Button type="link" onClick={() => apply({ from: null, to: null, counterparty: null, network: null, item: null, email: null })}>
            {t('resource.filters.clear')}
          </Button>
        ) : null}
      </div>

      {list.isError ? (
        <Alert
          type="error"
          showIcon
          className="bo-fin-gap"
          title={t('finances.load_failed')}
          description={errorText(list.error)}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}

      {data && data.totals.length > 0 ? (
        <section className="bo-fin-totals" aria-label={t('finances.totals')} data-testid="finances-totals">
          <Typography.Text strong>
            {t('finances.totals')} ({t('finances.rows', { count: data.total })})
          </Typography.Text>
          {data.totals.map((x) => (
            <span key={x.currency}>
              <MoneyCell amount={x.amount} currency={x.currency} highlightNegative />
            </span>
          ))}
        </section>
      ) : null}

      <Table<FinanceEntry>
        rowKey="id"
        size="middle"
        columns={shown ? columns.filter((c) => shown.includes(String(c.key))) : columns}
        dataSource={data?.items ?? []}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: data ? empty : <span /> }}
        onRow={(e) =>
          ({
            onClick: (ev: MouseEvent) => {
              if (!(ev.target as HTMLElement).closest('a, button')) update({ entry: String(e.id), tab: null });
            },
            className: 'bo-res-row',
            'data-testid': `finance-row-${e.id}`,
          }) as HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: view.page,
          pageSize: view.page_size,
          total: data?.total ?? 0,
          showSizeChanger: !isMobile,
          simple: isMobile,
          pageSizeOptions: [...FINANCE_PAGE_SIZES],
          showTotal: (total) => <Typography.Text type="secondary">{t('finances.rows', { count: total })}</Typography.Text>,
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'paginate') {
            const size = pagination.pageSize ?? view.page_size;
            update(size !== view.page_size ? { page: null, page_size: String(size) } : { page: String(pagination.current ?? 1) });
          }
          if (extra.action === 'sort') {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<FinanceEntry> | undefined;
            const field = s?.columnKey === undefined ? '' : String(s.columnKey);
            apply({ sort: s?.order && SORTABLE.has(field) ? `${s.order === 'descend' ? '-' : ''}${field}` : null });
          }
        }}
      />

      <EntryDrawer team={team} view={view} onView={(patch) => update(patch)} />
    </div>
  );
}
