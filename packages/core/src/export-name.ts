/**
 * Export file names (spec section 9): `name_YYYY-MM-DD_HHmmss.csv|xlsx`, stamped with the
 * local time of the moment of export (or the given time zone's).
 */
import { wallTimeOf } from './time-zones.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const p2 = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD_HHmmss` of an instant, in `timeZone` (IANA) when given, else local time. */
export function exportTimestamp(date: Date = new Date(), timeZone?: string): string {
  if (!timeZone) {
    return `${date.getFullYear()}-${p2(date.getMonth() + 1)}-${p2(date.getDate())}_${p2(date.getHours())}${p2(date.getMinutes())}${p2(date.getSeconds())}`;
  }
  const w = wallTimeOf(date.getTime(), timeZone);
  return `${w.year}-${p2(w.month)}-${p2(w.day)}_${p2(w.hour)}${p2(w.minute)}${p2(w.second)}`;
}

/**
 * Makes a name safe for every file system: letters (any script), digits, `.`, `-` and `_`
 * stay; runs of anything else become one `_`. Empty names become `export`.
 */
export function safeFileBaseName(name: string): string {
  const safe = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^[_.]+|[_.]+$/g, '');
  return safe === '' ? 'export' : safe.slice(0, 120);
}

/** `name_YYYY-MM-DD_HHmmss.ext`. */
export function exportFileName(
  name: string,
  ext: ExportFormat,
  date: Date = new Date(),
  timeZone?: string,
): string {
  return `${safeFileBaseName(name)}_${exportTimestamp(date, timeZone)}.${ext}`;
}
