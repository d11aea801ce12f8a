/**
 * Beside the ad unit generator's code: the same `adUnits` array as plain JSON (what the API's
 * answer also carries in its code, between `var adUnits =` and `;`), read-only, with a copy
 * button, for an integration that writes its own page code.
 */
import { CopyOutlined } from '@ant-design/icons';
import { adUnitsJson, type AdUnitGenConfig } from '@backoffice/core/builders/adunit';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import type { BuilderPreviewProps } from '../../components/builders/types.ts';

export function AdUnitsJsonPreview({ output }: BuilderPreviewProps<AdUnitGenConfig>) {
  const { t } = useTranslation();
  const notice = useNotice();
  const json = output ? adUnitsJson(output.code) : null;
  if (json === null) return <Alert type="info" showIcon title={t('adunit.json_unavailable')} />;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      void notice.success(t('adunit.copied_json'));
    } catch {
      void notice.error(t('adunit.copy_failed'));
    }
  };
  return (
    <div data-testid="adunit-json">
      <Space className="bo-adunit-json__head" wrap>
        <Typography.Text strong>{t('adunit.json_title')}</Typography.Text>
        <Button size="small" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="adunit-copy-json">
          {t('adunit.copy_json')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary">{t('adunit.json_help')}</Typography.Paragraph>
      {/* Plain text, not a second editor: it only shows, and a focusable region keeps it scrollable from the keyboard. */}
      <pre className="bo-adunit-json__code" tabIndex={0} role="region" aria-label={t('adunit.json_title')} data-testid="adunit-json-code">
        {json}
      </pre>
    </div>
  );
}
