import { describe, expect, it } from 'vitest';
import {
  FINANCE_ERRORS,
  PRODUCT_LINE_FILTERS,
  defaultFinanceRange,
  emptyFinanceSums,
  financeQuerySchema,
  financeValues,
  monthsBetween,
  parseFinanceSort,
} from './finance-reports.ts';

const sums = (revenue: bigint, cost: bigint, adjusted = revenue) => ({
  ...emptyFinanceSums(),
  revenue,
  cost,
  adjusted_revenue: adjusted,
  impressions: 1000n,
});

describe('finance reports (core)', () => {
  it('computes margins and month-over-month deltas exactly', () => {
    const v = financeValues(sums(1_500_000n, 1_200_000n), sums(1_000_000n, 900_000n));
    expect(v.revenue).toBe('1.500000');
    expect(v.margin).toBe('0.300000');
    expect(v.margin_pct).toBe('0.200000');
    expect(v.revenue_delta).toBe('0.500000');
    expect(v.revenue_delta_pct).toBe('0.500000');
    expect(v.margin_delta).toBe('0.200000');
    expect(v.margin_delta_pct).toBe('2.000000');
    // 20 % against 10 %: +10 points.
    expect(v.margin_pct_delta).toBe('0.100000');
    expect(v.impressions).toBe(1000);
  });

  it('has no delta without a previous month, and no relative delta from 0', () => {
    const none = financeValues(sums(5n, 1n), null);
    expect(none.revenue_delta).toBeNull();
    expect(none.revenue_delta_pct).toBeNull();
    expect(none.margin_pct_delta).toBeNull();
    const fromZero = financeValues(sums(5n, 1n), sums(0n, 0n));
    expect(fromZero.revenue_delta).toBe('0.000005');
    expect(fromZero.revenue_delta_pct).toBeNull();
    expect(fromZero.margin_pct_delta).toBeNull();
    expect(financeValues(sums(0n, 0n), null).margin_pct).toBeNull();
  });

  it('lists months and the default range of twelve', () => {
    expect(monthsBetween('2024-11', '2025-02')).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(monthsBetween('2025-02', '2025-01')).toEqual([]);
    expect(defaultFinanceRange(new Date(Date.UTC(2026, 10, 26)))).toEqual({ from: '2025-12', to: '2026-11' });
  });

  it('defines PlayOn and AC on format and environment ids', () => {
    expect(PRODUCT_LINE_FILTERS.playon).toEqual({ format: [2], environment: [1] });
    expect(PRODUCT_LINE_FILTERS.ac).toEqual({ environment: [2, 3] });
    expect(PRODUCT_LINE_FILTERS.all).toEqual({});
  });

  it('checks the query with the API rules', () => {
    const now = () => Date.UTC(2026, 10, 26);
    const parse = (q: Record<string, string>) => financeQuerySchema(now).safeParse(q);
    expect(parse({ from: '2026-01', to: '2026-11' }).success).toBe(true);
    const msg = (q: Record<string, string>) => {
      const r = parse(q);
      return r.success ? null : r.error.issues[0]!.message;
    };
    expect(msg({ to: '2026-01' })).toBe(FINANCE_ERRORS.fromRequired);
    expect(msg({ from: '2026-02', to: '2026-01' })).toBe(FINANCE_ERRORS.rangeInverted);
    expect(msg({ from: '2026-12', to: '2026-12' })).toBe(FINANCE_ERRORS.monthFuture);
    expect(msg({ from: '2022-01', to: '2026-01' })).toBe(FINANCE_ERRORS.rangeTooLong);
    expect(msg({ from: '2026-01', to: '2026-02', group: 'product', ids: '3' })).toBe(
      FINANCE_ERRORS.idsNotForProduct,
    );
    expect(parseFinanceSort('-revenue_delta_pct')).toEqual({ field: 'revenue_delta_pct', dir: 'desc' });
    expect(parseFinanceSort('margin_pct_delta_pct')).toBeNull();
  });
});
