/**
 * Importing the rules from a CSV (the round trip's way back): the file is read in the browser and
 * sent for a preview (nothing changes): how many rules it holds, its bad rows with their line and
 * reason, and what applying it does (added, changed, removed). A file with a bad row cannot be
 * applied. Applying sends the same file with the version it was previewed against; if the rules
 * changed meanwhile the server refuses and the preview is asked for again.
 */
import { WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { DiffLists, DiffSummary } from './diff-view.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import type { ImportPreview, VersionWritten } from './floors-api.ts';

type PreviewError = ImportPreview['errors'][number];

export function ImportModal({
  open,
  onClose,
  onApplied,
}: {
  open: boolean;
  onClose: () => void;
  onApplied: (w: VersionWritten) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [reading, setReading] = useState(false);
  const [applying, setApplying] = useState(false);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setCsv(null);
    setPreview(null);
    setComment('');
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const read = async (file: File) => {
    reset();
    setReading(true);
    try {
      const text = await file.text();
      setCsv(text);
      setPreview(
        await api.request<ImportPreview>('floors/import/preview', { method: 'POST', body: { csv: text } }),
      );
    } catch (e) {
      if (!isSessionError(e)) setError(errorText(e));
    } finally {
      setReading(false);
    }
  };

  const apply = async () => {
    if (!csv || !preview) return;
    setApplying(true);
    setError(null);
    try {
      const written = await api.request<VersionWritten>('floors/import/apply', {
        method: 'POST',
        body: { csv, base_version: preview.base_version, comment },
      });
      void notice.success(t('floors.saved', { version: written.version }));
      onApplied(written);
      close();
    } catch (e) {
      if (isSessionError(e)) return;
      setError(errorText(e));
      // The rules moved on: show what the file does now.
      try {
        setPreview(
          await api.request<ImportPreview>('floors/import/preview', { method: 'POST', body: { csv } }),
        );
      } catch {
        /* the error above says enough */
      }
    } finally {
      setApplying(false);
    }
  };

  const canApply = Boolean(
    preview &&
    !preview.file_error &&
    preview.error_count === 0 &&
    preview.diff &&
    preview.diff.added + preview.diff.changed + preview.diff.removed > 0,
  );
  const reason = (e: PreviewError) =>
    e.key === 'floors.error.duplicate_keys' && e.first_line
      ? t('floors.import.duplicate_of', { line: e.first_line })
      : t(e.key);

  return (
    <Modal
      open={open}
      title={t('floors.import.title')}
      onCancel={close}
      width={900}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            disabled={!canApply}
            loading={applying}
            onClick={() => void apply()}
            data-testid="floors-import-confirm"
          >
            {t('floors.import.confirm')}
          </Button>
        </Space>
      }
    >
      <div data-testid="floors-import">
        <Typography.Paragraph type="secondary">{t('floors.import.help')}</Typography.Paragraph>
        <CsvUpload onFile={(file) => void read(file)} disabled={reading || applying} />
        {reading ? (
          <div className="bo-floors-gap">
            <Spin size="small" /> {t('floors.import.reading')}
          </div>
        ) : null}
        {error ? (
          <Alert
            type="error"
            showIcon
            title={error}
            className="bo-floors-gap"
            data-testid="floors-import-error"
          />
        ) : null}
        {preview?.file_error ? (
          <Alert
            type="error"
            showIcon
            title={t(preview.file_error.key, preview.file_error.params ?? {})}
            className="bo-floors-gap"
            data-testid="floors-import-file-error"
          />
        ) : null}
        {preview && !preview.file_error ? (
          <div className="bo-floors-gap" data-testid="floors-import-preview">
            <Typography.Paragraph>
              {t('floors.import.rows', {
                rows: preview.rows.toLocaleString(locale),
                delimiter: preview.delimiter === ';' ? '«;»' : '«,»',
              })}
            </Typography.Paragraph>
            {preview.error_count > 0 ? (
              <>
                <Alert
                  type="error"
                  showIcon
                  icon={<WarningOutlined />}
                  title={t('floors.import.bad_rows', { count: preview.error_count })}
                  data-testid="floors-import-bad"
                />
                <ScrollRegion label={t('floors.import.bad_rows', { count: preview.error_count })}>
                  <Table<PreviewError>
                    size="small"
                    className="bo-floors-gap"
                    rowKey={(e, i) => `${e.line}-${e.field ?? ''}-${String(i)}`}
                    dataSource={preview.errors}
                    pagination={preview.errors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
                    scroll={{ x: 'max-content' }}
                    data-testid="floors-import-errors"
                    columns={[
                      {
                        key: 'line',
                        title: t('floors.import.line'),
                        align: 'right',
                        render: (_: unknown, e) => e.line,
                      },
                      {
                        key: 'field',
                        title: t('floors.import.field'),
                        render: (_: unknown, e) =>
                          e.field
                            ? t(
                                e.field === 'cpm' || e.field === 'currency' || e.field === 'type'
                                  ? `floors.${e.field}`
                                  : `floors.key.${e.field}`,
                              )
                            : '—',
                      },
                      {
                        key: 'value',
                        title: t('floors.import.value'),
                        render: (_: unknown, e) => <code>{e.value || '—'}</code>,
                      },
                      {
                        key: 'reason',
                        title: t('floors.import.reason'),
                        render: (_: unknown, e) => reason(e),
                      },
                    ]}
                  />
                </ScrollRegion>
                {preview.error_count > preview.errors.length ? (
                  <Typography.Text type="secondary">
                    {t('floors.import.listed_errors', { count: preview.errors.length })}
                  </Typography.Text>
                ) : null}
              </>
            ) : null}
            {preview.diff && preview.lists ? (
              <>
                <DiffSummary counts={preview.diff} />
                <DiffLists counts={preview.diff} lists={preview.lists} />
                <Input.TextArea
                  className="bo-floors-gap"
                  value={comment}
                  onChange={(e) => setComment(e.target.value)}
                  maxLength={500}
                  autoSize={{ minRows: 1, maxRows: 4 }}
                  placeholder={t('floors.comment_placeholder')}
                  aria-label={t('floors.comment')}
                  data-testid="floors-import-comment"
                />
              </>
            ) : null}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
