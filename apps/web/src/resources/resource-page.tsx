/**
 * A resource's screens from its declaration: the list at `basePath`, a new row at `basePath/new`,
 * one row at `basePath/{id}` with tabs (details, history, used by). Takes custom tabs, so an
 * entity with more to show adds a tab rather than a new page.
 */
import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import type { HistoryEntry, ResourceDef } from '@backoffice/core/resources/define';
import { Alert, App, Button, Empty, List, Result, Spin, Tabs, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useLocale } from '../components/use-locale.ts';
import { useNotice } from '../components/use-notice.ts';
import { errorText } from '../lib/api.ts';
import { FetchError } from '../lib/fetch-client.ts';
import { usePermission } from '../lib/permission.tsx';
import { useResourceHistory, useResourceMutations, useResourceRow, useResourceUsedBy, type ResourceRow } from './resource-api.ts';
import { formatDateTime, valueText } from './resource-cells.tsx';
import { ResourceForm } from './resource-form.tsx';
import { ResourceList } from './resource-list.tsx';

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
}

function HistoryTab({ def, id }: { def: ResourceDef; id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const history = useResourceHistory(def, id);
  if (history.isPending) return <Spin />;
  if (history.isError) return <Alert type="error" showIcon title={errorText(history.error)} />;
  if (history.data.length === 0) return <Empty description={t('resource.history.empty')} />;
  const verb = (e: HistoryEntry) => {
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

function Detail({ def, basePath, titleKey, newTitleKey, tabs, inputs, id }: ResourcePageProps & { id: number | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const notice = useNotice();
  const { modal } = App.useApp();
  const row = useResourceRow(def, id);
  const { create, update, remove } = useResourceMutations(def);
  const canWrite = usePermission(def.acl, 'write');
  const listPath = `/${locale}${basePath}`;

  if (id !== null && row.isError) {
    return (
      <div className="bo-page">
        <Result status={row.error.httpStatus === 404 ? '404' : 'error'} title={errorText(row.error)} extra={<Link to={listPath}>{t('resource.back')}</Link>} />
      </div>
    );
  }
  if (id !== null && row.isPending) return <Spin size="large" className="bo-res-loading" />;
  const current = id !== null ? (row.data ?? null) : null;
  const title = current ? String(current[def.titleField] ?? '') : t(newTitleKey);

  const submit = async (values: Record<string, unknown>) => {
    if (current) {
      await update.mutateAsync({ id: current.id, body: values });
      void notice.success(t('resource.saved'));
    } else {
      const created = await create.mutateAsync(values);
      void notice.success(t('resource.created'));
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
          void navigate(listPath);
        } catch (error) {
          const used = error instanceof FetchError ? (error.details.body as { data?: { used_by?: { label: string; count: number }[] } })?.data?.used_by : undefined;
          void notice.error(used ? `${errorText(error)}: ${used.map((u) => `${t(u.label)} (${u.count})`).join(', ')}` : errorText(error));
        }
      },
    });
  };

  const form = (
    <ResourceForm
      def={def}
      row={current}
      onSubmit={submit}
      inputs={inputs}
      disabled={!canWrite}
      extra={
        current && canWrite ? (
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
      <Link to={listPath} className="bo-res-back">
        <ArrowLeftOutlined /> {t('resource.back')}
      </Link>
      <h1 className="bo-page__title" data-testid="resource-title">
        {title || t(titleKey)}
      </h1>
      {current ? (
        <Typography.Paragraph type="secondary" className="bo-res-meta">
          {t('resource.created_meta', { at: formatDateTime(current.created_at, locale), name: meta(current.created_by) })} ·{' '}
          {t('resource.updated_meta', { at: formatDateTime(current.updated_at, locale), name: meta(current.updated_by) })}
        </Typography.Paragraph>
      ) : null}
      {current ? (
        <Tabs
          destroyOnHidden
          items={[
            { key: 'details', label: t('resource.tab.details'), children: form },
            { key: 'history', label: t('resource.tab.history'), children: <HistoryTab def={def} id={current.id} /> },
            { key: 'used-by', label: t('resource.tab.used_by'), children: <UsedByTab def={def} id={current.id} /> },
            ...(tabs?.(current) ?? []),
          ]}
        />
      ) : (
        form
      )}
    </div>
  );
}

/** The list, new and detail screens of one resource, chosen by the URL's last segment. */
export function ResourcePage(props: ResourcePageProps) {
  const { t } = useTranslation();
  const { id: param } = useParams();
  const { pathname } = useLocation();
  const id = param ?? (pathname.endsWith(`${props.basePath}/new`) ? 'new' : undefined);
  if (id === undefined) return <ResourceList def={props.def} basePath={props.basePath} title={t(props.titleKey)} />;
  if (id === 'new') return <Detail {...props} id={null} />;
  if (!/^[1-9]\d{0,9}$/.test(id)) return <Detail {...props} id={-1} />;
  return <Detail key={id} {...props} id={Number(id)} />;
}
