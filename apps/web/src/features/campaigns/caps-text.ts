/** How an offer's or a campaign's caps read in a list: "No cap", or the daily and total caps in their unit. */
import { formatMoney, formatNumber } from '@backoffice/core/format';
import type { TFunction } from 'i18next';

export function capsText(t: TFunction, type: unknown, row: Record<string, unknown>, locale: string): string {
  if (type !== 'conversions' && type !== 'budget') return t('offer.cap_type.none');
  const amount = (v: string) =>
    type === 'conversions'
      ? `${formatNumber(v, locale, 0)} ${t('offer.cap_unit.conversions')}`
      : formatMoney(v, String(row.currency ?? 'USD'), locale);
  const parts: string[] = [];
  if (typeof row.daily_cap === 'string' && row.daily_cap !== '')
    parts.push(t('offer.caps_text.daily', { value: amount(row.daily_cap) }));
  if (typeof row.total_cap === 'string' && row.total_cap !== '')
    parts.push(t('offer.caps_text.total', { value: amount(row.total_cap) }));
  return parts.join(' · ');
}
