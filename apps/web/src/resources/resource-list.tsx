/**
 * The generic list of a resource: a filter bar (text contains, one of, date ranges), a server-side
 * paginated and sortable table, a column chooser remembered per user, and CSV/XLSX export of what
 * is filtered, all synced to the URL. Takes extra columns and actions, so a screen with its own
 * shape reuses it without fighting it.
 */
import { DownOutlined, DownloadOutlined, FilterOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { offers, type FieldMeta, type ResourceDef } from '@backoffice/core/resources/define';
import type { Filter } from '@backoffice/core/resources/list-query';
import { Alert, Button, Checkbox, DatePicker, Dropdown, Empty, Input, InputNumber, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLocale } from '../components/use-locale.ts';
import { useNotice } from '../components/use-notice.ts';
import { errorText } from '../lib/api.ts';
import { usePermission } from '../lib/permission.tsx';
import { useSession } from '../lib/session-store.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { useViewport } from '../lib/use-viewport.ts';
import { downloadResourceExport, useResourceList, type ResourceRow } from './resource-api.ts';
import { fieldCell, optionLabel } from './resource-cells.tsx';
import { ReferenceMultiSelect } from './reference-select.tsx';
import { useListQuery, withFixed } from './use-list-query.ts';
import './resources.css';

export interface ResourceListProps {
  def: ResourceDef;
  /** The screen's path under /{lang} (rows open `${basePath}/{id}`, New opens `${basePath}/new`). */
  basePath: string;
  title: string;
  /** Extra columns after the declared ones. */
  extraColumns?: TableColumnsType<ResourceRow>;
  /** Extra buttons in the header. */
  actions?: ReactNode;
  /** Cells of the entity's own for some fields (a status tag with its reason, …). */
  cells?: ResourceCells;
  /** Values this screen fixes (a partner list's side): always filtered on, never shown. */
  fixed?: Record<string, string>;
  /** Where New leads under /{lang}, when not to `basePath/new` (a guided registration). */
  newPath?: string;
}

/** A field's cell of the entity's own: the value and the whole row. */
export type ResourceCells = Record<string, (value: unknown, row: ResourceRow) => ReactNode>;

const columnsKey = (userId: number | undefined, name: string) => `bo.columns.${userId ?? 0}.${name}`;

/** The visible columns, remembered per user and resource in local storage. */
function useVisibleColumns(def: ResourceDef, fixed: Record<string, string> | undefined): [string[], (next: string[]) => void] {
  const userId = useSession((s) => s.user?.id);
  const fallback = Object.entries(def.fields).filter(([k, m]) => m.list && !(fixed && k in fixed)).map(([k]) => k);
  const [visible, setVisible] = useState<string[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(columnsKey(userId, def.name)) ?? 'null') as unknown;
      if (Array.isArray(saved)) return saved.filter((k): k is string => typeof k === 'string' && k in def.fields);
    } catch {
      // a broken value: the default columns
    }
    return fallback;
  });
  const save = (next: string[]) => {
    setVisible(next);
    localStorage.setItem(columnsKey(userId, def.name), JSON.stringify(next));
  };
  return [visible.length > 0 ? visible : fallback, save];
}

function TextFilter({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (debounced !== value) onChange(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies a filter
  }, [debounced]);
  return (
    <Input
      allowClear
      aria-label={label}
      placeholder={`${label}: ${t('resource.filter.contains')}`}
      value={text}
      onChange={(e) => setText(e.target.value)}
      className="bo-res-filter"
    />
  );
}

export function ResourceList({ def, basePath, title, extraColumns = [], actions, cells, fixed, newPath }: ResourceListProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const notice = useNotice();
  const { query: urlQuery, setPage, setSort, setFilter, clearFilters } = useListQuery(def);
  const query = useMemo(() => (fixed ? { ...urlQuery, filters: urlQuery.filters.filter((f) => !(f.field in fixed)) } : urlQuery), [urlQuery, fixed]);
  const listQuery = useMemo(() => withFixed(def, urlQuery, fixed), [def, urlQuery, fixed]);
  const list = useResourceList(def, listQuery);
  const canWrite = usePermission(def.acl, 'write');
  const [visible, setVisible] = useVisibleColumns(def, fixed);
  const fields = Object.entries(def.fields).filter(([k]) => !(fixed && k in fixed));
  const [exporting, setExporting] = useState(false);
  const { isMobile } = useViewport();
  // On a phone the filters fold away behind a button (with how many apply), so the rows come first.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const lang = locale;

  const filterOf = (field: string) => query.filters.find((f) => f.field === field);
  const filters = fields.filter(([, m]) => m.filter);

  const columns = useMemo<TableColumnsType<ResourceRow>>(() => {
    const sortOf = (field: string): 'ascend' | 'descend' | null => {
      const s = query.sort.find((x) => x.field === field);
      return s ? (s.desc ? 'descend' : 'ascend') : null;
    };
    return [
      ...visible.map((field) => {
        const meta = def.fields[field]!;
        return {
          key: field,
          dataIndex: field,
          title: t(meta.label),
          sorter: meta.sort ? true : undefined,
          sortOrder: meta.sort ? sortOf(field) : undefined,
          render: (value: unknown, row: ResourceRow) => cells?.[field]?.(value, row) ?? fieldCell(meta, value, lang, row[`${field}_label`]),
          ellipsis: meta.type === 'text' || meta.type === 'email',
        };
      }),
      ...extraColumns,
    ];
  }, [visible, def, query.sort, extraColumns, cells, t, lang]);

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(true);
    try {
      await downloadResourceExport(def, listQuery, format);
    } catch (error) {
      void notice.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };

  const renderFilter = (field: string, meta: FieldMeta) => {
    const label = t(meta.label);
    const current = filterOf(field);
    if (meta.filter === 'contains') {
      return (
        <TextFilter
          key={field}
          label={label}
          value={current?.kind === 'contains' ? current.value : ''}
          onChange={(v) => setFilter(field, v ? { field, kind: 'contains', value: v } : null)}
        />
      );
    }
    if (meta.filter === 'in' && meta.options) {
      return (
        <Select
          key={field}
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          aria-label={label}
          placeholder={`${label}: ${t('resource.filter.any')}`}
          className="bo-res-filter"
          value={current?.kind === 'in' ? (current.values as string[]) : []}
          options={meta.options.map((o) => ({ value: o, label: optionLabel(meta, o, lang) }))}
          optionFilterProp="label"
          onChange={(values: string[]) => setFilter(field, values.length > 0 ? { field, kind: 'in', values } : null)}
          data-testid={`filter-${field}`}
        />
      );
    }
    if (meta.filter === 'eq' && meta.type === 'boolean') {
      return (
        <Select
          key={field}
          allowClear
          aria-label={label}
          placeholder={`${label}: ${t('resource.filter.any')}`}
          className="bo-res-filter"
          value={current?.kind === 'eq' ? String(current.value) : undefined}
          options={[
            { value: 'true', label: t('resource.filter.yes') },
            { value: 'false', label: t('resource.filter.no') },
          ]}
          onChange={(v?: string) => setFilter(field, v === undefined ? null : { field, kind: 'eq', value: v === 'true' })}
          data-testid={`filter-${field}`}
        />
      );
    }
    if (meta.filter === 'in' && meta.type === 'ref' && meta.ref) {
      return (
        <ReferenceMultiSelect
          key={field}
          resource={meta.ref}
          path={meta.refPath}
          aria-label={label}
          placeholder={`${label}: ${t('resource.filter.any')}`}
          className="bo-res-filter"
          value={current?.kind === 'in' ? (current.values as number[]) : []}
          onChange={(values) => setFilter(field, values.length > 0 ? { field, kind: 'in', values } : null)}
        />
      );
    }
    if (meta.filter === 'range' && (meta.type === 'number' || meta.type === 'percent' || meta.type === 'money')) {
      const range = current?.kind === 'range' ? current : { min: null, max: null };
      const apply = (bound: 'min' | 'max', v: number | string | null) => {
        const next = { min: range.min, max: range.max, [bound]: v === null || v === '' ? null : Number(v) };
        setFilter(field, next.min === null && next.max === null ? null : { field, kind: 'range', min: next.min, max: next.max });
      };
      return (
        <Space.Compact key={field} className="bo-res-filter bo-res-filter--range">
          <InputNumber
            aria-label={`${label} ≥`}
            placeholder={`${label} ≥`}
            value={range.min === null ? null : Number(range.min)}
            onBlur={(e) => apply('min', e.target.value)}
            onPressEnter={(e) => apply('min', (e.target as HTMLInputElement).value)}
            style={{ width: '50%' }}
          />
          <InputNumber
            aria-label={`${label} ≤`}
            placeholder={`${label} ≤`}
            value={range.max === null ? null : Number(range.max)}
            onBlur={(e) => apply('max', e.target.value)}
            onPressEnter={(e) => apply('max', (e.target as HTMLInputElement).value)}
            style={{ width: '50%' }}
          />
        </Space.Compact>
      );
    }
    if (meta.filter === 'range' && (meta.type === 'datetime' || meta.type === 'date')) {
      const value: [Dayjs | null, Dayjs | null] | null =
        current?.kind === 'range' ? [current.min ? dayjs(String(current.min)) : null, current.max ? dayjs(String(current.max)) : null] : null;
      return (
        <DatePicker.RangePicker
          key={field}
          aria-label={label}
          placeholder={[label, label]}
          allowEmpty={[true, true]}
          className="bo-res-filter bo-res-filter--range"
          value={value}
          onChange={(range) => {
            const [min, max] = range ?? [null, null];
            const f: Filter | null =
              min || max ? { field, kind: 'range', min: min ? min.format('YYYY-MM-DD') : null, max: max ? max.format('YYYY-MM-DD') : null } : null;
            setFilter(field, f);
          }}
        />
      );
    }
    return null;
  };

  const page = list.data;
  const chooser = (
    <div className="bo-res-chooser" role="group" aria-label={t('resource.columns')}>
      {fields
        .filter(([, m]) => m.type !== 'json')
        .map(([field, meta]) => (
          <Checkbox
            key={field}
            checked={visible.includes(field)}
            onChange={(e) => setVisible(e.target.checked ? Object.keys(def.fields).filter((f) => f === field || visible.includes(f)) : visible.filter((f) => f !== field))}
          >
            {t(meta.label)}
          </Checkbox>
        ))}
    </div>
  );

  return (
    <div className="bo-page bo-res-list" data-testid={`resource-list-${def.name}`}>
      <div className="bo-res-head">
        <h1 className="bo-page__title">{title}</h1>
        <Space wrap>
          {actions}
          <Dropdown trigger={['click']} popupRender={() => <div className="bo-res-chooser-pop">{chooser}</div>}>
            <Button icon={<SettingOutlined />} data-testid="resource-columns">
              {t('resource.columns')}
            </Button>
          </Dropdown>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'csv', label: 'CSV', onClick: () => void exportAs('csv') },
                { key: 'xlsx', label: 'XLSX', onClick: () => void exportAs('xlsx') },
              ],
            }}
            disabled={!page || page.total === 0}
          >
            <Button icon={<DownloadOutlined />} loading={exporting} data-testid="resource-export">
              {t('resource.export')} <DownOutlined />
            </Button>
          </Dropdown>
          {canWrite && offers(def, 'create') ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`/${lang}${newPath ?? `${basePath}/new`}`)} data-testid="resource-new">
              {t('resource.new')}
            </Button>
          ) : null}
        </Space>
      </div>
      {isMobile ? (
        <Button
          block
          icon={<FilterOutlined />}
          onClick={() => setFiltersOpen((o) => !o)}
          aria-expanded={filtersOpen}
          aria-controls="bo-res-filters"
          className="bo-res-filters-toggle"
          data-testid="resource-filters-toggle"
        >
          {t('resource.filters', { count: query.filters.length })}
        </Button>
      ) : null}
      <div id="bo-res-filters" className="bo-res-filters" data-testid="resource-filters" hidden={isMobile && !filtersOpen}>
        {filters.map(([field, meta]) => renderFilter(field, meta))}
        {query.filters.length > 0 ? (
          <Button type="link" onClick={clearFilters} data-testid="resource-clear-filters">
            {t('resource.filters.clear')}
          </Button>
        ) : null}
      </div>
      {list.isError ? <Alert type="error" showIcon title={errorText(list.error)} data-testid="resource-error" /> : null}
      <Table<ResourceRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={page?.items ?? []}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={query.filters.length > 0 ? t('common.no_data_found') : t('common.no_data_available')} /> }}
        onRow={(row) => ({
          onClick: () => void navigate(`/${lang}${basePath}/${row.id}`),
          onKeyDown: (e) => {
            if (e.key === 'Enter') void navigate(`/${lang}${basePath}/${row.id}`);
          },
          tabIndex: 0,
          className: 'bo-res-row',
          'data-testid': `resource-row-${row.id}`,
        })}
        pagination={{
          current: query.page,
          pageSize: query.page_size,
          total: page?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 25, 50, 100, 200],
          showTotal: (total) => <Typography.Text type="secondary">{t('resource.rows', { count: total })}</Typography.Text>,
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'paginate') setPage(pagination.current ?? 1, pagination.pageSize ?? query.page_size);
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            setSort(s?.order && s.columnKey ? [{ field: String(s.columnKey), desc: s.order === 'descend' }] : []);
          }
        }}
      />
    </div>
  );
}
