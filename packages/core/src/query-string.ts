/**
 * Query strings built from filters (spec section 7, Shared fetch behaviour):
 * - nested objects become `name[key]=value` (at any depth: `a[b][c]=v`);
 * - arrays become id lists: `ids=1,2,3`; an array of options `{id, value}` gives their ids;
 * - dates (Date or dayjs values) are formatted: `YYYY-MM-DD` at midnight, else
 *   `YYYY-MM-DD HH:mm:ss` (local time, as the date pickers show them);
 * - null, undefined, '' , NaN and empty arrays are left out.
 * Brackets and commas stay readable; everything else is percent-encoded.
 */
import dayjs, { isDayjs, type Dayjs } from 'dayjs';

export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | Dayjs
  | null
  | undefined
  | readonly QueryValue[]
  | { readonly [key: string]: QueryValue };

export type QueryParams = { readonly [key: string]: QueryValue };

/** Formats a date for a query: the day alone when it is midnight, else with the time. */
export function formatQueryDate(value: Date | Dayjs): string {
  const d = dayjs(value);
  if (!d.isValid()) return '';
  const midnight = d.hour() === 0 && d.minute() === 0 && d.second() === 0 && d.millisecond() === 0;
  return d.format(midnight ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm:ss');
}

function isDateLike(value: unknown): value is Date | Dayjs {
  return value instanceof Date || isDayjs(value);
}

/** A scalar as text, or null when it must be left out. */
function scalarText(value: QueryValue): string | null {
  if (value === null || value === undefined) return null;
  if (isDateLike(value)) {
    const text = formatQueryDate(value);
    return text === '' ? null : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value === '' ? null : value;
  return null;
}

/** The id of a list item: options `{id, value}` give their id, scalars themselves. */
function listItemText(item: QueryValue): string | null {
  if (item !== null && typeof item === 'object' && !Array.isArray(item) && !isDateLike(item)) {
    const id = (item as { readonly [key: string]: QueryValue }).id;
    return id === undefined ? null : scalarText(id);
  }
  return scalarText(item);
}

const encode = (text: string) => encodeURIComponent(text);
const encodeKey = (key: string) => encode(key).replace(/%5B/gi, '[').replace(/%5D/gi, ']');

function collect(name: string, value: QueryValue, out: string[]): void {
  if (Array.isArray(value)) {
    const ids = (value as readonly QueryValue[]).map(listItemText).filter((t): t is string => t !== null);
    if (ids.length > 0) out.push(`${encodeKey(name)}=${ids.map(encode).join(',')}`);
    return;
  }
  if (value !== null && typeof value === 'object' && !isDateLike(value)) {
    for (const [key, inner] of Object.entries(value as { readonly [key: string]: QueryValue })) {
      collect(`${name}[${key}]`, inner, out);
    }
    return;
  }
  const text = scalarText(value);
  if (text !== null) out.push(`${encodeKey(name)}=${encode(text)}`);
}

/** Builds `a=1&f[country]=ES&ids=1,2` (no leading '?'); '' when nothing is left. */
export function buildQueryString(params: QueryParams | null | undefined): string {
  if (!params) return '';
  const out: string[] = [];
  for (const [name, value] of Object.entries(params)) collect(name, value, out);
  return out.join('&');
}

/** Appends the query to a URL, with '?' or '&' as needed. */
export function withQuery(url: string, params: QueryParams | null | undefined): string {
  const qs = buildQueryString(params);
  if (qs === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}
