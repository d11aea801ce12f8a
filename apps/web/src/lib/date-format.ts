/** Short times and days of instants in a time zone, and of local dates, in the UI language. */

/** Date formatters by locale, zone and kind: building one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(kind: 'time' | 'day', locale: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${locale}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time' ? { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { timeZone, day: 'numeric', month: 'short' };
    f = new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', options);
    formatters.set(key, f);
  }
  return f;
}

/** Hour and minute of an instant in a zone ('14:00'). */
export function formatTime(iso: string | number, timezone: string, locale: string): string {
  return dateFormat('time', locale, timezone).format(new Date(iso));
}

/** A short day ('2 Apr', '2 abr') of an instant in a zone. */
export function formatDay(iso: string | number, timezone: string, locale: string): string {
  return dateFormat('day', locale, timezone).format(new Date(iso));
}

/** A local date 'YYYY-MM-DD' as a short day, without time-zone arithmetic ('2025-04-02' -> '2 Apr'). */
export function formatDateLabel(date: string, locale: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  return dateFormat('day', locale, 'UTC').format(new Date(Date.UTC(y, m - 1, d)));
}
