/**
 * The JS tag builder's preview (decision 040): the tag runs in a sandboxed frame of the first
 * size (plus a margin) against the test ad server, whose creative prints what it received. A tag
 * for another ad server cannot be reached from here (the app's CSP): the preview says so.
 */
import { TEST_BID_CPM, parseSize, type JsTagConfig } from '@backoffice/core/builders/jstag';
import { Alert, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { REST_BASE } from '../../lib/api.ts';
import type { BuilderPreviewProps } from '../../components/builders/types.ts';
import { TagPreviewFrame } from '../../components/builders/tag-preview-frame.tsx';
import { thisServerOrigin } from '../../components/builders/tag-fields.tsx';

export function JsTagPreview({ config, output }: BuilderPreviewProps<JsTagConfig>) {
  const { t } = useTranslation();
  const locale = useLocale();
  const size = parseSize(config.sizes[0] ?? '') ?? { width: 300, height: 250 };
  const server = config.server_url.trim();
  const elsewhere = server !== '' && (() => {
    try {
      return new URL(server).origin !== thisServerOrigin(REST_BASE);
    } catch {
      return true;
    }
  })();
  return (
    <div data-testid="jstag-preview-box">
      {output === null ? <Alert className="bo-tag-preview__note" type="warning" showIcon title={t('jstag.preview.unreadable')} /> : null}
      {elsewhere ? <Alert className="bo-tag-preview__note" type="info" showIcon title={t('jstag.preview.other_server')} /> : null}
      <TagPreviewFrame
        body={output?.code ?? null}
        width={size.width + 16}
        height={size.height + 16}
        title={t('jstag.preview.frame_title')}
        reloadLabel={t('jstag.preview.reload')}
        scrollLabel={t('jstag.preview.scroll')}
        lang={locale}
        testId="jstag"
        status={<Tag>{t('jstag.preview.size', { size: `${size.width}x${size.height}` })}</Tag>}
      />
      <Typography.Paragraph type="secondary" className="bo-tag-preview__hint">
        {t('jstag.preview.hint', { bid: TEST_BID_CPM })}
      </Typography.Paragraph>
    </div>
  );
}
