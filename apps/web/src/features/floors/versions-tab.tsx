/**
 * The rule set's versions, newest first: who saved it, when, why (the comment), what it changed.
 * Tick two to compare them; look at one (its rules, read only), export it, or restore it (which
 * saves the set it had as a new version, so nothing is ever lost).
 */
import { DownloadOutlined, EyeOutlined, HistoryOutlined, SwapOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Space, Table, Typography } from 'antd';
import { keepPreviousData } from '@tanstack/react-query';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { useApiQuery } from '../../lib/query.ts';
import { StatusTag, formatDateTime } from '../../resources/resource-cells.tsx';
import { DiffLists, DiffSummary } from './diff-view.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import type { Comparison, VersionRow, VersionWritten } from './floors-api.ts';

interface VersionsPage {
  items: VersionRow[];
  total: number;
}

export function VersionsTab({
  canWrite,
  current,
  onView,
  onChanged,
}: {
  canWrite: boolean;
  current: number;
  onView: (version: number) => void;
  onChanged: (w: VersionWritten) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<number[]>([]);
  const [pair, setPair] = useState<[number, number] | null>(null);
  const [restoring, setRestoring] = useState<VersionRow | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const versions = useApiQuery<VersionsPage>(
    'floors/versions',
    { query: { page, page_size: 20 } },
    { placeholderData: keepPreviousData },
  );
  const comparison = useApiQuery<Comparison>(pair ? 'floors/versions/compare' : null, {
    query: pair ? { from: pair[0], to: pair[1] } : {},
  });

  const restore = async () => {
    if (!restoring) return;
    setBusy(true);
    try {
      const written = await api.request<VersionWritten>(`floors/versions/${restoring.version}/restore`, {
        method: 'POST',
        body: { comment, base_version: current },
      });
      void notice.success(t('floors.saved', { version: written.version }));
      setRestoring(null);
      setComment('');
      onChanged(written);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const what = (v: VersionRow) =>
    v.source === 'restore'
      ? t('floors.versions.source.restore', { version: v.restored_from ?? '?' })
      : t(`floors.versions.source.${v.source}`);

  return (
    <div data-testid="floors-versions">
      <Space wrap className="bo-floors-gap-bottom">
        <Button
          icon={<SwapOutlined />}
          disabled={picked.length !== 2}
          onClick={() => setPair([Math.min(...picked), Math.max(...picked)] as [number, number])}
          data-testid="floors-compare"
        >
          {t('floors.versions.compare')}
        </Button>
        <Typography.Text type="secondary">{t('floors.versions.compare_pick')}</Typography.Text>
      </Space>
      <ScrollRegion label={t('floors.tab.versions')}>
        <Table<VersionRow>
          size="middle"
          rowKey="version"
          loading={versions.isFetching && !versions.data}
          dataSource={versions.data?.items ?? []}
          scroll={{ x: 'max-content' }}
          onRow={(v) => ({ 'data-testid': `floors-version-${v.version}` }) as HTMLAttributes<HTMLElement>}
          rowSelection={{
            selectedRowKeys: picked,
            onChange: (keys) => setPicked((keys as number[]).slice(-2)),
            getCheckboxProps: (v) => ({ 'aria-label': `${t('floors.versions.version')} ${v.version}` }),
            hideSelectAll: true,
          }}
          locale={{ emptyText: t('floors.versions.none') }}
          pagination={{
            current: page,
            pageSize: 20,
            total: versions.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            {
              key: 'version',
              title: t('floors.versions.version'),
              render: (_: unknown, v) => (
                <Space size={4}>
                  <strong>{v.version}</strong>
                  {v.version === current ? (
                    <StatusTag tone="ok" testId="floors-current">
                      {t('floors.versions.current')}
                    </StatusTag>
                  ) : null}
                </Space>
              ),
            },
            {
              key: 'when',
              title: t('floors.versions.when'),
              render: (_: unknown, v) => formatDateTime(v.created_at, locale),
            },
            {
              key: 'who',
              title: t('floors.versions.who'),
              render: (_: unknown, v) => v.created_by.name ?? '—',
            },
            {
              key: 'what',
              title: t('floors.versions.what'),
              render: (_: unknown, v) => (
                <div className="bo-floors-what">
                  <div>
                    {what(v)} ·{' '}
                    {t('floors.diff.summary', { added: v.added, changed: v.changed, removed: v.removed })}
                  </div>
                  {v.comment ? <Typography.Text type="secondary">{v.comment}</Typography.Text> : null}
                </div>
              ),
            },
            {
              key: 'rules',
              title: t('floors.versions.rules'),
              align: 'right',
              render: (_: unknown, v) => v.rule_count.toLocaleString(locale),
            },
            {
              key: 'actions',
              title: '',
              render: (_: unknown, v) => (
                <Space size={0} wrap>
                  <Button
                    type="link"
                    size="small"
                    icon={<SwapOutlined />}
                    disabled={v.version === 1 && v.added === 0}
                    onClick={() => setPair([v.version - 1, v.version])}
                    aria-label={`${t('floors.versions.compare')} ${v.version - 1} → ${v.version}`}
                  >
                    {v.version - 1} → {v.version}
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    icon={<EyeOutlined />}
                    onClick={() => onView(v.version)}
                    data-testid={`floors-view-${v.version}`}
                  >
                    {t('floors.versions.view')}
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    icon={<DownloadOutlined />}
                    onClick={() =>
                      void downloadApiFile(
                        '/v1/floors/export',
                        { version: v.version },
                        'floor_rules.csv',
                      ).catch((e: unknown) => !isSessionError(e) && notice.error(errorText(e)))
                    }
                    aria-label={`${t('floors.export')} ${v.version}`}
                  >
                    CSV
                  </Button>
                  {canWrite && v.version !== current ? (
                    <Button
                      type="link"
                      size="small"
                      icon={<HistoryOutlined />}
                      onClick={() => setRestoring(v)}
                      data-testid={`floors-restore-${v.version}`}
                    >
                      {t('floors.versions.restore')}
                    </Button>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </ScrollRegion>
      {pair ? (
        <div className="bo-floors-compare" data-testid="floors-comparison">
          <Typography.Title level={5}>
            {t('floors.versions.compare_title', { from: pair[0], to: pair[1] })}
          </Typography.Title>
          {comparison.isError ? <Alert type="error" showIcon title={errorText(comparison.error)} /> : null}
          {comparison.data ? (
            <>
              <DiffSummary counts={comparison.data} />
              <DiffLists counts={comparison.data} lists={comparison.data.lists} />
            </>
          ) : null}
        </div>
      ) : null}
      <Modal
        open={restoring !== null}
        title={restoring ? t('floors.versions.restore_title', { version: restoring.version }) : ''}
        onCancel={() => setRestoring(null)}
        onOk={() => void restore()}
        okText={t('floors.versions.restore')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'floors-restore-confirm' } as Record<`data-${string}`, string>}
      >
        <Typography.Paragraph>
          {restoring ? t('floors.versions.restore_body', { version: restoring.version }) : ''}
        </Typography.Paragraph>
        <Input.TextArea
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          maxLength={500}
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder={t('floors.comment_placeholder')}
          aria-label={t('floors.comment')}
        />
      </Modal>
    </div>
  );
}
