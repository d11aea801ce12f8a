import { describe, expect, it } from 'vitest';
import {
  BILLING_ACTIONS,
  BILLING_STATES,
  applyAction,
  availableActions,
  fromMicros,
  isLowMargin,
  marginPct,
  monthlyRate,
  parseEcbCsv,
  paymentBadge,
  pendingAmount,
  sumAmounts,
  toEur,
  toMicros,
  type BillingState,
} from './billing.ts';

describe('exact amounts', () => {
  it('adds decimal texts without float error and rounds half away from zero', () => {
    expect(sumAmounts(['0.1', '0.2'])).toBe('0.30');
    expect(sumAmounts(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
    expect(fromMicros(toMicros('2.005'))).toBe('2.01');
    expect(fromMicros(toMicros('-2.005'))).toBe('-2.01');
    expect(fromMicros(toMicros('-0.001'))).toBe('0.00');
    expect(() => toMicros('1,5')).toThrow(RangeError);
  });
});

describe('states and actions', () => {
  it('moves open → confirmed → approved, and back only from confirmed', () => {
    expect(applyAction('open', 'confirm')).toEqual({ ok: true, state: 'confirmed' });
    expect(applyAction('confirmed', 'disconfirm')).toEqual({ ok: true, state: 'open' });
    expect(applyAction('confirmed', 'approve')).toEqual({ ok: true, state: 'approved' });
    expect(applyAction('open', 'approve')).toEqual({ ok: false, reason: 'billing.skip.not_confirmed' });
    expect(applyAction('open', 'disconfirm')).toEqual({ ok: false, reason: 'billing.skip.already' });
  });

  it('nothing leaves approved or invoiced; a second approve is a skip, not a change', () => {
    for (const action of BILLING_ACTIONS) {
      for (const state of ['approved', 'invoiced'] as BillingState[]) {
        const out = applyAction(state, action);
        expect(out.ok, `${state} ${action}`).toBe(false);
      }
    }
    expect(applyAction('approved', 'approve')).toEqual({ ok: false, reason: 'billing.skip.already' });
    expect(applyAction('approved', 'disconfirm')).toEqual({ ok: false, reason: 'billing.skip.final' });
  });

  it('discard and accumulate from open or confirmed; accumulate only under the minimum', () => {
    expect(applyAction('confirmed', 'discard')).toEqual({ ok: true, state: 'discarded' });
    expect(applyAction('open', 'accumulate', { belowMinimum: true })).toEqual({ ok: true, state: 'accumulated' });
    expect(applyAction('open', 'accumulate', { belowMinimum: false })).toEqual({ ok: false, reason: 'billing.skip.not_below_minimum' });
    expect(applyAction('discarded', 'confirm')).toEqual({ ok: false, reason: 'billing.skip.not_open' });
    expect(availableActions('open', { belowMinimum: false })).toEqual(['confirm', 'discard']);
    expect(availableActions('confirmed', { belowMinimum: true })).toEqual(['disconfirm', 'approve', 'discard', 'accumulate']);
    // Every state has an answer for every action.
    for (const s of BILLING_STATES) for (const a of BILLING_ACTIONS) expect(applyAction(s, a)).toHaveProperty('ok');
  });
});

describe('payment badge (spec section 4)', () => {
  it.each([
    // gross, paid, received date, charged → badge
    ['100.00', '0', null, false, 'no_paid'],
    ['100.00', '0', '2026-11-02', false, 'full_paid'],
    ['100.00', '40.00', null, false, 'some_paid'],
    ['100.00', '100.00', null, false, 'full_paid'],
    ['100.00', '120.00', null, false, 'full_paid'],
    ['0.00', '0', null, false, 'full_paid'],
    ['100.00', '0', null, true, 'charged'],
    ['100.00', '40.00', null, true, 'charged'],
    ['100.00', '100.00', null, true, 'full_paid'],
  ] as const)('gross %s, paid %s, received %s, charged %s → %s', (gross, paid, date, charged, badge) => {
    expect(paymentBadge({ gross, paid, receivedPaymentDate: date, charged })).toBe(badge);
  });

  it('pending is what remains, never below zero', () => {
    expect(pendingAmount('100.00', '40.5')).toBe('59.50');
    expect(pendingAmount('100.00', '120')).toBe('0.00');
  });
});

describe('margin (spec 5 and 9)', () => {
  it('warns under 20%, exactly', () => {
    expect(marginPct('1000.00', '800.00')).toBe('20.00');
    expect(isLowMargin('1000.00', '800.00')).toBe(false);
    expect(isLowMargin('1000.00', '800.01')).toBe(true);
    expect(marginPct('3.00', '2.00')).toBe('33.33');
    expect(marginPct('0', '5')).toBeNull();
    expect(isLowMargin('0', '5')).toBe(true);
    expect(isLowMargin('0', '0')).toBe(false);
    expect(marginPct('100', '130')).toBe('-30.00');
  });
});

describe('ECB reference rates', () => {
  const daily = 'Date, USD, JPY, BGN, CZK, \n25 November 2026, 1.0512, 160.12, 1.9558, 25.101, \n';
  const history = [
    'Date,USD,JPY,CYP,',
    '2026-11-03,1.0500,160.00,N/A,',
    '2026-11-02,1.0600,161.00,N/A,',
    '2026-10-31,1.0400,159.00,N/A,',
    'not a date,1,2,3,',
  ].join('\n');

  it('reads the daily file and the history file', () => {
    const d = parseEcbCsv(daily);
    expect(d.errors).toEqual([]);
    expect(d.days.get('2026-11-25')?.get('USD')).toBe('1.0512');
    const h = parseEcbCsv(history);
    expect(h.days.size).toBe(3);
    expect(h.days.get('2026-11-03')?.has('CYP')).toBe(false);
    expect(h.errors).toEqual([{ line: 5, key: 'billing.rates.bad_date' }]);
    expect(parseEcbCsv('USD,JPY\n1,2').errors).toEqual([{ line: 1, key: 'billing.rates.no_header' }]);
  });

  it("a month's rate is the average of its days; EUR amounts exact to the cent", () => {
    const { days } = parseEcbCsv(history);
    expect(monthlyRate(days, '2026-11', 'USD')).toBe('1.055000');
    expect(monthlyRate(days, '2026-10', 'USD')).toBe('1.040000');
    expect(monthlyRate(days, '2026-09', 'USD')).toBeNull();
    expect(monthlyRate(days, '2026-11', 'EUR')).toBe('1');
    expect(toEur('1055.00', 'USD', '1.055000')).toBe('1000.00');
    expect(toEur('100.00', 'USD', '1.0512')).toBe('95.13');
    expect(toEur('-100.00', 'USD', '1.0512')).toBe('-95.13');
    expect(toEur('12.345', 'EUR', null)).toBe('12.35');
    expect(toEur('1.00', 'USD', null)).toBeNull();
  });
});
