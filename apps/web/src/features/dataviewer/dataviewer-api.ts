/**
 * The DataViewer's calls: the catalogue, paged results (500 rows a page, more as the table
 * scrolls), the chart's rows, saved DataViewers (their list through the resource layer's hooks:
 * `savedDataviewers` in core), filter value look-ups, and the streamed export (fetched with the
 * Authorization header and saved as a blob under the server's file name).
 */
import type { SelectOption } from '@backoffice/core/inputs';
import { fromReportAnswer } from '@backoffice/core/reports';
import type { DimensionDef, FilterDimension, MetricDef, ReportAnswer, ReportResult, SavedDataviewerView } from '@backoffice/core/reports';
import type { Page } from '@backoffice/core/resources/define';
import { MAX_PAGE_SIZE, type ListQuery } from '@backoffice/core/resources/list-query';
import { savedDataviewers } from '@backoffice/core/resources/saved-dataviewers';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, handleSessionError, REST_BASE } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { FetchError, interpretAnswer, resolveUrl } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useSession } from '../../lib/session-store.ts';
import { resourceKey, useResourceList } from '../../resources/resource-api.ts';
import { CHART_MAX_ROWS, PAGE_SIZE, queryBody, type ReportDefinitionBody, type SavedDefinitionBody } from './dataviewer-model.ts';

export interface Catalog {
  dimensions: DimensionDef[];
  metrics: MetricDef[];
  currency: string;
  data: { start: string; end: string } | null;
}

export type SavedDataviewer = SavedDataviewerView<SavedDefinitionBody>;

export interface Role {
  id: number;
  name: string;
}

const QUERY_PATH = '/reports/dataviewer/query';
const SAVED_PATH = '/reports/dataviewers';

export function useCatalog() {
  return useApiQuery<Catalog>('/reports/catalog', {}, { staleTime: 5 * 60_000 });
}

/** The result table's rows, page by page; `def` null means nothing has been run yet. */
export function useReportPages(def: ReportDefinitionBody | null) {
  return useInfiniteQuery<ReportResult, FetchError>({
    queryKey: ['dataviewer', 'pages', def],
    enabled: def !== null,
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) =>
      fromReportAnswer(
        await api.request<ReportAnswer>(QUERY_PATH, { method: 'POST', body: queryBody(def!, PAGE_SIZE, pageParam as number), signal }),
      ),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
      return loaded < last.total_rows && last.rows.length > 0 ? loaded : undefined;
    },
    staleTime: 60_000,
  });
}

/** The chart's rows: at most two dimensions and one metric, read in one request. */
export function useChartRows(def: ReportDefinitionBody | null) {
  return useQuery<ReportResult, FetchError>({
    queryKey: ['dataviewer', 'chart', def],
    enabled: def !== null,
    queryFn: async ({ signal }) =>
      fromReportAnswer(await api.request<ReportAnswer>(QUERY_PATH, { method: 'POST', body: queryBody(def!, CHART_MAX_ROWS, 0), signal })),
    staleTime: 60_000,
  });
}

/** A saved DataViewer in the list: everything but its definition. */
export type SavedListItem = Omit<SavedDataviewer, 'definition'>;

/**
 * The saved DataViewers I may open (the resource layer's list: mine and those shared with one of
 * my roles), by name, as many as a page holds (200); `nameContains` filters on the server.
 */
export function useSavedList(nameContains = '') {
  const query: ListQuery = {
    page: 1,
    page_size: MAX_PAGE_SIZE,
    sort: [{ field: 'name', desc: false }],
    filters: nameContains ? [{ field: 'name', kind: 'contains', value: nameContains }] : [],
  };
  const list = useResourceList(savedDataviewers, query);
  // The layer types rows loosely; these carry the DataViewer's own fields (SavedDataviewerView).
  const page = list.data as Page<SavedListItem> | undefined;
  return { page, isPending: list.isPending, isError: list.isError, error: list.error };
}

export function useSaved(id: number | null) {
  return useApiQuery<SavedDataviewer>(id === null ? null : `${SAVED_PATH}/:id`, { params: { id: id ?? 0 } }, { staleTime: 0 });
}

/** Every role a DataViewer can be shared with (GET /v1/reports/roles, for anyone with reports). */
export function useAllRoles(enabled: boolean) {
  return useApiQuery<Role[]>(enabled ? '/reports/roles' : null, {}, { staleTime: 5 * 60_000 });
}

/** Create, change and delete saved DataViewers; the list and the opened one are refreshed after each. */
export function useSavedActions() {
  const client = useQueryClient();
  const refresh = async (id?: number) => {
    await client.invalidateQueries({ queryKey: resourceKey(savedDataviewers) });
    if (id !== undefined) await client.invalidateQueries({ queryKey: ['api', `${SAVED_PATH}/:id`, { id }] });
  };
  return {
    create: async (body: { name: string; definition: SavedDefinitionBody; shared_role_ids?: number[] }) => {
      const saved = await api.request<SavedDataviewer>(SAVED_PATH, { method: 'POST', body });
      client.setQueryData(['api', `${SAVED_PATH}/:id`, { id: saved.id }, null], saved);
      await refresh();
      return saved;
    },
    update: async (id: number, body: { name?: string; definition?: SavedDefinitionBody; shared_role_ids?: number[] }) => {
      const saved = await api.request<SavedDataviewer>(`${SAVED_PATH}/:id`, { method: 'PATCH', params: { id }, body });
      client.setQueryData(['api', `${SAVED_PATH}/:id`, { id }, null], saved);
      await refresh();
      return saved;
    },
    remove: async (id: number) => {
      await api.request<{ id: number; deleted: boolean }>(`${SAVED_PATH}/:id`, { method: 'DELETE', params: { id } });
      client.removeQueries({ queryKey: ['api', `${SAVED_PATH}/:id`, { id }] });
      await refresh();
    },
  };
}

/** Autocomplete fetcher for filter values (`?search=&limit=`). */
export function fetchDimensionValues(url: string, query: Record<string, string>, signal: AbortSignal): Promise<readonly SelectOption[]> {
  return api.request<SelectOption[]>(url, { query, signal });
}

export const dimensionValuesUrl = (dimension: FilterDimension) => `/reports/dimensions/${dimension}/values`;

/** Names of entity ids (`?ids=`), to show the values of saved or linked filters. */
export function resolveDimensionIds(dimension: FilterDimension, ids: readonly number[], signal?: AbortSignal): Promise<SelectOption[]> {
  return api.request<SelectOption[]>(dimensionValuesUrl(dimension), { query: { ids: ids.join(','), limit: 100 }, signal });
}

// ---------------------------------------------------------------------------------------------
// Export

export interface ExportProgress {
  /** Bytes received so far. */
  received: number;
}

/** `attachment; filename="a.csv"; filename*=UTF-8''a.csv` -> `a.csv`. */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

/**
 * Streams the whole result from the server and saves it. Errors come back as FetchError (a 422
 * `report.export_empty` when there are no rows). Resolves with the saved file's name.
 */
export async function downloadExport(
  def: ReportDefinitionBody,
  format: 'csv' | 'xlsx',
  onProgress: (p: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<string> {
  const { user, locale } = useSession.getState();
  const url = `${resolveUrl('/reports/dataviewer/export', REST_BASE)}?format=${format}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: '*/*',
        'Cache-Control': 'no-cache',
        ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}),
        'Accept-Language': locale,
      },
      body: JSON.stringify(def),
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new FetchError('Connection refused', { httpStatus: 0, key: 'common.connection_refused' });
  }
  if (!response.ok) {
    const text = await response.text();
    let parsed: { json: boolean; value: unknown } = { json: false, value: text };
    try {
      parsed = { json: true, value: JSON.parse(text) as unknown };
    } catch {
      // not JSON: interpretAnswer makes 'Error {status}: {statusText}'
    }
    try {
      interpretAnswer(parsed, response);
    } catch (error) {
      if (error instanceof FetchError) handleSessionError(error);
      throw error;
    }
    throw new FetchError(`Error ${response.status}: ${response.statusText}`, { httpStatus: response.status });
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress({ received });
    }
  } else {
    const buffer = new Uint8Array(await response.arrayBuffer());
    chunks.push(buffer);
    onProgress({ received: buffer.byteLength });
  }
  const fileName = fileNameFromDisposition(response.headers.get('content-disposition'), `dataviewer.${format}`);
  const blob = new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' });
  saveBlob(blob, fileName);
  return fileName;
}
