/**
 * Rules of the shared inputs (spec sections 5, 7 and 9): number input, counter, slider,
 * multi-select, autocomplete, URL input and the tolerance check. Each rule is used by the
 * form component and by the API (through the zod schemas in input-schemas.ts).
 */

// ---------------------------------------------------------------- number input

/** Number input: up to 3 decimals, dot separator (spec section 5). */
export const DECIMAL_MAX_PLACES = 3;

export interface DecimalRules {
  maxDecimals?: number;
  allowNegative?: boolean;
}

/**
 * Reads a typed number: digits, an optional dot and up to `maxDecimals` decimals, an optional
 * leading minus. Returns its canonical string (`007.50` -> `7.50`, `.5` -> `0.5`) or null.
 * A comma is rejected rather than guessed: `1,234` could be a thousand or 1.234.
 */
export function parseDecimalInput(text: string, rules: DecimalRules = {}): string | null {
  if (typeof text !== 'string') return null;
  const maxDecimals = rules.maxDecimals ?? DECIMAL_MAX_PLACES;
  const allowNegative = rules.allowNegative ?? true;
  const m = /^(-?)(\d*)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const [, sign = '', intDigits = '', frac = ''] = m;
  if (intDigits === '' && frac === '') return null;
  if (frac.length > maxDecimals) return null;
  const int = intDigits.replace(/^0+(?=\d)/, '') || '0';
  const isZero = /^0*$/.test(int + frac);
  if (sign === '-' && !allowNegative && !isZero) return null;
  return `${sign === '-' && !isZero ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

export function isValidDecimal(text: string, rules: DecimalRules = {}): boolean {
  return parseDecimalInput(text, rules) !== null;
}

// ---------------------------------------------------------------- counter

/** Counter bounds (spec section 9). */
export const COUNTER_MIN = 0;
export const COUNTER_MAX = 50;

export interface CounterRules {
  min?: number;
  max?: number;
  /** Without it the lower bound is never below 0. */
  allowNegative?: boolean;
}

/** The bounds a counter really uses: min defaults to 0, max to 50, min raised to 0 unless negatives are allowed. */
export function counterBounds(rules: CounterRules = {}): { min: number; max: number } {
  let min = rules.min ?? COUNTER_MIN;
  const max = rules.max ?? COUNTER_MAX;
  if (!rules.allowNegative) min = Math.max(min, 0);
  return { min, max: Math.max(max, min) };
}

/** Rounds to a whole number and clamps to the counter's bounds; a non-number becomes the minimum. */
export function clampCounter(value: number | string | null | undefined, rules: CounterRules = {}): number {
  const { min, max } = counterBounds(rules);
  const n = typeof value === 'string' ? Number(value.trim() === '' ? NaN : value) : (value ?? NaN);
  if (!Number.isFinite(n)) return min;
  return Math.min(max, Math.max(min, Math.round(n)));
}

// ---------------------------------------------------------------- slider

/** Slider: 0-100 with marks at 20, 40, 60, 80 (spec section 9). */
export const SLIDER_MIN = 0;
export const SLIDER_MAX = 100;
export const SLIDER_MARKS = [20, 40, 60, 80] as const;

export function clampSlider(value: number): number {
  if (!Number.isFinite(value)) return SLIDER_MIN;
  return Math.min(SLIDER_MAX, Math.max(SLIDER_MIN, value));
}

// ---------------------------------------------------------------- multi-select

/** Multi-select option (spec section 3). */
export interface SelectOption<Id extends string | number = string | number> {
  id: Id;
  value: string;
}

/** Whether a selection respects the maximum item count (no maximum: always). */
export function withinMaxCount(selected: readonly unknown[], maxCount?: number): boolean {
  return maxCount === undefined || selected.length <= maxCount;
}

// ---------------------------------------------------------------- autocomplete

/** Autocomplete (spec sections 7 and 9). */
export const AUTOCOMPLETE_MIN_CHARS = 2;
export const AUTOCOMPLETE_DEBOUNCE_MS = 750;
export const AUTOCOMPLETE_DEFAULT_LIMIT = 10;

/** True once the typed text (trimmed) is long enough to search. */
export function shouldAutocomplete(text: string): boolean {
  return text.trim().length >= AUTOCOMPLETE_MIN_CHARS;
}

/** Query parameters of an autocomplete call: the text under the field's name, and the limit. */
export function autocompleteQuery(
  field: string,
  text: string,
  limit: number = AUTOCOMPLETE_DEFAULT_LIMIT,
): Record<string, string> {
  return { [field]: text.trim(), limit: String(limit) };
}

// ---------------------------------------------------------------- URL

/** URL schemes accepted by the URL input (spec section 5). */
export const URL_SCHEMES = ['http', 'https', 'ftp', 'ftps'] as const;

/**
 * A URL must start with http://, https://, ftp:// or ftps:// and name a host. Spaces are not
 * allowed anywhere (browsers would silently encode them).
 */
export function isValidUrl(text: string): boolean {
  if (typeof text !== 'string') return false;
  const value = text.trim();
  if (/\s/.test(value)) return false;
  const m = /^([a-z]+):\/\/([^/?#]+)/i.exec(value);
  if (!m || !(URL_SCHEMES as readonly string[]).includes((m[1] ?? '').toLowerCase())) return false;
  try {
    const url = new URL(value);
    return url.hostname !== '' && !/^\.|\.\.|\.$/.test(url.hostname.replace(/^\[.*\]$/, 'ipv6'));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- tolerance

/**
 * Tolerance check (spec section 5): `value` is within limits when it lies within
 * `base ± base/divisor` (bounds included). A negative base has the same band.
 */
export function withinTolerance(value: number, base: number, divisor: number): boolean {
  if (!(divisor > 0) || !Number.isFinite(divisor)) throw new RangeError('divisor must be a positive number');
  if (!Number.isFinite(value) || !Number.isFinite(base)) return false;
  const margin = Math.abs(base / divisor);
  // A tiny epsilon so that 110 against 100 ± 100/10 is not lost to binary rounding.
  const epsilon = Number.EPSILON * Math.max(1, Math.abs(base), Math.abs(value)) * 4;
  return Math.abs(value - base) <= margin + epsilon;
}
