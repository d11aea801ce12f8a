/**
 * DataViewer (screens: "Reports and graphs"; routes /reports/dataviewer and
 * /reports/dataviewer/{id}, which /report/{id} redirects to).
 *
 * A report builder above its result (collapsible), the result as a chart and a virtual table
 * with totals, export of the whole result, and saved DataViewers (open, save, save as, rename,
 * share with roles, delete). On /reports/dataviewer the report can come from a drill-down link
 * (core/dataviewer-link) and the URL follows each run, so it can be copied; a saved DataViewer
 * opens its definition and runs it at once.
 */
import {
  CaretDownOutlined,
  CaretRightOutlined,
  DeleteOutlined,
  EditOutlined,
  FolderOpenOutlined,
  LinkOutlined,
  MoreOutlined,
  PlusOutlined,
  SaveOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { parseDataviewerSearch } from '@backoffice/core/dataviewer-link';
import { formatNumber } from '@backoffice/core/format';
import { DATAVIEWERS_RESOURCE, type FilterDimension, type Metric } from '@backoffice/core/reports';
import { Alert, App, Button, Card, Dropdown, Empty, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useSession } from '../../lib/session-store.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { ChartPanel } from './dataviewer-chart-panel.tsx';
import {
  resolveDimensionIds,
  useAllRoles,
  useCatalog,
  useReportPages,
  useSaved,
  useSavedActions,
  type Role,
  type SavedDataviewer,
} from './dataviewer-api.ts';
import { DataviewerBuilder } from './dataviewer-builder.tsx';
import { ExportActions } from './dataviewer-export.tsx';
import { localFilterLabel } from './dataviewer-format.ts';
import {
  emptyState,
  linkSearch,
  sameDefinition,
  savedRange,
  stateFromDefinition,
  stateFromLink,
  toDefinition,
  toSavedDefinition,
  unresolvedIds,
  validateState,
  type BuilderState,
  type FieldErrors,
  type ReportDefinitionBody,
  type SortState,
} from './dataviewer-model.ts';
import { NameModal, SavedDrawer, ShareModal } from './dataviewer-saved.tsx';
import { ResultTable } from './dataviewer-table.tsx';
import { ScheduleButton } from './schedule-button.tsx';
import './dataviewer.css';

/** `/reports/dataviewer/{id}`: a positive integer id; anything else is not found (-1). */
function parseId(param: string | undefined): number | null {
  if (param === undefined) return null;
  return /^\d{1,9}$/.test(param) && Number(param) > 0 ? Number(param) : -1;
}

export default function DataviewerPage() {
  const { lang = 'en', id: idParam } = useParams();
  const id = parseId(idParam);
  // A new screen per DataViewer: opening another one starts from its own definition.
  return <DataviewerScreen key={idParam ?? 'new'} id={id} lang={lang} />;
}

function NotFound({ lang }: { lang: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('report.not_found')}
      subTitle={t('dv.not_found.text')}
      data-testid="dv-not-found"
      extra={
        <Link to={`/${lang}/reports/dataviewer`}>
          <Button type="primary">{t('dv.not_found.back')}</Button>
        </Link>
      }
    />
  );
}

function DataviewerScreen({ id, lang }: { id: number | null; lang: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const notice = useNotice();
  const navigate = useNavigate();
  const location = useLocation();
  const { isMobile } = useViewport();
  const user = useSession((s) => s.user);

  const catalog = useCatalog();
  const saved = useSaved(id !== null && id > 0 ? id : null);
  const actions = useSavedActions();
  const label = (dimension: FilterDimension, value: string | number) => localFilterLabel(dimension, value, locale, t);

  // The builder's state, and what the result shows (the last run).
  const [init] = useState(() => initialState(id, location.search, label));
  const [draft, setDraft] = useState<BuilderState>(init.state);
  const [submitted, setSubmitted] = useState<ReportDefinitionBody | null>(init.submitted);
  const [errors, setErrors] = useState<FieldErrors>(init.errors);
  const [openedId, setOpenedId] = useState<number | null>(null);
  const [builderOpen, setBuilderOpen] = useState(() => !(isMobile && init.submitted));
  const [chartMetric, setChartMetric] = useState<Metric | undefined>(undefined);
  const [drawer, setDrawer] = useState(false);
  const [dialog, setDialog] = useState<'save' | 'rename' | 'share' | null>(null);
  const written = useRef(location.search);

  const pages = useReportPages(submitted);
  const savedData = saved.data;
  const canEdit = savedData?.can_edit ?? false;
  // Saving needs 'write' on saved DataViewers; running and exporting need only 'read' on reports.
  const canSave = usePermission(DATAVIEWERS_RESOURCE, 'write');

  // A saved DataViewer: its definition fills the builder and runs at once.
  useEffect(() => {
    if (!savedData?.definition || openedId === savedData.id) return;
    const next = stateFromDefinition(savedData.definition, label);
    setDraft(next);
    const problems = validateState(next);
    setErrors(problems ?? {});
    setSubmitted(problems ? null : toDefinition(next));
    // On a phone the result comes first; the builder is one tap away.
    if (!problems && isMobile) setBuilderOpen(false);
    setOpenedId(savedData.id);
    // label only translates; the definition decides
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedData, openedId]);

  // A drill-down link followed while the screen is open (same route, new query string).
  useEffect(() => {
    if (id !== null || location.search === written.current) return;
    written.current = location.search;
    const next = initialState(null, location.search, label);
    setDraft(next.state);
    setSubmitted(next.submitted);
    setErrors(next.errors);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.search, id]);

  // Entity filter values from a link or a saved definition: their names come from the server.
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const wanted = unresolvedIds(draft.filters);
    for (const [dimension, ids] of wanted) {
      const fresh = ids.filter((i) => !asked.current.has(`${dimension}:${i}`));
      if (fresh.length === 0) continue;
      for (const i of fresh) asked.current.add(`${dimension}:${i}`);
      resolveDimensionIds(dimension, fresh)
        .then((names) => {
          const byId = new Map(names.map((n) => [String(n.id), n.value]));
          setDraft((d) => ({
            ...d,
            filters: d.filters.map((f) =>
              f.dimension !== dimension ? f : { ...f, values: f.values.map((v) => (byId.has(String(v.id)) ? { id: v.id, value: byId.get(String(v.id))! } : v)) },
            ),
          }));
        })
        .catch(() => undefined);
    }
  }, [draft.filters]);

  // Messages follow the fields once shown (fixed fields lose theirs).
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    setErrors(validateState(draft) ?? {});
    // only re-check when the draft changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft]);

  const title = id !== null && savedData ? savedData.name : t('report.title');
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  const syncUrl = (state: BuilderState) => {
    if (id !== null) return;
    const search = linkSearch(state, true);
    written.current = search;
    void navigate({ pathname: location.pathname, search }, { replace: true });
  };

  const run = () => {
    const problems = validateState(draft);
    if (problems) {
      setErrors(problems);
      setBuilderOpen(true);
      return;
    }
    setErrors({});
    const def = toDefinition(draft);
    if (submitted && JSON.stringify(def) === JSON.stringify(submitted)) void pages.refetch();
    else setSubmitted(def);
    if (isMobile) setBuilderOpen(false);
    syncUrl(draft);
  };

  const onSort = (sort: SortState[]) => {
    const next = { ...draft, sort };
    setDraft(next);
    setSubmitted((s) => (s ? { ...s, sort } : s));
    syncUrl(next);
  };

  /** Saving needs a report that could run (the same rules). */
  const checkBeforeSave = (): boolean => {
    const problems = validateState(draft);
    if (problems) {
      setErrors(problems);
      setBuilderOpen(true);
      return false;
    }
    return true;
  };

  const saveNew = async (name: string) => {
    const created = await actions.create({ name, definition: toSavedDefinition(draft), shared_role_ids: [] });
    setDialog(null);
    void notice.success(t('report.saved'));
    void navigate(`/${lang}/reports/dataviewer/${created.id}`);
  };
  const saveChanges = async () => {
    if (!savedData || !checkBeforeSave()) return;
    try {
      await actions.update(savedData.id, { definition: toSavedDefinition(draft) });
      void notice.success(t('report.saved'));
    } catch (e) {
      void notice.error(errorText(e));
    }
  };
  const rename = async (name: string) => {
    if (!savedData) return;
    await actions.update(savedData.id, { name });
    setDialog(null);
    void notice.success(t('dv.renamed'));
  };
  const share = async (ids: number[]) => {
    if (!savedData) return;
    await actions.update(savedData.id, { shared_role_ids: ids });
    setDialog(null);
    void notice.success(t('dv.shared'));
  };
  const remove = () => {
    if (!savedData) return;
    modal.confirm({
      title: t('report.delete_confirm'),
      content: savedData.name,
      okText: t('report.delete'),
      okButtonProps: { danger: true, id: 'dv-delete-confirm' },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await actions.remove(savedData.id);
          void notice.success(t('report.deleted'));
          void navigate(`/${lang}/reports/dataviewer`);
        } catch (e) {
          void notice.error(errorText(e));
        }
      },
    });
  };
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      void notice.success(t('dv.link_copied'));
    } catch {
      void notice.info(window.location.href);
    }
  };

  const allRoles = useAllRoles(dialog === 'share');
  const shareRoles = useMemo<Role[]>(() => {
    if (allRoles.data) return allRoles.data;
    const map = new Map<number, Role>();
    for (const r of user?.roles ?? []) if (Number.isFinite(Number(r.id))) map.set(Number(r.id), { id: Number(r.id), name: r.name });
    for (const r of savedData?.shared_roles ?? []) map.set(r.id, r);
    return [...map.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [allRoles.data, user, savedData]);

  if (id === -1 || (id !== null && saved.isError && saved.error.httpStatus === 404)) {
    return (
      <div className="bo-page" data-testid="dataviewer-page">
        <NotFound lang={lang} />
      </div>
    );
  }
  if (id !== null && saved.isError) {
    return (
      <div className="bo-page" data-testid="dataviewer-page">
        <Alert type="error" showIcon title={errorText(saved.error)} />
      </div>
    );
  }
  if (id !== null && (saved.isPending || openedId !== id)) {
    return (
      <div className="bo-page dv-loading" data-testid="dataviewer-page">
        <Spin size="large" />
      </div>
    );
  }

  const dirty = !!savedData?.definition && !sameDefinition(toSavedDefinition(draft), savedData.definition);
  const stale = submitted !== null && JSON.stringify(toDefinition(draft)) !== JSON.stringify(submitted);
  const first = pages.data?.pages[0];
  const total = first?.total_rows ?? 0;
  const loaded = pages.data?.pages.reduce((n, p) => n + p.rows.length, 0) ?? 0;
  const reportRange = savedData?.definition ? savedRange(savedData.definition) : null;

  return (
    <div className="bo-page dv-page" data-testid="dataviewer-page" data-saved-id={savedData?.id}>
      <div className="dv-head">
        <div className="dv-head__title">
          <h1 className="bo-page__title" data-testid="dv-title">
            {title}
          </h1>
          {savedData ? <SavedMeta saved={savedData} dirty={dirty} /> : null}
        </div>
        <Space wrap size={8} className="dv-head__actions">
          {savedData ? <ScheduleButton dataviewerId={savedData.id} canEdit={canEdit} /> : null}
          {savedData && canEdit ? (
            <Button type={dirty ? 'primary' : 'default'} icon={<SaveOutlined />} disabled={!dirty} onClick={() => void saveChanges()} data-testid="dv-save-changes">
              {t('dv.save_changes')}
            </Button>
          ) : null}
          <Tooltip title={canSave ? undefined : t('dv.no_save_permission')}>
            <Button
              icon={savedData ? <PlusOutlined /> : <SaveOutlined />}
              onClick={() => checkBeforeSave() && setDialog('save')}
              disabled={!canSave}
              data-testid="dv-save"
            >
              {savedData ? t('report.save_as') : t('report.save')}
            </Button>
          </Tooltip>
          {savedData && canEdit ? (
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'rename', icon: <EditOutlined />, label: t('report.rename') },
                  { key: 'share', icon: <ShareAltOutlined />, label: t('report.share') },
                  { type: 'divider' },
                  { key: 'delete', icon: <DeleteOutlined />, label: t('report.delete'), danger: true },
                ],
                onClick: ({ key }) => {
                  if (key === 'delete') remove();
                  else setDialog(key as 'rename' | 'share');
                },
              }}
            >
              <Button icon={<MoreOutlined />} aria-label={t('dv.more')} data-testid="dv-more">
                {isMobile ? null : t('dv.more')}
              </Button>
            </Dropdown>
          ) : null}
          {id === null && submitted ? (
            <Button icon={<LinkOutlined />} onClick={() => void copyLink()} aria-label={t('dv.copy_link')}>
              {isMobile ? null : t('dv.copy_link')}
            </Button>
          ) : null}
          <Button icon={<FolderOpenOutlined />} onClick={() => setDrawer(true)} data-testid="dv-open-saved">
            {t('dv.saved.open')}
          </Button>
          {id !== null ? (
            <Link to={`/${lang}/reports/dataviewer`}>
              <Button icon={<PlusOutlined />}>{t('dv.new')}</Button>
            </Link>
          ) : null}
        </Space>
      </div>

      {savedData && !canEdit ? (
        <Alert className="dv-readonly" type="info" showIcon title={t('dv.read_only', { owner: savedData.owner.name })} data-testid="dv-read-only" />
      ) : null}

      <Card
        size="small"
        className="dv-card"
        title={
          <button type="button" className="dv-toggle" aria-expanded={builderOpen} onClick={() => setBuilderOpen((o) => !o)} data-testid="dv-builder-toggle">
            {builderOpen ? <CaretDownOutlined /> : <CaretRightOutlined />}
            <span>{t('dv.builder')}</span>
            <span className="bo-visually-hidden">{builderOpen ? t('dv.builder.hide') : t('dv.builder.show')}</span>
            {builderOpen ? null : <span className="dv-toggle__summary">{builderSummary(draft, t)}</span>}
          </button>
        }
        extra={
          catalog.data?.data ? (
            <Typography.Text type="secondary" className="dv-data-range">
              {t('dv.data_range', { start: catalog.data.data.start.slice(0, 10), end: catalog.data.data.end.slice(0, 10) })}
            </Typography.Text>
          ) : null
        }
        styles={{ body: builderOpen ? undefined : { display: 'none' } }}
      >
        {catalog.isError ? <Alert type="error" showIcon title={errorText(catalog.error)} style={{ marginBottom: 12 }} /> : null}
        <DataviewerBuilder
          state={draft}
          onChange={setDraft}
          catalog={catalog.data}
          errors={errors}
          onRun={run}
          running={pages.isFetching && !pages.isFetchingNextPage}
          reportParam={savedData ? String(savedData.id) : null}
          reportRange={reportRange}
        />
      </Card>

      <Card size="small" className="dv-card dv-results" data-testid="dv-results">
        {submitted === null ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dv.prompt')} />
        ) : (
          <>
            <div className="dv-results__head">
              <Space wrap size={[12, 4]}>
                <Typography.Text strong data-testid="dv-row-count" data-count={first ? total : undefined}>
                  {first ? t('report.rows_count', { count: formatNumber(total, locale, 0) }) : t('common.loading')}
                </Typography.Text>
                {first && loaded < total ? (
                  <Typography.Text type="secondary">
                    {pages.isFetchingNextPage
                      ? t('dv.rows_loading_more')
                      : t('dv.rows_loaded', { loaded: formatNumber(loaded, locale, 0), total: formatNumber(total, locale, 0) })}
                  </Typography.Text>
                ) : null}
                {stale ? <Tag color="warning">{t('dv.result_stale')}</Tag> : null}
              </Space>
              <ExportActions def={submitted} />
            </div>
            {pages.isError ? (
              <Alert type="error" showIcon title={errorText(pages.error)} data-testid="dv-query-error" />
            ) : (
              <>
                <ChartPanel def={submitted} metric={chartMetric} onMetric={setChartMetric} currency={first?.currency ?? 'USD'} height={isMobile ? 240 : 300} narrow={isMobile} />
                <ResultTable
                  pages={pages.data?.pages ?? []}
                  sort={submitted.sort}
                  onSort={onSort}
                  loading={pages.isPending || (pages.isFetching && !pages.isFetchingNextPage)}
                  hasMore={pages.hasNextPage}
                  loadingMore={pages.isFetchingNextPage}
                  onLoadMore={() => void pages.fetchNextPage()}
                  height={isMobile ? 400 : 480}
                />
              </>
            )}
          </>
        )}
      </Card>

      <SavedDrawer open={drawer} onClose={() => setDrawer(false)} lang={lang} currentId={savedData?.id ?? null} />
      {dialog === 'save' ? (
        <NameModal open title={t('dv.save.title')} initial={savedData ? `${savedData.name} (2)` : ''} onCancel={() => setDialog(null)} onSubmit={saveNew} />
      ) : null}
      {dialog === 'rename' ? (
        <NameModal open title={t('dv.rename.title')} initial={savedData?.name ?? ''} onCancel={() => setDialog(null)} onSubmit={rename} />
      ) : null}
      {dialog === 'share' ? (
        <ShareModal
          open
          roles={shareRoles}
          limited={allRoles.isError}
          initial={savedData?.shared_role_ids ?? []}
          onCancel={() => setDialog(null)}
          onSubmit={share}
        />
      ) : null}
    </div>
  );
}

function SavedMeta({ saved, dirty }: { saved: SavedDataviewer; dirty: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="dv-meta" data-testid="dv-meta">
      <Typography.Text type="secondary">
        {t('report.owner')}: {saved.owner.name}
      </Typography.Text>
      <span className="dv-meta__roles">
        <Typography.Text type="secondary">{t('report.shared_with')}:</Typography.Text>{' '}
        {saved.shared_roles.length === 0 ? <Typography.Text type="secondary">{t('dv.saved.not_shared')}</Typography.Text> : saved.shared_roles.map((r) => <Tag key={r.id}>{r.name}</Tag>)}
      </span>
      {dirty ? <Tag color="warning" data-testid="dv-unsaved">{t('dv.unsaved')}</Tag> : null}
    </div>
  );
}

/** One line that says what the folded builder holds: dates, dimensions, metrics. */
function builderSummary(state: BuilderState, t: (key: string) => string): string {
  const parts: string[] = [];
  if (state.range) parts.push(state.range.preset ? t(`date.preset.${state.range.preset}`) : `${state.range.start} → ${state.range.end}`);
  if (state.dimensions.length) parts.push(state.dimensions.map((d) => t(`report.dimension.${d}`)).join(', '));
  if (state.metrics.length) parts.push(state.metrics.map((m) => t(`report.metric.${m}`)).join(', '));
  return parts.join(' · ');
}

/** The builder's first state: a drill-down link on /reports/dataviewer (run at once with run=1), else empty. */
function initialState(
  id: number | null,
  search: string,
  label: (dimension: FilterDimension, value: string | number) => string,
): { state: BuilderState; submitted: ReportDefinitionBody | null; errors: FieldErrors } {
  if (id !== null) return { state: emptyState(), submitted: null, errors: {} };
  const link = parseDataviewerSearch(new URLSearchParams(search));
  if (!link.present) return { state: emptyState(), submitted: null, errors: {} };
  const state = stateFromLink(link, label);
  if (!link.run) return { state, submitted: null, errors: {} };
  const problems = validateState(state);
  return { state, submitted: problems ? null : toDefinition(state), errors: problems ?? {} };
}
