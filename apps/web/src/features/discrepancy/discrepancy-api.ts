/**
 * The discrepancy screen's data: the list's and the open request's view in the URL, the requests
 * (polled while one is queued or running, so progress shows live), one request's rows, the
 * tolerance setting and the changes (request, decisions, apply, retry, tolerance).
 */
import {
  DISCREPANCY_PAGE_SIZE,
  DISCREPANCY_PAGE_SIZES,
  DISCREPANCY_STATES,
  type DiscrepancyListAnswer,
  type DiscrepancyNetworkOption,
  type DiscrepancyRequestDto,
  type DiscrepancyRowDto,
  type DiscrepancyState,
} from '@backoffice/core/discrepancy';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';

export interface DiscrepancyView {
  search: string;
  state: DiscrepancyState | '';
  sort: string;
  page: number;
  pageSize: number;
  /** The request open in the drawer, its rows' filter, sort and page. */
  request: number | null;
  filter: 'all' | 'flagged' | 'undecided';
  rowSort: string;
  rowPage: number;
  rowPageSize: number;
}

const int = (v: string | null, min: number, max: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
};
const SORTS = ['created_at', '-created_at', 'date', '-date', 'flagged', '-flagged'];
const ROW_SORTS = ['day', '-day', 'network', '-network', 'delta', '-delta'];

export function readView(params: URLSearchParams): DiscrepancyView {
  const state = params.get('state') ?? '';
  const filter = params.get('filter');
  const sizes = DISCREPANCY_PAGE_SIZES as readonly number[];
  return {
    search: (params.get('q') ?? '').slice(0, 200),
    state: (DISCREPANCY_STATES as readonly string[]).includes(state) ? (state as DiscrepancyState) : '',
    sort: SORTS.includes(params.get('sort') ?? '') ? params.get('sort')! : '-created_at',
    page: int(params.get('page'), 1, 100_000) ?? 1,
    pageSize: sizes.includes(Number(params.get('page_size'))) ? Number(params.get('page_size')) : DISCREPANCY_PAGE_SIZE,
    request: int(params.get('request'), 1, 2_147_483_647),
    filter: filter === 'all' || filter === 'undecided' ? filter : filter === 'flagged' ? 'flagged' : 'flagged',
    rowSort: ROW_SORTS.includes(params.get('rsort') ?? '') ? params.get('rsort')! : 'day',
    rowPage: int(params.get('rpage'), 1, 100_000) ?? 1,
    rowPageSize: sizes.includes(Number(params.get('rpage_size'))) ? Number(params.get('rpage_size')) : DISCREPANCY_PAGE_SIZE,
  };
}

export function listQuery(v: DiscrepancyView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort };
  if (v.state) q.state = v.state;
  if (v.search) q.search = v.search;
  if (withPage) {
    q.page = v.page;
    q.page_size = v.pageSize;
  }
  return q;
}

export function rowsQuery(v: DiscrepancyView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { filter: v.filter, sort: v.rowSort };
  if (withPage) {
    q.page = v.rowPage;
    q.page_size = v.rowPageSize;
  }
  return q;
}

const KEY = ['api', 'discrepancy'] as const;
const active = (r: DiscrepancyRequestDto) => r.state === 'queued' || r.state === 'running';

export function useRequests(view: DiscrepancyView) {
  const query = listQuery(view);
  return useQuery<DiscrepancyListAnswer<DiscrepancyRequestDto>, FetchError>({
    queryKey: [...KEY, 'list', query],
    queryFn: ({ signal }) => api.request('discrepancy/requests', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.rows.some(active) ? 1500 : false),
  });
}

export function useRequest(id: number | null) {
  return useQuery<DiscrepancyRequestDto, FetchError>({
    queryKey: [...KEY, 'one', id],
    queryFn: ({ signal }) => api.request('discrepancy/requests/:id', { params: { id: id! }, signal }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && active(q.state.data) ? 1000 : false),
  });
}

export function useRows(id: number | null, view: DiscrepancyView, enabled: boolean) {
  const query = rowsQuery(view);
  return useQuery<DiscrepancyListAnswer<DiscrepancyRowDto>, FetchError>({
    queryKey: [...KEY, 'rows', id, query],
    queryFn: ({ signal }) => api.request('discrepancy/requests/:id/rows', { params: { id: id! }, query, signal }),
    enabled: id !== null && enabled,
    placeholderData: keepPreviousData,
  });
}

export function useSettings() {
  return useQuery<{ tolerance_pct: string; version: number }, FetchError>({
    queryKey: [...KEY, 'settings'],
    queryFn: ({ signal }) => api.request('discrepancy/settings', { signal }),
  });
}

export function useNetworks(search: string, ids: number[]) {
  return useQuery<DiscrepancyNetworkOption[], FetchError>({
    queryKey: [...KEY, 'networks', search, ids],
    queryFn: ({ signal }) => api.request('discrepancy/networks', { query: { search, ids: ids.join(','), limit: 20 }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}

/** A fresh idempotency key for one click (32 hex digits). */
export function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
