/**
 * The SSP logs screens' side of the contract (packages/core/src/ssp-logs.ts): the view the tools
 * screen keeps in its URL (filters, window, sort, page, the open log) and the list query it sends.
 */
import {
  SSP_LOG_DEFAULT_SORT,
  SSP_LOG_OUTCOMES,
  SSP_LOG_PAGE_SIZE,
  SSP_LOG_PAGE_SIZES,
  SSP_LOG_SORTS,
  isInstant,
  type SspLogOutcome,
} from '@backoffice/core/ssp-logs';

export const LOGS_PATH = 'ssp-logs';
export const PARAM_PATH = 'ssp-logs/parametrization';

export interface LogsView {
  requestId: string;
  publisher: string;
  partner: string;
  outcome: SspLogOutcome | '';
  from: string;
  to: string;
  sort: string;
  page: number;
  pageSize: number;
  /** The log open in the viewer. */
  log: number | null;
}

const idText = (v: string | null) => (v && /^[1-9]\d{0,9}$/.test(v) ? v : '');

export function readView(p: URLSearchParams): LogsView {
  const sort = p.get('sort') ?? '';
  const page = Number(p.get('page'));
  const size = Number(p.get('size'));
  const outcome = p.get('outcome') ?? '';
  const log = Number(p.get('log'));
  return {
    requestId: (p.get('request') ?? '').trim().slice(0, 100),
    publisher: idText(p.get('publisher')),
    partner: idText(p.get('partner')),
    outcome: (SSP_LOG_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as SspLogOutcome) : '',
    from: isInstant(p.get('from')) ? p.get('from')! : '',
    to: isInstant(p.get('to')) ? p.get('to')! : '',
    sort: (SSP_LOG_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : SSP_LOG_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (SSP_LOG_PAGE_SIZES as readonly number[]).includes(size) ? size : SSP_LOG_PAGE_SIZE,
    log: Number.isInteger(log) && log > 0 ? log : null,
  };
}

export function viewPatch(v: Partial<LogsView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (v.requestId !== undefined) out.request = v.requestId || null;
  if (v.publisher !== undefined) out.publisher = v.publisher || null;
  if (v.partner !== undefined) out.partner = v.partner || null;
  if (v.outcome !== undefined) out.outcome = v.outcome || null;
  if (v.from !== undefined) out.from = v.from || null;
  if (v.to !== undefined) out.to = v.to || null;
  if (v.sort !== undefined) out.sort = v.sort === SSP_LOG_DEFAULT_SORT ? null : v.sort;
  if (v.page !== undefined) out.page = v.page > 1 ? String(v.page) : null;
  if (v.pageSize !== undefined) out.size = v.pageSize === SSP_LOG_PAGE_SIZE ? null : String(v.pageSize);
  if (v.log !== undefined) out.log = v.log ? String(v.log) : null;
  return out;
}

export function listQuery(v: LogsView): Record<string, string | number> {
  const q: Record<string, string | number> = { sort: v.sort, page: v.page, page_size: v.pageSize };
  if (v.requestId) q.request_id = v.requestId;
  if (v.publisher) q.publisher_id = v.publisher;
  if (v.partner) q.partner_id = v.partner;
  if (v.outcome) q.outcome = v.outcome;
  if (v.from) q.from = v.from;
  if (v.to) q.to = v.to;
  return q;
}

export const filterCount = (v: LogsView) => [v.requestId, v.publisher, v.partner, v.outcome, v.from || v.to].filter(Boolean).length;

/** The tone of an outcome's tag (StatusTag keeps its contrast in both themes). */
export const OUTCOME_TONE: Record<SspLogOutcome, 'ok' | 'info' | 'off' | 'bad'> = {
  won: 'ok',
  lost: 'info',
  no_bid: 'off',
  below_floor: 'bad',
  timeout: 'bad',
  error: 'bad',
};

/** The tone of a latency against the partner's budget (the request's tmax): over it is bad. */
export function latencyTone(ms: number, tmax: number | null): 'ok' | 'info' | 'off' | 'bad' {
  if (tmax !== null && ms >= tmax) return 'bad';
  if (tmax !== null && ms >= tmax * 0.8) return 'info';
  return 'off';
}
