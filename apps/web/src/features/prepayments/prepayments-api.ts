/**
 * The prepayments' data: the list's view in the URL (so a link reproduces it), the list, one
 * advertiser, its ledger page and history, and the changes (entries, reversals, threshold, spend
 * posting), each click with its own idempotency key.
 */
import {
  LEDGER_PAGE_SIZE,
  PREPAYMENTS_EXPORT_NAME,
  PREPAYMENT_DEFAULT_SORT,
  PREPAYMENT_PAGE_SIZE,
  PREPAYMENT_PAGE_SIZES,
  ENTRY_KINDS,
  ledgerExportName,
  parsePrepaymentSort,
  type EntryKind,
  type LedgerAnswer,
  type LedgerEntry,
  type PostSpendResult,
  type PrepaymentAccount,
  type PrepaymentsAnswer,
} from '@backoffice/core/prepayments';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiExportButtonProps } from '../../components/api-export-button.tsx';
import { api } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import type { FetchError } from '../../lib/fetch-client.ts';

export interface PrepaymentsView {
  search: string;
  under: 'true' | 'false' | null;
  sort: string;
  page: number;
  pageSize: number;
  /** The advertiser open in the drawer, its ledger's page and kind filter. */
  advertiser: number | null;
  ledger_page: number;
  kind: EntryKind | null;
  tab: string | null;
}

export function readView(params: URLSearchParams): PrepaymentsView {
  const page = Number(params.get('page'));
  const size = Number(params.get('page_size'));
  const sort = params.get('sort') ?? PREPAYMENT_DEFAULT_SORT;
  const advertiser = Number(params.get('advertiser'));
  const ledgerPage = Number(params.get('lpage'));
  const under = params.get('under');
  const kind = params.get('kind');
  return {
    search: (params.get('q') ?? '').slice(0, 200),
    under: under === 'true' || under === 'false' ? under : null,
    sort: parsePrepaymentSort(sort).field === sort.replace(/^-/, '') ? sort : PREPAYMENT_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: (PREPAYMENT_PAGE_SIZES as readonly number[]).includes(size) ? size : PREPAYMENT_PAGE_SIZE,
    advertiser: Number.isInteger(advertiser) && advertiser >= 1 && advertiser <= 2_147_483_647 ? advertiser : null,
    ledger_page: Number.isInteger(ledgerPage) && ledgerPage >= 1 && ledgerPage <= 100_000 ? ledgerPage : 1,
    kind: (ENTRY_KINDS as readonly string[]).includes(kind ?? '') ? (kind as EntryKind) : null,
    tab: params.get('tab'),
  };
}

export type ViewPatch = Partial<Record<'q' | 'under' | 'sort' | 'page' | 'page_size' | 'advertiser' | 'lpage' | 'kind' | 'tab', string | null>>;

export function apiQuery(v: PrepaymentsView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort };
  if (v.search) q.search = v.search;
  if (v.under) q.under = v.under;
  if (withPage) {
    q.page = v.page;
    q.page_size = v.pageSize;
  }
  return q;
}

const KEY = ['api', 'prepayments'] as const;

export function usePrepayments(view: PrepaymentsView) {
  const query = apiQuery(view);
  return useQuery<PrepaymentsAnswer, FetchError>({
    queryKey: [...KEY, 'list', query],
    queryFn: ({ signal }) => api.request<PrepaymentsAnswer>('prepayments', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAccount(id: number | null) {
  return useQuery<PrepaymentAccount, FetchError>({
    queryKey: [...KEY, 'one', id],
    queryFn: ({ signal }) => api.request<PrepaymentAccount>('prepayments/:id', { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useLedger(id: number | null, page: number, kind: EntryKind | null) {
  const query: Record<string, string | number> = { page, page_size: LEDGER_PAGE_SIZE };
  if (kind) query.kind = kind;
  return useQuery<LedgerAnswer, FetchError>({
    queryKey: [...KEY, 'ledger', id, query],
    queryFn: ({ signal }) => api.request<LedgerAnswer>('prepayments/:id/entries', { params: { id: id! }, query, signal }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

export interface HistoryItem {
  id: number;
  at: string;
  action: string;
  actor: { id: number | null; name: string | null };
  ip: string | null;
  changes: Record<string, [unknown, unknown]>;
}

export function useHistory(id: number, enabled: boolean) {
  return useQuery<HistoryItem[], FetchError>({
    queryKey: [...KEY, 'history', id],
    queryFn: ({ signal }) => api.request<HistoryItem[]>('prepayments/:id/history', { params: { id }, signal }),
    enabled,
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}

export interface EntryOutcome {
  entry: LedgerEntry;
  account: PrepaymentAccount;
  already: boolean;
}

/** Adds an entry; the key is made once per form submission by the caller (a retry of it reuses it). */
export function useAddEntry(id: number) {
  const invalidate = useInvalidate();
  return useMutation<EntryOutcome, FetchError, Record<string, unknown>>({
    mutationFn: (body) => api.request<EntryOutcome>('prepayments/:id/entries', { method: 'POST', params: { id }, body }),
    onSuccess: () => void invalidate(),
  });
}

export function useReverse(id: number) {
  const invalidate = useInvalidate();
  return useMutation<EntryOutcome, FetchError, { entry: number; reason: string; idempotency_key: string }>({
    mutationFn: ({ entry, ...body }) => api.request<EntryOutcome>('prepayments/:id/entries/:entry/reverse', { method: 'POST', params: { id, entry }, body }),
    onSuccess: () => void invalidate(),
  });
}

export function useSaveThreshold(id: number) {
  const invalidate = useInvalidate();
  return useMutation<PrepaymentAccount, FetchError, { threshold: string; version: number }>({
    mutationFn: (body) => api.request<PrepaymentAccount>('prepayments/:id/threshold', { method: 'PUT', params: { id }, body }),
    onSettled: () => void invalidate(),
  });
}

export function usePostSpend() {
  const invalidate = useInvalidate();
  return useMutation<PostSpendResult, FetchError, { through: string }>({
    mutationFn: (body) => api.request<PostSpendResult>('prepayments/post-spend', { method: 'POST', body }),
    onSuccess: () => void invalidate(),
  });
}

/** What the list's export button downloads: the list as filtered (components/api-export-button). */
export function prepaymentsExport(view: PrepaymentsView): ApiExportButtonProps {
  return { path: '/v1/prepayments/export', query: apiQuery(view, false), name: PREPAYMENTS_EXPORT_NAME };
}

export function exportLedger(id: number, kind: EntryKind | null, format: 'csv' | 'xlsx'): Promise<string> {
  return downloadApiFile(`/v1/prepayments/${id}/entries/export`, { ...(kind ? { kind } : {}), format }, `${ledgerExportName(id)}.${format}`);
}
