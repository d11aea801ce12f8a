/**
 * Premium offers (`/performanceTools/premium_offers_list`, `/new`, `/{idOffer}`) on the resource
 * layer: list (filters, sort, page and columns in the URL, export), form, history and "used by"
 * (the campaigns that run an offer). The form shows the tracking URL with example values as one
 * types, and warns (without refusing) when the payout is above the revenue; the list flags those
 * offers and an offer's page says it above its tabs (docs/decisions/043-offers-and-campaigns.md).
 */
import { WarningOutlined } from '@ant-design/icons';
import { formatMoney } from '@backoffice/core/format';
import { premiumOffers } from '@backoffice/core/resources/offers';
import { Alert, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { listPrefetcher, type ResourceRow } from '../../resources/resource-api.ts';
import { statusCell, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import { AmountInput, CapInput, CapTypeSelect, MacroUrlInput, TargetSelect } from './campaign-inputs.tsx';
import { capsText } from './caps-text.ts';
import './campaigns.css';

const TONE: Record<string, StatusTone> = { draft: 'info', active: 'ok', paused: 'off', archived: 'off' };

type OfferRow = ResourceRow & { warnings?: Record<string, string>; currency?: string };

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(premiumOffers);

export default function OffersPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (value: unknown, row: ResourceRow) => (
    <span className="bo-camp-figure">
      {formatMoney(typeof value === 'string' ? value : null, String(row.currency ?? 'USD'), locale, 2)}
    </span>
  );
  return (
    <ResourcePage
      def={premiumOffers}
      basePath="/performanceTools/premium_offers_list"
      titleKey="offer.title"
      newTitleKey="offer.new_title"
      inputs={{
        tracking_url: (
          <MacroUrlInput help={t('offer.tracking_url_help', { example: '{click_id}, {sub1}' })} />
        ),
        preview_url: <MacroUrlInput help={t('offer.preview_url_help')} />,
        payout: <AmountInput warnAgainst="revenue" />,
        revenue: <AmountInput />,
        countries: (
          <TargetSelect
            meta={premiumOffers.fields.countries!}
            placeholder={t('offer.countries_placeholder')}
          />
        ),
        platforms: (
          <TargetSelect
            meta={premiumOffers.fields.platforms!}
            placeholder={t('offer.platforms_placeholder')}
          />
        ),
        cap_type: <CapTypeSelect />,
        daily_cap: <CapInput />,
        total_cap: <CapInput />,
      }}
      cells={{
        name: (value) => <span className="bo-camp-name">{String(value ?? '')}</span>,
        status: statusCell(premiumOffers.fields.status!, TONE, 'offer-status'),
        payout: (value, row) => {
          const text = money(value, row);
          if (!(row as OfferRow).warnings?.payout) return text;
          return (
            <Space size={4} wrap={false}>
              {text}
              <Tooltip title={t('offer.payout_above_revenue')}>
                <span>
                  <StatusTag tone="bad" testId="offer-payout-warning">
                    <WarningOutlined aria-label={t('offer.payout_above_revenue_tag')} />
                  </StatusTag>
                </span>
              </Tooltip>
            </Space>
          );
        },
        revenue: money,
        cap_type: (value, row) => capsText(t, value, row, locale),
      }}
      rowNotice={(row) =>
        (row as OfferRow).warnings?.payout ? (
          <Alert
            type="warning"
            showIcon
            className="bo-camp-notice"
            title={t('offer.payout_above_revenue_tag')}
            description={t('offer.payout_above_revenue')}
            data-testid="offer-warning"
          />
        ) : null
      }
    />
  );
}
