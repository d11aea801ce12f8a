/**
 * Creative sizes (`/utils/info_creative_sizes`; docs/decisions/042-creatives.md): the IAB standard
 * ad sizes with each one's shape, initial-load and subload weight limits, formats and how many ad
 * units use it; searched by name (either language) or size, filtered by format and "most common",
 * sorted and paged by the server, the view in the URL; CSV / XLSX export; a column chooser. A size
 * opens in a drawer with the ad units that use it (`?open=300x250`).
 */
import {
  CREATIVE_FORMATS,
  CREATIVE_SIZE_DEFAULT_SORT,
  CREATIVE_SIZE_PAGE_SIZES,
  CREATIVE_SIZE_SORTS,
  CREATIVE_SIZES_EXPORT_NAME,
  type CreativeSizeRow,
  type CreativeSizesAnswer,
} from '@backoffice/core/creatives';
import { keepPreviousData } from '@tanstack/react-query';
import { Button, Checkbox, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import {
  DataTable,
  EmptyList,
  ListError,
  sortChoices,
  type DataColumn,
} from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { Page } from '../../shell/page.tsx';
import { SIZES_PATH, filterCount, listQuery, readView, viewPatch, type SizesView } from './creatives-api.ts';
import './creatives.css';
import { SizeDrawer } from './size-drawer.tsx';
import { SizeShape } from './size-shape.tsx';

const COLUMNS = [
  'preview',
  'size',
  'name',
  'initial_load',
  'subload',
  'formats',
  'ad_units',
  'common',
  'basis',
] as const;
type Column = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: Column[] = [
  'preview',
  'size',
  'name',
  'initial_load',
  'subload',
  'formats',
  'ad_units',
];

export default function CreativeSizesPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params), [params]);
  const query = listQuery(view);
  const list = useApiQuery<CreativeSizesAnswer>(SIZES_PATH, { query }, { placeholderData: keepPreviousData });
  const [visible, setVisible] = useStoredColumns('creative-sizes', COLUMNS, DEFAULT_COLUMNS);
  const data = list.data;
  const apply = (patch: Partial<SizesView>) => {
    const keepsPage =
      'page' in patch ||
      'open' in patch ||
      'unitSearch' in patch ||
      'unitPage' in patch ||
      'pageSize' in patch;
    update(viewPatch(keepsPage ? patch : { ...patch, page: 1 }));
  };
  const clear = () => apply({ search: '', format: '', common: false });
  const count = filterCount(view);
  const kb = (v: number | null) =>
    v === null ? (
      <Typography.Text type="secondary">{t('creatives.none')}</Typography.Text>
    ) : (
      <span className="bo-cre-nowrap">{t('creatives.kb', { kb: v })}</span>
    );
  const name = (r: CreativeSizeRow) => t(r.name_key);
  const open = (r: CreativeSizeRow, className?: string, testId = `creative-size-open-${r.id}`) => (
    <Button
      type="link"
      className={className ?? 'bo-cre-size'}
      onClick={() => apply({ open: r.id, unitSearch: '', unitPage: 1 })}
      aria-label={t('creatives.open', { size: r.id })}
      data-testid={testId}
    >
      {r.id}
    </Button>
  );
  const formats = (r: CreativeSizeRow) => (
    <Space size={4} wrap>
      {r.formats.map((f) => (
        <Tag key={f}>{t(`creatives.format.${f}`)}</Tag>
      ))}
    </Space>
  );
  const cell: Record<Column, DataColumn<CreativeSizeRow>> = {
    preview: {
      key: 'preview',
      title: t('creatives.col.preview'),
      render: (r) => (
        <SizeShape width={r.width} height={r.height} label={t('creatives.preview_label', { size: r.id })} />
      ),
    },
    size: { key: 'size', title: t('creatives.col.size'), sort: 'area', render: (r) => open(r) },
    name: { key: 'name', title: t('creatives.col.name'), sort: 'name', render: name },
    initial_load: {
      key: 'initial_load',
      title: t('creatives.col.initial_load'),
      sort: 'weight',
      align: 'right',
      render: (r) => kb(r.initial_load_kb),
    },
    subload: {
      key: 'subload',
      title: t('creatives.col.subload'),
      align: 'right',
      render: (r) => kb(r.subload_kb),
    },
    formats: { key: 'formats', title: t('creatives.col.formats'), render: formats },
    ad_units: {
      key: 'ad_units',
      title: t('creatives.col.ad_units'),
      sort: 'ad_units',
      align: 'right',
      render: (r) => r.ad_units.toLocaleString(locale),
    },
    common: {
      key: 'common',
      title: t('creatives.col.common'),
      sort: 'common',
      render: (r) => (r.common ? <StatusTag tone="ok">{t('creatives.common_tag')}</StatusTag> : null),
    },
    basis: {
      key: 'basis',
      title: t('creatives.col.basis'),
      render: (r) => t(`creatives.basis.${r.weight_basis}`),
    },
  };

  return (
    <Page title={t('menu.info_creative_sizes')} testId="creative-sizes">
      <div className="bo-res-head">
        <Typography.Text type="secondary">{t('creatives.sizes.subtitle')}</Typography.Text>
        <Space wrap>
          <ApiExportButton
            path={`/v1/${SIZES_PATH}/export`}
            query={query}
            name={CREATIVE_SIZES_EXPORT_NAME}
            disabled={!data || data.total === 0}
            testId="creative-sizes-export"
          />
          <ColumnChooser
            all={COLUMNS}
            visible={visible}
            onChange={setVisible}
            label={(k) => t(`creatives.col.${k}`)}
            required={['size']}
            testId="creative-sizes-columns"
          />
        </Space>
      </div>

      <FiltersBar
        search={view.search}
        onSearch={(search) => apply({ search })}
        searchLabel={t('creatives.filter.search')}
        searchMaxLength={100}
        count={count}
        filtered={count > 0}
        onClear={clear}
        className="bo-cre-filters"
        testId="creative-sizes"
      >
        <FilterSelect
          small
          label={t('creatives.filter.format')}
          value={view.format}
          onChange={(format) => apply({ format })}
          options={CREATIVE_FORMATS.map((f) => ({ value: f, label: t(`creatives.format.${f}`) }))}
          testId="creative-sizes-filter-format"
        />
        <Checkbox
          className="bo-cre-common"
          checked={view.common}
          onChange={(e) => apply({ common: e.target.checked })}
          data-testid="creative-sizes-filter-common"
        >
          {t('creatives.filter.common')}
        </Checkbox>
      </FiltersBar>

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<CreativeSizeRow, string>
        rows={data?.items ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(r) => r.id}
        columns={visible.map((k) => cell[k])}
        view={view}
        onView={(patch) => apply(patch)}
        defaultSort={CREATIVE_SIZE_DEFAULT_SORT}
        pageSizes={CREATIVE_SIZE_PAGE_SIZES}
        sortOptions={sortChoices(CREATIVE_SIZE_SORTS, (f) => t(`creatives.sort.${f}`))}
        sortLabel={t('creatives.sort_by')}
        regionLabel={t('menu.info_creative_sizes')}
        testId="creative-sizes"
        card={{
          title: (r, className) => (
            <span className="bo-cre-nowrap">
              <SizeShape
                width={r.width}
                height={r.height}
                box={32}
                label={t('creatives.preview_label', { size: r.id })}
              />{' '}
              {open(r, className, `creative-size-card-open-${r.id}`)}
            </span>
          ),
          tag: (r) => (r.common ? <StatusTag tone="ok">{t('creatives.common_tag')}</StatusTag> : null),
          fields: (r) => [
            { label: t('creatives.col.name'), value: name(r) },
            { label: t('creatives.col.initial_load'), value: kb(r.initial_load_kb) },
            { label: t('creatives.col.subload'), value: kb(r.subload_kb) },
            { label: t('creatives.col.ad_units'), value: r.ad_units.toLocaleString(locale) },
            { label: t('creatives.col.formats'), value: formats(r) },
          ],
        }}
        empty={
          <EmptyList
            description={t('creatives.empty')}
            testId="creative-sizes-empty"
            onClear={count > 0 ? clear : undefined}
          />
        }
      />
      {view.open ? (
        <SizeDrawer
          view={view}
          onView={apply}
          onClose={() => apply({ open: null, unitSearch: '', unitPage: 1 })}
        />
      ) : null}
    </Page>
  );
}
