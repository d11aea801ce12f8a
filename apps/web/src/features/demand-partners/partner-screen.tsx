/**
 * The demand partner screens of one side (SSP or performance): the resource layer's list, detail
 * (a form in the catalogue's tabs: identity, connection, capabilities, traffic, pricing, commercial,
 * transparency) and history, with the partner's status as a tag and the ads.txt line it needs.
 */
import { CopyOutlined } from '@ant-design/icons';
import { demandPartners, type PartnerSide } from '@backoffice/core/resources/demand-partners';
import { adsTxtLinesFor } from '@backoffice/core/standards/ads-txt';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import type { ResourceRow } from '../../resources/resource-api.ts';
import { statusCell, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';

const TONE: Record<string, StatusTone> = { draft: 'info', testing: 'info', live: 'ok', paused: 'off', archived: 'off' };

/** The line publishers add to their ads.txt for inventory sold through this partner, or null. */
export function partnerAdsTxtLine(row: ResourceRow): string | null {
  const domain = typeof row.partner_domain === 'string' ? row.partner_domain : null;
  const sellerId = typeof row.seller_id_at_partner === 'string' ? row.seller_id_at_partner : null;
  if (!domain || !sellerId) return null;
  try {
    const cert = typeof row.certification_authority_id === 'string' ? row.certification_authority_id : null;
    return adsTxtLinesFor({ domain, sellerId, relationship: 'RESELLER', certificationAuthorityId: cert })[0] ?? null;
  } catch {
    return null;
  }
}

function AdsTxtTab({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const line = partnerAdsTxtLine(row);
  if (!line) return <Alert type="info" showIcon title={t('demand_partner.ads_txt_missing')} />;
  return (
    <Space direction="vertical" size="middle" className="bo-partner-adstxt">
      <Typography.Text type="secondary">{t('demand_partner.ads_txt_line')}</Typography.Text>
      <Typography.Text code data-testid="partner-ads-txt-line">
        {line}
      </Typography.Text>
      <Button
        icon={<CopyOutlined />}
        onClick={() => {
          void navigator.clipboard?.writeText(line).then(() => notice.success(t('demand_partner.ads_txt_copied')));
        }}
      >
        {t('demand_partner.ads_txt_copy')}
      </Button>
    </Space>
  );
}

export function PartnerScreen({ side }: { side: PartnerSide }) {
  const { t } = useTranslation();
  return (
    <ResourcePage
      def={demandPartners}
      basePath={side === 'ssp' ? '/partners/demandpartners_ssp' : '/partners/demandpartners_performance'}
      titleKey={side === 'ssp' ? 'demand_partner.title_ssp' : 'demand_partner.title_performance'}
      newTitleKey="demand_partner.new_title"
      newPath={side === 'ssp' ? '/partners/demandpartners_ssp_register' : undefined}
      fixed={{ side }}
      cells={{ status: statusCell(demandPartners.fields.status!, TONE, 'partner-status') }}
      tabs={(row) => [{ key: 'ads-txt', label: t('demand_partner.ads_txt_tab'), children: <AdsTxtTab row={row} /> }]}
    />
  );
}
