/**
 * The creatives screens' side of the contract (packages/core/src/creatives.ts): the view the sizes
 * list keeps in its URL (search, format, most common, sort, page, the open size and its ad units'
 * search and page) and the queries it sends.
 */
import {
  AD_UNIT_PAGE_SIZE,
  CREATIVE_FORMATS,
  CREATIVE_SIZE_DEFAULT_SORT,
  CREATIVE_SIZE_PAGE_SIZE,
  CREATIVE_SIZE_PAGE_SIZES,
  CREATIVE_SIZE_SORTS,
  iabSize,
  type CreativeFormat,
} from '@backoffice/core/creatives';

export const SIZES_PATH = 'creatives/sizes';
export const RESIZE_PATH = 'creatives/resize';
/** The two screens' paths under /{lang}. */
export const SIZES_SCREEN = '/utils/info_creative_sizes';
export const RESIZE_SCREEN = '/utils/creatives_resize_tool';

export interface SizesView {
  search: string;
  format: CreativeFormat | '';
  common: boolean;
  sort: string;
  page: number;
  pageSize: number;
  /** The size open in the drawer, its ad units' search and page. */
  open: string | null;
  unitSearch: string;
  unitPage: number;
}

const positive = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
};

export function readView(p: URLSearchParams): SizesView {
  const sort = p.get('sort') ?? '';
  const format = p.get('format') ?? '';
  const size = Number(p.get('size'));
  const open = p.get('open');
  return {
    search: (p.get('search') ?? '').trim().slice(0, 100),
    format: (CREATIVE_FORMATS as readonly string[]).includes(format) ? (format as CreativeFormat) : '',
    common: p.get('common') === '1',
    sort: (CREATIVE_SIZE_SORTS as readonly string[]).includes(sort.replace(/^-/, ''))
      ? sort
      : CREATIVE_SIZE_DEFAULT_SORT,
    page: positive(p.get('page')),
    pageSize: (CREATIVE_SIZE_PAGE_SIZES as readonly number[]).includes(size) ? size : CREATIVE_SIZE_PAGE_SIZE,
    open: open && iabSize(open) ? open : null,
    unitSearch: (p.get('units') ?? '').trim().slice(0, 100),
    unitPage: positive(p.get('units_page')),
  };
}

export function viewPatch(v: Partial<SizesView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (v.search !== undefined) out.search = v.search || null;
  if (v.format !== undefined) out.format = v.format || null;
  if (v.common !== undefined) out.common = v.common ? '1' : null;
  if (v.sort !== undefined) out.sort = v.sort === CREATIVE_SIZE_DEFAULT_SORT ? null : v.sort;
  if (v.page !== undefined) out.page = v.page > 1 ? String(v.page) : null;
  if (v.pageSize !== undefined) out.size = v.pageSize === CREATIVE_SIZE_PAGE_SIZE ? null : String(v.pageSize);
  if (v.open !== undefined) out.open = v.open;
  if (v.unitSearch !== undefined) out.units = v.unitSearch || null;
  if (v.unitPage !== undefined) out.units_page = v.unitPage > 1 ? String(v.unitPage) : null;
  return out;
}

export function listQuery(v: SizesView): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort, page: v.page, page_size: v.pageSize };
  if (v.search) q.search = v.search;
  if (v.format) q.ad_format = v.format;
  if (v.common) q.common = 'true';
  return q;
}

export const unitsQuery = (v: SizesView): Record<string, string | number> => ({
  page: v.unitPage,
  page_size: AD_UNIT_PAGE_SIZE,
  ...(v.unitSearch ? { search: v.unitSearch } : {}),
});

export const filterCount = (v: SizesView) => [v.search, v.format, v.common].filter(Boolean).length;

/** Bytes as kB (1,000 bytes, as the IAB writes its limits) with one decimal. */
export function kbText(bytes: number, locale: string): string {
  return (bytes / 1000).toLocaleString(locale, { maximumFractionDigits: 1 });
}
