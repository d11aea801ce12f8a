/**
 * Impression logs (`/process/impressions-log`, issue 24; docs/decisions/032-impression-logs.md):
 * the requests with their status, a live progress bar while a job writes the file, rows, size,
 * requester and expiry, a download while the file is kept and a retry when a run failed or its
 * file expired; a form to ask for a new extract; "Process pending" for requests left waiting.
 * Searched, filtered, sorted and paged by the API with the view in the URL; column chooser;
 * CSV / XLSX export of the list. The list polls every 2 s while a request is pending or running.
 */
import { CloudDownloadOutlined, PlusOutlined, RedoOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { formatNumber } from '@backoffice/core/format';
import {
  IMPRESSION_LOG_DEFAULT_SORT,
  IMPRESSION_LOG_PAGE_SIZES,
  IMPRESSION_LOG_STATUSES,
  IMPRESSION_LOGS_EXPORT_NAME,
  IMPRESSION_LOGS_RESOURCE,
  describeFilter,
  type ImpressionLogListAnswer,
  type ImpressionLogRequest,
  type ImpressionLogStatus,
} from '@backoffice/core/impression-logs';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Button, Progress, Space, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { DataTable, EmptyList, ListError, sortChoices, type DataColumn } from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { useApiAction } from '../../components/use-api-action.ts';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { Page } from '../../shell/page.tsx';
import { downloadExtract, filterCount, formatBytes, LIST_PATH, listQuery, readView, viewPatch, type ImpressionLogOptions, type ImpressionLogsView } from './impression-logs-api.ts';
import { RequestForm } from './request-form.tsx';
import './impression-logs.css';

const COLUMNS = ['id', 'requested_at', 'date', 'network', 'status', 'rows', 'bytes', 'filters', 'columns', 'requested_by', 'expires_at', 'actions'] as const;
type ColumnKey = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: ColumnKey[] = ['requested_at', 'date', 'network', 'status', 'rows', 'bytes', 'filters', 'requested_by', 'expires_at', 'actions'];
const SORT_FIELDS = ['requested_at', 'date', 'network', 'status', 'rows', 'bytes'] as const;
const SORT_LABEL: Record<string, string> = { requested_at: 'impressions_log.col.requested_at', date: 'impressions_log.col.date', network: 'impressions_log.col.network', status: 'impressions_log.col.status', rows: 'impressions_log.col.rows', bytes: 'impressions_log.col.bytes' };
const TONE: Record<ImpressionLogStatus, StatusTone> = { pending: 'off', running: 'info', done: 'ok', failed: 'bad', expired: 'off' };

type ActionKey = 'process' | `download-${number}` | `retry-${number}`;

export default function ImpressionLogsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const queries = useQueryClient();
  const canWrite = usePermission(IMPRESSION_LOGS_RESOURCE, 'write');
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const query = listQuery(view);
  const list = useApiQuery<ImpressionLogListAnswer>(LIST_PATH, { query }, {
    placeholderData: keepPreviousData,
    // Live while anything runs or waits.
    refetchInterval: (q) => ((q.state.data?.active ?? 0) > 0 ? 2000 : false),
  });
  const options = useApiQuery<ImpressionLogOptions>('impressions-log/options', {}, { staleTime: 300_000 });
  const data = list.data;
  const [visible, setVisible] = useStoredColumns('impression-logs', COLUMNS, DEFAULT_COLUMNS);
  const [formOpen, setFormOpen] = useState(false);
  const action = useApiAction<ActionKey>();

  const apply = (patch: Partial<ImpressionLogsView>) => update(viewPatch('page' in patch ? patch : { ...patch, page: 1 }));
  const reload = () => queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'api' && q.queryKey[1] === LIST_PATH });
  const publisherName = useMemo(() => {
    const names = new Map((options.data?.publishers ?? []).map((p) => [p.id, p.name]));
    return (id: number) => names.get(id) ?? `#${id}`;
  }, [options.data]);
  const filtersText = (r: ImpressionLogRequest) => r.filters.map((f) => describeFilter(f, (k) => t(k), publisherName)).join(' · ');

  const processPending = () =>
    action.confirm(
      { title: t('impressions_log.ui.process_pending_title'), content: t('impressions_log.ui.process_pending_body'), ok: t('impressions_log.ui.process_pending'), testId: 'implog-process-ok' },
      'process',
      async () => {
        await api.request('impressions-log/process-pending', { method: 'POST', body: {} });
        await reload();
        return 'impressions_log.processing';
      },
    );
  const retry = (r: ImpressionLogRequest) =>
    void action.run(`retry-${r.id}`, async () => {
      await api.request(`impressions-log/${r.id}/retry`, { method: 'POST', body: {} });
      await reload();
      return 'impressions_log.retried';
    });
  const download = (r: ImpressionLogRequest) =>
    void action.run(`download-${r.id}`, async () => {
      await downloadExtract(r.id);
      return null;
    });

  /** The status with its progress or failure; on a card the tag is already in the heading. */
  const statusCell = (r: ImpressionLogRequest, withTag = true) => (
    <div className="bo-implog-status" data-testid={`implog-status-${r.id}`} data-status={r.status}>
      {withTag ? <StatusTag tone={TONE[r.status]}>{t(`impressions_log.status.${r.status}`)}</StatusTag> : null}
      {r.status === 'running' || r.status === 'pending' ? (
        <div className="bo-implog-progress">
          <Progress
            percent={r.progress}
            size="small"
            status="active"
            aria-label={`${t('impressions_log.col.progress')} ${r.id}`}
            data-testid={`implog-progress-${r.id}`}
          />
          <Typography.Text type="secondary" className="bo-implog-small">
            {r.status === 'pending'
              ? t('impressions_log.ui.waiting')
              : r.rows_total !== null
                ? t('impressions_log.ui.rows_of', { done: formatNumber(r.rows_done, locale, 0), total: formatNumber(r.rows_total, locale, 0) })
                : null}
          </Typography.Text>
        </div>
      ) : null}
      {r.status === 'failed' && r.error ? (
        <Typography.Text type="danger" className="bo-implog-small bo-implog-error" data-testid={`implog-error-${r.id}`}>
          {r.error}
        </Typography.Text>
      ) : null}
    </div>
  );
  const retryText = (r: ImpressionLogRequest) => (r.status === 'failed' ? t('impressions_log.ui.retry') : t('impressions_log.ui.run_again'));
  const actionsCell = (r: ImpressionLogRequest) => (
    <Space size={4} wrap>
      {r.status === 'done' ? (
        <Button
          size="small"
          type="primary"
          icon={<CloudDownloadOutlined />}
          loading={action.busy === `download-${r.id}`}
          onClick={() => download(r)}
          aria-label={t('impressions_log.ui.download_named', { name: r.file_name ?? r.id })}
          data-testid={`implog-download-${r.id}`}
        >
          {t('impressions_log.ui.download')}
        </Button>
      ) : null}
      {canWrite && (r.status === 'failed' || r.status === 'expired') ? (
        <Button size="small" icon={<RedoOutlined />} loading={action.busy === `retry-${r.id}`} onClick={() => retry(r)} aria-label={t('impressions_log.ui.retry_named', { id: r.id, action: retryText(r) })} data-testid={`implog-retry-${r.id}`}>
          {retryText(r)}
        </Button>
      ) : null}
    </Space>
  );
  const dash = '—';
  const col = (key: ColumnKey): DataColumn<ImpressionLogRequest> => {
    const title = t(`impressions_log.col.${key}`);
    switch (key) {
      case 'id':
        return { key, title, align: 'right', render: (r) => r.id };
      case 'requested_at':
        return { key, title, sort: 'requested_at', render: (r) => <span className="bo-implog-nowrap">{formatDateTime(r.requested_at, locale)}</span> };
      case 'date':
        return { key, title, sort: 'date', render: (r) => <span className="bo-implog-nowrap">{r.date}</span> };
      case 'network':
        return { key, title, sort: 'network', render: (r) => r.network };
      case 'status':
        return { key, title, sort: 'status', render: (r) => statusCell(r) };
      case 'rows':
        return { key, title, sort: 'rows', align: 'right', render: (r) => (r.status === 'done' || r.status === 'expired' ? formatNumber(r.rows_done, locale, 0) : dash) };
      case 'bytes':
        return { key, title, sort: 'bytes', align: 'right', render: (r) => <span className="bo-implog-nowrap">{formatBytes(r.bytes, locale)}</span> };
      case 'filters':
        return { key, title, render: (r) => <span className="bo-implog-filters">{filtersText(r)}</span> };
      case 'columns':
        return { key, title, render: (r) => <span className="bo-implog-filters">{r.columns.map((c) => t(`impressions_log.column.${c}`)).join(', ')}</span> };
      case 'requested_by':
        return { key, title, render: (r) => r.requested_by ?? dash };
      case 'expires_at':
        return {
          key,
          title,
          render: (r) =>
            r.expires_at ? (
              <span className="bo-implog-nowrap" data-testid={`implog-expires-${r.id}`}>
                {r.status === 'expired' ? `${t('impressions_log.ui.expired_on')} · ` : ''}
                {formatDateTime(r.expires_at, locale)}
              </span>
            ) : (
              dash
            ),
        };
      case 'actions':
        return { key, title, render: actionsCell };
    }
  };

  return (
    <Page title={t('menu.impressions_log')} testId="impression-logs-page">
      <Typography.Paragraph type="secondary">{t('impressions_log.subtitle')}</Typography.Paragraph>
      <div className="bo-implog-toolbar">
        <Space wrap>
          {canWrite ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormOpen(true)} data-testid="implog-new">
              {t('impressions_log.ui.new')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button icon={<ThunderboltOutlined />} onClick={processPending} loading={action.busy === 'process'} data-testid="implog-process">
              {t('impressions_log.ui.process_pending')}
            </Button>
          ) : null}
        </Space>
        <Space wrap>
          {data && data.active > 0 ? (
            <Tooltip title={t('impressions_log.ui.live')}>
              <span className="bo-implog-live" role="status" aria-label={t('impressions_log.ui.live')} data-testid="implog-live" />
            </Tooltip>
          ) : null}
          <ApiExportButton path={`/v1/${LIST_PATH}/export`} query={query} name={IMPRESSION_LOGS_EXPORT_NAME} disabled={!data || data.total === 0} testId="implog-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(`impressions_log.col.${k}`)} required={['status']} testId="implog-columns-chooser" />
        </Space>
      </div>

      <FiltersBar
        search={view.search}
        onSearch={(search) => apply({ search })}
        searchLabel={t('impressions_log.ui.search')}
        count={filterCount(view)}
        filtered={filterCount(view) > 0}
        onClear={() => apply({ search: '', status: [], network: '' })}
        testId="implog"
      >
        <FilterSelect multiple label={t('impressions_log.ui.statuses')} value={view.status} onChange={(status) => apply({ status: status as ImpressionLogStatus[] })} options={IMPRESSION_LOG_STATUSES.map((s) => ({ value: s, label: t(`impressions_log.status.${s}`) }))} testId="implog-filter-status" />
        <FilterSelect label={t('impressions_log.ui.network')} value={view.network} onChange={(network) => apply({ network })} options={(options.data?.networks ?? []).map((n) => ({ value: String(n.id), label: n.name }))} testId="implog-filter-network" />
      </FiltersBar>

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<ImpressionLogRequest, number>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching && !list.isRefetching}
        rowKey={(r) => r.id}
        columns={visible.map(col)}
        view={view}
        onView={(patch) => apply(patch)}
        defaultSort={IMPRESSION_LOG_DEFAULT_SORT}
        pageSizes={IMPRESSION_LOG_PAGE_SIZES}
        sortOptions={sortChoices(SORT_FIELDS, (f) => t(SORT_LABEL[f]!))}
        sortLabel={t('impressions_log.ui.sort_by')}
        regionLabel={t('menu.impressions_log')}
        testId="implog"
        card={{
          title: (r, className) => (
            <span className={className}>
              {r.network} · {r.date}
            </span>
          ),
          tag: (r) => <StatusTag tone={TONE[r.status]}>{t(`impressions_log.status.${r.status}`)}</StatusTag>,
          note: (r) => (r.status === 'running' || r.status === 'pending' || r.status === 'failed' ? statusCell(r, false) : null),
          fields: (r) => [
            { label: t('impressions_log.col.rows'), value: r.status === 'done' || r.status === 'expired' ? formatNumber(r.rows_done, locale, 0) : dash },
            { label: t('impressions_log.col.bytes'), value: formatBytes(r.bytes, locale) },
            { label: t('impressions_log.col.filters'), value: filtersText(r) },
            { label: t('impressions_log.col.requested_by'), value: r.requested_by ?? dash },
            { label: t('impressions_log.col.requested_at'), value: formatDateTime(r.requested_at, locale) },
            { label: t('impressions_log.col.expires_at'), value: r.expires_at ? `${r.status === 'expired' ? `${t('impressions_log.ui.expired_on')} · ` : ''}${formatDateTime(r.expires_at, locale)}` : dash },
            { key: 'actions', label: t('impressions_log.col.actions'), value: actionsCell(r) },
          ],
        }}
        empty={<EmptyList description={t('impressions_log.ui.empty')} testId="implog-empty" onClear={filterCount(view) > 0 ? () => apply({ search: '', status: [], network: '' }) : undefined} />}
      />

      {formOpen ? (
        <RequestForm
          options={options.data}
          onClose={() => setFormOpen(false)}
          onCreated={(item) => {
            setFormOpen(false);
            void notice.success(t('impressions_log.added'));
            apply({ status: [], search: '', network: '', sort: IMPRESSION_LOG_DEFAULT_SORT });
            void reload();
            void item;
          }}
        />
      ) : null}
    </Page>
  );
}
