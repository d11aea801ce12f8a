/**
 * Accepted date-time formats (spec section 5): `YYYY-MM-DD HH:mm`, also with a `T` separator,
 * with or without seconds. A date-time is local (no zone): it is normalised to
 * `YYYY-MM-DDTHH:mm:ss`.
 */
import { isIsoDate } from './dates.ts';
import type { WallTime } from './time-zones.ts';

/** dayjs format strings for the same four shapes; the first is the display format. */
export const DATE_TIME_FORMATS = [
  'YYYY-MM-DD HH:mm:ss',
  'YYYY-MM-DD HH:mm',
  'YYYY-MM-DD[T]HH:mm:ss',
  'YYYY-MM-DD[T]HH:mm',
] as const;

/** A wall time's fields (the same shape as the time zones' WallTime). */
export type DateTimeParts = WallTime;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Reads one of the accepted shapes (surrounding spaces ignored); null for anything else or an impossible date/time. */
export function parseDateTime(text: string): DateTimeParts | null {
  if (typeof text !== 'string') return null;
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!isIsoDate(date)) return null;
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour, minute, second };
}

export function isAcceptedDateTime(text: string): boolean {
  return parseDateTime(text) !== null;
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:mm:ss` (or with another separator, e.g. a space for display). */
export function formatDateTimeParts(parts: DateTimeParts, separator: 'T' | ' ' = 'T'): string {
  const date = `${String(parts.year).padStart(4, '0')}-${p2(parts.month)}-${p2(parts.day)}`;
  return `${date}${separator}${p2(parts.hour)}:${p2(parts.minute)}:${p2(parts.second)}`;
}

/** The canonical `YYYY-MM-DDTHH:mm:ss` form of an accepted date-time, or null. */
export function normalizeDateTime(text: string): string | null {
  const parts = parseDateTime(text);
  return parts ? formatDateTimeParts(parts) : null;
}
