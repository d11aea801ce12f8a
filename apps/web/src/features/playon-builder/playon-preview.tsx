/**
 * The PlayOn builder's preview (decision 040): the embed in a sample article inside the sandboxed
 * frame (the JS tag builder's), in the UI language. In-article: the embed starts the article and
 * the player moves after its paragraph; sticky: the frame's window corner; in-banner: a sidebar
 * slot. The frame takes the preview's width (the article and the player adapt), but for in-banner,
 * the banner's size. The player script, the demo VAST, its video and trackers come from this server.
 */
import { playOnVastUrl, type PlayOnConfig } from '@backoffice/core/builders/playon';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { REST_BASE } from '../../lib/api.ts';
import type { BuilderPreviewProps } from '../../components/builders/types.ts';
import { thisServerOrigin } from '../../components/builders/tag-fields.tsx';
import { TagPreviewFrame } from '../../components/builders/tag-preview-frame.tsx';

const PARAGRAPHS = [1, 2, 3, 4, 5, 6];
const CSS = 'article{max-width:720px}h1{font-size:22px;line-height:1.3;margin:8px 0 12px}aside{margin:12px 0}';

function sameServer(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === thisServerOrigin(REST_BASE);
  } catch {
    return false;
  }
}

export function PlayOnPreview({ config, output }: BuilderPreviewProps<PlayOnConfig>) {
  const { t } = useTranslation();
  const locale = useLocale();
  const code = output?.code ?? null;
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const paragraphs = PARAGRAPHS.map((n) => `<p>${escape(t(`playon.preview.paragraph_${n}`))}</p>`).join('');
  const title = `<h1>${escape(t('playon.preview.article_title'))}</h1>`;
  const body =
    code === null
      ? null
      : config.placement === 'in_article'
        ? `<article>${title}${code}${paragraphs}</article>`
        : config.placement === 'in_banner'
          ? `<article>${title}<aside>${code}</aside>${paragraphs}</article>`
          : `<article>${title}${paragraphs}</article>${code}`;
  const elsewhere = !sameServer(config.server_url.trim() || '/') || !sameServer(playOnVastUrl(config));
  return (
    <div data-testid="playon-preview-box">
      {output === null ? <Alert className="bo-tag-preview__note" type="warning" showIcon title={t('playon.preview.unreadable')} /> : null}
      {elsewhere ? <Alert className="bo-tag-preview__note" type="info" showIcon title={t('playon.preview.other_server')} /> : null}
      <TagPreviewFrame
        body={body}
        width={config.placement === 'in_banner' ? Math.min(config.width, 1280) + 32 : '100%'}
        height={Math.max(420, Math.min(config.height, 1080) + 200)}
        title={t('playon.preview.frame_title')}
        reloadLabel={t('playon.preview.reload')}
        scrollLabel={t('jstag.preview.scroll')}
        lang={locale}
        testId="playon"
        css={CSS}
      />
      <Typography.Paragraph type="secondary" className="bo-tag-preview__hint">
        {t('playon.preview.hint')}
      </Typography.Paragraph>
    </div>
  );
}
