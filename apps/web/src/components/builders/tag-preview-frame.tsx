/**
 * The sandboxed frame both tag builders preview in (decision 040): `sandbox="allow-scripts"`
 * without allow-same-origin, so the tag runs with an opaque origin (it cannot read the app, its
 * storage or its session), and `srcdoc` with the tag. A srcdoc document inherits the app's
 * Content-Security-Policy: scripts from this server (the PlayOn player) and the async tag's one
 * script (allowed by its hash in apps/api/src/app.ts) run, nothing else inline. The document is
 * debounced so typing does not reload it at each key; "Reload" runs it again.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Space, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';

export const PREVIEW_DEBOUNCE_MS = 600;

interface TagPreviewFrameProps {
  /** The document's body (the tag, or a sample page around it); null: keep the last one. */
  body: string | null;
  /** Pixels, or '100%' for the preview's whole width (a page that adapts, like an article). */
  width: number | '100%';
  height: number;
  title: string;
  reloadLabel: string;
  scrollLabel: string;
  lang: string;
  testId: string;
  /** Shown beside the Reload button. */
  status?: ReactNode;
  /** Extra CSS for the document. */
  css?: string;
}

export function TagPreviewFrame({ body, width, height, title, reloadLabel, scrollLabel, lang, testId, status, css = '' }: TagPreviewFrameProps) {
  const { token } = theme.useToken();
  const [reloads, setReloads] = useState(0);
  const [last, setLast] = useState<string | null>(body);
  if (body !== null && body !== last) setLast(body);
  const shown = useDebouncedValue(last, PREVIEW_DEBOUNCE_MS);
  const doc =
    shown === null
      ? ''
      : `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title.replace(/[<&]/g, '')}</title>` +
        `<style>html{color-scheme:${token.colorBgContainer === '#ffffff' ? 'light' : 'dark'}}body{margin:8px;background:${token.colorBgContainer};color:${token.colorText};font:15px/1.6 ${token.fontFamily}}${css}</style>` +
        `</head><body>${shown}</body></html>`;
  return (
    <div className="bo-tag-preview">
      <Space wrap className="bo-tag-preview__bar">
        <Button icon={<ReloadOutlined />} onClick={() => setReloads((n) => n + 1)} data-testid={`${testId}-preview-reload`}>
          {reloadLabel}
        </Button>
        {status}
      </Space>
      <div className="bo-tag-preview__scroll" tabIndex={0} role="region" aria-label={scrollLabel}>
        <iframe
          key={reloads}
          className={width === '100%' ? 'bo-tag-preview__frame bo-tag-preview__frame--fluid' : 'bo-tag-preview__frame'}
          title={title}
          sandbox="allow-scripts"
          srcDoc={doc}
          width={width}
          height={height}
          data-testid={`${testId}-preview-frame`}
        />
      </div>
    </div>
  );
}
