/**
 * Uploads (spec section 7: multipart with `files[]`): click or drop several files; each is checked
 * here first with core's rules (empty, too large, an extension we do not take), then sent on its
 * own request, two at a time, with its own progress bar and its own result: a file the server
 * refuses (its bytes are not what its name says) shows the translated reason beside it while the
 * others go on.
 */
import { CheckCircleFilled, CloseCircleFilled, InboxOutlined } from '@ant-design/icons';
import { FILES_ACCEPT, FILES_PER_UPLOAD, precheckFile, type FileProblem } from '@backoffice/core/files';
import { Button, Progress, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { uploadFile } from './files-api.ts';

export type UploadStatus = 'waiting' | 'uploading' | 'done' | 'error';

export interface UploadItem {
  uid: string;
  file: File;
  status: UploadStatus;
  percent: number;
  /** Why it failed: core's check here (a key and params) or the server's answer; translated when shown. */
  error: unknown;
  /** The folder it goes into (chosen when it was added). */
  folderId: number | null;
}

/** How many uploads run at once. */
export const UPLOAD_CONCURRENCY = 2;

/** The next items to start: waiting ones, up to the concurrency, in the order they were added. */
export function nextToStart(items: readonly UploadItem[], concurrency = UPLOAD_CONCURRENCY): UploadItem[] {
  const running = items.filter((i) => i.status === 'uploading').length;
  return items.filter((i) => i.status === 'waiting').slice(0, Math.max(0, concurrency - running));
}

export function UploadPanel({
  folderId,
  folderName,
  maxBytes,
  onUploaded,
}: {
  folderId: number | null;
  folderName: string;
  maxBytes: number;
  onUploaded: () => void;
}) {
  const { t, i18n } = useTranslation();
  const notice = useNotice();
  /** The server's reason in the screen's language (its key and params), else the generic text. */
  const describe = (err: unknown): string => {
    if (err instanceof FetchError)
      return err.key && i18n.exists(err.key) ? t(err.key, err.details.params ?? undefined) : errorText(err);
    if (err && typeof err === 'object' && 'key' in err)
      return t((err as FileProblem).key, (err as FileProblem).params);
    return errorText(err);
  };
  const [items, setItems] = useState<UploadItem[]>([]);
  const started = useRef(new Set<string>());
  const controllers = useRef(new Map<string, AbortController>());

  const patch = (uid: string, change: Partial<UploadItem>) =>
    setItems((list) => list.map((i) => (i.uid === uid ? { ...i, ...change } : i)));

  useEffect(() => {
    for (const item of nextToStart(items)) {
      if (started.current.has(item.uid)) continue;
      started.current.add(item.uid);
      const controller = new AbortController();
      controllers.current.set(item.uid, controller);
      patch(item.uid, { status: 'uploading', percent: 0 });
      uploadFile(item.file, item.folderId, (percent) => patch(item.uid, { percent }), controller.signal)
        .then(() => {
          patch(item.uid, { status: 'done', percent: 100 });
          onUploaded();
        })
        .catch((err: unknown) => {
          if ((err as Error).name === 'AbortError') return;
          patch(item.uid, { status: 'error', error: err });
        })
        .finally(() => controllers.current.delete(item.uid));
    }
  }, [items, onUploaded]);

  // Leaving the screen stops the uploads still running.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const c of running.values()) c.abort();
    };
  }, []);

  const add = (file: File) => {
    const problem = precheckFile(file.name, file.size, maxBytes);
    const uid = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    setItems((list) => [
      ...list,
      { uid, file, folderId, status: problem ? 'error' : 'waiting', percent: 0, error: problem },
    ]);
  };

  const done = items.filter((i) => i.status === 'done').length;
  const busy = items.some((i) => i.status === 'uploading' || i.status === 'waiting');
  useEffect(() => {
    if (!busy && done > 0 && items.every((i) => i.status === 'done'))
      void notice.success(t(done === 1 ? 'files.upload.done_one' : 'files.upload.done'));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the queue empties
  }, [busy]);

  return (
    <div className="bo-files-upload" data-testid="files-upload">
      <Upload.Dragger
        multiple
        accept={FILES_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          add(file);
          return false;
        }}
        data-testid="files-upload-input"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{t('files.upload.drop')}</p>
        <p className="ant-upload-hint">
          {t('files.upload.hint', { count: FILES_PER_UPLOAD, max: Math.round(maxBytes / 1048576) })}{' '}
          {t('files.upload.into', { folder: folderName })}
        </p>
      </Upload.Dragger>
      {items.length > 0 ? (
        <ul className="bo-files-queue" aria-live="polite" data-testid="files-upload-list">
          {items.map((i) => (
            <li
              key={i.uid}
              className="bo-files-queue__item"
              data-testid="files-upload-item"
              data-status={i.status}
            >
              <div className="bo-files-queue__head">
                {i.status === 'done' ? <CheckCircleFilled className="bo-files-ok" aria-hidden /> : null}
                {i.status === 'error' ? <CloseCircleFilled className="bo-files-bad" aria-hidden /> : null}
                <Typography.Text ellipsis className="bo-files-queue__name">
                  {i.file.name}
                </Typography.Text>
                <Typography.Text type="secondary" className="bo-files-queue__state">
                  {i.status === 'waiting'
                    ? t('files.upload.waiting')
                    : i.status === 'uploading'
                      ? t('files.upload.uploading')
                      : i.status === 'done'
                        ? t('files.upload.uploaded')
                        : null}
                </Typography.Text>
              </div>
              {i.status === 'error' ? (
                <Typography.Text type="danger" role="alert" data-testid="files-upload-error">
                  {describe(i.error)}
                </Typography.Text>
              ) : (
                <Progress
                  percent={i.percent}
                  size="small"
                  status={i.status === 'done' ? 'success' : 'active'}
                  aria-label={i.file.name}
                />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {items.length > 0 && !busy ? (
        <Button
          size="small"
          onClick={() => {
            setItems([]);
            started.current.clear();
          }}
          data-testid="files-upload-clear"
        >
          {t('files.upload.clear')}
        </Button>
      ) : null}
    </div>
  );
}
