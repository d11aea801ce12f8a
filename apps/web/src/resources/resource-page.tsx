/**
 * A resource's screens from its declaration: the list at `basePath`, a new row at `basePath/new`,
 * one row at `basePath/{id}` with tabs (details, history, used by). Takes custom tabs, so an
 * entity with more to show adds a tab rather than a new page.
 */
import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { offers, type HistoryEntry, type ResourceDef } from '@backoffice/core/resources/define';
import { RESOURCES } from '@backoffice/core/resources/index';
import { Alert, App, Button, Descriptions, Empty, List, Result, Space, Spin, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useLocale } from '../components/use-locale.ts';
import { useNotice } from '../components/use-notice.ts';
import { errorText } from '../lib/api.ts';
import { FetchError } from '../lib/fetch-client.ts';
import { usePermission } from '../lib/permission.tsx';
import { useResourceHistory, useResourceMutations, useResourceRow, useResourceUsedBy, type ResourceRow } from './resource-api.ts';
import { i18n } from '../lib/i18n.ts';
import { fieldCell, formatDateTime, valueText } from './resource-cells.tsx';
import { ResourceForm } from './resource-form.tsx';
import { ResourceList, type ResourceCells } from './resource-list.tsx';

export interface ResourcePageProps {
  def: ResourceDef;
  basePath: string;
  /** i18n keys of the list title and the new-row title. */
  titleKey: string;
  newTitleKey: string;
  /** Extra tabs of the detail page. */
  tabs?: (row: ResourceRow) => { key: string; label: string; children: ReactNode }[];
  /** Inputs of the entity's own for some form fields. */
  inputs?: Record<string, ReactNode>;
  /** Cells of the entity's own (list, read-only details). */
  cells?: ResourceCells;
  /** Extra columns of the list (row actions, …). */
  extraColumns?: TableColumnsType<ResourceRow>;
  /** Extra buttons in the list's header. */
  listActions?: ReactNode;
  /** Commands on one row (its own actions: disable, rotate a token, …), shown on its page. */
  rowActions?: (row: ResourceRow) => ReactNode;
  /** After a create, before the new row opens (a token shown once, …). */
  onCreated?: (row: ResourceRow) => void | Promise<void>;
  /** Values this screen fixes (a partner list's side): filtered on, set on new rows, not shown. */
  fixed?: Record<string, string>;
  /** Where New leads, when not to `basePath/new` (a guided registration). */
  newPath?: string;
  /** Whether a row's form takes changes (a workflow's final states do not); all do when absent. */
  editable?: (row: ResourceRow) => boolean;
  /**
   * `basePath/clone/{id}` opens a new row filled from that one, without these fields (what
   * identifies a row); no clone route when absent.
   */
  cloneDrops?: readonly string[];
  /** A row's page title when its title field alone does not name it (a budget: company and month). */
  rowTitle?: (row: ResourceRow) => string;
  /** A notice about a row above its tabs, whatever tab is open (a deal's floor below a floor rule). */
  rowNotice?: (row: ResourceRow) => ReactNode;
  /**
   * Where Back (and a deleted row) lead under /{lang}, and what the link says, when not to the list
   * at `basePath`: a sub-resource's parent (a campaign's event goes back to its campaign's Events tab).
   */
  back?: { path: string; label: string };
}

/** Whether any declared resource refers to this one (then its page has a "used by" tab). */
const isReferenced = (def: ResourceDef) =>
  Object.values(RESOURCES).some((other) => Object.values(other.fields).some((m) => m.type === 'ref' && m.ref === def.name));

const COMMON = new Set(['id', 'version', 'created_at', 'updated_at']);
/** Fields the server sets that the form does not show (a token's last characters, …). */
const serverFields = (def: ResourceDef) => Object.entries(def.fields).filter(([field, meta]) => meta.readOnly && !COMMON.has(field));

/** Every field of a row, read-only (an entity whose rows change through its own commands). */
function ReadOnlyDetails({ def, row, cells }: { def: ResourceDef; row: ResourceRow; cells?: ResourceCells }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      data-testid="resource-details"
      items={Object.entries(def.fields).map(([field, meta]) => ({
        key: field,
        label: t(meta.label),
        children: cells?.[field]?.(row[field], row) ?? fieldCell(meta, row[field], locale, row[`${field}_label`]),
      }))}
    />
  );
}

function HistoryTab({ def, id }: { def: ResourceDef; id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const history = useResourceHistory(def, id);
  if (history.isPending) return <Spin />;
  if (history.isError) return <Alert type="error" showIcon title={errorText(history.error)} />;
  if (history.data.length === 0) return <Empty description={t('resource.history.empty')} />;
  const verb = (e: HistoryEntry) => {
    // An entity's own commands name themselves (resource.history.action.firewall.disable).
    const own = `resource.history.action.${e.action}`;
    if (i18n.exists(own)) return t(own);
    const v = e.action.split('.').pop();
    return t(v === 'create' ? 'resource.history.created' : v === 'delete' ? 'resource.history.deleted' : 'resource.history.updated');
  };
  return (
    <List
      className="bo-res-history"
      dataSource={history.data}
      data-testid="resource-history"
      renderItem={(e) => (
        <List.Item key={e.id} data-testid="resource-history-entry">
          <div className="bo-res-history__entry">
            <div>
              <Typography.Text strong>{verb(e)}</Typography.Text>{' '}
              <Typography.Text>{t('resource.history.by', { name: e.actor.name ?? t('resource.nobody') })}</Typography.Text>{' '}
              <Typography.Text type="secondary">
                {formatDateTime(e.at, locale)}
                {e.ip ? ` · ${t('resource.history.from_ip', { ip: e.ip })}` : ''}
              </Typography.Text>
              {e.simulated_by ? (
                <Tag className="bo-res-history__sim">{t('resource.history.simulating', { admin: e.simulated_by.name ?? '?', who: e.simulated_role ?? e.actor.name ?? '?' })}</Tag>
              ) : null}
            </div>
            {Object.keys(e.changes).length > 0 && !e.action.endsWith('.create') ? (
              <ul className="bo-res-history__changes">
                {Object.entries(e.changes).map(([field, [before, after]]) => (
                  <li key={field}>
                    <Typography.Text type="secondary">{def.fields[field] ? t(def.fields[field].label) : field}:</Typography.Text>{' '}
                    <del>{valueText(def.fields[field], before, locale)}</del> → <ins>{valueText(def.fields[field], after, locale)}</ins>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </List.Item>
      )}
    />
  );
}

function UsedByTab({ def, id }: { def: ResourceDef; id: number }) {
  const { t } = useTranslation();
  const used = useResourceUsedBy(def, id);
  if (used.isPending) return <Spin />;
  if (used.isError) return <Alert type="error" showIcon title={errorText(used.error)} />;
  if (used.data.length === 0) return <Empty description={t('resource.used_by.none')} />;
  return <List dataSource={used.data} renderItem={(u) => <List.Item key={u.resource}>{t(u.label)}: {u.count}</List.Item>} />;
}

function Detail({ def, basePath, titleKey, newTitleKey, tabs, inputs, cells, rowActions, onCreated, fixed, editable, rowTitle, rowNotice, back, initial, id }: ResourcePageProps & { id: number | null; initial?: Record<string, unknown> }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const notice = useNotice();
  const { modal } = App.useApp();
  const row = useResourceRow(def, id);
  const { create, update, remove } = useResourceMutations(def);
  const canWrite = usePermission(def.acl, 'write');
  const listPath = `/${locale}${basePath}`;
  const backTo = `/${locale}${back?.path ?? basePath}`;
  const backLabel = back?.label ?? t('resource.back');
  // `?tab=history` opens a row's page on that tab (a sub-resource's Back returns to its parent's tab).
  const [search] = useSearchParams();

  if ((id !== null && row.isError) || (id === null && !offers(def, 'create'))) {
    return (
      <div className="bo-page">
        <Result
          status={!row.error || row.error.httpStatus === 404 ? '404' : 'error'}
          title={row.error ? errorText(row.error) : t('resource.not_found')}
          extra={<Link to={backTo}>{backLabel}</Link>}
        />
      </div>
    );
  }
  if (id !== null && row.isPending) return <Spin size="large" className="bo-res-loading" />;
  const current = id !== null ? (row.data ?? null) : null;
  const title = current ? (rowTitle?.(current) ?? String(current[def.titleField] ?? '')) : t(newTitleKey);

  const submit = async (values: Record<string, unknown>) => {
    if (current) {
      await update.mutateAsync({ id: current.id, body: values });
      void notice.success(t('resource.saved'));
    } else {
      const created = await create.mutateAsync(values);
      void notice.success(t('resource.created'));
      await onCreated?.(created);
      void navigate(`${listPath}/${created.id}`, { replace: true });
    }
  };

  const confirmDelete = () => {
    if (!current) return;
    modal.confirm({
      title: t('resource.delete_confirm', { name: title }),
      okText: t('resource.delete'),
      okButtonProps: { danger: true, id: 'resource-delete-confirm' },
      onOk: async () => {
        try {
          await remove.mutateAsync(current.id);
          void notice.success(t('resource.deleted'));
          void navigate(backTo);
        } catch (error) {
          const used = error instanceof FetchError ? (error.details.body as { data?: { used_by?: { label: string; count: number }[] } })?.data?.used_by : undefined;
          void notice.error(used ? `${errorText(error)}: ${used.map((u) => `${t(u.label)} (${u.count})`).join(', ')}` : errorText(error));
        }
      },
    });
  };

  const form = !offers(def, 'update') && current ? (
    <ReadOnlyDetails def={def} row={current} cells={cells} />
  ) : (
    <ResourceForm
      def={def}
      row={current}
      onSubmit={submit}
      inputs={inputs}
      fixed={fixed}
      initial={initial}
      disabled={!canWrite || (current !== null && editable !== undefined && !editable(current))}
      extra={
        current && canWrite && offers(def, 'delete') ? (
          <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="resource-delete">
            {t('resource.delete')}
          </Button>
        ) : null
      }
    />
  );
  const meta = (p: unknown) => (p as { name?: string | null } | null)?.name ?? t('resource.nobody');

  return (
    <div className="bo-page bo-res-detail" data-testid={`resource-detail-${def.name}`}>
      <Link to={backTo} className="bo-res-back">
        <ArrowLeftOutlined /> {backLabel}
      </Link>
      <h1 className="bo-page__title" data-testid="resource-title">
        {title || t(titleKey)}
      </h1>
      {current && current.created_by !== undefined ? (
        <Typography.Paragraph type="secondary" className="bo-res-meta">
          {t('resource.created_meta', { at: formatDateTime(current.created_at, locale), name: meta(current.created_by) })} ·{' '}
          {t('resource.updated_meta', { at: formatDateTime(current.updated_at, locale), name: meta(current.updated_by) })}
        </Typography.Paragraph>
      ) : null}
      {current && rowNotice ? rowNotice(current) : null}
      {current && offers(def, 'update') && serverFields(def).length > 0 ? (
        <Descriptions
          size="small"
          className="bo-res-server-fields"
          column={{ xs: 1, sm: 2, md: 3 }}
          items={serverFields(def).map(([field, meta]) => ({
            key: field,
            label: t(meta.label),
            children: cells?.[field]?.(current[field], current) ?? fieldCell(meta, current[field], locale, current[`${field}_label`]),
          }))}
        />
      ) : null}
      {current && rowActions ? (
        <Space wrap className="bo-res-actions" data-testid="resource-row-actions">
          {rowActions(current)}
        </Space>
      ) : null}
      {current ? (
        <Tabs
          destroyOnHidden
          defaultActiveKey={search.get('tab') ?? undefined}
          items={[
            { key: 'details', label: t('resource.tab.details'), children: form },
            { key: 'history', label: t('resource.tab.history'), children: <HistoryTab def={def} id={current.id} /> },
            ...(isReferenced(def) ? [{ key: 'used-by', label: t('resource.tab.used_by'), children: <UsedByTab def={def} id={current.id} /> }] : []),
            ...(tabs?.(current) ?? []),
          ]}
        />
      ) : (
        form
      )}
    </div>
  );
}

/** A new row filled from another one, without the fields that identify a row. */
function CloneDetail(props: ResourcePageProps & { from: number }) {
  const source = useResourceRow(props.def, props.from);
  if (source.isPending) return <Spin size="large" className="bo-res-loading" />;
  if (source.isError) return <Detail {...props} id={-1} />;
  const drops = new Set(props.cloneDrops ?? []);
  const initial = Object.fromEntries(Object.entries(source.data).filter(([k]) => !drops.has(k) && k in props.def.schema.shape));
  return <Detail {...props} id={null} initial={initial} />;
}

/** The list, new and detail screens of one resource, chosen by the URL's last segment. */
export function ResourcePage(props: ResourcePageProps) {
  const { t } = useTranslation();
  // The segment after basePath, whatever the route calls it (`:id`, `:network`, `new`).
  const { pathname } = useLocation();
  const at = pathname.indexOf(`${props.basePath}/`);
  const rest = at >= 0 ? pathname.slice(at + props.basePath.length + 1).replace(/\/$/, '') : '';
  const id = rest === '' ? undefined : rest;
  if (id === undefined)
    return (
      <ResourceList
        def={props.def}
        basePath={props.basePath}
        title={t(props.titleKey)}
        cells={props.cells}
        extraColumns={props.extraColumns}
        actions={props.listActions}
        fixed={props.fixed}
        newPath={props.newPath}
      />
    );
  if (id === 'new') return <Detail {...props} id={null} />;
  const clone = props.cloneDrops ? /^clone\/([1-9]\d{0,9})$/.exec(id) : null;
  if (clone) return <CloneDetail key={id} {...props} from={Number(clone[1])} />;
  if (!/^[1-9]\d{0,9}$/.test(id)) return <Detail {...props} id={-1} />;
  return <Detail key={id} {...props} id={Number(id)} />;
}
