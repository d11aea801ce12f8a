/**
 * Deals (`/partners/deals`, `/new`, `/{id}`) on the resource layer: OpenRTB 2.6 deals with their
 * type, partner, targeting, dates and status. The list flags a deal whose floor is below a floor
 * rule of its inventory; a deal's page warns about it above its tabs and shows, besides the form
 * and its history, the floor rules of its inventory, its delivery from the warehouse and the
 * `pmp` object a bid request carries for it (docs/decisions/019-deals.md).
 */
import { WarningOutlined } from '@ant-design/icons';
import { deals } from '@backoffice/core/resources/deals';
import { Input, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDateInput } from '../../components/form-date-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { statusCell, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import {
  AdUnitsPicker,
  AuctionTypeSelect,
  DealTypeSelect,
  PartnerPicker,
  PublishersPicker,
  TagsInput,
} from './deal-inputs.tsx';
import { DeliveryTab, FloorNotice, FloorTab, floorText, PmpTab, type DealRow } from './deal-tabs.tsx';
import './deals.css';

const TONE: Record<string, StatusTone> = { draft: 'info', active: 'ok', paused: 'off', archived: 'off' };

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(deals);

export default function DealsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ResourcePage
      def={deals}
      basePath="/partners/deals"
      titleKey="deal.title"
      newTitleKey="deal.new_title"
      inputs={{
        demand_partner_id: <PartnerPicker />,
        type: <DealTypeSelect />,
        auction_type: <AuctionTypeSelect />,
        start_date: <FormDateInput />,
        end_date: <FormDateInput />,
        publisher_ids: <PublishersPicker />,
        ad_unit_ids: <AdUnitsPicker />,
        wseat: <TagsInput placeholder={t('deal.wseat_placeholder')} />,
        wadomain: <TagsInput placeholder={t('deal.wadomain_placeholder')} />,
        notes: <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />,
      }}
      cells={{
        // On a phone the name wraps, so that the deal ID, the floor and the status come into view.
        name: (value) => <span className="bo-deal-name">{String(value ?? '')}</span>,
        code: (value) => <code className="bo-deal-code">{String(value ?? '')}</code>,
        status: statusCell(deals.fields.status!, TONE, 'deal-status'),
        auction_type: (value) => (typeof value === 'number' ? t(`deal.auction_type.${value}`) : '—'),
        bidfloor: (value, row) => {
          const deal = row as DealRow;
          const text = (
            <span className="bo-deal-figure">
              {floorText(typeof value === 'string' ? value : undefined, deal.bidfloorcur, locale)}
            </span>
          );
          if (!deal.floor_below) return text;
          return (
            <Space size={4} wrap={false}>
              {text}
              <Tooltip title={t('deal.floor.below_tag')}>
                <span>
                  <StatusTag tone="bad" testId="deal-floor-below">
                    <WarningOutlined aria-label={t('deal.floor.below_tag')} />
                  </StatusTag>
                </span>
              </Tooltip>
            </Space>
          );
        },
      }}
      rowNotice={(row) => <FloorNotice row={row as DealRow} />}
      tabs={(row) => [
        { key: 'delivery', label: t('deal.tab.delivery'), children: <DeliveryTab row={row as DealRow} /> },
        { key: 'floors', label: t('deal.tab.floors'), children: <FloorTab row={row as DealRow} /> },
        { key: 'pmp', label: t('deal.tab.pmp'), children: <PmpTab row={row as DealRow} /> },
      ]}
    />
  );
}
