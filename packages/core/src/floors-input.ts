/**
 * What a floor rule may hold, checked the same way by the rule form, the API and the CSV import
 * (issue 20). Keys are trimmed and folded to one spelling (country upper case, the others lower
 * case); an empty key is `*`. Publisher and demand partner are ids (the API checks that they
 * exist). The CPM is exact decimal text; in a file whose delimiter is the semicolon (a spreadsheet
 * in a comma-decimal language) "1,25" is read as 1.25.
 */
import { z } from 'zod';
import {
  FLOOR_KEYS,
  FLOOR_TYPES,
  FLOOR_WILDCARD,
  type FloorKey,
  type FloorRule,
  type FloorType,
} from './floors.ts';
import { DEVICES, FORMATS } from './reports.ts';
import { CURRENCIES } from './resources/companies.ts';

/** The highest CPM a rule takes. */
export const MAX_FLOOR_CPM = 10_000;
/** The columns of the rules' CSV, in order (the two name columns are for people; the import ignores them). */
export const FLOOR_CSV_COLUMNS = [
  'publisher',
  'publisher_name',
  'site',
  'ad_unit',
  'country',
  'device',
  'media_type',
  'size',
  'demand_partner',
  'demand_partner_name',
  'deal',
  'cpm',
  'currency',
  'type',
] as const;
export const FLOOR_CSV_REQUIRED = [...FLOOR_KEYS, 'cpm', 'currency'] as const;

export type FloorField = FloorKey | 'cpm' | 'currency' | 'type';

/** One problem of a rule: the field and the i18n key of the reason. */
export interface FloorFieldError {
  field: FloorField;
  key: string;
}

export interface FloorRuleInput {
  keys: Partial<Record<FloorKey, string | null | undefined>>;
  cpm: string | number | null | undefined;
  currency: string | null | undefined;
  type?: string | null | undefined;
}

const ID = /^[1-9]\d{0,9}$/;
const COUNTRY = /^[A-Z]{2}$/;
const SIZE = /^([1-9]\d{0,4}x[1-9]\d{0,4}|fluid)$/;
const CPM = /^\d{1,5}(\.\d{1,4})?$/;
const KEY_MAX = 200;

/** The i18n key of what is wrong with a key's value (already folded), or null. */
function keyError(key: FloorKey, value: string): string | null {
  if (value === FLOOR_WILDCARD) return null;
  if (value.length > KEY_MAX) return 'floors.error.key_too_long';
  switch (key) {
    case 'publisher':
      return ID.test(value) ? null : 'floors.error.unknown_publisher';
    case 'demand_partner':
      return ID.test(value) ? null : 'floors.error.unknown_partner';
    case 'country':
      return COUNTRY.test(value) ? null : 'floors.error.country';
    case 'device':
      return (DEVICES as readonly string[]).includes(value) ? null : 'floors.error.device';
    case 'media_type':
      return (FORMATS as readonly string[]).includes(value) ? null : 'floors.error.media_type';
    case 'size':
      return SIZE.test(value) ? null : 'floors.error.size';
    default:
      return /[\s|]/.test(value) ? 'floors.error.key_spaces' : null;
  }
}

/** A key as stored: trimmed, `*` when empty, country upper case, the others lower case. */
export function foldKey(key: FloorKey, value: string | null | undefined): string {
  const v = (value ?? '').trim();
  if (v === '' || v === FLOOR_WILDCARD) return FLOOR_WILDCARD;
  return key === 'country' ? v.toUpperCase() : v.toLowerCase();
}

/** The CPM as canonical decimal text ("01.50" → "1.5"), or null when it is not one. */
export function foldCpm(
  value: string | number | null | undefined,
  decimalComma = false,
): { cpm: string | null; negative: boolean } {
  let v = String(value ?? '').trim();
  if (decimalComma) v = v.replace(',', '.');
  if (/^-\s*\d/.test(v)) return { cpm: null, negative: true };
  v = v.replace(/^\+/, '');
  if (!CPM.test(v) || Number(v) > MAX_FLOOR_CPM) return { cpm: null, negative: false };
  const [int = '0', frac = ''] = v.split('.');
  const i = int.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  return { cpm: f ? `${i}.${f}` : i, negative: false };
}

/** Checks and folds one rule: the rule when it is valid, else every problem found. */
export function checkFloorRule(
  input: FloorRuleInput,
  opts: { decimalComma?: boolean } = {},
): { rule: FloorRule | null; errors: FloorFieldError[] } {
  const errors: FloorFieldError[] = [];
  const keys = {} as Record<FloorKey, string>;
  for (const k of FLOOR_KEYS) {
    const v = foldKey(k, input.keys[k]);
    keys[k] = v;
    const e = keyError(k, v);
    if (e) errors.push({ field: k, key: e });
  }
  const { cpm, negative } = foldCpm(input.cpm, opts.decimalComma);
  if (cpm === null)
    errors.push({ field: 'cpm', key: negative ? 'floors.error.negative_cpm' : 'floors.error.cpm' });
  const currency = String(input.currency ?? '')
    .trim()
    .toUpperCase();
  if (!(CURRENCIES as readonly string[]).includes(currency))
    errors.push({ field: 'currency', key: 'floors.error.currency' });
  const typeText =
    String(input.type ?? '')
      .trim()
      .toLowerCase() || 'hard';
  if (!(FLOOR_TYPES as readonly string[]).includes(typeText))
    errors.push({ field: 'type', key: 'floors.error.type' });
  if (errors.length > 0 || cpm === null) return { rule: null, errors };
  return { rule: { keys, cpm, currency, type: typeText as FloorType }, errors };
}

const keyText = z.union([z.string().max(KEY_MAX + 20), z.null()]).optional();

/** A rule as the form and the API's add and edit send it (the checks above run on it). */
export const floorRuleBodySchema = z.strictObject({
  keys: z.strictObject(
    Object.fromEntries(FLOOR_KEYS.map((k) => [k, keyText])) as Record<FloorKey, typeof keyText>,
  ),
  cpm: z.union([z.string().max(40), z.number()]),
  currency: z.string().max(10),
  type: z.enum(FLOOR_TYPES, { error: 'floors.error.type' }).default('hard'),
  /** What the change is for (the version's comment). */
  comment: z.string().trim().max(500, 'error.too_long').default(''),
});
export type FloorRuleBody = z.input<typeof floorRuleBodySchema>;

/** A tester's request: a value per key, any left out unknown. */
export const floorTestSchema = z.strictObject(
  Object.fromEntries(FLOOR_KEYS.map((k) => [k, z.string().max(KEY_MAX).optional()])) as Record<
    FloorKey,
    z.ZodOptional<z.ZodString>
  >,
);
