/** Display of the dashboard's figures: money exact from decimal strings, ratios as percents, counts grouped. */
import { formatMoney, formatNumber, toDecimalString } from '@backoffice/core/format';
import { percentSuffix, shiftDecimal, type TileKey } from './dashboard-model.ts';

/** A fraction ('0.253412') as a percent with `decimals` places ('25.34%'); '' when missing. */
export function formatFraction(value: string | number | null | undefined, locale: string, decimals = 2): string {
  const text = value === null || value === undefined ? null : toDecimalString(value);
  if (text === null) return '';
  return `${formatNumber(shiftDecimal(text, 2), locale, decimals)}${percentSuffix(locale)}`;
}

/** A tile value as text: money with its currency, margin % as a percent, impressions as a count. */
export function formatTileValue(key: TileKey, value: string | number | null | undefined, currency: string, locale: string): string {
  if (value === null || value === undefined) return '';
  if (key === 'impressions') return formatNumber(value, locale, 0);
  if (key === 'margin_pct') return formatFraction(value, locale);
  return formatMoney(value, currency, locale);
}
