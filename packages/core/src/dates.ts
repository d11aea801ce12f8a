/**
 * Calendar dates, date presets, range units and the pickers' disabled-date rules
 * (spec sections 3, 5 and 9). Shared by the date inputs and by the API, which validates the
 * same ranges.
 *
 * A calendar date travels as an ISO string `YYYY-MM-DD` (no time, no zone). All arithmetic
 * is done on UTC midnights so the result never depends on the machine's time zone; "today"
 * is the only zone-dependent value and comes from {@link todayIn}.
 * Weeks start on Monday (spec section 9), whatever the locale.
 */
import { localDateOf } from './time-zones.ts';

/** `YYYY-MM-DD`. */
export type IsoDate = string;

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last2days',
  'last7days',
  'last30days',
  'thisMonth',
  'lastMonth',
  'thisQuarter',
  'lastQuarter',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const RANGE_UNITS = ['day', 'week', 'month', 'quarter'] as const;
export type RangeUnit = (typeof RANGE_UNITS)[number];

/** A range unit, or a year (the cells of a picker's year panel). */
export type CalendarUnit = RangeUnit | 'year';

export interface DateRange {
  start: IsoDate;
  end: IsoDate;
}

/** The date-range input's value (spec section 3): inclusive start and end, and the preset that produced it. */
export interface DateRangeValue extends DateRange {
  preset?: DatePreset;
}

/** The month input's value (spec section 3); month is 1-12. */
export interface MonthValue {
  year: number;
  month: number;
}

/** Display formats (spec section 9). */
export const RANGE_DISPLAY_FORMAT = 'YYYY-MM-DD';
export const SINGLE_DATE_DISPLAY_FORMAT = 'YYYY/MM/DD';
export const MONTH_DISPLAY_FORMAT = 'YYYY-MM';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isDatePreset(value: unknown): value is DatePreset {
  return typeof value === 'string' && (DATE_PRESETS as readonly string[]).includes(value);
}

export function isRangeUnit(value: unknown): value is RangeUnit {
  return typeof value === 'string' && (RANGE_UNITS as readonly string[]).includes(value);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2024-02-30). */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toUtcMs(date: IsoDate): number {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`Not an ISO date: ${date}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

function fromUtcMs(ms: number): IsoDate {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function parts(date: IsoDate): { year: number; month: number; day: number } {
  const ms = toUtcMs(date);
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function isoOf(year: number, month: number, day: number): IsoDate {
  return fromUtcMs(Date.UTC(year, month - 1, day));
}

/**
 * The calendar date of an instant: in `timeZone` (an IANA name such as `Europe/Madrid`) when
 * given, else in the runtime's local zone.
 */
export function todayIn(now: Date = new Date(), timeZone?: string): IsoDate {
  if (!timeZone) return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return localDateOf(now.getTime(), timeZone);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Adds months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { year, month, day } = parts(date);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return isoOf(y, m, Math.min(day, daysInMonth(y, m)));
}

/** Monday = 1 … Sunday = 7 (ISO weekday). */
export function isoWeekday(date: IsoDate): number {
  const dow = new Date(toUtcMs(date)).getUTCDay();
  return dow === 0 ? 7 : dow;
}

export function startOfUnit(date: IsoDate, unit: CalendarUnit): IsoDate {
  const { year, month } = parts(date);
  switch (unit) {
    case 'year':
      return isoOf(year, 1, 1);
    case 'day':
      return date;
    case 'week':
      return addDays(date, 1 - isoWeekday(date));
    case 'month':
      return isoOf(year, month, 1);
    case 'quarter':
      return isoOf(year, month - ((month - 1) % 3), 1);
  }
}

export function endOfUnit(date: IsoDate, unit: CalendarUnit): IsoDate {
  switch (unit) {
    case 'year':
      return isoOf(parts(date).year, 12, 31);
    case 'day':
      return date;
    case 'week':
      return addDays(date, 7 - isoWeekday(date));
    case 'month':
      return addDays(addMonths(startOfUnit(date, 'month'), 1), -1);
    case 'quarter':
      return addDays(addMonths(startOfUnit(date, 'quarter'), 3), -1);
  }
}

function earliest(a: IsoDate, b: IsoDate): IsoDate {
  return a < b ? a : b;
}

/**
 * The range a preset stands for, relative to `now` (in `timeZone` when given). Ranges are
 * inclusive and never reach past today: "last N days" are the N days ending today (today
 * included), "this month/quarter" run from its first day to today, "last month/quarter" are
 * complete.
 */
export function presetRange(preset: DatePreset, now: Date = new Date(), timeZone?: string): DateRange {
  const today = todayIn(now, timeZone);
  switch (preset) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { start: y, end: y };
    }
    case 'last2days':
      return { start: addDays(today, -1), end: today };
    case 'last7days':
      return { start: addDays(today, -6), end: today };
    case 'last30days':
      return { start: addDays(today, -29), end: today };
    case 'thisMonth':
      return { start: startOfUnit(today, 'month'), end: today };
    case 'lastMonth': {
      const start = addMonths(startOfUnit(today, 'month'), -1);
      return { start, end: endOfUnit(start, 'month') };
    }
    case 'thisQuarter':
      return { start: startOfUnit(today, 'quarter'), end: today };
    case 'lastQuarter': {
      const start = addMonths(startOfUnit(today, 'quarter'), -3);
      return { start, end: endOfUnit(start, 'quarter') };
    }
  }
}

/**
 * The presets that make sense for a picker granularity: every preset for days, whole months
 * and quarters for months, quarters for quarters. Week pickers get none: a "last 7 days" made
 * of whole weeks would not be what its label says.
 */
export function presetsForUnit(unit: RangeUnit): readonly DatePreset[] {
  switch (unit) {
    case 'day':
      return DATE_PRESETS;
    case 'week':
      return [];
    case 'month':
      return ['thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter'];
    case 'quarter':
      return ['thisQuarter', 'lastQuarter'];
  }
}

/**
 * Widens a range to whole units (a week range runs Monday to Sunday, a month range from the
 * 1st to the last day) and, unless future dates are allowed, cuts the end at today.
 */
export function normalizeRange(
  range: DateRange,
  unit: RangeUnit,
  options: { today: IsoDate; allowFuture?: boolean },
): DateRange {
  const start = startOfUnit(range.start, unit);
  let end = endOfUnit(range.end, unit);
  if (!options.allowFuture) end = earliest(end, options.today);
  return { start, end: end < start ? start : end };
}

/**
 * A saved range as it should be shown now: a range made from a preset is recomputed (a report
 * saved as "last 7 days" shows the last 7 days from today), a fixed range stays as it is.
 */
export function resolveRange(
  value: DateRangeValue,
  now: Date = new Date(),
  timeZone?: string,
): DateRangeValue {
  if (value.preset && isDatePreset(value.preset))
    return { ...presetRange(value.preset, now, timeZone), preset: value.preset };
  return { start: value.start, end: value.end };
}

export interface DateRules {
  /** Today's calendar date (see {@link todayIn}). */
  today: IsoDate;
  /** Future dates are blocked unless this is true (spec section 5). */
  allowFuture?: boolean;
  min?: IsoDate;
  max?: IsoDate;
  /** A custom rule: true blocks the date. */
  disabledDate?: (date: IsoDate) => boolean;
  /** Granularity of the picker cell: a month cell is open when any of its days is. Default day. */
  unit?: CalendarUnit;
}

/** Whether a picker cell (a day, or the first day of a week/month/quarter cell) is blocked. */
export function isDateDisabled(date: IsoDate, rules: DateRules): boolean {
  const unit = rules.unit ?? 'day';
  const first = startOfUnit(date, unit);
  const last = endOfUnit(date, unit);
  if (!rules.allowFuture && first > rules.today) return true;
  if (rules.min && last < rules.min) return true;
  if (rules.max && first > rules.max) return true;
  if (rules.disabledDate) {
    // A wider cell is open while one of its days passes the custom rule; cap the scan for safety.
    if (unit === 'day') return rules.disabledDate(date);
    // Only days that pass the other rules can keep the cell open.
    let from = first;
    let to = last;
    if (rules.min && rules.min > from) from = rules.min;
    if (rules.max && rules.max < to) to = rules.max;
    if (!rules.allowFuture && rules.today < to) to = rules.today;
    for (let d = from, i = 0; d <= to && i < 366; d = addDays(d, 1), i += 1)
      if (!rules.disabledDate(d)) return false;
    return true;
  }
  return false;
}

/** i18n keys of the date-range errors (also used as zod messages, see input-schemas.ts). */
export const DATE_ERRORS = {
  required: 'inputs.date_range.required',
  invalid: 'inputs.date.invalid',
  order: 'inputs.date_range.order',
  future: 'inputs.date.future',
  beforeMin: 'inputs.date.before_min',
  afterMax: 'inputs.date.after_max',
  disabled: 'inputs.date.disabled',
} as const;
export type DateErrorKey = (typeof DATE_ERRORS)[keyof typeof DATE_ERRORS];

/** Validates a complete range against the rules; returns an i18n key, or null when valid. */
export function validateDateRange(
  range: Partial<DateRange> | null | undefined,
  rules: Omit<DateRules, 'unit'>,
): DateErrorKey | null {
  if (!range || !range.start || !range.end) return DATE_ERRORS.required;
  if (!isIsoDate(range.start) || !isIsoDate(range.end)) return DATE_ERRORS.invalid;
  if (range.start > range.end) return DATE_ERRORS.order;
  if (!rules.allowFuture && range.end > rules.today) return DATE_ERRORS.future;
  if (rules.min && range.start < rules.min) return DATE_ERRORS.beforeMin;
  if (rules.max && range.end > rules.max) return DATE_ERRORS.afterMax;
  if (rules.disabledDate && (rules.disabledDate(range.start) || rules.disabledDate(range.end)))
    return DATE_ERRORS.disabled;
  return null;
}

// ---------------------------------------------------------------- months

export function isMonthValue(value: unknown): value is MonthValue {
  if (typeof value !== 'object' || value === null) return false;
  const { year, month } = value as Partial<MonthValue>;
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    (month as number) >= 1 &&
    (month as number) <= 12 &&
    (year as number) >= 1 &&
    (year as number) <= 9999
  );
}

/** Negative when a is before b, 0 when equal, positive after. */
export function compareMonth(a: MonthValue, b: MonthValue): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/** `YYYY-MM`. */
export function monthToString(value: MonthValue): string {
  return `${pad(value.year, 4)}-${pad(value.month)}`;
}

/** Reads `YYYY-MM` (or a full ISO date); null when it is not a month. */
export function parseMonth(text: string): MonthValue | null {
  const m = /^(\d{4})-(\d{2})(?:-\d{2})?$/.exec(text.trim());
  if (!m) return null;
  const value = { year: Number(m[1]), month: Number(m[2]) };
  return isMonthValue(value) ? value : null;
}

export function monthOf(date: IsoDate): MonthValue {
  const { year, month } = parts(date);
  return { year, month };
}

/** First and last day of the month. */
export function monthRange(value: MonthValue): DateRange {
  const start = isoOf(value.year, value.month, 1);
  return { start, end: endOfUnit(start, 'month') };
}

export interface MonthRules {
  min?: MonthValue;
  max?: MonthValue;
  /** The current month; months after it are blocked unless allowFuture. */
  current?: MonthValue;
  allowFuture?: boolean;
}

/** Whether a month lies outside min/max (or in the future when that is blocked). */
export function isMonthDisabled(value: MonthValue, rules: MonthRules): boolean {
  if (rules.min && compareMonth(value, rules.min) < 0) return true;
  if (rules.max && compareMonth(value, rules.max) > 0) return true;
  if (!rules.allowFuture && rules.current && compareMonth(value, rules.current) > 0) return true;
  return false;
}
