/** The days a save would replace (the API's 409): what is there now and what would come. */
import { formatNumber } from '@backoffice/core/format';
import type { ReplacedDay } from '@backoffice/core/partner-stats';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';

export function ReplaceList({ days }: { days: readonly ReplacedDay[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const fig = (f: { impressions: number; revenue: string; currency: string }) => (
    <span className="bo-ps-nowrap">
      {formatNumber(f.impressions, locale, 0)} · <MoneyCell amount={f.revenue} currency={f.currency} />
    </span>
  );
  return (
    <div data-testid="stats-replace-list">
      <Typography.Paragraph>{t('stats.replace.body')}</Typography.Paragraph>
      <div className="bo-ps-scroll" tabIndex={0} role="region" aria-label={t('stats.replace.body')}>
        <Table<ReplacedDay>
          size="small"
          pagination={false}
          rowKey={(d) => `${d.demand_partner_id}|${d.day}`}
          dataSource={[...days]}
          columns={[
            { key: 'day', title: t('stats.col.day'), render: (_, d) => d.day },
            { key: 'partner', title: t('stats.col.partner'), render: (_, d) => d.partner },
            { key: 'now', title: t('stats.replace.now'), render: (_, d) => <>{fig(d.current)} <Typography.Text type="secondary">({t(`stats.source.${d.current.source}`)})</Typography.Text></> },
            { key: 'new', title: t('stats.replace.new'), render: (_, d) => <strong>{fig(d.next)}</strong> },
          ]}
        />
      </div>
    </div>
  );
}
