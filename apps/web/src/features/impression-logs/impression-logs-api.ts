/**
 * The impression-log screen's side of the API contract (packages/core/src/impression-logs.ts): the
 * view it keeps in the URL (search, statuses, network, sort, page), the list query, the form's
 * options, and the download (a signed link the browser follows, so a big file streams to disk).
 */
import {
  IMPRESSION_LOG_DEFAULT_SORT,
  IMPRESSION_LOG_PAGE_SIZE,
  IMPRESSION_LOG_PAGE_SIZES,
  IMPRESSION_LOG_SORTS,
  IMPRESSION_LOG_STATUSES,
  type ImpressionLogLink,
  type ImpressionLogStatus,
} from '@backoffice/core/impression-logs';
import { api, REST_BASE } from '../../lib/api.ts';

export const LIST_PATH = 'impressions-log';

export interface ImpressionLogsView {
  search: string;
  status: ImpressionLogStatus[];
  network: string;
  sort: string;
  page: number;
  pageSize: number;
}

export interface ImpressionLogOptions {
  networks: { id: number; name: string; status: string }[];
  publishers: { id: number; name: string }[];
}

const list = (v: string | null) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

export function readView(p: URLSearchParams): ImpressionLogsView {
  const sort = p.get('sort') ?? '';
  const page = Number(p.get('page'));
  const size = Number(p.get('size'));
  const network = p.get('network') ?? '';
  return {
    search: (p.get('q') ?? '').slice(0, 200),
    status: list(p.get('status')).filter((s) => (IMPRESSION_LOG_STATUSES as readonly string[]).includes(s)) as ImpressionLogStatus[],
    network: /^\d{1,9}$/.test(network) ? network : '',
    sort: (IMPRESSION_LOG_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : IMPRESSION_LOG_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: (IMPRESSION_LOG_PAGE_SIZES as readonly number[]).includes(size) ? size : IMPRESSION_LOG_PAGE_SIZE,
  };
}

export function viewPatch(v: Partial<ImpressionLogsView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (v.search !== undefined) out.q = v.search || null;
  if (v.status !== undefined) out.status = v.status.length > 0 ? v.status.join(',') : null;
  if (v.network !== undefined) out.network = v.network || null;
  if (v.sort !== undefined) out.sort = v.sort === IMPRESSION_LOG_DEFAULT_SORT ? null : v.sort;
  if (v.page !== undefined) out.page = v.page > 1 ? String(v.page) : null;
  if (v.pageSize !== undefined) out.size = v.pageSize === IMPRESSION_LOG_PAGE_SIZE ? null : String(v.pageSize);
  return out;
}

export function listQuery(v: ImpressionLogsView): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort, page: v.page, page_size: v.pageSize };
  if (v.search) q.search = v.search;
  if (v.status.length > 0) q.status = v.status.join(',');
  if (v.network) q.network_id = v.network;
  return q;
}

export const filterCount = (v: ImpressionLogsView) => [v.search, v.status.length > 0, v.network].filter(Boolean).length;

/** A fresh key per click of "Request" (a retried request sends it again). */

/** Asks for a download link and lets the browser follow it (the file streams to disk). */
export async function downloadExtract(id: number): Promise<void> {
  const link = await api.request<ImpressionLogLink>(`impressions-log/${id}/link`, { method: 'POST', body: {} });
  const a = document.createElement('a');
  a.href = `${REST_BASE}${link.url}`;
  a.download = link.file_name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Bytes as KB / MB with one decimal. */
export function formatBytes(bytes: number | null, locale: string): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: u === 0 ? 0 : 1 }).format(v)} ${units[u]}`;
}
