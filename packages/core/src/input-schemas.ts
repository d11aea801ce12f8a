/**
 * Zod schemas for the shared input rules, so an API body is validated with exactly the rules
 * the form uses. Every custom failure carries an i18n message key (the API maps issues to
 * `{field: key}`). Kept apart from the rule files so the web inputs do not pull zod in.
 */
import { z } from 'zod';
import { isAcceptedDateTime, normalizeDateTime } from './date-time.ts';
import {
  DATE_ERRORS,
  DATE_PRESETS,
  isDateDisabled,
  isIsoDate,
  isMonthDisabled,
  isMonthValue,
  monthOf,
  todayIn,
  validateDateRange,
  type DateRules,
  type MonthValue,
} from './dates.ts';
import { UPLOAD_RULES, uploadError, type UploadKind } from './files.ts';
import {
  counterBounds,
  parseDecimalInput,
  isValidUrl,
  SLIDER_MAX,
  SLIDER_MIN,
  type CounterRules,
  type DecimalRules,
} from './inputs.ts';

/** A decimal number as a string (`"12.345"`), normalised; up to 3 decimals by default. */
export function decimalStringSchema(rules: DecimalRules = {}) {
  return z
    .string()
    .refine((text) => parseDecimalInput(text, rules) !== null, 'inputs.number.invalid')
    .transform((text) => parseDecimalInput(text, rules) as string);
}

/** The number input's rule: up to 3 decimals, dot separator. */
export const decimalString = decimalStringSchema();

/** `YYYY-MM-DD`, a real calendar date. */
export const isoDateSchema = z.string().refine(isIsoDate, DATE_ERRORS.invalid);

export interface DateSchemaOptions extends Omit<DateRules, 'today' | 'unit'> {
  /** Zone whose calendar decides what "today" (and so "future") is. */
  timeZone?: string;
  /** Clock, for tests. */
  now?: () => Date;
}

function rulesAt(options: DateSchemaOptions): Omit<DateRules, 'unit'> {
  const { timeZone, now, ...rest } = options;
  return { ...rest, today: todayIn(now ? now() : new Date(), timeZone) };
}

/** One date with the pickers' rules (future blocked unless allowed, min/max, custom rule). */
export function dateSchema(options: DateSchemaOptions = {}) {
  return isoDateSchema.superRefine((date, ctx) => {
    const rules = rulesAt(options);
    if (!isDateDisabled(date, rules)) return;
    const message =
      !rules.allowFuture && date > rules.today
        ? DATE_ERRORS.future
        : rules.min && date < rules.min
          ? DATE_ERRORS.beforeMin
          : rules.max && date > rules.max
            ? DATE_ERRORS.afterMax
            : DATE_ERRORS.disabled;
    ctx.addIssue({ code: 'custom', message });
  });
}

const RANGE_ERROR_FIELD: Record<string, 'start' | 'end'> = {
  [DATE_ERRORS.beforeMin]: 'start',
  [DATE_ERRORS.order]: 'end',
  [DATE_ERRORS.future]: 'end',
  [DATE_ERRORS.afterMax]: 'end',
  [DATE_ERRORS.disabled]: 'start',
};

/** The date-range value `{start, end, preset?}` with the pickers' rules. */
export function dateRangeSchema(options: DateSchemaOptions = {}) {
  return z
    .object({
      start: isoDateSchema,
      end: isoDateSchema,
      preset: z.enum(DATE_PRESETS).optional(),
    })
    .superRefine((range, ctx) => {
      // Malformed dates are already reported by the field schemas.
      if (!isIsoDate(range.start) || !isIsoDate(range.end)) return;
      const error = validateDateRange(range, rulesAt(options));
      if (error)
        ctx.addIssue({ code: 'custom', message: error, path: [RANGE_ERROR_FIELD[error] ?? 'start'] });
    });
}

export interface MonthSchemaOptions {
  min?: MonthValue;
  max?: MonthValue;
  allowFuture?: boolean;
  timeZone?: string;
  now?: () => Date;
}

/** The month value `{year, month}` within min/max (and not in the future unless allowed). */
export function monthSchema(options: MonthSchemaOptions = {}) {
  return z
    .object({ year: z.number().int().min(1).max(9999), month: z.number().int().min(1).max(12) })
    .superRefine((value, ctx) => {
      if (!isMonthValue(value)) return;
      const current: MonthValue = monthOf(
        todayIn(options.now ? options.now() : new Date(), options.timeZone),
      );
      if (isMonthDisabled(value, { ...options, current }))
        ctx.addIssue({ code: 'custom', message: 'inputs.month.out_of_range' });
    });
}

/** URL with http, https, ftp or ftps. */
export const urlSchema = z.string().trim().refine(isValidUrl, 'inputs.url.invalid');

/** An accepted date-time, normalised to `YYYY-MM-DDTHH:mm:ss`. */
export const dateTimeSchema = z
  .string()
  .refine(isAcceptedDateTime, 'inputs.datetime.invalid')
  .transform((text) => normalizeDateTime(text) as string);

/** A whole number inside the counter's bounds (0-50 unless told otherwise). */
export function counterSchema(rules: CounterRules = {}) {
  const { min, max } = counterBounds(rules);
  return z
    .number()
    .int()
    .refine((n) => n >= min && n <= max, 'inputs.counter.out_of_range');
}

/** The slider's 0-100. */
export const sliderSchema = z
  .number()
  .refine((n) => n >= SLIDER_MIN && n <= SLIDER_MAX, 'inputs.slider.out_of_range');

/** A multi-select value: a list of ids, at most `maxCount` of them, no repeats. */
export function multiSelectSchema<T extends z.ZodType>(item: T, maxCount?: number) {
  const list = z
    .array(item)
    .refine((ids) => new Set(ids).size === ids.length, 'inputs.multi_select.duplicate');
  return maxCount === undefined
    ? list
    : list.refine((ids) => ids.length <= maxCount, 'inputs.multi_select.max');
}

/** An uploaded file's name with the right extension (the upload's own message otherwise). */
export function uploadFileNameSchema(kind: UploadKind) {
  return z.string().refine((name) => uploadError(name, kind) === null, UPLOAD_RULES[kind].invalidMessage);
}
