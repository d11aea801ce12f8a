/**
 * A row's history from the audit log: who did what and when (also while simulating someone),
 * with the values before and after.
 */
import { formatMoney } from '@backoffice/core/format';
import { Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import type { BillingHistoryEntry } from './billing-api.ts';

const text = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

const MONEY = new Set([
  'revenue_network',
  'revenue_ours',
  'revenue_gross',
  'paid_revenue',
  'carried_in',
  'min_amount',
]);

function Changes({ entry, currency }: { entry: BillingHistoryEntry; currency: string }) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  const after = entry.after ?? {};
  const before = entry.before ?? {};
  const keys = Object.keys(after).filter((k) => k !== 'payment' && text(before[k]) !== text(after[k]));
  const payment = after.payment as { amount?: string; paid_on?: string } | undefined;
  const label = (k: string) => (i18n.exists(`billing.col.${k}`) ? t(`billing.col.${k}`) : k);
  const value = (k: string, v: unknown) => {
    if (k === 'state' && typeof v === 'string' && i18n.exists(`billing.state.${v}`))
      return t(`billing.state.${v}`);
    if (MONEY.has(k) && (typeof v === 'string' || typeof v === 'number'))
      return formatMoney(v, currency, locale) || text(v);
    return text(v);
  };
  return (
    <ul className="bo-bill-changes">
      {payment ? (
        <li>
          {t('billing.ui.history_payment', {
            amount: formatMoney(payment.amount ?? null, currency, locale),
            date: payment.paid_on ?? '',
          })}
        </li>
      ) : null}
      {keys.map((k) => (
        <li key={k}>
          {label(k)}: <del>{value(k, before[k])}</del> → <ins>{value(k, after[k])}</ins>
        </li>
      ))}
    </ul>
  );
}

export function RowHistory({ history, currency }: { history: BillingHistoryEntry[]; currency: string }) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  if (history.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.no_data_available')} />;
  return (
    <Timeline
      className="bo-bill-history"
      data-testid="billing-history"
      items={history.map((h) => {
        const action = h.action.replace(/^billing_rows\./, '');
        const key = `billing.ui.history.${action}`;
        return {
          key: h.id,
          content: (
            <div>
              <strong>{i18n.exists(key) ? t(key) : h.action}</strong>
              <div>
                <Typography.Text type="secondary">
                  {formatDateTime(h.created_at, locale)} · {h.actor ?? '—'}
                  {h.simulated_by ? ` (${t('billing.ui.simulated_by', { name: h.simulated_by })})` : ''}
                </Typography.Text>
              </div>
              <Changes entry={h} currency={currency} />
            </div>
          ),
        };
      })}
    />
  );
}
