/**
 * A campaign's spend against its budgets, with linear pacing (the Pacing panel,
 * `GET /v1/campaigns/:id/pacing`; docs/decisions/043-offers-and-campaigns.md).
 *
 * Definitions (the API computes them with this function, the screen shows them):
 * - the campaign runs from 00:00 UTC of its start date to 00:00 UTC of the day after its end date;
 * - spent: what the warehouse says the campaign's advertiser earned us on the campaign's days, in
 *   its targeted countries and devices, up to `asOf` (the API reads it; this file computes with it);
 * - elapsed share: the part of the campaign before `asOf` (0 before it starts, 1 once it ended);
 * - expected to date = total budget × elapsed share (linear pacing);
 * - pace = spent / expected; behind under 90 %, ahead over 110 %, on track between (budgets.ts);
 * - usage = spent / total budget; alert when spent is over the total budget;
 * - today: the UTC day of `asOf` while the campaign runs: its spend against the daily budget, with
 *   the daily budget's expected share at `asOf` and an alert over the daily budget.
 * Spend is in the warehouse's currency (USD, micro-units): pace, usage, status and alerts exist only
 * for a campaign in USD (no exchange rates in core); one in EUR shows its spend without comparing.
 * Money is exact: amounts are decimal text, spend micro-units as BigInt.
 */
import {
  decimalToMicros,
  microsToDecimal,
  paceStatus,
  percentOf,
  SPEND_CURRENCY,
  type PaceStatus,
} from './budgets.ts';

export const DAY_MS = 86_400_000;

export const CAMPAIGN_PHASES = ['not_started', 'running', 'ended'] as const;
export type CampaignPhase = (typeof CAMPAIGN_PHASES)[number];

/** Days of spend the panel shows at most (the campaign's last days up to `asOf`). */
export const PACING_MAX_DAYS = 31;

/** [startMs, endMs) of a campaign's dates (UTC): the end date's whole day included. */
export function campaignBounds(startDate: string, endDate: string): { startMs: number; endMs: number } {
  return {
    startMs: Date.parse(`${startDate}T00:00:00Z`),
    endMs: Date.parse(`${endDate}T00:00:00Z`) + DAY_MS,
  };
}

/** The UTC day (`YYYY-MM-DD`) of an instant. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** a × num / den rounded half up (non-negative). */
function share(a: bigint, num: number, den: number): bigint {
  if (den <= 0) return 0n;
  const n = BigInt(Math.round(num));
  const d = BigInt(Math.round(den));
  return (a * n * 2n + d) / (d * 2n);
}

export interface CampaignPacingInput {
  start_date: string;
  end_date: string;
  total_budget: string;
  daily_budget: string | null;
  currency: string;
  /** Spent on the campaign's days up to asOf (micro-units of SPEND_CURRENCY). */
  spentMicros: bigint;
  /** Spent on asOf's UTC day (micro-units). */
  todayMicros: bigint;
  /** Spend by UTC day (micro-units), the days that have some. */
  days: { day: string; micros: bigint }[];
  asOfMs: number;
}

export interface CampaignPacing {
  phase: CampaignPhase;
  as_of: string;
  spent_currency: typeof SPEND_CURRENCY;
  /** Whether spend and budgets are in the same currency (then pace, usage, status and alerts exist). */
  comparable: boolean;
  /** The campaign's daily budget (2 decimals), or null without one. */
  daily_budget: string | null;
  total: {
    budget: string;
    spent: string;
    /** Elapsed share of the campaign, % with one decimal. */
    elapsed_pct: number;
    expected: string;
    pace_pct: number | null;
    usage_pct: number | null;
    status: PaceStatus | null;
    alert: boolean;
  };
  /** asOf's UTC day while the campaign runs; null otherwise. */
  today: {
    day: string;
    budget: string | null;
    spent: string;
    /** The daily budget's share expected by asOf (linear within the day); null without a daily budget. */
    expected: string | null;
    usage_pct: number | null;
    alert: boolean;
  } | null;
  /** The last days of the campaign up to asOf (at most PACING_MAX_DAYS), each with its spend. */
  days: { day: string; spent: string; over_daily_budget: boolean }[];
}

export function campaignPacing(input: CampaignPacingInput): CampaignPacing {
  const { startMs, endMs } = campaignBounds(input.start_date, input.end_date);
  const total = decimalToMicros(input.total_budget);
  const daily = input.daily_budget === null ? null : decimalToMicros(input.daily_budget);
  const comparable = input.currency === SPEND_CURRENCY;
  const phase: CampaignPhase =
    input.asOfMs < startMs ? 'not_started' : input.asOfMs >= endMs ? 'ended' : 'running';
  const duration = endMs - startMs;
  const elapsed = Math.min(Math.max(input.asOfMs - startMs, 0), duration);
  const expected = share(total, elapsed, duration);
  const pace = comparable ? percentOf(input.spentMicros, expected) : null;

  let today: CampaignPacing['today'] = null;
  if (phase === 'running') {
    const dayStart = Math.floor(input.asOfMs / DAY_MS) * DAY_MS;
    today = {
      day: dayOf(dayStart),
      budget: daily === null ? null : microsToDecimal(daily),
      spent: microsToDecimal(input.todayMicros),
      expected: daily === null ? null : microsToDecimal(share(daily, input.asOfMs - dayStart, DAY_MS)),
      usage_pct: comparable && daily !== null ? percentOf(input.todayMicros, daily) : null,
      alert: comparable && daily !== null && input.todayMicros > daily,
    };
  }

  // The campaign's days up to asOf (the last PACING_MAX_DAYS), with what each spent.
  const byDay = new Map(input.days.map((d) => [d.day, d.micros]));
  const lastMs = Math.min(endMs, input.asOfMs) - 1;
  const days: CampaignPacing['days'] = [];
  if (lastMs >= startMs) {
    const lastDay = Math.floor(lastMs / DAY_MS) * DAY_MS;
    const firstDay = Math.max(startMs, lastDay - (PACING_MAX_DAYS - 1) * DAY_MS);
    for (let t = firstDay; t <= lastDay; t += DAY_MS) {
      const micros = byDay.get(dayOf(t)) ?? 0n;
      days.push({
        day: dayOf(t),
        spent: microsToDecimal(micros),
        over_daily_budget: comparable && daily !== null && micros > daily,
      });
    }
  }

  return {
    phase,
    as_of: new Date(input.asOfMs).toISOString(),
    spent_currency: SPEND_CURRENCY,
    comparable,
    daily_budget: daily === null ? null : microsToDecimal(daily),
    total: {
      budget: microsToDecimal(total),
      spent: microsToDecimal(input.spentMicros),
      elapsed_pct: percentOf(BigInt(elapsed), BigInt(duration)) ?? 0,
      expected: microsToDecimal(expected),
      pace_pct: pace,
      usage_pct: comparable ? percentOf(input.spentMicros, total) : null,
      status: comparable ? paceStatus(pace) : null,
      alert: comparable && input.spentMicros > total,
    },
    today,
    days,
  };
}
