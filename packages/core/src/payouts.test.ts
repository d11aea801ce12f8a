import { describe, expect, it } from 'vitest';
import {
  billingInfoProblems,
  confirmBlockers,
  confirmFormErrors,
  confirmMonthError,
  effectiveSharePct,
  fromCents,
  payoutAlerts,
  payoutDueDate,
  toCents,
  type PayoutFacts,
} from './payouts.ts';

const base: PayoutFacts = {
  state: 'pending',
  payout: '700.00',
  new_revenue: '700.00',
  revenue_gross: '1000.00',
  min_payout: '50.00',
  share_pct: '70.00',
  payment_terms: 'net30',
  billing_info: { iban: 'ES9121000418450200051332', country: 'ES', tax_id: 'B12345674' },
};

describe('payout rules (spec 5, Payout)', () => {
  it('confirms the previous month from the 15th, never the current month, older months always', () => {
    expect(confirmMonthError('2026-10', '2026-11-14')).toBe('payout.too_early');
    expect(confirmMonthError('2026-10', '2026-11-15')).toBeNull();
    expect(confirmMonthError('2026-11', '2026-11-28')).toBe('payout.month_not_over');
    expect(confirmMonthError('2026-12', '2026-11-28')).toBe('payout.month_not_over');
    expect(confirmMonthError('2026-09', '2026-11-01')).toBeNull();
    expect(confirmMonthError('2025-12', '2026-01-14')).toBe('payout.too_early');
  });

  it('raises over-revenue and over-percentage alerts with the thresholds, in exact cents', () => {
    expect(payoutAlerts(base)).toEqual([]);
    // 75.00% earned against a 70% share: 5 points over is not more than 5.
    expect(payoutAlerts({ ...base, new_revenue: '750.00' })).toEqual([]);
    expect(payoutAlerts({ ...base, new_revenue: '750.01' })).toEqual(['over_share']);
    expect(payoutAlerts({ ...base, new_revenue: '750.01' }, { over_revenue_pct: '0', over_share_points: '10' })).toEqual([]);
    // A payout one cent over the revenue it comes from.
    expect(payoutAlerts({ ...base, payout: '1000.01' })).toEqual(['over_revenue']);
    expect(payoutAlerts({ ...base, payout: '1000.01' }, { over_revenue_pct: '0.01', over_share_points: '5' })).toEqual([]);
    expect(payoutAlerts({ ...base, payout: '0.00', revenue_gross: '0.00', new_revenue: '0.00' })).toEqual([]);
  });

  it('blocks a payout under or at the minimum, without valid billing info or terms, or not pending', () => {
    expect(confirmBlockers(base)).toEqual([]);
    expect(confirmBlockers({ ...base, payout: '50.00' })).toEqual(['payout.below_minimum']);
    expect(confirmBlockers({ ...base, payout: '50.01' })).toEqual([]);
    expect(confirmBlockers({ ...base, state: 'confirmed' })).toEqual(['payout.skip.state']);
    expect(confirmBlockers({ ...base, payment_terms: 'net90' })).toEqual(['payout.payment_terms_invalid']);
    expect(billingInfoProblems({ iban: 'ES9121000418450200051333', country: 'ES', tax_id: 'B12345674' })).toEqual(['payout.iban_invalid']);
    expect(billingInfoProblems({ iban: null, country: null, tax_id: null })).toEqual(['payout.iban_missing', 'payout.tax_id_missing']);
    expect(billingInfoProblems({ iban: 'ES9121000418450200051332', country: 'ES', tax_id: 'B12345675' })).toEqual(['payout.tax_id_invalid']);
  });

  it('checks the confirmation as typed: a selection, 10 characters of comment, a code', () => {
    expect(confirmFormErrors({ selected: 0, comment: 'Too short', code: '' })).toEqual({
      rows: 'payout.none_selected',
      comment: 'payout.comment_short',
      code: 'payout.code_required',
    });
    expect(confirmFormErrors({ selected: 2, comment: '  123456789  ', code: '12345' })).toEqual({ comment: 'payout.comment_short', code: 'payout.code_wrong' });
    expect(confirmFormErrors({ selected: 2, comment: '1234567890', code: '123456' })).toEqual({});
  });

  it('computes the effective share, the due date and cents exactly', () => {
    expect(effectiveSharePct('783.14', '1000.00')).toBe('78.31');
    expect(effectiveSharePct('1.00', '3.00')).toBe('33.33');
    expect(effectiveSharePct('1.00', '0.00')).toBeNull();
    expect(payoutDueDate('2026-10', 'net45')).toBe('2026-12-15');
    expect(payoutDueDate('2026-10', 'weird')).toBeNull();
    expect(fromCents(toCents('0.1') + toCents('0.2'))).toBe('0.30');
    expect(fromCents(toCents('-12.5'))).toBe('-12.50');
  });
});
