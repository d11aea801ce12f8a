/**
 * Floors (`/partners/floors`, issue 20): the price-floor rules, a "which rule applies?" tester,
 * the versions of the rule set, and the CSV round trip (export, edit in a spreadsheet, import with
 * a preview). Every save is a version with its author, time and comment. The tab, the filters,
 * the sort, the page and a past version being looked at live in the URL.
 */
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { FLOOR_KEYS, type FloorKey } from '@backoffice/core/floors';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Input,
  Modal,
  Pagination,
  Select,
  Space,
  Table,
  Tabs,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DESKTOP_QUERY, useMediaQuery } from '../../components/use-media-query.ts';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import type { FloorRuleRow, RulesPage, VersionRow, VersionWritten } from './floors-api.ts';
import { ImportModal } from './import-modal.tsx';
import { PrebidExportButton } from './prebid-export.tsx';
import { RuleFormModal } from './rule-form.tsx';
import { KeyCell, RuleKeys, TypeTag, cpmText } from './rule-view.tsx';
import { TesterTab } from './tester-tab.tsx';
import { VersionsTab } from './versions-tab.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import '../../resources/resources.css';
import './floors.css';

const TABS = ['rules', 'tester', 'versions'] as const;
type Tab = (typeof TABS)[number];
const SORTABLE = new Set(['specificity', 'cpm', 'publisher', 'updated']);

function RulesTab({ canWrite, onChanged }: { canWrite: boolean; onChanged: (w: VersionWritten) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  // The table needs a laptop's width; tablets and phones get a card per rule.
  const desktop = useMediaQuery('(min-width: 1024px)');
  const [params, update] = useUrlState();
  const [search, setSearch] = useState(params.get('q') ?? '');
  const term = useDebouncedValue(search.trim(), 400);
  useEffect(() => {
    if ((params.get('q') ?? '') !== term) update({ q: term || null, page: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [term]);
  const page = Number(params.get('page') ?? 1);
  const pageSize = Number(params.get('page_size') ?? 50);
  const sortParam = params.get('sort') ?? '-specificity';
  const version = params.get('version');
  const viewing = version !== null;
  const query: Record<string, string | number> = { page, page_size: pageSize, sort: sortParam };
  for (const k of ['q', 'publisher', 'type', 'currency', 'version'] as const) {
    const v = params.get(k);
    if (v) query[k] = v;
  }
  const rules = useApiQuery<RulesPage>('floors/rules', { query }, { placeholderData: keepPreviousData });
  const [editing, setEditing] = useState<FloorRuleRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const writable = canWrite && !viewing;

  const saved = (w: VersionWritten) => {
    setFormOpen(false);
    setEditing(null);
    setSelected([]);
    onChanged(w);
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const w = await api.request<VersionWritten>('floors/rules/delete', {
        method: 'POST',
        body: { ids: deleting },
      });
      void notice.success(t('floors.deleted', { version: w.version }));
      setDeleting(null);
      saved(w);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const sortField = sortParam.replace(/^-/, '');
  const order = (f: string): SortOrder =>
    sortField === f ? (sortParam.startsWith('-') ? 'descend' : 'ascend') : null;
  const keyCol = (k: FloorKey) => ({
    key: k,
    title: t(`floors.key.${k}`),
    sorter: k === 'publisher',
    sortOrder: k === 'publisher' ? order('publisher') : undefined,
    render: (_: unknown, r: FloorRuleRow) => <KeyCell rule={r} k={k} />,
  });
  const actions = (r: FloorRuleRow) =>
    writable ? (
      <Space size={0}>
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t('floors.edit')}
          onClick={() => {
            setEditing(r);
            setFormOpen(true);
          }}
          data-testid={`floor-edit-${r.id}`}
        />
        <Button
          type="text"
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('floors.delete')}
          onClick={() => setDeleting([r.id])}
          data-testid={`floor-delete-${r.id}`}
        />
      </Space>
    ) : null;
  // The floor first: it is what the row is for; the keys follow in their priority order.
  const columns: TableColumnsType<FloorRuleRow> = [
    {
      key: 'cpm',
      title: t('floors.cpm'),
      align: 'right',
      sorter: true,
      sortOrder: order('cpm'),
      render: (_: unknown, r) => (
        <strong className="bo-floors-cpm">{cpmText(r.cpm, r.currency, locale)}</strong>
      ),
    },
    { key: 'type', title: t('floors.type'), render: (_: unknown, r) => <TypeTag type={r.type} /> },
    ...FLOOR_KEYS.map(keyCol),
    {
      key: 'specificity',
      title: <span title={t('floors.specificity_help')}>{t('floors.specificity')}</span>,
      align: 'right',
      sorter: true,
      sortOrder: order('specificity'),
      render: (_: unknown, r) => r.specificity,
    },
    {
      key: 'updated',
      title: t('floors.since_version'),
      align: 'right',
      sorter: true,
      sortOrder: order('updated'),
      render: (_: unknown, r) => (r.since_version ? `v${r.since_version}` : ''),
    },
    ...(writable ? [{ key: 'actions', title: '', render: (_: unknown, r: FloorRuleRow) => actions(r) }] : []),
  ];
  const data = rules.data;
  const filtered = ['q', 'publisher', 'type', 'currency'].some((k) => params.get(k));

  return (
    <div data-testid="floors-rules" data-state={data ? 'ready' : rules.isError ? 'error' : 'loading'}>
      {viewing ? (
        <Alert
          type="info"
          showIcon
          className="bo-floors-gap-bottom"
          title={t('floors.viewing_version', { version })}
          action={
            <Button size="small" onClick={() => update({ version: null, page: null })}>
              {t('floors.back_to_current')}
            </Button>
          }
          data-testid="floors-viewing"
        />
      ) : null}
      <div className="bo-res-filters">
        <Input.Search
          allowClear
          className="bo-res-filter bo-floors-search"
          placeholder={t('floors.search')}
          aria-label={t('floors.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="floors-search"
        />
        <div className="bo-res-filter bo-floors-filter">
          <ReferenceSelect
            resource="publishers"
            path="floors/autocomplete/publishers"
            value={params.get('publisher') ? Number(params.get('publisher')) : null}
            onChange={(v) => update({ publisher: v === null ? null : String(v), page: null })}
            placeholder={t('floors.filter.publisher')}
            aria-label={t('floors.filter.publisher')}
          />
        </div>
        <Select
          allowClear
          className="bo-res-filter bo-floors-filter--small"
          placeholder={t('floors.filter.type')}
          aria-label={t('floors.filter.type')}
          value={params.get('type') ?? undefined}
          onChange={(v) => update({ type: v ?? null, page: null })}
          options={['hard', 'soft'].map((v) => ({ value: v, label: t(`floors.type.${v}`) }))}
        />
        <Select
          allowClear
          className="bo-res-filter bo-floors-filter--small"
          placeholder={t('floors.filter.currency')}
          aria-label={t('floors.filter.currency')}
          value={params.get('currency') ?? undefined}
          onChange={(v) => update({ currency: v ?? null, page: null })}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
        />
        {writable && selected.length > 0 ? (
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={() => setDeleting(selected)}
            data-testid="floors-delete-selected"
          >
            {t('floors.delete_selected', { count: selected.length })}
          </Button>
        ) : null}
        {writable ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
            data-testid="floors-add"
          >
            {t('floors.add')}
          </Button>
        ) : null}
      </div>
      {rules.isError ? (
        <Alert
          type="error"
          showIcon
          title={errorText(rules.error)}
          action={
            <Button size="small" onClick={() => void rules.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      {desktop ? (
        <ScrollRegion label={t('floors.tab.rules')}>
          <Table<FloorRuleRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={data?.items ?? []}
            loading={rules.isFetching && !data}
            // Scrolled by CSS, not antd's `scroll`: its hidden measuring row would repeat the
            // "select all" checkbox where assistive technology must not reach it.
            className="bo-floors-table"
            onRow={(r) => ({ 'data-testid': `floor-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
            rowSelection={
              writable
                ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
                : undefined
            }
            locale={{
              emptyText: <Empty description={filtered ? t('floors.empty_filtered') : t('floors.empty')} />,
            }}
            pagination={{
              current: page,
              pageSize,
              total: data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [25, 50, 100, 200],
              showTotal: (total) => (
                <Typography.Text type="secondary">
                  {t('floors.version_line', {
                    version: data?.version ?? 0,
                    rules: total.toLocaleString(locale),
                  })}
                </Typography.Text>
              ),
            }}
            onChange={(pagination, _f, sorter, extra) => {
              if (extra.action === 'paginate')
                update({
                  page: String(pagination.current ?? 1),
                  page_size: String(pagination.pageSize ?? pageSize),
                });
              if (extra.action === 'sort') {
                const s = Array.isArray(sorter) ? sorter[0] : sorter;
                const key = String(s?.columnKey ?? '');
                update({
                  sort: s?.order && SORTABLE.has(key) ? `${s.order === 'descend' ? '-' : ''}${key}` : null,
                  page: null,
                });
              }
            }}
          />
        </ScrollRegion>
      ) : (
        <div className="bo-floors-cards" data-testid="floors-cards">
          {(data?.items ?? []).length === 0 && data ? (
            <Empty description={filtered ? t('floors.empty_filtered') : t('floors.empty')} />
          ) : null}
          {(data?.items ?? []).map((r) => (
            <Card key={r.id} size="small" data-testid={`floor-row-${r.id}`}>
              <div className="bo-floors-card__head">
                <strong className="bo-floors-cpm">{cpmText(r.cpm, r.currency, locale)}</strong>
                <Space size={4}>
                  <TypeTag type={r.type} />
                  {actions(r)}
                </Space>
              </div>
              <RuleKeys rule={r} />
            </Card>
          ))}
          {data && data.total > pageSize ? (
            <Pagination
              simple
              current={page}
              pageSize={pageSize}
              total={data.total}
              onChange={(p) => update({ page: String(p) })}
            />
          ) : null}
        </div>
      )}
      <RuleFormModal rule={editing} open={formOpen} onClose={() => setFormOpen(false)} onSaved={saved} />
      <Modal
        open={deleting !== null}
        title={t('floors.delete')}
        onCancel={() => setDeleting(null)}
        onOk={() => void remove()}
        okText={t('floors.delete')}
        okButtonProps={{
          danger: true,
          ...({ 'data-testid': 'floors-delete-confirm' } as Record<`data-${string}`, string>),
        }}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
      >
        {t('floors.delete_confirm', { count: deleting?.length ?? 0 })}
      </Modal>
    </div>
  );
}

export default function FloorsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const wide = useMediaQuery(DESKTOP_QUERY);
  const canWrite = usePermission('/v1/floors', 'write');
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'rules';
  const head = useApiQuery<{ items: VersionRow[] }>('floors/versions', { query: { page: 1, page_size: 1 } });
  const latest = head.data?.items[0] ?? null;
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const queries = useQueryClient();

  // A new version: every floors answer (rules, versions, a comparison) is read again.
  const changed = () => {
    void queries.invalidateQueries({
      predicate: (q) =>
        q.queryKey[0] === 'api' && typeof q.queryKey[1] === 'string' && q.queryKey[1].startsWith('floors/'),
    });
  };
  const setTab = (next: string) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next === 'rules') p.delete('tab');
        else p.set('tab', next);
        return p;
      },
      { replace: false },
    );
  const view = (version: number) =>
    setParams(() => {
      const p = new URLSearchParams();
      if (version !== latest?.version) p.set('version', String(version));
      return p;
    });
  const exportCsv = async () => {
    setExporting(true);
    try {
      const version = params.get('version');
      await downloadApiFile('/v1/floors/export', version ? { version } : {}, 'floor_rules.csv');
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="bo-page bo-floors" data-testid="floors-page">
      <div className="bo-res-head">
        <div>
          <h1 className="bo-page__title">{t('floors.title')}</h1>
          <Typography.Text type="secondary">{t('floors.subtitle')}</Typography.Text>
          <div>
            <Typography.Text type="secondary" data-testid="floors-version">
              {latest
                ? t('floors.version_line', {
                    version: latest.version,
                    rules: latest.rule_count.toLocaleString(locale),
                  })
                : head.data
                  ? t('floors.version_none')
                  : ' '}
            </Typography.Text>
          </div>
        </div>
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void exportCsv()}
            data-testid="floors-export"
          >
            {t('floors.export')}
          </Button>
          {canWrite ? (
            <Button
              icon={<UploadOutlined />}
              onClick={() => setImporting(true)}
              data-testid="floors-import-open"
            >
              {t('floors.import')}
            </Button>
          ) : null}
          <PrebidExportButton />
        </Space>
      </div>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        size={wide ? 'middle' : 'small'}
        items={[
          {
            key: 'rules',
            label: t('floors.tab.rules'),
            children: <RulesTab canWrite={canWrite} onChanged={changed} />,
          },
          { key: 'tester', label: t('floors.tab.tester'), children: <TesterTab /> },
          {
            key: 'versions',
            label: t('floors.tab.versions'),
            children: (
              <VersionsTab
                canWrite={canWrite}
                current={latest?.version ?? 0}
                onView={view}
                onChanged={() => {
                  changed();
                }}
              />
            ),
          },
        ]}
      />
      <ImportModal open={importing} onClose={() => setImporting(false)} onApplied={changed} />
    </div>
  );
}
