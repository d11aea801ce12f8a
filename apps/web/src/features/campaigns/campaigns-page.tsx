/**
 * Campaigns (`/performanceTools/campaign_list`, `/new`, `/{idCampaign}`) on the resource layer,
 * and their events (`/{idCampaign}/events/{idEvent}`, `new` for a new one), a resource of their own
 * fixed to the campaign. A campaign's page has, besides its form and history, an Events tab (the
 * conversions it pays for) and a Pacing tab (spend from the warehouse against its budgets); the
 * list shows each campaign's spend and pacing. An event's page has its form (the postback URL with
 * its macros documented and resolved live) and the postback test
 * (docs/decisions/043-offers-and-campaigns.md).
 */
import { PlusOutlined } from '@ant-design/icons';
import { formatMoney } from '@backoffice/core/format';
import { SPEND_CURRENCY } from '@backoffice/core/budgets';
import { campaignEvents } from '@backoffice/core/resources/campaign-events';
import { campaigns } from '@backoffice/core/resources/campaigns';
import { Alert, Button, Empty, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { FormDateInput } from '../../components/form-date-input.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import {
  listPrefetcher,
  useResourceList,
  useResourceRow,
  type ResourceRow,
} from '../../resources/resource-api.ts';
import { statusCell, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import { AmountInput, CapInput, CapTypeSelect, OfferPicker, TargetSelect } from './campaign-inputs.tsx';
import { capsText } from './caps-text.ts';
import { PacingPanel, PacingTags } from './pacing-panel.tsx';
import { PostbackTester } from './postback-tester.tsx';
import { PostbackUrlInput } from './postback-url-input.tsx';
import './campaigns.css';

const BASE = '/performanceTools/campaign_list';
const TONE: Record<string, StatusTone> = { draft: 'info', active: 'ok', paused: 'off', archived: 'off' };
const EVENT_TONE: Record<string, StatusTone> = { active: 'ok', paused: 'off' };

type CampaignRow = ResourceRow & {
  spent?: string;
  phase?: string;
  pace_status?: string | null;
  over_budget?: boolean;
  currency?: string;
  model?: string;
  offer_id?: number;
};

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(campaigns);

/** A campaign's events (all of them: a campaign pays for a handful of conversions). */
function useCampaignEvents(campaignId: number) {
  return useResourceList(campaignEvents, {
    page: 1,
    page_size: 200,
    sort: [{ field: 'name', desc: false }],
    filters: [{ field: 'campaign_id', kind: 'in', values: [campaignId] }],
  });
}

/** The Events tab: the campaign's events, each opening its page; New event. */
function EventsTab({ campaign }: { campaign: CampaignRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const canWrite = usePermission(campaignEvents.acl, 'write');
  const events = useCampaignEvents(campaign.id);
  const open = (path: string) => void navigate(`/${locale}${BASE}/${campaign.id}/events/${path}`);
  const currency = String(campaign.currency ?? 'USD');
  const columns: TableColumnsType<ResourceRow> = [
    { key: 'name', dataIndex: 'name', title: t('campaign.event.name') },
    {
      key: 'code',
      dataIndex: 'code',
      title: t('campaign.event.code'),
      render: (v: string) => <code>{v}</code>,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('campaign.event.status'),
      render: statusCell(campaignEvents.fields.status!, EVENT_TONE, 'event-status'),
    },
    {
      key: 'payout',
      dataIndex: 'payout',
      title: t('campaign.event.payout'),
      align: 'right',
      render: (v: string) => <span className="bo-camp-figure">{formatMoney(v, currency, locale, 2)}</span>,
    },
    {
      key: 'revenue',
      dataIndex: 'revenue',
      title: t('campaign.event.revenue'),
      align: 'right',
      render: (v: string) => <span className="bo-camp-figure">{formatMoney(v, currency, locale, 2)}</span>,
    },
    {
      key: 'windows',
      title: t('campaign.event.windows'),
      render: (_: unknown, r) => (
        <span className="bo-camp-figure">
          {t('campaign.event.windows_text', {
            click: String(r.click_window_days),
            view: String(r.view_window_hours),
          })}
        </span>
      ),
    },
  ];
  return (
    <div data-testid="campaign-events">
      <div className="bo-camp-tab-head">
        <Typography.Paragraph type="secondary">{t('campaign.event.windows_help')}</Typography.Paragraph>
        {canWrite ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => open('new')}
            data-testid="campaign-event-new"
          >
            {t('campaign.event.new')}
          </Button>
        ) : null}
      </div>
      {events.isError ? <Alert type="error" showIcon title={errorText(events.error)} /> : null}
      <ScrollRegion label={t('campaign.event.title')}>
        <Table<ResourceRow>
          rowKey="id"
          size="middle"
          loading={events.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={columns}
          dataSource={events.data?.items ?? []}
          locale={{ emptyText: <Empty description={t('campaign.event.none')} /> }}
          onRow={(row) => ({
            onClick: () => open(String(row.id)),
            onKeyDown: (e) => {
              if (e.key === 'Enter') open(String(row.id));
            },
            tabIndex: 0,
            className: 'bo-res-row',
            'data-testid': `campaign-event-row-${row.id}`,
          })}
        />
      </ScrollRegion>
    </div>
  );
}

/** A CPA campaign with no event pays for nothing yet: said above its tabs. */
function CampaignNotice({ campaign }: { campaign: CampaignRow }) {
  const { t } = useTranslation();
  const events = useCampaignEvents(campaign.id);
  if (campaign.model !== 'CPA' || !events.data || events.data.total > 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="bo-camp-notice"
      title={t('campaign.cpa_without_events')}
      data-testid="campaign-cpa-warning"
    />
  );
}

/** An event's page (`/{idCampaign}/events/{idEvent|new}`): its form, history and postback test. */
function EventPage({ campaignId, eventId }: { campaignId: number; eventId: number | null }) {
  const { t } = useTranslation();
  const campaign = useResourceRow(campaigns, campaignId);
  if (campaign.isPending) return <Spin size="large" className="bo-res-loading" />;
  if (campaign.isError)
    return <Alert type="error" showIcon title={errorText(campaign.error)} className="bo-page" />;
  const row = campaign.data as CampaignRow;
  const currency = String(row.currency ?? 'USD');
  const context = {
    campaignId,
    offerId: typeof row.offer_id === 'number' ? row.offer_id : null,
    currency,
    eventId,
  };
  return (
    <ResourcePage
      def={campaignEvents}
      basePath={`${BASE}/${campaignId}/events`}
      titleKey="campaign.event.title"
      newTitleKey="campaign.event.new_title"
      fixed={{ campaign_id: String(campaignId) }}
      back={{
        path: `${BASE}/${campaignId}?tab=events`,
        label: `${t('campaign.event.back')}: ${String(row.name ?? '')}`,
      }}
      inputs={{
        payout: <AmountInput warnAgainst="revenue" />,
        revenue: <AmountInput />,
        postback_url: <PostbackUrlInput context={context} />,
      }}
      cells={{ status: statusCell(campaignEvents.fields.status!, EVENT_TONE, 'event-status') }}
      rowNotice={(event) =>
        (event as ResourceRow & { warnings?: Record<string, string> }).warnings?.payout ? (
          <Alert
            type="warning"
            showIcon
            className="bo-camp-notice"
            title={t('offer.payout_above_revenue_tag')}
            description={t('offer.payout_above_revenue')}
            data-testid="event-warning"
          />
        ) : null
      }
      tabs={(event) => [
        {
          key: 'postback',
          label: t('campaign.postback.test_title'),
          children: (
            <PostbackTester
              campaignId={campaignId}
              event={{
                id: event.id,
                name: String(event.name ?? ''),
                code: String(event.code ?? ''),
                payout: String(event.payout ?? ''),
                revenue: String(event.revenue ?? ''),
                postbackUrl: String(event.postback_url ?? ''),
              }}
              offerId={context.offerId}
              currency={currency}
            />
          ),
        },
      ]}
    />
  );
}

export default function CampaignsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname } = useLocation();
  // The events of a campaign have routes of their own under it.
  const eventRoute = new RegExp(`${BASE}/([1-9]\\d{0,9})/events(?:/([1-9]\\d{0,9}))?`).exec(pathname);
  if (eventRoute)
    return (
      <EventPage
        key={eventRoute[1]}
        campaignId={Number(eventRoute[1])}
        eventId={eventRoute[2] ? Number(eventRoute[2]) : null}
      />
    );

  const extraColumns: TableColumnsType<ResourceRow> = [
    {
      key: 'spent',
      title: t('campaign.pacing.spent'),
      align: 'right',
      render: (_: unknown, row: CampaignRow) => (
        <span className="bo-camp-figure">{formatMoney(row.spent ?? null, SPEND_CURRENCY, locale)}</span>
      ),
    },
    {
      key: 'pacing',
      title: t('campaign.pacing.status'),
      render: (_: unknown, row: CampaignRow) => (
        <PacingTags phase={row.phase} status={row.pace_status} alert={row.over_budget} />
      ),
    },
  ];
  return (
    <ResourcePage
      def={campaigns}
      basePath={BASE}
      titleKey="campaign.title"
      newTitleKey="campaign.new_title"
      inputs={{
        offer_id: <OfferPicker />,
        start_date: <FormDateInput />,
        end_date: <FormDateInput />,
        cap_type: <CapTypeSelect />,
        daily_cap: <CapInput />,
        total_cap: <CapInput />,
        countries: (
          <TargetSelect meta={campaigns.fields.countries!} placeholder={t('offer.countries_placeholder')} />
        ),
        platforms: (
          <TargetSelect meta={campaigns.fields.platforms!} placeholder={t('offer.platforms_placeholder')} />
        ),
        devices: (
          <TargetSelect meta={campaigns.fields.devices!} placeholder={t('campaign.devices_placeholder')} />
        ),
      }}
      cells={{
        name: (value) => <span className="bo-camp-name">{String(value ?? '')}</span>,
        status: statusCell(campaigns.fields.status!, TONE, 'campaign-status'),
        total_budget: (value, row) => (
          <span className="bo-camp-figure">
            {formatMoney(typeof value === 'string' ? value : null, String(row.currency ?? 'USD'), locale)}
          </span>
        ),
        daily_budget: (value, row) => (
          <span className="bo-camp-figure">
            {formatMoney(typeof value === 'string' ? value : null, String(row.currency ?? 'USD'), locale)}
          </span>
        ),
        cap_type: (value, row) => capsText(t, value, row, locale),
        // The code alone in the list (CPA); the form and the filter say what it means.
        model: (value) =>
          typeof value === 'string' ? <span title={t(`campaign.model.${value}`)}>{value}</span> : null,
      }}
      extraColumns={extraColumns}
      rowNotice={(row) => <CampaignNotice campaign={row as CampaignRow} />}
      tabs={(row) => [
        {
          key: 'events',
          label: t('campaign.tab.events'),
          children: <EventsTab campaign={row as CampaignRow} />,
        },
        { key: 'pacing', label: t('campaign.tab.pacing'), children: <PacingPanel campaignId={row.id} /> },
      ]}
    />
  );
}
