/**
 * The billing screens' side of the API contract (packages/core/src/billing-api.ts): paths, the
 * answers the contract does not type (a row's detail, the rates, the nettings), the view a list
 * screen keeps in its URL and the list query it asks the API for, and the idempotency keys of
 * the bulk actions.
 */
import type { BillingState, PaymentBadge } from '@backoffice/core/billing';
import {
  BILLING_DEFAULT_SORT,
  BILLING_PAGE_SIZE,
  BILLING_SORTS,
  isBillingMonth,
  monthOf,
  nextMonth,
  type BillingKind,
  type BillingNettingDto,
  type BillingRowDto,
  type BillingSide,
  type NettingCandidate,
} from '@backoffice/core/billing-api';

export const rowsPath = (side: BillingSide) => `billing/${side}/rows`;
export const rowPath = (side: BillingSide, id: number) => `billing/${side}/rows/${id}`;
export const actionsPath = (side: BillingSide) => `billing/${side}/actions`;
export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** A payment of a row (GET …/rows/{id}). */
export interface BillingPayment {
  id: number;
  amount: string;
  paid_on: string;
  document_id: string | null;
  reference: string;
  source: 'manual' | 'bank_csv';
  settles: boolean;
  created_at: string;
  created_by: string | null;
}

/** An audit entry of a row (GET …/rows/{id}). */
export interface BillingHistoryEntry {
  id: number;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
  actor: string | null;
  simulated_by: string | null;
}

export interface BillingRowDetail {
  row: BillingRowDto;
  payments: BillingPayment[];
  history: BillingHistoryEntry[];
}

export interface BillingRate {
  currency: string;
  rate: string;
  source: 'ecb' | 'manual';
  updated_at: string;
  updated_by: string | null;
}
export interface BillingRatesAnswer {
  month: string;
  rates: BillingRate[];
  /** The currencies other than EUR that the month's rows use. */
  needed: string[];
}

export interface NettingsAnswer {
  nettings: BillingNettingDto[];
  candidates: NettingCandidate[];
}

// ------------------------------------------------------------------------------------ the view

export const LIST_TABS = ['rows', 'netting', 'reconciliation'] as const;
export type ListTab = (typeof LIST_TABS)[number];

/** What a list screen shows: all of it lives in the URL so that a link reproduces the view. */
export interface BillingView {
  month: string;
  search: string;
  counterparty: number[];
  state: BillingState[];
  badge: PaymentBadge[];
  currency: string;
  product: string;
  sort: string;
  page: number;
  pageSize: number;
  tab: ListTab;
  /** The row open in the drawer. */
  row: number | null;
}

/** Last month (UTC), the month a finance team closes. */
export function lastMonth(now = Date.now()): string {
  return nextMonth(monthOf(now), -1);
}

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export function readView(p: URLSearchParams, tabs: readonly ListTab[]): BillingView {
  const month = p.get('month') ?? '';
  const sort = p.get('sort') ?? '';
  const page = Number(p.get('page'));
  const size = Number(p.get('size'));
  const tab = p.get('tab') ?? '';
  const row = Number(p.get('row'));
  return {
    month: isBillingMonth(month) ? month : lastMonth(),
    search: (p.get('q') ?? '').slice(0, 200),
    counterparty: list(p.get('counterparty'))
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0)
      .slice(0, 100),
    state: list(p.get('state')) as BillingState[],
    badge: list(p.get('badge')) as PaymentBadge[],
    currency: /^[A-Z]{3}$/.test(p.get('currency') ?? '') ? p.get('currency')! : '',
    product: (p.get('product') ?? '').slice(0, 20),
    sort: (BILLING_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : BILLING_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : BILLING_PAGE_SIZE,
    tab: (tabs as readonly string[]).includes(tab) ? (tab as ListTab) : 'rows',
    row: Number.isInteger(row) && row > 0 ? row : null,
  };
}

/** The URL parameters of a change to the view (null removes one). */
export function viewPatch(patch: Partial<BillingView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const set = (k: string, v: string | null) => (out[k] = v === '' ? null : v);
  if ('month' in patch) set('month', patch.month ?? null);
  if ('search' in patch) set('q', patch.search ?? null);
  if ('counterparty' in patch) set('counterparty', patch.counterparty?.join(',') ?? null);
  if ('state' in patch) set('state', patch.state?.join(',') ?? null);
  if ('badge' in patch) set('badge', patch.badge?.join(',') ?? null);
  if ('currency' in patch) set('currency', patch.currency ?? null);
  if ('product' in patch) set('product', patch.product ?? null);
  if ('sort' in patch) set('sort', patch.sort === BILLING_DEFAULT_SORT ? null : (patch.sort ?? null));
  if ('page' in patch) set('page', patch.page && patch.page > 1 ? String(patch.page) : null);
  if ('pageSize' in patch)
    set('size', patch.pageSize && patch.pageSize !== BILLING_PAGE_SIZE ? String(patch.pageSize) : null);
  if ('tab' in patch) set('tab', patch.tab && patch.tab !== 'rows' ? patch.tab : null);
  if ('row' in patch) set('row', patch.row ? String(patch.row) : null);
  return out;
}

/** The list query of a view (GET …/rows and its export). */
export function listQuery(kind: BillingKind, v: BillingView): Record<string, string | number> {
  const q: Record<string, string | number> = {
    kind,
    month: v.month,
    sort: v.sort,
    page: v.page,
    page_size: v.pageSize,
  };
  if (v.search) q.search = v.search;
  if (v.counterparty.length) q.counterparty = v.counterparty.join(',');
  if (v.state.length) q.state = v.state.join(',');
  if (v.badge.length) q.badge = v.badge.join(',');
  if (v.currency) q.currency = v.currency;
  if (v.product) q.product = v.product;
  return q;
}

export function isFiltered(v: BillingView): boolean {
  return Boolean(
    v.search || v.counterparty.length || v.state.length || v.badge.length || v.currency || v.product,
  );
}

/** The figure a row bills this month as typed in the drawer: the network's, or ours when empty. */
export function effectiveFigure(row: BillingRowDto, network: string | null): string {
  return network === null || network.trim() === '' ? row.revenue_ours : network.trim();
}
