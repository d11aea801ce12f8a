/**
 * SSP logs tool (`/process/ssp-logs-tool`; docs/decisions/035-ssp-logs.md): the sampled auction
 * logs, searched by exact request id, publisher, partner, outcome and time window, sorted (time,
 * latency) and paged by the server, the view in the URL; the sampling status (polled while a run
 * is on) with a link to the hidden parametrization for those who may see it; CSV / XLSX export
 * without the JSON; a column chooser. A log opens in the viewer (`?log={id}`).
 */
import { SettingOutlined } from '@ant-design/icons';
import { SSP_LOG_DEFAULT_SORT, SSP_LOG_OUTCOMES, SSP_LOG_PAGE_SIZES, SSP_LOG_SORTS, SSP_LOGS_EXPORT_NAME, type SamplingStatus, type SspLogLookups, type SspLogRow } from '@backoffice/core/ssp-logs';
import { isAdmin } from '@backoffice/core/acl';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { DataTable, EmptyList, ListError, sortChoices, type DataColumn } from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useSession } from '../../lib/session-store.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { StatusTag, formatDateTime } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { Page } from '../../shell/page.tsx';
import { LogViewer } from './log-viewer.tsx';
import { LOGS_PATH, OUTCOME_TONE, filterCount, listQuery, readView, viewPatch, type LogsView } from './ssp-logs-api.ts';
import './ssp-logs.css';

const COLUMNS = ['time', 'request_id', 'publisher', 'inventory', 'partner', 'media_type', 'outcome', 'latency', 'bid_price', 'clearing_price', 'floor', 'deal', 'endpoint'] as const;
type Column = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: Column[] = ['time', 'request_id', 'publisher', 'partner', 'outcome', 'latency', 'bid_price'];

export default function SspLogsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const query = listQuery(view);
  const list = useApiQuery<{ items: SspLogRow[]; total: number }>(LOGS_PATH, { query }, { placeholderData: keepPreviousData });
  const lookups = useApiQuery<SspLogLookups>(`${LOGS_PATH}/lookups`, {}, { staleTime: 300_000 });
  const status = useApiQuery<SamplingStatus>(`${LOGS_PATH}/status`, {}, { refetchInterval: (q) => (q.state.data?.sampling ? 15_000 : false) });
  // The parametrization is a hidden menu entry: the shell opens it for an ADMIN only (spec 6, core/menu.ts).
  const canParam = useSession((st) => isAdmin(st.user?.roles));
  const [visible, setVisible] = useStoredColumns('ssp-logs', COLUMNS, DEFAULT_COLUMNS);
  const data = list.data;
  const apply = (patch: Partial<LogsView>) => update(viewPatch('page' in patch || 'log' in patch ? patch : { ...patch, page: 1 }));
  const clear = () => apply({ requestId: '', publisher: '', partner: '', outcome: '', from: '', to: '' });
  const count = filterCount(view);

  const open = (r: SspLogRow) => (
    <Button type="link" className="bo-sspl-open" onClick={() => apply({ log: r.id })} title={t('ssp_logs.open', { id: r.request_id })} data-testid={`ssp-log-open-${r.id}`}>
      <span className="bo-sspl-open__text">{r.request_id}</span>
    </Button>
  );
  const price = (v: string | null, cur: string | null) => (v ? `${v} ${cur ?? ''}` : <span className="bo-res-empty">—</span>);
  const cell: Record<Column, DataColumn<SspLogRow>> = {
    time: { key: 'time', title: t('ssp_logs.col.time'), sort: 'time', render: (r) => <span className="bo-sspl-nowrap">{formatDateTime(r.logged_at, locale)}</span> },
    request_id: { key: 'request_id', title: t('ssp_logs.col.request_id'), render: open },
    publisher: { key: 'publisher', title: t('ssp_logs.col.publisher'), render: (r) => r.publisher.name },
    inventory: { key: 'inventory', title: t('ssp_logs.col.inventory'), render: (r) => r.inventory },
    partner: { key: 'partner', title: t('ssp_logs.col.partner'), render: (r) => r.partner.name },
    media_type: { key: 'media_type', title: t('ssp_logs.col.media_type'), render: (r) => r.media_type },
    outcome: { key: 'outcome', title: t('ssp_logs.col.outcome'), render: (r) => <StatusTag tone={OUTCOME_TONE[r.outcome]}>{t(`ssp_logs.outcome.${r.outcome}`)}</StatusTag> },
    latency: { key: 'latency', title: t('ssp_logs.col.latency'), sort: 'latency', align: 'right', render: (r) => r.latency_ms },
    bid_price: { key: 'bid_price', title: t('ssp_logs.col.bid_price'), align: 'right', render: (r) => price(r.bid_price, r.bid_currency) },
    clearing_price: { key: 'clearing_price', title: t('ssp_logs.col.clearing_price'), align: 'right', render: (r) => price(r.clearing_price, r.bid_currency) },
    floor: { key: 'floor', title: t('ssp_logs.col.floor'), align: 'right', render: (r) => price(r.floor, 'USD') },
    deal: { key: 'deal', title: t('ssp_logs.col.deal'), render: (r) => r.deal_id ?? <span className="bo-res-empty">—</span> },
    endpoint: { key: 'endpoint', title: t('ssp_logs.col.endpoint'), render: (r) => `${r.endpoint} · ${r.region}` },
  };

  const s = status.data;
  const window: [Dayjs | null, Dayjs | null] = [view.from ? dayjs(view.from) : null, view.to ? dayjs(view.to) : null];

  return (
    <Page title={t('menu.ssp_logs_tool')} testId="ssp-logs">
      <div className="bo-res-head">
        <Typography.Text type="secondary">{t('ssp_logs.subtitle')}</Typography.Text>
        <Space wrap>
          <ApiExportButton path={`/v1/${LOGS_PATH}/export`} query={query} name={SSP_LOGS_EXPORT_NAME} disabled={!data || data.total === 0} testId="ssp-logs-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(`ssp_logs.col.${k}`)} required={['request_id']} testId="ssp-logs-columns" />
        </Space>
      </div>

      {s ? (
        <Alert
          className="bo-sspl-status"
          type={s.sampling ? 'success' : 'info'}
          showIcon
          data-testid="ssp-logs-status"
          data-sampling={s.sampling ? 'on' : 'off'}
          title={
            s.sampling
              ? t('ssp_logs.status.on', {
                  rate: s.sample_rate_pct,
                  scope: s.partner_scope === 'all' ? t('ssp_logs.status.scope_all') : t('ssp_logs.status.scope_some', { count: s.partner_count }),
                  end: formatDateTime(s.ends_at, locale),
                })
              : t('ssp_logs.status.off')
          }
          description={t('ssp_logs.status.kept', { rows: s.rows.toLocaleString(locale), days: s.retention_days })}
          action={
            canParam ? (
              <Link to={`/${locale}/utils/ssp/logs-data/parametrization`} data-testid="ssp-logs-to-parametrization">
                <SettingOutlined /> {t('ssp_logs.status.parametrization')}
              </Link>
            ) : null
          }
        />
      ) : null}

      <FiltersBar
        search={view.requestId}
        onSearch={(requestId) => apply({ requestId })}
        searchLabel={t('ssp_logs.filter.request_id')}
        searchMaxLength={100}
        count={count}
        filtered={count > 0}
        onClear={clear}
        className="bo-sspl-filters"
        testId="ssp-logs"
      >
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          className="bo-filter"
          placeholder={t('ssp_logs.filter.publisher')}
          aria-label={t('ssp_logs.filter.publisher')}
          value={view.publisher || undefined}
          options={(lookups.data?.publishers ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(v?: string) => apply({ publisher: v ?? '' })}
          data-testid="ssp-logs-filter-publisher"
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          className="bo-filter"
          placeholder={t('ssp_logs.filter.partner')}
          aria-label={t('ssp_logs.filter.partner')}
          value={view.partner || undefined}
          options={(lookups.data?.partners ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(v?: string) => apply({ partner: v ?? '' })}
          data-testid="ssp-logs-filter-partner"
        />
        <FilterSelect small label={t('ssp_logs.filter.outcome')} value={view.outcome} onChange={(outcome) => apply({ outcome })} options={SSP_LOG_OUTCOMES.map((o) => ({ value: o, label: t(`ssp_logs.outcome.${o}`) }))} testId="ssp-logs-filter-outcome" />
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          allowEmpty={[true, true]}
          className="bo-filter bo-sspl-window"
          aria-label={t('ssp_logs.filter.window')}
          placeholder={[t('ssp_logs.filter.from'), t('ssp_logs.filter.to')]}
          value={window}
          onChange={(v) => apply({ from: v?.[0] ? v[0].second(0).millisecond(0).toISOString() : '', to: v?.[1] ? v[1].second(0).millisecond(0).toISOString() : '' })}
          data-testid="ssp-logs-filter-window"
        />
      </FiltersBar>

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<SspLogRow, number>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(r) => r.id}
        columns={visible.map((k) => cell[k])}
        view={view}
        onView={(patch) => apply(patch)}
        defaultSort={SSP_LOG_DEFAULT_SORT}
        pageSizes={SSP_LOG_PAGE_SIZES}
        sortOptions={sortChoices(SSP_LOG_SORTS, (f) => t(`ssp_logs.sort.${f}`))}
        sortLabel={t('ssp_logs.sort_by')}
        regionLabel={t('menu.ssp_logs_tool')}
        testId="ssp-logs"
        card={{
          title: (r, className) => (
            <Button type="link" className={className} onClick={() => apply({ log: r.id })} title={t('ssp_logs.open', { id: r.request_id })} data-testid={`ssp-log-card-open-${r.id}`}>
              {r.partner.name} · {formatDateTime(r.logged_at, locale)}
            </Button>
          ),
          tag: (r) => <StatusTag tone={OUTCOME_TONE[r.outcome]}>{t(`ssp_logs.outcome.${r.outcome}`)}</StatusTag>,
          fields: (r) => [
            { label: t('ssp_logs.col.publisher'), value: `${r.publisher.name} · ${r.inventory}` },
            { label: t('ssp_logs.col.request_id'), value: <code className="bo-sspl-id">{r.request_id}</code> },
            { label: t('ssp_logs.col.latency'), value: r.latency_ms },
            { label: t('ssp_logs.col.bid_price'), value: price(r.bid_price, r.bid_currency) },
          ],
        }}
        empty={<EmptyList description={count > 0 ? t('ssp_logs.empty') : t('ssp_logs.empty_none')} testId="ssp-logs-empty" onClear={count > 0 ? clear : undefined} />}
      />
      {view.log !== null ? <LogViewer id={view.log} onClose={() => apply({ log: null })} /> : null}
    </Page>
  );
}
