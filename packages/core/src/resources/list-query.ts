/**
 * A resource list's query string, parsed the same way by the API and built by the web app:
 *   page=2&page_size=50&sort=legal_name,-updated_at
 *   &f[legal_name]=acme            text contains (case-insensitive)
 *   &f[country]=ES,FR              one of (enums, references by id)
 *   &f[active]=true                equals
 *   &f[updated_at][min]=2026-01-01&f[updated_at][max]=2026-02-01   range (inclusive)
 * The vocabulary of the spec's query-string builder (nested objects become name[key]=value, arrays
 * comma lists). Anything else is refused with a field error, never passed on: an unknown
 * parameter or filter (`error.unknown_field`), an unsortable field (`resource.sort_unknown`), a
 * page size over the cap (`resource.page_size_max`).
 */
import { isIsoDate } from '../dates.ts';
import { isIdText } from '../ids.ts';
import type { FieldMeta, ResourceDef } from './define.ts';

export const DEFAULT_PAGE_SIZE = 25;
/** The largest page a list answers. */
export const MAX_PAGE_SIZE = 200;
/** The deepest page (a cap on offsets; exports take everything filtered). */
export const MAX_PAGE = 100_000;
const MAX_FILTER_TEXT = 200;
const MAX_IN_VALUES = 100;

export type Filter =
  | { field: string; kind: 'eq'; value: string | number | boolean }
  | { field: string; kind: 'contains'; value: string }
  | { field: string; kind: 'in'; values: (string | number)[] }
  | { field: string; kind: 'range'; min: string | number | null; max: string | number | null };

export interface ListQuery {
  page: number;
  page_size: number;
  sort: { field: string; desc: boolean }[];
  filters: Filter[];
}

export type ListQueryResult = { ok: true; value: ListQuery } | { ok: false; errors: Record<string, string> };

const FILTER_KEY = /^f\[([a-z_][a-z0-9_]*)\](?:\[(min|max)\])?$/;
const DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

/**
 * A date (YYYY-MM-DD) or an instant (with a time and an optional offset) that PostgreSQL takes:
 * a real calendar day from year 1 (no 2026-02-30, no year 0), a time up to 23:59:59, an offset up
 * to ±14:00. Date.parse is no test: it takes 2026-02-30, 24:00 and +23:59, and the database then fails.
 */
function isFilterDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m || !isIsoDate(m[1]) || m[1].startsWith('0000')) return false;
  if (m[2] === undefined) return true;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return false;
  return m[5] === undefined || (Number(m[5]) <= 14 && Number(m[6]) <= 59);
}

function positiveInt(text: string, max: number): number | null {
  return /^[1-9]\d{0,8}$/.test(text) && Number(text) <= max ? Number(text) : null;
}

/** One value of a field, as the filter needs it; null when it is not one. */
function scalar(meta: FieldMeta, text: string): string | number | boolean | null {
  switch (meta.type) {
    case 'id':
    case 'ref':
      return isIdText(text) ? Number(text) : null;
    case 'number':
    case 'percent':
    case 'money': {
      if (!/^-?\d{1,15}(\.\d{1,6})?$/.test(text)) return null;
      return Number(text);
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : null;
    case 'date':
    case 'datetime':
      return isFilterDate(text) ? text : null;
    case 'enum':
      return meta.options?.includes(text) ? text : null;
    default:
      return text.length <= MAX_FILTER_TEXT ? text : null;
  }
}

export function parseListQuery(def: ResourceDef, raw: Record<string, unknown>): ListQueryResult {
  const errors: Record<string, string> = {};
  const out: ListQuery = { page: 1, page_size: DEFAULT_PAGE_SIZE, sort: [], filters: [] };
  const ranges = new Map<string, { min: string | number | null; max: string | number | null }>();

  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') {
      errors[key] = 'error.invalid_type';
      continue;
    }
    if (key === 'page') {
      const n = positiveInt(value, MAX_PAGE);
      if (n === null) errors.page = 'error.invalid_value';
      else out.page = n;
      continue;
    }
    if (key === 'page_size') {
      const n = positiveInt(value, 1_000_000);
      if (n === null) errors.page_size = 'error.invalid_value';
      else if (n > MAX_PAGE_SIZE) errors.page_size = 'resource.page_size_max';
      else out.page_size = n;
      continue;
    }
    if (key === 'sort') {
      for (const part of value.split(',')) {
        const desc = part.startsWith('-');
        const field = desc ? part.slice(1) : part;
        if (!def.fields[field]?.sort) {
          errors.sort = 'resource.sort_unknown';
          break;
        }
        if (!out.sort.some((s) => s.field === field)) out.sort.push({ field, desc });
      }
      continue;
    }
    const m = FILTER_KEY.exec(key);
    const meta = m ? def.fields[m[1]!] : undefined;
    if (!m || !meta?.filter) {
      errors[key] = 'error.unknown_field';
      continue;
    }
    const field = m[1]!;
    const bound = m[2] as 'min' | 'max' | undefined;
    if (meta.filter === 'range') {
      if (!bound) {
        errors[key] = 'error.unknown_field';
        continue;
      }
      if (value === '') continue;
      const v = scalar(meta, value);
      if (v === null || typeof v === 'boolean') errors[key] = 'error.invalid_value';
      else {
        const r = ranges.get(field) ?? { min: null, max: null };
        r[bound] = v;
        ranges.set(field, r);
      }
      continue;
    }
    if (bound) {
      errors[key] = 'error.unknown_field';
      continue;
    }
    if (value === '') continue;
    if (meta.filter === 'contains') {
      if (value.length > MAX_FILTER_TEXT) errors[key] = 'error.invalid_value';
      else out.filters.push({ field, kind: 'contains', value });
    } else if (meta.filter === 'in') {
      const parts = value.split(',').filter((p) => p !== '');
      const values = parts.map((p) => scalar(meta, p));
      if (parts.length > MAX_IN_VALUES || values.some((v) => v === null || typeof v === 'boolean')) errors[key] = 'error.invalid_value';
      else out.filters.push({ field, kind: 'in', values: values as (string | number)[] });
    } else {
      const v = scalar(meta, value);
      if (v === null) errors[key] = 'error.invalid_value';
      else out.filters.push({ field, kind: 'eq', value: v });
    }
  }
  for (const [field, r] of ranges) out.filters.push({ field, kind: 'range', min: r.min, max: r.max });
  if (out.sort.length === 0) {
    const desc = def.defaultSort.startsWith('-');
    out.sort.push({ field: desc ? def.defaultSort.slice(1) : def.defaultSort, desc });
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: out };
}

/** The query string parameters of a list query (what the web app puts in the URL and sends). */
export function listQueryParams(q: Partial<ListQuery>, def: Pick<ResourceDef, 'defaultSort'>): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.page && q.page > 1) out.page = String(q.page);
  if (q.page_size && q.page_size !== DEFAULT_PAGE_SIZE) out.page_size = String(q.page_size);
  const sort = (q.sort ?? []).map((s) => `${s.desc ? '-' : ''}${s.field}`).join(',');
  if (sort && sort !== def.defaultSort) out.sort = sort;
  for (const f of q.filters ?? []) {
    if (f.kind === 'range') {
      if (f.min !== null) out[`f[${f.field}][min]`] = String(f.min);
      if (f.max !== null) out[`f[${f.field}][max]`] = String(f.max);
    } else if (f.kind === 'in') {
      if (f.values.length > 0) out[`f[${f.field}]`] = f.values.join(',');
    } else if (f.value !== '') out[`f[${f.field}]`] = String(f.value);
  }
  return out;
}
