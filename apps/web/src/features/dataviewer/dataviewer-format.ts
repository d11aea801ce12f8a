/**
 * How DataViewer values read: enum codes translated (devices, OS, formats, environments;
 * countries through Intl.DisplayNames), ratios as percentages, counts with grouping, and exact
 * decimal sums for the chart's "rest" series (money never goes through float addition).
 */
import { formatNumber, toDecimalString } from '@backoffice/core/format';
import { OPEN_AUCTION_DEAL_ID, type FilterDimension, type ReportCell } from '@backoffice/core/reports';
import type { TFunction } from 'i18next';

const regionNames = new Map<string, Intl.DisplayNames | null>();

/** A country's name in the UI language (`ES` -> "Spain" / "España"), or the code. */
export function countryName(code: string, locale: string): string {
  let names = regionNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      names = null;
    }
    regionNames.set(locale, names);
  }
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The label of an enum code of a dimension; other values are returned as they are. */
export function enumLabel(dimension: string, code: string, locale: string, t: TFunction): string {
  switch (dimension) {
    case 'country':
      return countryName(code, locale);
    case 'device':
    case 'os':
    case 'format':
    case 'environment': {
      const key = `report.${dimension}.${code}`;
      const text = t(key);
      return text === key ? code : text;
    }
    default:
      return code;
  }
}

/** The label of a filter value known without the server (enum codes, the open-auction deal); else the id. */
export function localFilterLabel(dimension: FilterDimension, value: string | number, locale: string, t: TFunction): string {
  if (dimension === 'deal' && Number(value) === OPEN_AUCTION_DEAL_ID) return t('report.deal.open_auction');
  if (typeof value === 'string' && !/^\d+$/.test(value)) {
    const label = enumLabel(dimension, value, locale, t);
    return dimension === 'country' && label !== value ? `${label} (${value})` : label;
  }
  return String(value);
}

/** A dimension cell's text. */
export function dimensionText(dimension: string, type: string, value: ReportCell, locale: string, t: TFunction): string {
  if (value === null || value === undefined) return '—';
  if (type === 'enum') return enumLabel(dimension, String(value), locale, t);
  return String(value);
}

/** A ratio (a fraction as a decimal string, `0.318842`) as a percentage text: `31.88%` / `31,88 %`. */
export function formatRatio(value: ReportCell, locale: string, decimals = 2): string {
  const decimal = toDecimalString(value ?? null);
  if (decimal === null) return '';
  const percent = shiftDecimal(decimal, 2);
  const text = formatNumber(percent, locale, decimals);
  return locale.startsWith('es') ? `${text}\u00a0%` : `${text}%`;
}

/** A count with grouping and no decimals. */
export function formatCount(value: ReportCell, locale: string): string {
  return formatNumber(value ?? null, locale, 0);
}

/** Moves the decimal point of a plain decimal string `places` to the right, exactly. */
export function shiftDecimal(decimal: string, places: number): string {
  const negative = decimal.startsWith('-');
  const [int = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const padded = frac.padEnd(places, '0');
  const newInt = `${int}${padded.slice(0, places)}`.replace(/^0+(?=\d)/, '');
  const newFrac = padded.slice(places);
  return `${negative ? '-' : ''}${newInt}${newFrac ? `.${newFrac}` : ''}`;
}

const SCALE = 6;

/** Sums decimal strings (or integers) exactly, as a decimal string with 6 decimals. */
export function sumDecimals(values: readonly ReportCell[]): string {
  let total = 0n;
  for (const v of values) {
    const d = toDecimalString(v ?? null);
    if (d === null) continue;
    const negative = d.startsWith('-');
    const [int = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
    const scaled = BigInt(`${int}${frac.padEnd(SCALE, '0').slice(0, SCALE)}`);
    total += negative ? -scaled : scaled;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(SCALE + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
}
