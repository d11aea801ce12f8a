/**
 * The web side of the resource layer's protocol: list, one row, create, update (with version),
 * delete, history, used-by and export, for any `ResourceDef`. Hooks of their own (no component),
 * so a screen with its own shape keeps the data logic and drops the generic components.
 */
import { downloadApiFile } from '../lib/api-file.ts';
import type { HistoryEntry, Page, ResourceDef, UsedBy } from '@backoffice/core/resources/define';
import { listQueryParams, parseListQuery, type ListQuery } from '@backoffice/core/resources/list-query';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import type { FetchError } from '../lib/fetch-client.ts';
import { isTokenExpired, useSession } from '../lib/session-store.ts';
import { withFixed } from './use-list-query.ts';

export type ResourceRow = Record<string, unknown> & { id: number; version: number };

/** The API path relative to the fetch client's base (`/v1/companies` -> `companies`). */
const rel = (def: ResourceDef, suffix = '') => `${def.path.replace(/^\/v1\//, '')}${suffix}`;

export const resourceKey = (def: ResourceDef, ...rest: unknown[]) => ['api', 'resource', def.name, ...rest] as const;

export function useResourceList(def: ResourceDef, query: ListQuery) {
  const params = listQueryParams(query, def);
  return useQuery<Page<ResourceRow>, FetchError>({
    queryKey: resourceKey(def, 'list', params),
    queryFn: ({ signal }) => api.request<Page<ResourceRow>>(rel(def), { query: params, signal }),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/**
 * Asks for a list's page as the navigation to it starts (the route's loader), while the screen's
 * code is evaluated and first rendered, under the key `useResourceList` reads, so the mounted list
 * takes the answer instead of asking then (bench/README.md: the request left 450-700 ms after the
 * click). Nothing without a live session; a URL whose query does not parse is left to the screen.
 */
export function listPrefetcher(def: ResourceDef, fixed?: Record<string, string>): ListPrefetcher {
  return (client, url) => prefetchResourceList(client, def, url, fixed);
}

export type ListPrefetcher = (client: QueryClient, url: URL) => void;

export function prefetchResourceList(client: QueryClient, def: ResourceDef, url: URL, fixed?: Record<string, string>): void {
  const { user } = useSession.getState();
  if (!user || isTokenExpired(user)) return;
  const parsed = parseListQuery(def, Object.fromEntries(url.searchParams.entries()));
  if (!parsed.ok) return;
  const params = listQueryParams(withFixed(def, parsed.value, fixed), def);
  void client.prefetchQuery({
    queryKey: resourceKey(def, 'list', params),
    queryFn: ({ signal }) => api.request<Page<ResourceRow>>(rel(def), { query: params, signal }),
  });
}

export function useResourceRow(def: ResourceDef, id: number | null) {
  return useQuery<ResourceRow, FetchError>({
    queryKey: resourceKey(def, 'row', id),
    queryFn: ({ signal }) => api.request<ResourceRow>(rel(def, '/:id'), { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useResourceHistory(def: ResourceDef, id: number | null, enabled = true) {
  return useQuery<HistoryEntry[], FetchError>({
    queryKey: resourceKey(def, 'history', id),
    queryFn: ({ signal }) => api.request<HistoryEntry[]>(rel(def, '/:id/history'), { params: { id: id! }, signal }),
    enabled: id !== null && enabled,
  });
}

export function useResourceUsedBy(def: ResourceDef, id: number | null, enabled = true) {
  return useQuery<UsedBy[], FetchError>({
    queryKey: resourceKey(def, 'used-by', id),
    queryFn: ({ signal }) => api.request<UsedBy[]>(rel(def, '/:id/used-by'), { params: { id: id! }, signal }),
    enabled: id !== null && enabled,
  });
}

/** Create, update and delete; each refreshes the resource's cached lists and rows. */
export function useResourceMutations(def: ResourceDef) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: resourceKey(def) });
  return {
    create: useMutation<ResourceRow, FetchError, Record<string, unknown>>({
      mutationFn: (body) => api.request<ResourceRow>(rel(def), { method: 'POST', body }),
      onSuccess: refresh,
    }),
    update: useMutation<ResourceRow, FetchError, { id: number; body: Record<string, unknown> }>({
      mutationFn: ({ id, body }) => api.request<ResourceRow>(rel(def, '/:id'), { method: 'PUT', params: { id }, body }),
      onSuccess: refresh,
    }),
    remove: useMutation<null, FetchError, number>({
      mutationFn: (id) => api.request<null>(rel(def, '/:id'), { method: 'DELETE', params: { id } }),
      onSuccess: refresh,
    }),
  };
}

/** Downloads the filtered list as CSV or XLSX (the server streams it); answers the file name. */
export async function downloadResourceExport(def: ResourceDef, query: ListQuery, format: 'csv' | 'xlsx'): Promise<string> {
  return downloadApiFile(`${def.path}/export`, { ...listQueryParams({ ...query, page: 1 }, def), format }, `${def.exportName}.${format}`);
}
