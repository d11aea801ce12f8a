/**
 * Manual stats (`/utils/ssp/stats-manual`; docs/decisions/034-partner-reported-figures.md): the
 * daily figures of the demand partners without an API, filtered (partner name, partners, days,
 * source), sorted and paged by the server with the view in the URL, totals of what is filtered,
 * a column chooser and CSV/XLSX export; entering days by hand and uploading a CSV/XLSX (both ask
 * before replacing days that hold other figures). Billing bills these days, marked manual.
 */
import { EditOutlined, UploadOutlined } from '@ant-design/icons';
import { formatNumber } from '@backoffice/core/format';
import { STATS_DEFAULT_SORT, STATS_EXPORT_NAME, STATS_PAGE_SIZES, STAT_SOURCES, type ManualPartner, type PartnerStat, type StatSource, type StatsAnswer } from '@backoffice/core/partner-stats';
import { keepPreviousData } from '@tanstack/react-query';
import { Button, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { DataTable, EmptyList, ListError, sortChoices, type DataColumn } from '../../components/data-table.tsx';
import { DateRangeInput } from '../../components/date-range-input.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { Page } from '../../shell/page.tsx';
import { EnterDaysModal } from './enter-days-modal.tsx';
import { readStatsView, statsQuery, type StatsView } from './partner-stats-api.ts';
import { UploadModal } from './upload-modal.tsx';
import './partner-stats.css';

const COLUMNS = ['day', 'partner', 'impressions', 'revenue', 'source', 'updated_by', 'updated_at'] as const;
type Column = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: Column[] = ['day', 'partner', 'impressions', 'revenue', 'source', 'updated_by'];
const SORT_FIELDS = ['day', 'partner', 'impressions', 'revenue', 'source', 'updated_at'] as const;
const SOURCE_TONE: Record<StatSource, StatusTone> = { manual: 'info', upload: 'off', amazon_csv: 'ok' };

export default function StatsManualPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, update] = useUrlState();
  const view = useMemo(() => readStatsView(params), [params]);
  const query = statsQuery(view);
  const list = useApiQuery<StatsAnswer>('stats-manual', { query }, { placeholderData: keepPreviousData });
  const partners = useApiQuery<ManualPartner[]>('stats-manual/partners');
  const canWrite = usePermission('/v1/stats-manual', 'write');
  const [visible, setVisible] = useStoredColumns('stats-manual', COLUMNS, DEFAULT_COLUMNS);
  const [dialog, setDialog] = useState<'enter' | 'upload' | null>(null);
  const data = list.data;

  type Patch = Partial<Omit<StatsView, 'partner'>> & { partner?: string[] };
  const apply = (patch: Patch) => {
    const out: Record<string, string | null> = {};
    if ('search' in patch) out.q = patch.search || null;
    if ('partner' in patch) out.partner = patch.partner?.join(',') || null;
    if ('from' in patch) out.from = patch.from || null;
    if ('to' in patch) out.to = patch.to || null;
    if ('source' in patch) out.source = patch.source || null;
    if ('sort' in patch) out.sort = patch.sort && patch.sort !== STATS_DEFAULT_SORT ? patch.sort : null;
    if ('pageSize' in patch) out.page_size = patch.pageSize ? String(patch.pageSize) : null;
    out.page = 'page' in patch && patch.page && patch.page > 1 ? String(patch.page) : null;
    update(out);
  };
  const filterCount = (view.search ? 1 : 0) + (view.partner.length > 0 ? 1 : 0) + (view.from ? 1 : 0) + (view.source ? 1 : 0);
  const clear = () => apply({ search: '', partner: [], from: '', to: '', source: '' });
  const reload = () => {
    void list.refetch();
    void partners.refetch();
  };

  const col = (key: Column): DataColumn<PartnerStat> => {
    switch (key) {
      case 'day':
        return { key, title: t('stats.col.day'), sort: 'day', render: (r) => <span className="bo-ps-nowrap">{r.day}</span> };
      case 'partner':
        return { key, title: t('stats.col.partner'), sort: 'partner', render: (r) => r.partner };
      case 'impressions':
        return { key, title: t('stats.col.impressions'), sort: 'impressions', align: 'right', render: (r) => formatNumber(r.impressions, locale, 0) };
      case 'revenue':
        return { key, title: t('stats.col.revenue'), sort: 'revenue', align: 'right', render: (r) => <MoneyCell amount={r.revenue} currency={r.currency} /> };
      case 'source':
        return { key, title: t('stats.col.source'), sort: 'source', render: (r) => <StatusTag tone={SOURCE_TONE[r.source]}>{t(`stats.source.${r.source}`)}</StatusTag> };
      case 'updated_by':
        return { key, title: t('stats.col.updated_by'), render: (r) => r.updated_by ?? '—' };
      case 'updated_at':
        return { key, title: t('stats.col.updated_at'), sort: 'updated_at', render: (r) => formatDateTime(r.updated_at, locale) };
    }
  };

  return (
    <Page title={t('menu.stats_manual')} testId="stats-manual-page">
      <Typography.Paragraph type="secondary">{t('stats.subtitle')}</Typography.Paragraph>
      <div className="bo-ps-toolbar">
        <Space wrap>
          {canWrite ? (
            <>
              <Button type="primary" icon={<EditOutlined />} onClick={() => setDialog('enter')} disabled={!partners.data} data-testid="stats-enter-open">
                {t('stats.action.enter')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => setDialog('upload')} disabled={!partners.data} data-testid="stats-upload-open">
                {t('stats.action.upload')}
              </Button>
            </>
          ) : null}
        </Space>
        <Space wrap>
          <ApiExportButton path="/v1/stats-manual/export" query={statsQuery(view, false)} name={STATS_EXPORT_NAME} disabled={!data || data.total === 0} testId="stats-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(`stats.col.${k}`)} required={['day', 'partner']} testId="stats-columns" />
        </Space>
      </div>

      <FiltersBar search={view.search} onSearch={(search) => apply({ search })} searchLabel={t('stats.filter.partner')} count={filterCount} filtered={filterCount > 0} onClear={clear} testId="stats">
        <FilterSelect
          multiple
          label={t('stats.filter.partner')}
          value={view.partner}
          onChange={(partner) => apply({ partner })}
          options={(partners.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          testId="stats-filter-partner"
        />
        <DateRangeInput
          className="bo-filter"
          aria-label={t('stats.filter.dates')}
          value={view.from && view.to ? { start: view.from, end: view.to } : null}
          onChange={(r) => apply({ from: r?.start ?? '', to: r?.end ?? '' })}
          allowClear
        />
        <FilterSelect small label={t('stats.filter.source')} value={view.source} onChange={(source) => apply({ source })} options={STAT_SOURCES.map((s) => ({ value: s, label: t(`stats.source.${s}`) }))} testId="stats-filter-source" />
      </FiltersBar>

      {data ? (
        <div className="bo-ps-totals" data-testid="stats-totals">
          <Typography.Text type="secondary">{t('stats.totals', { days: formatNumber(data.totals.days, locale, 0), impressions: formatNumber(data.totals.impressions, locale, 0) })}</Typography.Text>
          <span> · </span>
          <strong>
            <MoneyCell amount={data.totals.revenue} currency={data.totals.currency} />
          </strong>
        </div>
      ) : null}

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<PartnerStat, number>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(r) => r.id}
        columns={visible.map(col)}
        view={view}
        onView={(patch) => apply(patch)}
        defaultSort={STATS_DEFAULT_SORT}
        pageSizes={STATS_PAGE_SIZES}
        sortOptions={sortChoices(SORT_FIELDS, (f) => t(`stats.col.${f}`))}
        sortLabel={t('stats.col.day')}
        regionLabel={t('menu.stats_manual')}
        testId="stats"
        card={{
          title: (r, className) => (
            <span className={className}>
              {r.day} · {r.partner}
            </span>
          ),
          tag: (r) => <StatusTag tone={SOURCE_TONE[r.source]}>{t(`stats.source.${r.source}`)}</StatusTag>,
          fields: (r) => [
            { label: t('stats.col.impressions'), value: formatNumber(r.impressions, locale, 0) },
            { label: t('stats.col.revenue'), value: <MoneyCell amount={r.revenue} currency={r.currency} /> },
            { label: t('stats.col.updated_by'), value: r.updated_by ?? '—' },
          ],
        }}
        empty={<EmptyList description={t('stats.empty')} testId="stats-empty" onClear={filterCount > 0 ? clear : undefined} />}
      />

      {dialog === 'enter' && partners.data ? <EnterDaysModal partners={partners.data} onClose={() => setDialog(null)} onSaved={reload} /> : null}
      {dialog === 'upload' && partners.data ? <UploadModal partners={partners.data} onClose={() => setDialog(null)} onSaved={reload} /> : null}
    </Page>
  );
}
