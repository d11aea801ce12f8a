/**
 * Creative sizes: the IAB standard sizes (packages/core/src/creatives.ts) searched, filtered, sorted
 * and paged here (29 rows: in memory), each with how many ad units use it, and one size with those
 * ad units (publisher, site, ad unit; paged in SQL). A size reaches the ad units through the
 * warehouse's size id (`ad_units.size_id`, position + 1 in reports' SIZES).
 */
import {
  IAB_SIZES,
  parseCreativeSizeSort,
  sizeMatchesSearch,
  sizeNameKey,
  warehouseSizeId,
  type CreativeSizeDetail,
  type CreativeSizeDetailQuery,
  type CreativeSizeExportQuery,
  type CreativeSizeListQuery,
  type CreativeSizeRow,
  type IabSize,
} from '@backoffice/core/creatives';
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';
import { FORMATS } from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';

/** Ad units per warehouse size id. */
async function adUnitCounts(database: Database): Promise<Map<number, number>> {
  const rows = await query<{ size_id: number; n: number }>(database, 'SELECT size_id, count(*)::int AS n FROM ad_units GROUP BY size_id');
  return new Map(rows.map((r) => [Number(r.size_id), Number(r.n)]));
}

function rowOf(s: IabSize, locale: Locale, counts: Map<number, number>): CreativeSizeRow {
  const sizeId = warehouseSizeId(s.id);
  return { ...s, name: translate(locale, sizeNameKey(s.id)), name_key: sizeNameKey(s.id), ad_units: sizeId === null ? 0 : counts.get(sizeId) ?? 0 };
}

type Filters = Pick<CreativeSizeListQuery, 'search' | 'ad_format' | 'common' | 'sort'>;

/** Every size that passes the filters, sorted; names in `locale` (the search matches both languages). */
async function filteredSizes(database: Database, q: Filters, locale: Locale): Promise<CreativeSizeRow[]> {
  const counts = await adUnitCounts(database);
  const rows = IAB_SIZES.filter(
    (s) =>
      (!q.ad_format || s.formats.includes(q.ad_format)) &&
      (q.common === undefined || s.common === (q.common === 'true')) &&
      sizeMatchesSearch(s, q.search, [translate('en', sizeNameKey(s.id)), translate('es', sizeNameKey(s.id))]),
  ).map((s) => rowOf(s, locale, counts));
  const { field, desc } = parseCreativeSizeSort(q.sort);
  const area = (r: CreativeSizeRow) => r.width * r.height;
  const key: Record<typeof field, (a: CreativeSizeRow, b: CreativeSizeRow) => number> = {
    common: (a, b) => Number(a.common) - Number(b.common) || area(a) - area(b),
    area: (a, b) => area(a) - area(b),
    width: (a, b) => a.width - b.width || a.height - b.height,
    height: (a, b) => a.height - b.height || a.width - b.width,
    weight: (a, b) => a.initial_load_kb - b.initial_load_kb || area(a) - area(b),
    name: (a, b) => a.name.localeCompare(b.name, locale),
    ad_units: (a, b) => a.ad_units - b.ad_units || area(a) - area(b),
  };
  const sign = desc ? -1 : 1;
  // The IAB list's own order breaks the remaining ties, so pages never shuffle.
  const order = new Map(IAB_SIZES.map((s, i) => [s.id, i]));
  return rows.sort((a, b) => sign * key[field](a, b) || order.get(a.id)! - order.get(b.id)!);
}

export async function listSizes(database: Database, q: CreativeSizeListQuery, locale: Locale): Promise<{ items: CreativeSizeRow[]; total: number }> {
  const rows = await filteredSizes(database, q, locale);
  const from = (q.page - 1) * q.page_size;
  return { items: rows.slice(from, from + q.page_size), total: rows.length };
}

export const exportSizes = (database: Database, q: Omit<CreativeSizeExportQuery, 'format'>, locale: Locale) => filteredSizes(database, q, locale);

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One size with the ad units that use it (searched by ad unit, site or publisher name; paged). */
export async function sizeDetail(database: Database, id: string, q: CreativeSizeDetailQuery, locale: Locale): Promise<CreativeSizeDetail | null> {
  const s = IAB_SIZES.find((x) => x.id === id);
  if (!s) return null;
  const sizeId = warehouseSizeId(id);
  const counts = await adUnitCounts(database);
  const empty = { items: [], total: 0, page: q.page, page_size: q.page_size };
  if (sizeId === null) return { size: rowOf(s, locale, counts), served: false, ad_units: empty };
  const params: unknown[] = [sizeId];
  let where = 'u.size_id = $1';
  if (q.search) {
    params.push(likeOf(q.search));
    where += ` AND (u.name ILIKE $2 OR s.name ILIKE $2 OR p.name ILIKE $2)`;
  }
  const from = 'FROM ad_units u JOIN sites s ON s.id = u.site_id JOIN publishers p ON p.id = s.publisher_id';
  const rows = await query<{ id: number; name: string; format_id: number; site_id: number; site: string; publisher_id: number; publisher: string; side: string }>(
    database,
    `SELECT u.id, u.name, u.format_id, s.id AS site_id, s.name AS site, p.id AS publisher_id, p.name AS publisher, p.side
       ${from} WHERE ${where}
      ORDER BY lower(p.name), p.id, lower(s.name), s.id, lower(u.name), u.id
      LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
    params,
  );
  const [count] = await query<{ n: number }>(database, `SELECT count(*)::int AS n ${from} WHERE ${where}`, params);
  return {
    size: rowOf(s, locale, counts),
    served: true,
    ad_units: {
      items: rows.map((r) => ({
        id: Number(r.id),
        name: String(r.name),
        media_type: FORMATS[Number(r.format_id) - 1] ?? String(r.format_id),
        publisher: { id: Number(r.publisher_id), name: String(r.publisher), side: String(r.side) },
        site: { id: Number(r.site_id), name: String(r.site) },
      })),
      total: Number(count?.n ?? 0),
      page: q.page,
      page_size: q.page_size,
    },
  };
}
