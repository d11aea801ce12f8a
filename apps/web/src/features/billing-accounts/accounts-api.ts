/**
 * The billing accounts' data: the list's query in the URL (so a link reproduces the view), the
 * list, one account, its history and the save of its terms, through the app's fetch client.
 */
import {
  ACCOUNT_DEFAULT_SORT,
  ACCOUNT_PAGE_SIZE,
  ACCOUNT_PAGE_SIZES,
  BILLING_MODES,
  accountsExportName,
  parseAccountSort,
  type AccountHistoryEntry,
  type BillingAccountDetail,
  type BillingAccountsAnswer,
} from '@backoffice/core/billing-accounts';
import type { BillingSide } from '@backoffice/core/billing-api';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { PAYMENT_TERMS } from '@backoffice/core/resources/demand-partners';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiExportButtonProps } from '../../components/api-export-button.tsx';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';

/** What the list shows, as the URL says it (anything that does not parse falls back to its default). */
export interface AccountsView {
  search: string;
  billing_mode: string[];
  payment_terms: string[];
  currency: string[];
  missing: 'true' | 'false' | null;
  overdue: 'true' | 'false' | null;
  sort: string;
  page: number;
  page_size: number;
  /** The account open in the drawer. */
  account: number | null;
  tab: string | null;
}

const listOf = (text: string | null, allowed: readonly string[]) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s, i, all) => allowed.includes(s) && all.indexOf(s) === i);
const flagOf = (text: string | null) => (text === 'true' || text === 'false' ? text : null);

export function readView(params: URLSearchParams): AccountsView {
  const page = Number(params.get('page'));
  const size = Number(params.get('page_size'));
  const sort = params.get('sort') ?? ACCOUNT_DEFAULT_SORT;
  const account = Number(params.get('account'));
  return {
    search: (params.get('q') ?? '').slice(0, 200),
    billing_mode: listOf(params.get('mode'), BILLING_MODES),
    payment_terms: listOf(params.get('terms'), PAYMENT_TERMS),
    currency: listOf(params.get('currency'), CURRENCIES),
    missing: flagOf(params.get('missing')),
    overdue: flagOf(params.get('overdue')),
    sort: parseAccountSort(sort).field === sort.replace(/^-/, '') ? sort : ACCOUNT_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    page_size: (ACCOUNT_PAGE_SIZES as readonly number[]).includes(size) ? size : ACCOUNT_PAGE_SIZE,
    account: Number.isInteger(account) && account >= 1 && account <= 2_147_483_647 ? account : null,
    tab: params.get('tab'),
  };
}

/** The URL parameters of a change to the view (null removes one); a filter change goes back to page 1. */
export type ViewPatch = Partial<Record<'q' | 'mode' | 'terms' | 'currency' | 'missing' | 'overdue' | 'sort' | 'page' | 'page_size' | 'account' | 'tab', string | null>>;

/** The API's query of a view. */
export function apiQuery(v: AccountsView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort };
  if (v.search) q.search = v.search;
  if (v.billing_mode.length > 0) q.billing_mode = v.billing_mode.join(',');
  if (v.payment_terms.length > 0) q.payment_terms = v.payment_terms.join(',');
  if (v.currency.length > 0) q.currency = v.currency.join(',');
  if (v.missing) q.missing = v.missing;
  if (v.overdue) q.overdue = v.overdue;
  if (withPage) {
    q.page = v.page;
    q.page_size = v.page_size;
  }
  return q;
}

/** How many filters the view applies (the phone's filter button says it). */
export function filterCount(v: AccountsView): number {
  return [v.search !== '', v.billing_mode.length > 0, v.payment_terms.length > 0, v.currency.length > 0, v.missing !== null, v.overdue !== null].filter(Boolean).length;
}

const base = (side: BillingSide) => `billing/${side}/accounts`;
const key = (side: BillingSide, ...rest: unknown[]) => ['api', 'billing-accounts', side, ...rest] as const;

export function useAccounts(side: BillingSide, view: AccountsView) {
  const query = apiQuery(view);
  return useQuery<BillingAccountsAnswer, FetchError>({
    queryKey: key(side, 'list', query),
    queryFn: ({ signal }) => api.request<BillingAccountsAnswer>(base(side), { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAccount(side: BillingSide, id: number | null) {
  return useQuery<BillingAccountDetail, FetchError>({
    queryKey: key(side, 'one', id),
    queryFn: ({ signal }) => api.request<BillingAccountDetail>(`${base(side)}/:id`, { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useAccountHistory(side: BillingSide, id: number, enabled: boolean) {
  return useQuery<AccountHistoryEntry[], FetchError>({
    queryKey: key(side, 'history', id),
    queryFn: ({ signal }) => api.request<AccountHistoryEntry[]>(`${base(side)}/:id/history`, { params: { id }, signal }),
    enabled,
  });
}

/** Saves an account's terms (with its version); the account, the list and the history are read again. */
export function useSaveTerms(side: BillingSide) {
  const client = useQueryClient();
  return useMutation<BillingAccountDetail, FetchError, { id: number; body: Record<string, unknown> }>({
    mutationFn: ({ id, body }) => api.request<BillingAccountDetail>(`${base(side)}/:id`, { method: 'PUT', params: { id }, body }),
    onSuccess: (saved) => {
      client.setQueryData(key(side, 'one', saved.id), saved);
      void client.invalidateQueries({ queryKey: key(side, 'list') });
      void client.invalidateQueries({ queryKey: key(side, 'history', saved.id) });
    },
  });
}

/** Downloads the filtered list (the server writes the file); answers its name. */
/** What the list's export button downloads: the accounts as filtered (components/api-export-button). */
export function accountsExport(side: BillingSide, view: AccountsView): ApiExportButtonProps {
  return { path: `/v1/${base(side)}/export`, query: apiQuery(view, false), name: accountsExportName(side) };
}
