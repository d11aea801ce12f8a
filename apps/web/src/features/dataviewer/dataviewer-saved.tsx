/**
 * Saved DataViewers: the list of those I may open (mine and those shared with one of my roles,
 * with owner and roles; the resource layer's list, by name), and the dialogs to name (save as,
 * rename) and share one.
 */
import { REPORT_LIMITS } from '@backoffice/core/reports';
import { Alert, Drawer, Empty, Form, Input, List, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import type { Role, SavedListItem } from './dataviewer-api.ts';
import { useSavedList } from './dataviewer-api.ts';

/**
 * What the drawer lists: the loaded page (200 by name) searched by name or owner here; when I may
 * open more than a page holds, the search also asks the server for the names beyond it.
 */
function useSavedSearch(search: string) {
  const needle = search.trim().toLowerCase();
  const all = useSavedList();
  const loaded = all.page?.items ?? [];
  const total = all.page?.total ?? 0;
  const truncated = total > loaded.length;
  // Without more than a page, the same query as `all` (no second request).
  const serverNeedle = useDebouncedValue(truncated ? search.trim() : '', 250);
  const searched = useSavedList(serverNeedle);
  const matches = (d: SavedListItem) => !needle || d.name.toLowerCase().includes(needle) || d.owner.name.toLowerCase().includes(needle);
  let items = loaded.filter(matches);
  if (truncated && serverNeedle) {
    const seen = new Set(items.map((d) => d.id));
    items = [...items, ...(searched.page?.items ?? []).filter((d) => !seen.has(d.id) && matches(d))].sort((a, b) => a.name.localeCompare(b.name));
  }
  return { items, loaded: loaded.length, total, truncated, isPending: all.isPending, isError: all.isError || searched.isError, error: all.error ?? searched.error };
}

export function SavedDrawer({ open, onClose, lang, currentId }: { open: boolean; onClose: () => void; lang: string; currentId: number | null }) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const list = useSavedSearch(search);
  const items = list.items;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <Drawer open={open} onClose={onClose} title={t('report.saved_title')} size={420} data-testid="dv-saved-drawer" destroyOnHidden>
      <Input.Search
        allowClear
        placeholder={t('dv.saved.search')}
        aria-label={t('dv.saved.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 12 }}
      />
      {list.isError ? <Alert type="error" showIcon title={errorText(list.error)} /> : null}
      {list.truncated ? (
        <Typography.Paragraph type="secondary" data-testid="dv-saved-truncated">
          {t('dv.rows_loaded', { loaded: list.loaded, total: list.total })}
        </Typography.Paragraph>
      ) : null}
      <List<SavedListItem>
        loading={list.isPending}
        dataSource={items}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dv.saved.empty')} /> }}
        renderItem={(d) => (
          <List.Item key={d.id} className={d.id === currentId ? 'dv-saved__item dv-saved__item--current' : 'dv-saved__item'}>
            <List.Item.Meta
              title={
                <Link to={`/${lang}/reports/dataviewer/${d.id}`} onClick={onClose} data-testid="dv-saved-link">
                  {d.name}
                </Link>
              }
              description={
                <Space orientation="vertical" size={4}>
                  <Typography.Text type="secondary">
                    {t('report.owner')}: {d.owner.name} · {t('dv.saved.updated')}: {dateFormat.format(new Date(d.updated_at))}
                  </Typography.Text>
                  <span>
                    {d.shared_roles.length === 0 ? (
                      <Typography.Text type="secondary">{t('dv.saved.not_shared')}</Typography.Text>
                    ) : (
                      d.shared_roles.map((r) => <Tag key={r.id}>{r.name}</Tag>)
                    )}
                  </span>
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}

/** Asks for a name (save as new, rename); the name is required, at most 120 characters. Mounted per use, so it starts from `initial`. */
export function NameModal({
  open,
  title,
  initial,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  initial: string;
  onCancel: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > REPORT_LIMITS.maxSavedNameLength) {
      setError(t('report.name_required'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(trimmed);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('report.name')} required validateStatus={error ? 'error' : undefined} help={error ?? undefined} htmlFor="dv-name">
          <Input
            id="dv-name"
            data-testid="dv-name"
            autoFocus
            value={name}
            maxLength={REPORT_LIMITS.maxSavedNameLength}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Chooses the roles a DataViewer is shared with. Mounted per use, so it starts from `initial`. */
export function ShareModal({
  open,
  roles,
  limited,
  initial,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  roles: Role[];
  /** The full role list is not available to this person (only theirs and those already shared). */
  limited: boolean;
  initial: number[];
  onCancel: () => void;
  onSubmit: (ids: number[]) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [ids, setIds] = useState<number[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit(ids);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('dv.share.title')}
      onCancel={onCancel}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      {limited ? <Alert type="info" showIcon title={t('dv.share.hint_limited')} style={{ marginBottom: 12 }} /> : null}
      <Form layout="vertical">
        <Form.Item label={t('report.shared_with')} validateStatus={error ? 'error' : undefined} help={error ?? undefined} htmlFor="dv-share">
          <Select<number[]>
            id="dv-share"
            data-testid="dv-share-roles"
            mode="multiple"
            allowClear
            value={ids}
            placeholder={t('dv.share.placeholder')}
            optionFilterProp="label"
            options={roles.map((r) => ({ value: r.id, label: r.name }))}
            onChange={setIds}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
