/**
 * Billing rules (issue 21; spec sections 3, 4, 5 and 9), shared by the billing screens and the
 * API, which enforces them:
 * - a billing row's states and the actions that move it (`applyAction`): open → confirmed →
 *   approved (final) → invoiced, or discarded, or accumulated into next month; disconfirm goes back
 *   to open; nothing leaves approved (spec: approval has no rollback);
 * - the payment badge of a row (spec 4): full_paid, no_paid, some_paid, and CHARGED for what is
 *   pending on a charged row;
 * - the margin check (spec 5 and 9: confirming a value that leaves under 20% margin asks first);
 * - exact money: amounts are decimal text, computed in integer micro-units (BigInt), never floats;
 * - monthly exchange rates from the ECB's reference-rate CSV, and amounts in EUR from them.
 */

// ---------------------------------------------------------------------------------------------
// Exact decimals

const MICROS = 1_000_000n;

/** A decimal text (optionally negative, up to 6 decimals) as integer micro-units. */
export function toMicros(text: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`Not a decimal with at most 6 decimals: ${text}`);
  const v = BigInt(m[2]!) * MICROS + BigInt((m[3] ?? '').padEnd(6, '0'));
  return m[1] ? -v : v;
}

/** a / b rounded half away from zero (b > 0). */
function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n;
  const q = ((neg ? -a : a) * 2n + b) / (b * 2n);
  return neg ? -q : q;
}

/** Micro-units as decimal text with `decimals` places (2 by default), rounded half away from zero. */
export function fromMicros(micros: bigint, decimals = 2): string {
  if (micros < 0n) {
    const text = fromMicros(-micros, decimals);
    return /[1-9]/.test(text) ? `-${text}` : text;
  }
  const units = divRound(micros, 10n ** BigInt(6 - decimals));
  if (decimals === 0) return units.toString();
  const text = units.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** The sum of decimal texts, exact, with `decimals` places. */
export function sumAmounts(amounts: readonly string[], decimals = 2): string {
  return fromMicros(
    amounts.reduce((s, a) => s + toMicros(a), 0n),
    decimals,
  );
}

// ---------------------------------------------------------------------------------------------
// States and actions

export const BILLING_STATES = ['open', 'confirmed', 'approved', 'invoiced', 'discarded', 'accumulated'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

/** The bulk actions of the lists (spec 4: confirm or disconfirm, approve, discard, accumulate). */
export const BILLING_ACTIONS = ['confirm', 'disconfirm', 'approve', 'discard', 'accumulate'] as const;
export type BillingAction = (typeof BILLING_ACTIONS)[number];

/** States no action leaves: approval has no rollback (spec 4); invoiced, discarded and accumulated rows are done. */
export const FINAL_STATES: readonly BillingState[] = ['approved', 'invoiced', 'discarded', 'accumulated'];

/** The figures of a row that can still change (recomputed from the warehouse, revenue network edited). */
export function isEditable(state: BillingState): boolean {
  return state === 'open';
}

const NEXT: Record<BillingAction, { from: readonly BillingState[]; to: BillingState }> = {
  confirm: { from: ['open'], to: 'confirmed' },
  disconfirm: { from: ['confirmed'], to: 'open' },
  approve: { from: ['confirmed'], to: 'approved' },
  discard: { from: ['open', 'confirmed'], to: 'discarded' },
  accumulate: { from: ['open', 'confirmed'], to: 'accumulated' },
};

export type ActionOutcome =
  | { ok: true; state: BillingState }
  /** Why the row is skipped: an i18n key (`billing.skip.*`). */
  | { ok: false; reason: string };

/**
 * What an action does to a row in `state`. Applying an action to a row already where it leads is a
 * skip with `billing.skip.already` (so a retried or doubled approve approves each row once).
 */
export function applyAction(state: BillingState, action: BillingAction, opts: { belowMinimum?: boolean } = {}): ActionOutcome {
  const rule = NEXT[action];
  if (state === rule.to) return { ok: false, reason: 'billing.skip.already' };
  if (state === 'approved' || state === 'invoiced') return { ok: false, reason: 'billing.skip.final' };
  if (!rule.from.includes(state)) return { ok: false, reason: `billing.skip.not_${rule.from.length === 1 ? rule.from[0]! : 'pending'}` };
  // Only a row under the counterparty's minimum amount moves to next month (spec: "accumulate for next month").
  if (action === 'accumulate' && opts.belowMinimum === false) return { ok: false, reason: 'billing.skip.not_below_minimum' };
  return { ok: true, state: rule.to };
}

/** The actions that do something to a row in `state`. */
export function availableActions(state: BillingState, opts: { belowMinimum?: boolean } = {}): BillingAction[] {
  return BILLING_ACTIONS.filter((a) => applyAction(state, a, opts).ok);
}

// ---------------------------------------------------------------------------------------------
// Payment badge (spec 4)

export const PAYMENT_BADGES = ['full_paid', 'some_paid', 'no_paid', 'charged'] as const;
export type PaymentBadge = (typeof PAYMENT_BADGES)[number];

export interface PaymentFigures {
  /** What the row bills (decimal text). */
  gross: string;
  /** What was received (decimal text). */
  paid: string;
  /** When the payment was received (any value: a date), or null. */
  receivedPaymentDate: string | null;
  /** The row was charged (a prepayment or direct debit took it): pending shows as CHARGED. */
  charged?: boolean;
}

/**
 * The badge, in the spec's order: full_paid if a received payment date exists or nothing is
 * pending; no_paid if paid revenue is 0; some_paid if 0 < paid < gross. When charged, what would
 * show as pending (no_paid, some_paid) shows as CHARGED.
 */
export function paymentBadge(p: PaymentFigures): PaymentBadge {
  const gross = toMicros(p.gross);
  const paid = toMicros(p.paid);
  if (p.receivedPaymentDate || paid >= gross) return 'full_paid';
  if (p.charged) return 'charged';
  if (paid <= 0n) return 'no_paid';
  return 'some_paid';
}

/** What is still to be paid (never below 0), decimal text. */
export function pendingAmount(gross: string, paid: string): string {
  const d = toMicros(gross) - toMicros(paid);
  return fromMicros(d > 0n ? d : 0n);
}

// ---------------------------------------------------------------------------------------------
// Margin (spec 5 and 9)

/** Under this margin (percent), confirming a row asks for confirmation first. */
export const MARGIN_WARNING_PCT = 20;

/** (revenue − cost) / revenue as a percentage with 2 decimals, or null when there is no revenue. */
export function marginPct(revenue: string, cost: string): string | null {
  const r = toMicros(revenue);
  if (r <= 0n) return null;
  const c = toMicros(cost);
  // Hundredths of a percent: (r - c) * 10000 / r.
  const hundredths = divRound((r - c) * 10_000n, r);
  return fromMicros(hundredths * 10_000n);
}

/** Whether the figures leave a margin under 20% (no revenue counts as under). */
export function isLowMargin(revenue: string, cost: string): boolean {
  const r = toMicros(revenue);
  const c = toMicros(cost);
  if (r <= 0n) return c > 0n;
  return (r - c) * 100n < BigInt(MARGIN_WARNING_PCT) * r;
}

// ---------------------------------------------------------------------------------------------
// Exchange rates (ECB reference rates: units of a currency for 1 EUR)

export interface EcbParse {
  /** Rates by day (YYYY-MM-DD) and currency, decimal text. */
  days: Map<string, Map<string, string>>;
  /** Lines that could not be read: line number and why (i18n key). */
  errors: { line: number; key: string }[];
}

const MONTHS_EN = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** An ECB date ("2026-11-25" in the history file, "25 November 2026" in the daily one) as YYYY-MM-DD. */
function ecbDate(text: string): string | null {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(t);
  if (!m) return null;
  const month = MONTHS_EN.indexOf(m[2]!.toLowerCase());
  if (month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/**
 * Reads the ECB's reference-rate CSV (eurofxref.csv, one day; eurofxref-hist.csv, every day
 * since 1999): a `Date` column and one column per currency, `N/A` where the ECB has no rate.
 */
export function parseEcbCsv(text: string): EcbParse {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim().toUpperCase());
  const days = new Map<string, Map<string, string>>();
  const errors: EcbParse['errors'] = [];
  if (header[0] !== 'DATE') return { days, errors: [{ line: 1, key: 'billing.rates.no_header' }] };
  for (let i = 1; i < lines.length; i++) {
    const cells = lines[i]!.split(',');
    if (cells.every((c) => c.trim() === '')) continue;
    const day = ecbDate(cells[0] ?? '');
    if (!day) {
      errors.push({ line: i + 1, key: 'billing.rates.bad_date' });
      continue;
    }
    const rates = new Map<string, string>();
    header.forEach((cur, c) => {
      if (c === 0 || !/^[A-Z]{3}$/.test(cur)) return;
      const v = (cells[c] ?? '').trim();
      if (/^\d+(\.\d{1,6})?$/.test(v) && toMicros(v) > 0n) rates.set(cur, v);
    });
    days.set(day, rates);
  }
  return { days, errors };
}

/**
 * A month's rate for a currency: the average of the month's daily reference rates, to 6
 * decimals (rounded half up); null when the ECB published none that month. EUR is 1.
 */
export function monthlyRate(days: EcbParse['days'], month: string, currency: string): string | null {
  if (currency === 'EUR') return '1';
  let sum = 0n;
  let n = 0n;
  for (const [day, rates] of days) {
    if (!day.startsWith(`${month}-`)) continue;
    const r = rates.get(currency);
    if (r === undefined) continue;
    sum += toMicros(r);
    n++;
  }
  return n === 0n ? null : fromMicros(divRound(sum, n), 6);
}

/**
 * An amount in EUR: amount / rate (units of the currency for 1 EUR), rounded to cents half away
 * from zero; null without a rate. The exact division happens in micro-units.
 */
export function toEur(amount: string, currency: string, rate: string | null): string | null {
  if (currency === 'EUR') return fromMicros(toMicros(amount));
  if (rate === null) return null;
  const r = toMicros(rate);
  if (r <= 0n) return null;
  return fromMicros(divRound(toMicros(amount) * MICROS, r));
}
