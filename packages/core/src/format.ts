/**
 * Money and number display (spec section 9): EUR shows as €, USD as $, 2 decimals and
 * thousands separators. Amounts may be decimal strings so money is never rounded through a
 * binary float: `formatMoney('1234567.895', 'EUR', 'en')` is `€1,234,567.90`.
 */

/** Currency symbols the spec names; other currencies show their ISO code. */
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { EUR: '€', USD: '$' };

export const MONEY_DECIMALS = 2;

/** Non-breaking space between an amount and a trailing symbol, so they never wrap apart. */
const NBSP = '\u00a0';

export function currencySymbol(currency: string): string {
  const code = currency.trim().toUpperCase();
  return CURRENCY_SYMBOLS[code] ?? code;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A plain decimal string (`-1234.5`) for a number or a numeric string, without exponent;
 * null for NaN, infinities, empty or malformed input. Commas are not accepted: the wire
 * format uses a dot.
 */
export function toDecimalString(value: string | number | bigint | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return expandExponent(String(value));
  }
  const text = value.trim();
  if (/e/i.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) && text !== '' ? expandExponent(text) : null;
  }
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const int = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const frac = m[3] ?? '';
  return `${m[1] === '-' ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** `1.5e-7` -> `0.00000015`, `1e21` -> `1000000000000000000000`, exactly (string shifting). */
function expandExponent(text: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!m) return null;
  const sign = m[1] === '-' ? '-' : '';
  let digits = `${m[2] ?? ''}${m[3] ?? ''}`;
  let point = (m[2] ?? '').length + Number(m[4] ?? 0);
  if (digits === '') return null;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const int = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(point).replace(/0+$/, '');
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** Rounds a decimal string to `decimals` places, half away from zero, padding with zeros. */
export function roundDecimal(value: string, decimals: number): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new RangeError(`Not a decimal string: ${value}`);
  const negative = m[1] === '-';
  const frac = (m[3] ?? '').padEnd(decimals + 1, '0');
  // Integer arithmetic on the digits as a BigInt keeps it exact at any size.
  let scaled = BigInt(`${m[2]}${frac.slice(0, decimals)}`);
  if (Number(frac[decimals]) >= 5) scaled += 1n;
  let digits = scaled.toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? digits.slice(digits.length - decimals) : '';
  digits = fraction ? `${int}.${fraction}` : int;
  const isZero = /^[0.]+$/.test(digits);
  return negative && !isZero ? `-${digits}` : digits;
}

interface Separators {
  group: string;
  decimal: string;
}

const separatorCache = new Map<string, Separators>();

/** Grouping and decimal separators of a locale (en: `,` and `.`, es: `.` and `,`). */
export function numberSeparators(locale: string): Separators {
  const cached = separatorCache.get(locale);
  if (cached) return cached;
  let result: Separators = { group: ',', decimal: '.' };
  try {
    const partsOf = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    result = {
      group: partsOf.find((p) => p.type === 'group')?.value ?? ',',
      decimal: partsOf.find((p) => p.type === 'decimal')?.value ?? '.',
    };
  } catch {
    // Unknown locale tag: keep the English separators.
  }
  separatorCache.set(locale, result);
  return result;
}

/**
 * A number with `decimals` places and thousands separators in the locale's style. Grouping is
 * applied from 1,000 on in every locale (Spanish CLDR data would leave 4-digit numbers
 * ungrouped; the spec wants separators). Empty string for a missing or invalid value.
 */
export function formatNumber(
  value: string | number | bigint | null | undefined,
  locale = 'en',
  decimals = MONEY_DECIMALS,
): string {
  const decimal = toDecimalString(value);
  if (decimal === null) return '';
  const rounded = roundDecimal(decimal, decimals);
  const negative = rounded.startsWith('-');
  const [int = '0', frac] = (negative ? rounded.slice(1) : rounded).split('.');
  const { group, decimal: point } = numberSeparators(locale);
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${frac ? `${point}${frac}` : ''}`;
}

/** Whether the locale writes the currency after the amount (es: `1.234,56 €`). */
function symbolAfter(locale: string): boolean {
  return /^es\b/i.test(locale);
}

/**
 * Money for display: `€1,234.50` / `$-…` in English, `1.234,50 €` in Spanish; 2 decimals,
 * half away from zero. Unknown currencies show their ISO code (`GBP 10.00`). Empty string for
 * a missing or invalid amount.
 */
export function formatMoney(
  amount: string | number | bigint | null | undefined,
  currency: string,
  locale = 'en',
  decimals = MONEY_DECIMALS,
): string {
  const number = formatNumber(amount, locale, decimals);
  if (number === '') return '';
  const negative = number.startsWith('-');
  const unsigned = negative ? number.slice(1) : number;
  const symbol = currencySymbol(currency);
  const isCode = symbol.length > 1;
  if (symbolAfter(locale)) return `${negative ? '-' : ''}${unsigned}${NBSP}${symbol}`;
  return `${negative ? '-' : ''}${symbol}${isCode ? NBSP : ''}${unsigned}`;
}
