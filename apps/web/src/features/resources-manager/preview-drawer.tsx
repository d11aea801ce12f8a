/**
 * A file's preview: the bytes fetched with the session's token and shown from a blob: URL (the
 * app's CSP allows blob: for images, frames and media): an image as an <img>, a PDF in the
 * browser's own viewer (an iframe), MP4/WebM in a <video>; other types say there is no preview and
 * offer the download. The details (type, size, owner, dates) are beside it.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { formatBytes, isPreviewable, type ResourceFileRow } from '@backoffice/core/files';
import { Alert, Button, Descriptions, Drawer, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { downloadFile, fetchFileBlob } from './files-api.ts';

export function PreviewDrawer({ file, onClose }: { file: ResourceFileRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { isMobile } = useViewport();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const previewable = file ? isPreviewable(file.mime) : false;

  useEffect(() => {
    setUrl(null);
    setError(null);
    if (!file || !previewable) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchFileBlob(file.id, true, controller.signal)
      .then(({ blob }) => {
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch((err: unknown) => {
        if ((err as Error).name !== 'AbortError') setError(errorText(err));
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file, previewable]);

  const title = file ? t('files.preview.title', { name: file.name }) : '';
  let body = null;
  if (file && !previewable) body = <Alert type="info" showIcon title={t('files.preview.unavailable')} />;
  else if (error) body = <Alert type="error" showIcon title={error} />;
  else if (!url)
    body = (
      <div className="bo-files-preview__wait" role="status">
        <Spin size="small" /> {t('files.preview.loading')}
      </div>
    );
  else if (file?.kind === 'image')
    body = (
      <img src={url} alt={file.name} className="bo-files-preview__img" data-testid="files-preview-image" />
    );
  else if (file?.kind === 'pdf')
    body = (
      <iframe src={url} title={title} className="bo-files-preview__pdf" data-testid="files-preview-pdf" />
    );
  else if (file?.kind === 'video')
    body = (
      <video
        src={url}
        controls
        className="bo-files-preview__img"
        aria-label={title}
        data-testid="files-preview-video"
      />
    );

  return (
    <Drawer
      open={file !== null}
      onClose={onClose}
      title={title}
      size={isMobile ? '100%' : 760}
      destroyOnHidden
      rootClassName="bo-files-drawer"
      // A tall preview scrolls inside the drawer: its body takes the keyboard focus so it can be
      // scrolled without a mouse (WCAG 2.1.1; axe's scrollable-region-focusable).
      afterOpenChange={(open) => {
        const body = open ? document.querySelector<HTMLElement>('.bo-files-drawer .ant-drawer-body') : null;
        if (body) {
          body.tabIndex = 0;
          body.setAttribute('role', 'region');
          body.setAttribute('aria-label', title);
        }
      }}
      extra={
        file ? (
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void downloadFile(file).catch((err: unknown) => void notice.error(errorText(err)))}
            data-testid="files-preview-download"
          >
            {t('files.action.download')}
          </Button>
        ) : null
      }
      data-testid="files-preview"
    >
      {file ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <div className="bo-files-preview">{body}</div>
          <Descriptions
            title={t('files.preview.details')}
            size="small"
            column={1}
            bordered
            items={[
              { key: 'kind', label: t('files.col.kind'), children: t(`files.col.kind.${file.kind}`) },
              { key: 'mime', label: t('files.col.mime'), children: file.mime },
              { key: 'bytes', label: t('files.col.bytes'), children: formatBytes(file.bytes, locale) },
              {
                key: 'folder',
                label: t('files.col.folder'),
                children: file.folder_id_label ?? t('files.folder.none'),
              },
              { key: 'owner', label: t('files.col.owner'), children: file.owner_id_label ?? '—' },
              {
                key: 'created',
                label: t('files.col.created_at'),
                children: formatDateTime(file.created_at, locale),
              },
              {
                key: 'updated',
                label: t('resource.field.updated_at'),
                children: formatDateTime(file.updated_at, locale),
              },
            ]}
          />
        </Space>
      ) : null}
    </Drawer>
  );
}
