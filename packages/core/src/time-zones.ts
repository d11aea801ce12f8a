/**
 * Time zones. Facts are stored per UTC hour; reports read local wall times in an IANA zone.
 * Free of zod and of the report catalogue (the web app's entry uses isValidTimeZone).
 */

export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64) return false;
  try {
    // Builds (and caches) the zone's formatter: a zone checked once is not checked again, and
    // building a DateTimeFormat costs about a millisecond.
    partsFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** Zones that are UTC all year (daily UTC rollups then align with local days). */
export const UTC_ZONES = ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/Universal', 'Universal', 'Zulu', 'Etc/Zulu'] as const;
export const isUtcZone = (tz: string) => (UTC_ZONES as readonly string[]).includes(tz);

const formatterCache = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatterCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatterCache.set(tz, f);
  }
  return f;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall time of an instant in a zone. */
export function wallTimeOf(epochMs: number, tz: string): WallTime {
  // UTC needs no zone data: the Date's UTC fields are the wall time (and cost far less than Intl).
  if (isUtcZone(tz)) {
    const d = new Date(epochMs);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  }
  const parts = partsFormatter(tz).formatToParts(new Date(epochMs));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? '0');
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The calendar date (`YYYY-MM-DD`) of an instant in a zone. */
export function localDateOf(epochMs: number, tz: string): string {
  const w = wallTimeOf(epochMs, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** Offset of a zone at an instant, in minutes (Madrid in summer: +120). */
export function zoneOffsetMinutes(epochMs: number, tz: string): number {
  if (isUtcZone(tz)) return 0;
  const w = wallTimeOf(epochMs, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60000);
}

/**
 * The instant of a local wall time in a zone. Times that do not exist (skipped by a DST jump)
 * move forward by the jump; ambiguous times (repeated hour) take the first occurrence.
 */
export function zonedTimeToEpoch(w: WallTime, tz: string): number {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  if (isUtcZone(tz)) return guess;
  const before = zoneOffsetMinutes(guess - 14 * 3600_000, tz);
  const after = zoneOffsetMinutes(guess + 14 * 3600_000, tz);
  const valid: number[] = [];
  for (const offset of new Set([before, after])) {
    const epoch = guess - offset * 60000;
    const back = wallTimeOf(epoch, tz);
    if (back.year === w.year && back.month === w.month && back.day === w.day && back.hour === w.hour && back.minute === w.minute) valid.push(epoch);
  }
  if (valid.length > 0) return Math.min(...valid);
  // Skipped by a jump forward: the offset before the jump moves it forward by the jump.
  return guess - before * 60000;
}
