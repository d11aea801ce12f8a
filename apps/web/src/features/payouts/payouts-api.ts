/**
 * The payout screens' side of the API contract (packages/core/src/payouts.ts): paths, the view a
 * screen keeps in its URL (month, filters, sort, page, open payout) and the list query it sends.
 */
import { isBillingMonth, monthOf, nextMonth } from '@backoffice/core/billing-api';
import {
  PAYOUT_DEFAULT_SORT,
  PAYOUT_PAGE_SIZE,
  PAYOUT_SORTS,
  PAYOUT_STATES,
  fromCents,
  toCents,
  type PayoutDto,
  type PayoutSide,
  type PayoutState,
} from '@backoffice/core/payouts';

export const listPath = (side: PayoutSide) => `payouts/${side}`;
export const payoutPath = (side: PayoutSide, id: number) => `payouts/${side}/${id}`;
export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** Which screen: the work queue of a month, or the month's approved and paid payouts. */
export type PayoutsMode = 'pending' | 'monthly';
export const DEFAULT_STATES: Record<PayoutsMode, readonly PayoutState[]> = {
  pending: ['pending', 'held', 'confirmed'],
  monthly: ['approved', 'paid'],
};

export interface PayoutHistoryEntry {
  at: string;
  action: string;
  actor: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
export interface PayoutDetail {
  payout: PayoutDto;
  history: PayoutHistoryEntry[];
}

export interface PayoutsView {
  month: string;
  search: string;
  state: PayoutState[];
  /** The minimum-revenue filter ('' for none). */
  minPayout: string;
  alerts: '' | 'true';
  currency: string;
  sort: string;
  page: number;
  pageSize: number;
  /** The payout open in the drawer. */
  payout: number | null;
}

/** Last month (UTC): the month being paid. */
export const lastMonth = (now = Date.now()) => nextMonth(monthOf(now), -1);

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** The view from the URL; an absent `states` is the mode's default, `states=all` none. */
export function readView(p: URLSearchParams, mode: PayoutsMode): PayoutsView {
  const month = p.get('month') ?? '';
  const sort = p.get('sort') ?? '';
  const page = Number(p.get('page'));
  const size = Number(p.get('size'));
  const states = p.get('states');
  const min = p.get('min') ?? '';
  const open = Number(p.get('payout'));
  return {
    month: isBillingMonth(month) ? month : lastMonth(),
    search: (p.get('q') ?? '').slice(0, 200),
    state:
      states === null
        ? [...DEFAULT_STATES[mode]]
        : (list(states).filter((s) => (PAYOUT_STATES as readonly string[]).includes(s)) as PayoutState[]),
    minPayout: /^\d{1,12}(\.\d{1,2})?$/.test(min) ? min : '',
    alerts: p.get('alerts') === 'true' ? 'true' : '',
    currency: /^[A-Z]{3}$/.test(p.get('currency') ?? '') ? p.get('currency')! : '',
    sort: (PAYOUT_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : PAYOUT_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : PAYOUT_PAGE_SIZE,
    payout: Number.isInteger(open) && open > 0 ? open : null,
  };
}

/** The URL patch of a view change. */
export function viewPatch(v: Partial<PayoutsView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (v.month !== undefined) out.month = v.month;
  if (v.search !== undefined) out.q = v.search || null;
  if (v.state !== undefined) out.states = v.state.length > 0 ? v.state.join(',') : 'all';
  if (v.minPayout !== undefined) out.min = v.minPayout || null;
  if (v.alerts !== undefined) out.alerts = v.alerts || null;
  if (v.currency !== undefined) out.currency = v.currency || null;
  if (v.sort !== undefined) out.sort = v.sort === PAYOUT_DEFAULT_SORT ? null : v.sort;
  if (v.page !== undefined) out.page = v.page > 1 ? String(v.page) : null;
  if (v.pageSize !== undefined) out.size = v.pageSize === PAYOUT_PAGE_SIZE ? null : String(v.pageSize);
  if (v.payout !== undefined) out.payout = v.payout ? String(v.payout) : null;
  return out;
}

/** The list query of a view. */
export function listQuery(v: PayoutsView): Record<string, string | number> {
  const q: Record<string, string | number> = { month: v.month, sort: v.sort, page: v.page, page_size: v.pageSize };
  if (v.search) q.search = v.search;
  if (v.state.length > 0) q.state = v.state.join(',');
  if (v.minPayout) q.min_payout = v.minPayout;
  if (v.alerts) q.alerts = v.alerts;
  if (v.currency) q.currency = v.currency;
  return q;
}

export function filterCount(v: PayoutsView, mode: PayoutsMode): number {
  const defaultStates = v.state.join() === DEFAULT_STATES[mode].join();
  return [v.search, !defaultStates, v.minPayout, v.alerts, v.currency].filter(Boolean).length;
}

/** A fresh key per click (a retry of the click sends it again). */

/** Sum of decimal texts, exact (core's cents). */
export const sumAmounts = (values: readonly string[]): string => fromCents(values.reduce((s, v) => s + toCents(v), 0n));
