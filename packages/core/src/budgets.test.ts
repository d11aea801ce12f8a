import { describe, expect, it } from 'vitest';
import {
  addMonthsTo,
  budgetPacing,
  decimalToMicros,
  elapsedOfMonth,
  expectedToDateMicros,
  isBudgetMonth,
  microsToDecimal,
  monthBounds,
  monthOfInstant,
  paceStatus,
  percentOf,
} from './budgets.ts';
import { budgetFieldsSchema } from './resources/budgets.ts';

const at = (iso: string) => Date.parse(iso);
const usd = (text: string) => decimalToMicros(text);

describe('budget months', () => {
  it('accepts YYYY-MM of a real month from 2000 to 2100 only', () => {
    expect(isBudgetMonth('2026-11')).toBe(true);
    expect(isBudgetMonth('2000-01')).toBe(true);
    expect(isBudgetMonth('2100-12')).toBe(true);
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', '1999-12', '2101-01', '', 'november']) expect(isBudgetMonth(bad), bad).toBe(false);
  });

  it('runs from 00:00 UTC on the first day to 00:00 UTC on the next month', () => {
    expect(monthBounds('2026-01')).toEqual({ startMs: at('2026-01-01T00:00:00Z'), endMs: at('2026-02-01T00:00:00Z') });
    expect(monthBounds('2026-12')).toEqual({ startMs: at('2026-12-01T00:00:00Z'), endMs: at('2027-01-01T00:00:00Z') });
    expect(() => monthBounds('2026-11-01')).toThrow(RangeError);
    expect(monthOfInstant(at('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOfInstant(at('2026-12-01T00:00:00Z'))).toBe('2026-12');
    expect(addMonthsTo('2026-01', -1)).toBe('2025-12');
    expect(addMonthsTo('2026-12', 1)).toBe('2027-01');
  });

  it('counts the elapsed part of 28, 29, 30 and 31-day months in UTC days', () => {
    const day = 86_400_000;
    expect(elapsedOfMonth('2026-01', at('2026-01-16T00:00:00Z'))).toEqual({ elapsedMs: 15 * day, monthMs: 31 * day });
    expect(elapsedOfMonth('2026-02', at('2026-02-15T00:00:00Z'))).toEqual({ elapsedMs: 14 * day, monthMs: 28 * day });
    expect(elapsedOfMonth('2028-02', at('2028-02-15T00:00:00Z'))).toEqual({ elapsedMs: 14 * day, monthMs: 29 * day });
    expect(elapsedOfMonth('2026-11', at('2026-11-16T12:00:00Z')).monthMs).toBe(30 * day);
    // Past and future months, and the boundaries themselves.
    expect(elapsedOfMonth('2026-01', at('2026-03-10T00:00:00Z'))).toEqual({ elapsedMs: 31 * day, monthMs: 31 * day });
    expect(elapsedOfMonth('2026-05', at('2026-03-10T00:00:00Z')).elapsedMs).toBe(0);
    expect(elapsedOfMonth('2026-03', at('2026-03-01T00:00:00Z')).elapsedMs).toBe(0);
    expect(elapsedOfMonth('2026-02', at('2026-03-01T00:00:00Z')).elapsedMs).toBe(28 * day);
    expect(elapsedOfMonth('2026-03', at('2026-02-28T23:59:59.999Z')).elapsedMs).toBe(0);
  });
});

describe('exact money', () => {
  it('reads decimal text as micro-units and writes them back rounded half up', () => {
    expect(usd('12300')).toBe(12_300_000_000n);
    expect(usd('0.01')).toBe(10_000n);
    expect(usd('99999999.99')).toBe(99_999_999_990_000n);
    expect(() => usd('1.1234567')).toThrow(RangeError);
    expect(() => usd('-1')).toThrow(RangeError);
    expect(microsToDecimal(1_234_565_000n)).toBe('1234.57');
    expect(microsToDecimal(1_234_564_999n)).toBe('1234.56');
    expect(microsToDecimal(0n)).toBe('0.00');
    expect(microsToDecimal(4_999n)).toBe('0.00');
    expect(microsToDecimal(5_000n)).toBe('0.01');
    expect(microsToDecimal(-5_000n)).toBe('-0.01');
    expect(microsToDecimal(1_500_000n, 0)).toBe('2');
    // Far beyond a float's exact integers.
    expect(microsToDecimal(123_456_789_012_345_678_901n)).toBe('123456789012345.68');
  });

  it('expects amount × elapsed share, exactly', () => {
    // 31-day January, half-way through day 16: 15.5 / 31 = one half.
    expect(expectedToDateMicros(usd('1000'), '2026-01', at('2026-01-16T12:00:00Z'))).toBe(usd('500'));
    // 1000 × 10 / 31 = 322.580645… (rounded at the micro-unit).
    expect(expectedToDateMicros(usd('1000'), '2026-01', at('2026-01-11T00:00:00Z'))).toBe(322_580_645n);
    // February 2026 (28 days) on the 15th at 00:00: 14/28.
    expect(expectedToDateMicros(usd('2800'), '2026-02', at('2026-02-15T00:00:00Z'))).toBe(usd('1400'));
    expect(expectedToDateMicros(usd('2800'), '2026-02', at('2026-04-01T00:00:00Z'))).toBe(usd('2800'));
    expect(expectedToDateMicros(usd('2800'), '2026-02', at('2026-01-31T23:00:00Z'))).toBe(0n);
  });

  it('gives percentages with one decimal, none of nothing', () => {
    expect(percentOf(1n, 3n)).toBe(33.3);
    expect(percentOf(2n, 3n)).toBe(66.7);
    expect(percentOf(112n, 100n)).toBe(112);
    expect(percentOf(5n, 0n)).toBeNull();
  });
});

describe('pacing', () => {
  it('names the pace behind under 90 %, ahead over 110 %, on track between', () => {
    expect(paceStatus(89.9)).toBe('behind');
    expect(paceStatus(90)).toBe('on_track');
    expect(paceStatus(110)).toBe('on_track');
    expect(paceStatus(110.1)).toBe('ahead');
    expect(paceStatus(null)).toBeNull();
  });

  it('paces a USD budget in the current month', () => {
    // 30-day November, 12 days and 12 hours in: expected 12.5/30 of 30,000 = 12,500.
    const p = budgetPacing({ amount: '30000', currency: 'USD', month: '2026-11', spentMicros: usd('10000'), asOfMs: at('2026-11-13T12:00:00Z') });
    expect(p).toEqual({
      spent: '10000.00',
      spent_currency: 'USD',
      comparable: true,
      elapsed_pct: 41.7,
      expected: '12500.00',
      pace_pct: 80,
      usage_pct: 33.3,
      status: 'behind',
      alert: false,
      as_of: '2026-11-13T12:00:00.000Z',
    });
  });

  it('alerts over 100 % only, and a past month is judged on its whole amount', () => {
    const past = (spent: string) => budgetPacing({ amount: '5000.50', currency: 'USD', month: '2026-10', spentMicros: usd(spent), asOfMs: at('2026-11-20T00:00:00Z') });
    expect(past('5000.50')).toMatchObject({ elapsed_pct: 100, expected: '5000.50', usage_pct: 100, pace_pct: 100, status: 'on_track', alert: false });
    expect(past('5000.51')).toMatchObject({ usage_pct: 100, alert: true });
    expect(past('5600')).toMatchObject({ usage_pct: 112, status: 'ahead', alert: true });
  });

  it('expects nothing of a future month yet', () => {
    const p = budgetPacing({ amount: '1000', currency: 'USD', month: '2026-12', spentMicros: 0n, asOfMs: at('2026-11-25T23:00:00Z') });
    expect(p).toMatchObject({ elapsed_pct: 0, expected: '0.00', pace_pct: null, usage_pct: 0, status: null, alert: false });
  });

  it('does not compare a budget in another currency with spend in USD', () => {
    const p = budgetPacing({ amount: '1000', currency: 'EUR', month: '2026-10', spentMicros: usd('5000'), asOfMs: at('2026-11-25T00:00:00Z') });
    expect(p).toMatchObject({ spent: '5000.00', spent_currency: 'USD', comparable: false, expected: '1000.00', pace_pct: null, usage_pct: null, status: null, alert: false });
  });
});

describe('the budget form schema', () => {
  const valid = { company_id: 3, month: '2026-11', amount: '12500.50', currency: 'USD', notes: '' };
  it('takes a valid budget, with empty notes as null', () => {
    expect(budgetFieldsSchema.parse(valid)).toEqual({ ...valid, notes: null });
    expect(budgetFieldsSchema.parse({ ...valid, amount: 12500.5 }).amount).toBe('12500.5');
  });
  it('refuses a zero, negative or over-precise amount, a bad month and no company, with their keys', () => {
    const errorsOf = (over: Record<string, unknown>) => budgetFieldsSchema.safeParse({ ...valid, ...over }).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    for (const amount of ['0', '0.00', '-5', '1.234', 'abc', '100000000.01']) expect(errorsOf({ amount }), amount).toContain('amount:budget.amount_invalid');
    expect(errorsOf({ month: '2026-13' })).toContain('month:budget.month_invalid');
    expect(errorsOf({ company_id: null })).toContain('company_id:budget.company_required');
    expect(errorsOf({ currency: 'GBP' })).toContain('currency:error.invalid_value');
  });
});
