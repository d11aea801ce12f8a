/**
 * The saved versions of the chosen subject (every version of the builder when none is chosen),
 * newest first, paged: number, name, author and date in the UI's language; Load; Delete (write
 * access, confirmed); pick two to compare them.
 */
import { DeleteOutlined, DiffOutlined, DownloadOutlined } from '@ant-design/icons';
import type { BuilderKind, BuilderVersionDto } from '@backoffice/core/builders/common';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Drawer, Empty, Pagination, Popconfirm, Skeleton, Space, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { deleteVersion, useVersions, versionsKey } from './builders-api.ts';

const dateTime = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
import type { BuilderSubjectRef } from './types.ts';

export interface VersionsDrawerProps {
  kind: BuilderKind;
  open: boolean;
  onClose: () => void;
  subject: BuilderSubjectRef | null;
  canWrite: boolean;
  onLoad: (version: BuilderVersionDto) => void;
  onCompare: (a: BuilderVersionDto, b: BuilderVersionDto) => void;
  testId: string;
}

export function VersionsDrawer({ kind, open, onClose, subject, canWrite, onLoad, onCompare, testId }: VersionsDrawerProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const queries = useQueryClient();
  const viewport = useViewport();
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<BuilderVersionDto[]>([]);
  const [deleting, setDeleting] = useState<number | null>(null);
  const list = useVersions(kind, subject ? { type: subject.type, id: subject.id } : null, page, open);
  const items = list.data?.items ?? [];

  const togglePick = (v: BuilderVersionDto, on: boolean) =>
    setPicked((prev) => (on ? [...prev.filter((p) => p.id !== v.id), v].slice(-2) : prev.filter((p) => p.id !== v.id)));

  const remove = async (v: BuilderVersionDto) => {
    setDeleting(v.id);
    try {
      await deleteVersion(kind, v.id);
      setPicked((prev) => prev.filter((p) => p.id !== v.id));
      void queries.invalidateQueries({ queryKey: versionsKey(kind) });
      void notice.success(t('builders.version_deleted'));
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setDeleting(null);
    }
  };

  const title = subject?.name ? t('builders.versions_for', { subject: subject.name }) : subject?.type === 'none' ? t('builders.versions_title') : t('builders.versions_all');
  const [older, newer] = [...picked].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={title}
      size={viewport.isMobile ? '100%' : 560}
      data-testid={`${testId}-versions`}
      footer={
        <Space wrap>
          <Button type="primary" icon={<DiffOutlined />} disabled={picked.length !== 2} onClick={() => older && newer && onCompare(older, newer)} data-testid={`${testId}-compare`}>
            {t('builders.compare')}
          </Button>
          <Typography.Text type="secondary">{picked.length === 2 ? t('builders.compare_title', { a: older!.number, b: newer!.number }) : t('builders.compare_hint')}</Typography.Text>
        </Space>
      }
    >
      {list.error ? <Alert type="error" showIcon title={t('builders.load_failed', { message: errorText(list.error) })} /> : null}
      {list.isPending && open ? <Skeleton active /> : null}
      {list.data && items.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('builders.versions_empty')} /> : null}
      {items.length > 0 ? (
        <ol className="bo-builder-versions" aria-label={title}>
          {items.map((v) => {
            const isPicked = picked.some((p) => p.id === v.id);
            return (
              <li key={v.id} className="bo-builder-version" data-testid={`${testId}-version-${v.number}`} data-version-id={v.id}>
                <Checkbox
                  checked={isPicked}
                  onChange={(e) => togglePick(v, e.target.checked)}
                  aria-label={`${t('builders.version_pick')}: ${t('builders.version_label', { number: v.number, name: v.name })}`}
                  data-testid={`${testId}-version-pick`}
                />
                <div className="bo-builder-version__body">
                  <Typography.Text strong className="bo-builder-version__name">
                    {t('builders.version_label', { number: v.number, name: v.name })}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="bo-builder-version__meta">
                    {t('builders.version_by', { author: v.author?.name ?? t('builders.version_author_unknown'), date: dateTime(v.created_at, locale) })}
                    {!subject?.id && v.subject_name ? ` · ${v.subject_name}` : ''}
                  </Typography.Text>
                </div>
                <Space size={4} className="bo-builder-version__actions">
                  <Button size="small" icon={<DownloadOutlined />} onClick={() => onLoad(v)} data-testid={`${testId}-version-load`}>
                    {t('builders.version_load')}
                  </Button>
                  {canWrite ? (
                    <Popconfirm
                      title={t('builders.version_delete_confirm', { number: v.number, name: v.name })}
                      okText={t('builders.version_delete')}
                      cancelText={t('common.cancel')}
                      okButtonProps={{ danger: true, 'data-testid': `${testId}-version-delete-ok` } as ButtonProps}
                      onConfirm={() => remove(v)}
                    >
                      <Button size="small" danger icon={<DeleteOutlined />} loading={deleting === v.id} aria-label={`${t('builders.version_delete')}: ${t('builders.version_label', { number: v.number, name: v.name })}`} data-testid={`${testId}-version-delete`} />
                    </Popconfirm>
                  ) : null}
                </Space>
              </li>
            );
          })}
        </ol>
      ) : null}
      {list.data && list.data.total > list.data.page_size ? (
        <Pagination className="bo-builder-versions__pages" size="small" current={page} pageSize={list.data.page_size} total={list.data.total} onChange={setPage} showSizeChanger={false} />
      ) : null}
    </Drawer>
  );
}
