/**
 * The signature as a light and a dark mail client show it, side by side (stacked on a phone). The
 * HTML is core's rendering (every text escaped there); the dark one has the colours dark-mode
 * clients repaint (core darkModeColor) on their dark background.
 */
import { DARK_BACKGROUND, LIGHT_BACKGROUND } from '@backoffice/core/signatures';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function SignaturePreview({ html, darkHtml, testId = 'signature-preview' }: { html: string; darkHtml: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="bo-sig-preview" data-testid={testId}>
      <figure className="bo-sig-preview__pane">
        <figcaption>
          <Typography.Text strong>{t('signatures.preview_light')}</Typography.Text>
        </figcaption>
        <div className="bo-sig-preview__mail" tabIndex={0} role="group" aria-label={t('signatures.preview_light')} style={{ background: LIGHT_BACKGROUND, colorScheme: 'light' }} data-testid={`${testId}-light`} dangerouslySetInnerHTML={{ __html: html }} />
      </figure>
      <figure className="bo-sig-preview__pane">
        <figcaption>
          <Typography.Text strong>{t('signatures.preview_dark')}</Typography.Text>
        </figcaption>
        <div className="bo-sig-preview__mail" tabIndex={0} role="group" aria-label={t('signatures.preview_dark')} style={{ background: DARK_BACKGROUND, colorScheme: 'dark' }} data-testid={`${testId}-dark`} dangerouslySetInnerHTML={{ __html: darkHtml }} />
      </figure>
      <Typography.Paragraph type="secondary" className="bo-sig-preview__help">
        {t('signatures.preview_dark_help')}
      </Typography.Paragraph>
    </div>
  );
}
