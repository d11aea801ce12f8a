/**
 * Discrepancy review (`/process/discrepancy`; docs/decisions/033-discrepancy-review.md): the
 * requests (state filter, sort and page by the server, in the URL; progress live while a job runs;
 * column chooser; CSV/XLSX export), a new request (date, networks, the partner's CSV or typed
 * figures), the tolerance setting, and one request's review in a drawer.
 */
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { DISCREPANCY_PAGE_SIZES, DISCREPANCY_STATES, discrepancyExportName, toleranceText, type DiscrepancyRequestDto } from '@backoffice/core/discrepancy';
import { Button, Form, Input, Progress, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionModal } from '../../components/action-modal.tsx';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { DataTable, EmptyList, ListError, sortChoices, type DataColumn } from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { useApiAction } from '../../components/use-api-action.ts';
import { useLocale } from '../../components/use-locale.ts';
import { api } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useUrlState } from '../../lib/use-url-state.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { listQuery, readView, useInvalidate, useRequests, useSettings } from './discrepancy-api.ts';
import { RequestForm } from './request-form.tsx';
import { ReviewDrawer, StateTag } from './review-drawer.tsx';
import './discrepancy.css';

const COLUMNS = ['id', 'date', 'networks', 'state', 'progress', 'flagged', 'undecided', 'tolerance', 'source', 'created_by', 'created_at'] as const;
type Column = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: Column[] = ['id', 'date', 'networks', 'state', 'progress', 'flagged', 'undecided', 'created_by', 'created_at'];

export default function DiscrepancyPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const list = useRequests(view);
  const settings = useSettings();
  const canWrite = usePermission('/v1/discrepancy', 'write');
  const [visible, setVisible] = useStoredColumns<Column>('discrepancy.requests', COLUMNS, DEFAULT_COLUMNS);
  const [creating, setCreating] = useState(false);
  const [tolerance, setTolerance] = useState<string | null>(null);
  const [toleranceError, setToleranceError] = useState<string | null>(null);
  const invalidate = useInvalidate();
  const action = useApiAction<'tolerance'>();
  const data = list.data;
  const open = (id: number) => update({ request: String(id), filter: null, rsort: null, rpage: null });

  const saveTolerance = () => {
    if (tolerance === null) return;
    if (!toleranceText.safeParse(tolerance).success) return setToleranceError('discrepancy.tolerance_invalid');
    void action.run(
      'tolerance',
      async () => {
        await api.request('discrepancy/settings', { method: 'PUT', body: { tolerance_pct: tolerance.trim(), version: settings.data?.version ?? 0 } });
        setTolerance(null);
        await invalidate();
        return 'discrepancy.tolerance_saved';
      },
      (e) => {
        if (e instanceof FetchError && e.httpStatus === 409) void invalidate();
        if (e instanceof FetchError && e.details.errors?.tolerance_pct) {
          setToleranceError(e.details.errors.tolerance_pct);
          return true;
        }
        return false;
      },
    );
  };

  const progress = (r: DiscrepancyRequestDto) =>
    r.state === 'queued' || r.state === 'running' ? (
      <Progress size="small" percent={r.progress.total ? Math.round((r.progress.done / r.progress.total) * 100) : 0} status="active" aria-label={t('discrepancy.progress', r.progress)} />
    ) : (
      <Typography.Text type="secondary">{t('discrepancy.progress', r.progress)}</Typography.Text>
    );
  const openButton = (r: DiscrepancyRequestDto, className?: string) => (
    <Button type="link" className={className} onClick={() => open(r.id)} data-testid={`discrepancy-open-${r.id}`} aria-label={t('discrepancy.open', { id: r.id })}>
      #{r.id}
    </Button>
  );
  const cols: Record<Column, DataColumn<DiscrepancyRequestDto>> = {
    id: { key: 'id', title: t('discrepancy.col.id'), render: (r) => openButton(r) },
    date: { key: 'date', title: t('discrepancy.col.period'), sort: 'date', render: (r) => `${r.from_date} – ${r.date}` },
    networks: { key: 'networks', title: t('discrepancy.col.networks'), render: (r) => <span className="bo-disc-networks">{r.networks.map((n) => n.name).join(', ')}</span> },
    state: { key: 'state', title: t('discrepancy.col.state'), render: (r) => <StateTag state={r.state} /> },
    progress: { key: 'progress', title: t('discrepancy.col.progress'), render: progress },
    flagged: { key: 'flagged', title: t('discrepancy.col.flagged'), sort: 'flagged', align: 'right', render: (r) => r.counts.flagged },
    undecided: { key: 'undecided', title: t('discrepancy.col.undecided'), align: 'right', render: (r) => r.counts.undecided },
    tolerance: { key: 'tolerance', title: t('discrepancy.col.tolerance'), align: 'right', render: (r) => `${r.tolerance_pct} %` },
    source: { key: 'source', title: t('discrepancy.col.source'), render: (r) => r.file_name ?? t('discrepancy.source.typed') },
    created_by: { key: 'created_by', title: t('discrepancy.col.created_by'), render: (r) => r.created_by ?? '—' },
    created_at: { key: 'created_at', title: t('discrepancy.col.created_at'), sort: 'created_at', render: (r) => formatDateTime(r.created_at, locale) },
  };

  return (
    <div className="bo-page bo-disc" data-testid="discrepancy" data-state={data ? 'ready' : list.isError ? 'error' : 'loading'}>
      <div className="bo-res-head bo-disc-head">
        <div>
          <h1 className="bo-page__title">{t('menu.discrepancy')}</h1>
          <Typography.Text type="secondary">{t('discrepancy.subtitle')}</Typography.Text>
        </div>
        <Space wrap>
          {settings.data ? (
            <Typography.Text data-testid="discrepancy-tolerance">{t('discrepancy.tolerance_value', { pct: settings.data.tolerance_pct })}</Typography.Text>
          ) : null}
          {canWrite ? (
            <Button icon={<SettingOutlined />} onClick={() => (setToleranceError(null), setTolerance(settings.data?.tolerance_pct ?? '10'))} data-testid="discrepancy-tolerance-edit">
              {t('discrepancy.tolerance_edit')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="discrepancy-new">
              {t('discrepancy.new')}
            </Button>
          ) : null}
          <ApiExportButton path="/v1/discrepancy/requests/export" query={listQuery(view, false)} name={discrepancyExportName} disabled={!data || data.total === 0} testId="discrepancy-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(k === 'date' ? 'discrepancy.col.period' : `discrepancy.col.${k}`)} required={['id']} testId="discrepancy-columns" />
        </Space>
      </div>

      <FiltersBar
        search={view.search}
        onSearch={(q) => update({ q: q || null, page: null })}
        searchLabel={t('discrepancy.search')}
        count={(view.state ? 1 : 0) + (view.search ? 1 : 0)}
        filtered={Boolean(view.state || view.search)}
        onClear={() => update({ state: null, q: null, page: null })}
        testId="discrepancy"
      >
        <FilterSelect label={t('discrepancy.filter.state')} value={view.state} onChange={(state) => update({ state: state || null, page: null })} options={DISCREPANCY_STATES.map((s) => ({ value: s, label: t(`discrepancy.state.${s}`) }))} testId="discrepancy-filter-state" />
      </FiltersBar>

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<DiscrepancyRequestDto, number>
        rows={data?.rows ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching && !data}
        rowKey={(r) => r.id}
        columns={visible.map((k) => cols[k])}
        view={view}
        onView={(p) => update({ ...(p.sort !== undefined ? { sort: p.sort } : {}), ...(p.page !== undefined ? { page: p.page > 1 ? String(p.page) : null } : {}), ...(p.pageSize !== undefined ? { page_size: String(p.pageSize), page: null } : {}) })}
        defaultSort="-created_at"
        pageSizes={DISCREPANCY_PAGE_SIZES}
        sortOptions={sortChoices(['created_at', 'date', 'flagged'], (f) => t(f === 'date' ? 'discrepancy.col.period' : `discrepancy.col.${f}`))}
        sortLabel={t('discrepancy.col.created_at')}
        regionLabel={t('menu.discrepancy')}
        testId="discrepancy"
        card={{
          title: (r, className) => openButton(r, className),
          tag: (r) => <StateTag state={r.state} />,
          fields: (r) => [
            { label: t('discrepancy.col.period'), value: `${r.from_date} – ${r.date}` },
            { label: t('discrepancy.col.networks'), value: r.networks.map((n) => n.name).join(', ') },
            { label: t('discrepancy.col.progress'), value: progress(r) },
            { label: t('discrepancy.col.undecided'), value: `${r.counts.undecided} / ${r.counts.flagged}` },
          ],
        }}
        empty={<EmptyList description={t('common.no_discrepancy_requests')} testId="discrepancy-empty" onClear={view.state || view.search ? () => update({ state: null, q: null, page: null }) : undefined} />}
      />

      <RequestForm
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(r) => {
          setCreating(false);
          void invalidate();
          open(r.id);
        }}
      />
      <ReviewDrawer view={view} onView={(patch) => update(patch)} onClose={() => update({ request: null, filter: null, rsort: null, rpage: null, rpage_size: null })} />
      {tolerance !== null ? (
        <ActionModal title={t('discrepancy.tolerance_edit')} ok={t('common.save')} onOk={saveTolerance} onCancel={() => setTolerance(null)} busy={action.busy === 'tolerance'} testId="discrepancy-tolerance-save">
          <Form layout="vertical" component="div">
            <Form.Item label={t('discrepancy.tolerance')} validateStatus={toleranceError ? 'error' : undefined} help={toleranceError ? t(toleranceError) : undefined}>
              <Input value={tolerance} onChange={(e) => setTolerance(e.target.value)} inputMode="decimal" suffix="%" data-testid="discrepancy-tolerance-input" />
            </Form.Item>
          </Form>
        </ActionModal>
      ) : null}
    </div>
  );
}
