/**
 * A campaign's Pacing tab: what it spent (the warehouse's revenue of its advertiser on its days, in
 * its countries and devices) against the total budget and today's against the daily budget, as
 * bars, with the expected spend of linear pacing and whether it is ahead or behind, and its last
 * days with their spend against the daily budget (core campaign-pacing.ts; the API computes).
 */
import { WarningOutlined } from '@ant-design/icons';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { Alert, Descriptions, Empty, Progress, Space, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { usePacing, type PacingAnswer } from './campaigns-api.ts';

const PACE_TONE: Record<string, StatusTone> = { behind: 'bad', on_track: 'ok', ahead: 'info' };
const PHASE_TONE: Record<string, StatusTone> = { not_started: 'off', running: 'ok', ended: 'off' };

const percent = (value: number | null | undefined, locale: string) =>
  typeof value === 'number' ? `${formatNumber(value, locale, 1)} %` : '—';

/** A decimal text in micro-units (display only: the bar's length). */
const toMicros = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole || '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0');
};
/** A day's spend as a share (%, one decimal) of the daily budget in micro-units. */
const shareOf = (spent: string, budgetMicros: bigint): number | null =>
  budgetMicros > 0n ? Number((toMicros(spent) * 1000n) / budgetMicros) / 10 : null;

/** The phase and the pacing status of a campaign, as tags. */
export function PacingTags({
  phase,
  status,
  alert,
}: {
  phase?: string | null;
  status?: string | null;
  alert?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {phase ? (
        <StatusTag tone={PHASE_TONE[phase] ?? 'info'} testId="campaign-phase">
          {t(`campaign.pacing.phase.${phase}`)}
        </StatusTag>
      ) : null}
      {status ? (
        <StatusTag tone={PACE_TONE[status] ?? 'info'} testId="campaign-pace">
          {t(`campaign.pacing.status.${status}`)}
        </StatusTag>
      ) : null}
      {alert ? (
        <StatusTag tone="bad" testId="campaign-over-budget">
          <WarningOutlined /> {t('campaign.pacing.alert')}
        </StatusTag>
      ) : null}
    </Space>
  );
}

/** A bar of spent against a budget (red over it), or the figures alone when they are not compared. */
function BudgetBar({
  label,
  usage,
  alert,
  text,
  testId,
}: {
  label: string;
  usage: number | null;
  alert: boolean;
  text: string;
  testId: string;
}) {
  const locale = useLocale();
  return (
    <div className="bo-camp-bar" data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      {usage === null ? (
        <Typography.Text className="bo-camp-figure">{text}</Typography.Text>
      ) : (
        <Progress
          percent={Math.min(usage, 100)}
          status={alert ? 'exception' : 'normal'}
          format={() => percent(usage, locale)}
          aria-label={`${label}: ${text}`}
        />
      )}
      {usage === null ? null : <Typography.Text className="bo-camp-figure">{text}</Typography.Text>}
    </div>
  );
}

function PacingFigures({ pacing }: { pacing: PacingAnswer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const spentMoney = (v: string | null | undefined) => formatMoney(v, pacing.spent_currency, locale);
  const budgetMoney = (v: string | null | undefined) => formatMoney(v, pacing.currency, locale);
  const total = pacing.total;
  const today = pacing.today;
  const dailyMicros = pacing.daily_budget === null ? null : toMicros(pacing.daily_budget);
  return (
    <div className="bo-camp-pacing" data-testid="campaign-pacing">
      <PacingTags phase={pacing.phase} status={total.status} alert={total.alert} />
      <div className="bo-camp-bars">
        <BudgetBar
          label={t('campaign.pacing.total')}
          usage={total.usage_pct}
          alert={total.alert}
          text={`${spentMoney(total.spent)} / ${budgetMoney(total.budget)}`}
          testId="campaign-pacing-total"
        />
        {today ? (
          today.budget === null ? (
            <div className="bo-camp-bar">
              <Typography.Text strong>{t('campaign.pacing.today', { day: today.day })}</Typography.Text>
              <Typography.Text className="bo-camp-figure">
                {spentMoney(today.spent)} · {t('campaign.pacing.no_daily_budget')}
              </Typography.Text>
            </div>
          ) : (
            <BudgetBar
              label={t('campaign.pacing.today', { day: today.day })}
              usage={today.usage_pct}
              alert={today.alert}
              text={`${spentMoney(today.spent)} / ${budgetMoney(today.budget)}`}
              testId="campaign-pacing-today"
            />
          )
        ) : (
          <Typography.Text type="secondary">{t('campaign.pacing.not_running')}</Typography.Text>
        )}
      </div>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2, lg: 3 }}
        items={[
          { key: 'budget', label: t('campaign.pacing.budget'), children: budgetMoney(total.budget) },
          {
            key: 'spent',
            label: t('campaign.pacing.spent'),
            children: <span data-testid="campaign-pacing-spent">{spentMoney(total.spent)}</span>,
          },
          {
            key: 'elapsed',
            label: t('campaign.pacing.elapsed'),
            children: percent(total.elapsed_pct, locale),
          },
          { key: 'expected', label: t('campaign.pacing.expected'), children: budgetMoney(total.expected) },
          { key: 'pace', label: t('campaign.pacing.pace'), children: percent(total.pace_pct, locale) },
          { key: 'usage', label: t('campaign.pacing.usage'), children: percent(total.usage_pct, locale) },
        ]}
      />
      {!pacing.comparable ? (
        <Alert
          type="warning"
          showIcon
          title={t('campaign.pacing.not_compared', { currency: pacing.currency })}
        />
      ) : null}
      <Typography.Title level={2} className="bo-camp-subtitle">
        {t('campaign.pacing.days')}
      </Typography.Title>
      {pacing.days.length === 0 ? (
        <Empty description={t('campaign.pacing.days_none')} />
      ) : (
        <ScrollRegion label={t('campaign.pacing.days')}>
          <Table
            size="small"
            rowKey="day"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={[...pacing.days].reverse()}
            data-testid="campaign-pacing-days"
            columns={[
              { key: 'day', dataIndex: 'day', title: t('campaign.pacing.day') },
              {
                key: 'spent',
                dataIndex: 'spent',
                title: t('campaign.pacing.spent'),
                align: 'right',
                render: (v: string) => <span className="bo-camp-figure">{spentMoney(v)}</span>,
              },
              ...(dailyMicros !== null
                ? [
                    {
                      key: 'daily',
                      title: t('campaign.pacing.of_daily_budget', {
                        budget: budgetMoney(pacing.daily_budget),
                      }),
                      render: (_: unknown, d: PacingAnswer['days'][number]) => {
                        const share = pacing.comparable ? shareOf(d.spent, dailyMicros) : null;
                        return share === null ? (
                          '—'
                        ) : (
                          <div className="bo-camp-day-bar">
                            <Progress
                              percent={Math.min(share, 100)}
                              status={d.over_daily_budget ? 'exception' : 'normal'}
                              size="small"
                              format={() => percent(share, locale)}
                              aria-label={`${d.day}: ${percent(share, locale)}`}
                            />
                            {d.over_daily_budget ? (
                              <StatusTag tone="bad">
                                <WarningOutlined /> {t('campaign.pacing.daily_alert')}
                              </StatusTag>
                            ) : null}
                          </div>
                        );
                      },
                    },
                  ]
                : []),
            ]}
          />
        </ScrollRegion>
      )}
      <div className="bo-camp-notes">
        <Typography.Paragraph type="secondary">
          {t('campaign.pacing.as_of', { at: formatDateTime(pacing.as_of, locale) })}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('campaign.pacing.scope')}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('campaign.pacing.rule')}</Typography.Paragraph>
      </div>
    </div>
  );
}

export function PacingPanel({ campaignId }: { campaignId: number }) {
  const pacing = usePacing(campaignId);
  if (pacing.isPending) return <Spin />;
  if (pacing.isError) return <Alert type="error" showIcon title={errorText(pacing.error)} />;
  return <PacingFigures pacing={pacing.data} />;
}
