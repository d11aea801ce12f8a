/**
 * Budgets' pacing (`/partners/perf-budgets-companies`, docs/decisions/015-budgets.md): a company's
 * monthly budget against what its performance-side demand partners spent in the warehouse.
 *
 * Definitions (the API computes them with these functions, the screen shows them):
 * - a month is `YYYY-MM` and runs from 00:00 UTC on its first day to 00:00 UTC on the next
 *   month's first day (28 to 31 UTC days);
 * - elapsed share: the part of the month before `asOf` (0 for a future month, 1 for a past one);
 * - expected to date = amount × elapsed share, in the budget's currency;
 * - usage = spent / amount; pace = spent / expected to date; both as percentages (rounded to one
 *   decimal: display figures; the amounts themselves stay exact);
 * - status: behind under 90 % pace, ahead over 110 %, on track between (none while nothing is
 *   expected yet);
 * - alert: spent over the amount (usage over 100 %).
 * Spend is in the warehouse's currency (USD, integer micro-units). Core has no exchange rates, so
 * usage, pace, status and the alert exist only for a budget in USD; a budget in another currency
 * shows its spend (in USD) and its expected spend (in its own currency) without comparing them.
 *
 * Money is exact: amounts are decimal text, spend is micro-units as BigInt; no float touches them.
 */
import { parseMonth } from './dates.ts';

/** The warehouse's currency: what `revenue_micros` counts. */
export const SPEND_CURRENCY = 'USD';
/** Under this pace (%), a budget is behind; over PACE_AHEAD_ABOVE, ahead. */
export const PACE_BEHIND_BELOW = 90;
export const PACE_AHEAD_ABOVE = 110;

export const PACE_STATUSES = ['behind', 'on_track', 'ahead'] as const;
export type PaceStatus = (typeof PACE_STATUSES)[number];

const MICROS_PER_UNIT = 1_000_000n;

/** The first and last year a budget's month may be in. */
export const BUDGET_FIRST_YEAR = 2000;
export const BUDGET_LAST_YEAR = 2100;

/** Whether a text is a budget month: `YYYY-MM` with a real month, years 2000 to 2100. */
export function isBudgetMonth(text: string): boolean {
  if (!/^\d{4}-\d{2}$/.test(text)) return false;
  const m = parseMonth(text);
  return m !== null && m.year >= BUDGET_FIRST_YEAR && m.year <= BUDGET_LAST_YEAR;
}

/** The month's bounds in UTC: [startMs, endMs). Throws on a text that is not `YYYY-MM`. */
export function monthBounds(month: string): { startMs: number; endMs: number } {
  const m = parseMonth(month);
  if (!m || !/^\d{4}-\d{2}$/.test(month)) throw new RangeError(`Not a month: ${month}`);
  return { startMs: Date.UTC(m.year, m.month - 1, 1), endMs: Date.UTC(m.year, m.month, 1) };
}

/** The month (`YYYY-MM`, UTC) of an instant. */
export function monthOfInstant(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month `offset` months from `month` (`2026-01`, -1 -> `2025-12`). */
export function addMonthsTo(month: string, offset: number): string {
  const { startMs } = monthBounds(month);
  const d = new Date(startMs);
  return monthOfInstant(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
}

/** The elapsed part of the month at `asOfMs`, as a fraction elapsedMs / monthMs of whole numbers. */
export function elapsedOfMonth(month: string, asOfMs: number): { elapsedMs: number; monthMs: number } {
  const { startMs, endMs } = monthBounds(month);
  const monthMs = endMs - startMs;
  return { elapsedMs: Math.min(Math.max(asOfMs - startMs, 0), monthMs), monthMs };
}

/** A non-negative decimal text (`12300.5`) in micro-units; throws beyond 6 decimals or on anything else. */
export function decimalToMicros(text: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`Not a non-negative decimal with at most 6 decimals: ${text}`);
  return BigInt(m[1]!) * MICROS_PER_UNIT + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** a / b rounded half up, for a >= 0 and b > 0. */
function divRound(a: bigint, b: bigint): bigint {
  return (a * 2n + b) / (b * 2n);
}

/** Micro-units as decimal text with `decimals` places (2 by default), rounded half up. */
export function microsToDecimal(micros: bigint, decimals = 2): string {
  if (micros < 0n) return `-${microsToDecimal(-micros, decimals)}`;
  const scale = 10n ** BigInt(6 - decimals);
  const units = divRound(micros, scale);
  if (decimals === 0) return units.toString();
  const text = units.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Expected spend to date in micro-units: amount × elapsed share, rounded half up. */
export function expectedToDateMicros(amountMicros: bigint, month: string, asOfMs: number): bigint {
  const { elapsedMs, monthMs } = elapsedOfMonth(month, asOfMs);
  return divRound(amountMicros * BigInt(elapsedMs), BigInt(monthMs));
}

/** part / whole as a percentage with one decimal (half up); null when whole is 0. */
export function percentOf(part: bigint, whole: bigint): number | null {
  if (whole <= 0n) return null;
  return Number(divRound(part * 1000n, whole)) / 10;
}

/** Behind, on track or ahead for a pace (%); null without one (nothing expected yet). */
export function paceStatus(pacePct: number | null): PaceStatus | null {
  if (pacePct === null) return null;
  if (pacePct < PACE_BEHIND_BELOW) return 'behind';
  if (pacePct > PACE_AHEAD_ABOVE) return 'ahead';
  return 'on_track';
}

/** What the API adds to a budget row (the list's extra columns, the detail's Spend tab). */
export interface BudgetPacing {
  /** Spent in the month so far, in SPEND_CURRENCY, decimal text with 2 decimals. */
  spent: string;
  spent_currency: typeof SPEND_CURRENCY;
  /** Whether spend and budget are in the same currency (then pace, usage, status and alert exist). */
  comparable: boolean;
  /** Elapsed share of the month, % with one decimal. */
  elapsed_pct: number;
  /** Expected spend to date in the budget's currency, decimal text with 2 decimals. */
  expected: string;
  pace_pct: number | null;
  usage_pct: number | null;
  status: PaceStatus | null;
  /** Spent over the amount. */
  alert: boolean;
  /** The instant the figures are computed at (ISO): the end of the warehouse's data, or now. */
  as_of: string;
}

export interface BudgetPacingInput {
  /** The budget, decimal text with at most 6 decimals. */
  amount: string;
  currency: string;
  month: string;
  /** Spent in the month, micro-units of SPEND_CURRENCY. */
  spentMicros: bigint;
  asOfMs: number;
}

export function budgetPacing({ amount, currency, month, spentMicros, asOfMs }: BudgetPacingInput): BudgetPacing {
  const amountMicros = decimalToMicros(amount);
  const { elapsedMs, monthMs } = elapsedOfMonth(month, asOfMs);
  const expectedMicros = expectedToDateMicros(amountMicros, month, asOfMs);
  const comparable = currency === SPEND_CURRENCY;
  const pace = comparable ? percentOf(spentMicros, expectedMicros) : null;
  return {
    spent: microsToDecimal(spentMicros),
    spent_currency: SPEND_CURRENCY,
    comparable,
    elapsed_pct: percentOf(BigInt(elapsedMs), BigInt(monthMs)) ?? 0,
    expected: microsToDecimal(expectedMicros),
    pace_pct: pace,
    usage_pct: comparable ? percentOf(spentMicros, amountMicros) : null,
    status: comparable ? paceStatus(pace) : null,
    alert: comparable && spentMicros > amountMicros,
    as_of: new Date(asOfMs).toISOString(),
  };
}
