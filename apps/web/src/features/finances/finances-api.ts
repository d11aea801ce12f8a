/**
 * The finance entries' data: the list's view in the URL (so a link reproduces it), the list, one
 * entry and its history, the counterparty and network choices, create, edit and resend.
 */
import {
  ALL_FINANCE_ITEMS,
  EMAIL_STATUSES,
  FINANCE_DEFAULT_SORT,
  FINANCE_PAGE_SIZE,
  FINANCE_PAGE_SIZES,
  financesExportName,
  parseFinanceSort,
  type EmailStatus,
  type FinanceEntriesAnswer,
  type FinanceEntry,
  type FinanceHistoryEntry,
  type FinanceOption,
  type FinanceTeam,
} from '@backoffice/core/finances';
import { isIsoDate } from '@backoffice/core/dates';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiExportButtonProps } from '../../components/api-export-button.tsx';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';

export interface FinancesView {
  from: string | null;
  to: string | null;
  counterparty: number[];
  network: number[];
  item: string[];
  email: EmailStatus | null;
  sort: string;
  page: number;
  pageSize: number;
  /** The entry open in the drawer ('new' for the create form). */
  entry: number | 'new' | null;
  tab: string | null;
}

const ids = (text: string | null) =>
  (text ?? '')
    .split(',')
    .map(Number)
    .filter((n, i, all) => Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 && all.indexOf(n) === i)
    .slice(0, 20);

export function readView(params: URLSearchParams): FinancesView {
  const page = Number(params.get('page'));
  const size = Number(params.get('page_size'));
  const sort = params.get('sort') ?? FINANCE_DEFAULT_SORT;
  const entryText = params.get('entry');
  const entry = entryText === 'new' ? 'new' : Number(entryText);
  const from = params.get('from');
  const to = params.get('to');
  const email = params.get('email');
  return {
    from: from && isIsoDate(from) ? from : null,
    to: to && isIsoDate(to) ? to : null,
    counterparty: ids(params.get('counterparty')),
    network: ids(params.get('network')),
    item: (params.get('item') ?? '').split(',').filter((s, i, all) => (ALL_FINANCE_ITEMS as readonly string[]).includes(s) && all.indexOf(s) === i),
    email: (EMAIL_STATUSES as readonly string[]).includes(email ?? '') ? (email as EmailStatus) : null,
    sort: parseFinanceSort(sort).field === sort.replace(/^-/, '') ? sort : FINANCE_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: (FINANCE_PAGE_SIZES as readonly number[]).includes(size) ? size : FINANCE_PAGE_SIZE,
    entry: entry === 'new' ? 'new' : Number.isInteger(entry) && entry >= 1 && entry <= 2_147_483_647 ? entry : null,
    tab: params.get('tab'),
  };
}

export type ViewPatch = Partial<Record<'from' | 'to' | 'counterparty' | 'network' | 'item' | 'email' | 'sort' | 'page' | 'page_size' | 'entry' | 'tab', string | null>>;

export function apiQuery(v: FinancesView, withPage = true): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort };
  if (v.from) q.from = v.from;
  if (v.to) q.to = v.to;
  if (v.counterparty.length > 0) q.counterparty_id = v.counterparty.join(',');
  if (v.network.length > 0) q.network_id = v.network.join(',');
  if (v.item.length > 0) q.item = v.item.join(',');
  if (v.email) q.email_status = v.email;
  if (withPage) {
    q.page = v.page;
    q.page_size = v.pageSize;
  }
  return q;
}

export function filterCount(v: FinancesView): number {
  return [v.from !== null || v.to !== null, v.counterparty.length > 0, v.network.length > 0, v.item.length > 0, v.email !== null].filter(Boolean).length;
}

const key = (team: FinanceTeam, ...rest: unknown[]) => ['api', 'finances', team, ...rest] as const;
const base = (team: FinanceTeam) => `finances/${team}/entries`;

export function useEntries(team: FinanceTeam, view: FinancesView) {
  const query = apiQuery(view);
  return useQuery<FinanceEntriesAnswer, FetchError>({
    queryKey: key(team, 'list', query),
    queryFn: ({ signal }) => api.request<FinanceEntriesAnswer>(base(team), { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useEntry(team: FinanceTeam, id: number | null) {
  return useQuery<FinanceEntry, FetchError>({
    queryKey: key(team, 'one', id),
    queryFn: ({ signal }) => api.request<FinanceEntry>(`${base(team)}/:id`, { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useEntryHistory(team: FinanceTeam, id: number, enabled: boolean) {
  return useQuery<FinanceHistoryEntry[], FetchError>({
    queryKey: key(team, 'history', id),
    queryFn: ({ signal }) => api.request<FinanceHistoryEntry[]>(`${base(team)}/:id/history`, { params: { id }, signal }),
    enabled,
  });
}

/** Counterparties or networks by name (search), or named by id (the selected ones). */
export function useOptions(team: FinanceTeam, kind: 'counterparty' | 'network', search: string, selected: readonly number[] = []) {
  const query: Record<string, string | number> = { kind, limit: 20 };
  if (search) query.search = search;
  const found = useQuery<FinanceOption[], FetchError>({
    queryKey: key(team, 'options', query),
    queryFn: ({ signal }) => api.request<FinanceOption[]>(`finances/${team}/options`, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const named = useQuery<FinanceOption[], FetchError>({
    queryKey: key(team, 'options', kind, 'ids', selected.join(',')),
    queryFn: ({ signal }) => api.request<FinanceOption[]>(`finances/${team}/options`, { query: { kind, ids: selected.join(','), limit: 50 }, signal }),
    enabled: selected.length > 0,
    staleTime: 60_000,
  });
  const all = new Map<number, FinanceOption>();
  for (const o of [...(named.data ?? []), ...(found.data ?? [])]) all.set(o.id, o);
  return { options: [...all.values()], loading: found.isFetching };
}

function useInvalidate(team: FinanceTeam) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: key(team) });
}

export function useCreateEntry(team: FinanceTeam) {
  const invalidate = useInvalidate(team);
  return useMutation<FinanceEntry, FetchError, Record<string, unknown>>({
    mutationFn: (body) => api.request<FinanceEntry>(base(team), { method: 'POST', body }),
    onSuccess: () => void invalidate(),
  });
}

export function useUpdateEntry(team: FinanceTeam, id: number) {
  const invalidate = useInvalidate(team);
  return useMutation<FinanceEntry, FetchError, Record<string, unknown>>({
    mutationFn: (body) => api.request<FinanceEntry>(`${base(team)}/:id`, { method: 'PUT', params: { id }, body }),
    onSettled: () => void invalidate(),
  });
}

export function useResend(team: FinanceTeam, id: number) {
  const invalidate = useInvalidate(team);
  return useMutation<FinanceEntry, FetchError, void>({
    mutationFn: () => api.request<FinanceEntry>(`${base(team)}/:id/resend`, { method: 'POST', params: { id } }),
    onSettled: () => void invalidate(),
  });
}

/** What the list's export button downloads: the entries as filtered (components/api-export-button). */
export function entriesExport(team: FinanceTeam, view: FinancesView): ApiExportButtonProps {
  return { path: `/v1/${base(team)}/export`, query: apiQuery(view, false), name: financesExportName(team) };
}
