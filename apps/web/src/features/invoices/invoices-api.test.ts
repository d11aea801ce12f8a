import { describe, expect, it } from 'vitest';
import {
  checkCreditNote,
  documentLink,
  lastMonth,
  leftToCredit,
  monthChoices,
  normalizeDecimal,
  precreationPatch,
  previewPatch,
  previewQuery,
  readPrecreationView,
  readPreviewView,
  selectByCounterparty,
  totalsByCurrency,
} from './invoices-api.ts';
import { patchBody, previewDeductions, switchMode, valuesOf, type DraftFigures } from './deduction-form.ts';

const NOV_2026 = Date.UTC(2026, 10, 26);

describe('invoices preview view in the URL', () => {
  it('reads a link, falling back to defaults for what does not parse', () => {
    const v = readPreviewView(
      new URLSearchParams(
        'tab=invoices&q=Nimbus&state=paid,draft,sent&month=2026-09&sort=-total&page=3&size=100&open=42',
      ),
    );
    expect(v).toEqual({
      tab: 'invoices',
      search: 'Nimbus',
      state: ['paid', 'sent'],
      month: '2026-09',
      sort: '-total',
      page: 3,
      pageSize: 100,
      open: 42,
    });
    expect(
      readPreviewView(
        new URLSearchParams('tab=nope&state=paid&month=2026-13&sort=-nope&page=0&size=7&open=-1'),
      ),
    ).toEqual({
      tab: 'drafts',
      search: '',
      state: [],
      month: '',
      sort: '-id',
      page: 1,
      pageSize: 50,
      open: null,
    });
  });

  it('writes only what differs from the defaults', () => {
    expect(
      previewPatch({ tab: 'drafts', sort: '-id', page: 1, pageSize: 50, open: null, state: [], search: '' }),
    ).toEqual({
      tab: null,
      sort: null,
      page: null,
      size: null,
      open: null,
      state: null,
      q: null,
    });
    expect(
      previewPatch({
        tab: 'credit_notes',
        sort: 'name',
        page: 2,
        pageSize: 25,
        open: 7,
        state: ['paid', 'sent'],
        month: '2026-10',
      }),
    ).toEqual({
      tab: 'credit_notes',
      sort: 'name',
      page: '2',
      size: '25',
      open: '7',
      state: 'paid,sent',
      month: '2026-10',
    });
  });

  it('asks each tab for its kind and states', () => {
    const base = readPreviewView(new URLSearchParams('q=Acme&month=2026-10'));
    expect(previewQuery('ssp', base)).toEqual({
      team: 'ssp',
      kind: 'invoice',
      state: 'draft',
      q: 'Acme',
      month: '2026-10',
      sort: '-id',
      page: 1,
      page_size: 50,
    });
    expect(previewQuery('performance', { ...base, tab: 'invoices' }).state).toBe(
      'issued,sent,partly_paid,paid,credited',
    );
    expect(previewQuery('ssp', { ...base, tab: 'invoices', state: ['paid'] }).state).toBe('paid');
    const cn = previewQuery('ssp', { ...base, tab: 'credit_notes' });
    expect(cn.kind).toBe('credit_note');
    expect(cn.state).toBeUndefined();
    expect(documentLink('ssp', 'credit_note', 9)).toBe('/billing/ssp?tab=credit_notes&open=9');
  });
});

describe('precreation view in the URL', () => {
  it('defaults to creating SSP invoices for last month', () => {
    expect(readPrecreationView(new URLSearchParams(''), NOV_2026)).toEqual({
      tab: 'create',
      team: 'ssp',
      months: ['2026-10'],
      invoice: null,
    });
    expect(lastMonth(Date.UTC(2026, 0, 3))).toBe('2025-12');
  });

  it('keeps valid months sorted and unique, at most 12', () => {
    const v = readPrecreationView(
      new URLSearchParams('tab=credit&team=performance&months=2026-10,2026-08,bad,2026-10&invoice=12'),
      NOV_2026,
    );
    expect(v).toEqual({ tab: 'credit', team: 'performance', months: ['2026-08', '2026-10'], invoice: 12 });
    const many = Array.from({ length: 15 }, (_, i) => `2025-${String((i % 12) + 1).padStart(2, '0')}`).join(
      ',',
    );
    expect(
      readPrecreationView(new URLSearchParams(`months=${many},2026-01,2026-02,2026-03`), NOV_2026).months,
    ).toHaveLength(12);
    expect(
      precreationPatch({ tab: 'create', team: 'ssp', months: ['2026-10', '2026-09'], invoice: null }),
    ).toEqual({
      tab: null,
      team: null,
      months: '2026-09,2026-10',
      invoice: null,
    });
  });

  it('offers this month and the 23 before it', () => {
    const m = monthChoices(NOV_2026);
    expect(m).toHaveLength(24);
    expect(m[0]).toBe('2026-11');
    expect(m[23]).toBe('2024-12');
  });
});

describe('money without floats', () => {
  it('sums per currency exactly', () => {
    expect(
      totalsByCurrency([
        { currency: 'USD', total: '0.10' },
        { currency: 'EUR', total: '0.20' },
        { currency: 'USD', total: '0.20' },
        { currency: 'EUR', total: '1210.00' },
      ]),
    ).toEqual([
      { currency: 'EUR', count: 2, total: '1210.20' },
      { currency: 'USD', count: 2, total: '0.30' },
    ]);
    expect(normalizeDecimal(' 12,5 ')).toBe('12.5');
    expect(normalizeDecimal('1.234,50')).toBe('1.234,50');
  });

  it('counts what is left to credit from the credit notes’ (negative) bases', () => {
    expect(leftToCredit('1000.00', [])).toBe('1000.00');
    expect(leftToCredit('1000.00', ['-250.10', '-0.90'])).toBe('749.00');
    expect(leftToCredit('1000.00', ['-1000.00'])).toBe('0.00');
  });
});

describe('credit note form', () => {
  const reason = 'Fraudulent traffic found after issuing';
  it('takes the whole of what is left when the amount is empty', () => {
    expect(checkCreditNote({ amount: '', reason }, '500.00')).toEqual({ ok: true, body: { reason } });
    expect(checkCreditNote({ amount: '120,5', reason: `  ${reason}  ` }, '500.00')).toEqual({
      ok: true,
      body: { reason, amount: '120.5' },
    });
  });

  it('refuses with core’s keys next to each field', () => {
    expect(checkCreditNote({ amount: '0', reason: 'short' }, '500.00')).toEqual({
      ok: false,
      errors: { amount: 'invoice.credit.amount_invalid', reason: 'invoice.credit.reason_short' },
    });
    expect(checkCreditNote({ amount: '12.345', reason }, '500.00')).toEqual({
      ok: false,
      errors: { amount: 'invoice.credit.amount_invalid' },
    });
    expect(checkCreditNote({ amount: '-5', reason }, '500.00')).toEqual({
      ok: false,
      errors: { amount: 'invoice.credit.amount_invalid' },
    });
    expect(checkCreditNote({ amount: '500.01', reason }, '500.00')).toEqual({
      ok: false,
      errors: { amount: 'invoice.credit.amount_exceeds' },
    });
    expect(checkCreditNote({ amount: '', reason: 'x'.repeat(301) }, '500.00')).toEqual({
      ok: false,
      errors: { reason: 'invoice.credit.reason_long' },
    });
  });
});

describe('draft deductions form', () => {
  const draft: DraftFigures = {
    revenue: '10000.00',
    fraud_percentage: null,
    fraud_revenue: null,
    spoofing_percentage: '2.00',
    spoofing_revenue: '200.00',
    apply_deductions: true,
    comments: null,
    tax_treatment: 'domestic',
    version: 4,
  };

  it('derives the amount from a percentage and the other way round, with base, VAT and total', () => {
    const v = { ...valuesOf(draft), fraud_value: '12,5' };
    const p = previewDeductions(draft, v);
    expect(p.errors).toEqual({});
    expect(p.value).toMatchObject({
      fraud_percentage: '12.50',
      fraud_revenue: '1250.00',
      revenue_fraud: '1450.00',
      new_revenue_net: '8550.00',
    });
    expect(p.totals).toEqual({
      base: '8550.00',
      vat_rate: '21.00',
      vat_amount: '1795.50',
      total: '10345.50',
    });
    const byAmount = previewDeductions(draft, { ...v, fraud_mode: 'amount', fraud_value: '333.33' });
    expect(byAmount.value?.fraud_percentage).toBe('3.33');
    expect(switchMode('fraud', v, p)).toEqual({ fraud_mode: 'amount', fraud_value: '1250.00' });
  });

  it('shows the spec’s messages next to the field', () => {
    const zero = previewDeductions(draft, { ...valuesOf(draft), fraud_mode: 'amount', fraud_value: '0' });
    expect(zero.errors).toEqual({ fraud_value: 'invoice.deduction.positive' });
    const over = previewDeductions(draft, {
      ...valuesOf(draft),
      fraud_mode: 'amount',
      fraud_value: '10000.01',
    });
    expect(over.errors).toEqual({ fraud_value: 'invoice.deduction.exceeds' });
    const together = previewDeductions(draft, { ...valuesOf(draft), fraud_value: '99' });
    expect(together.errors).toEqual({ spoofing_value: 'invoice.deduction.exceeds' });
    const bad = previewDeductions(draft, {
      ...valuesOf(draft),
      fraud_value: 'abc',
      comments: 'x'.repeat(501),
    });
    expect(bad.errors).toEqual({
      fraud_value: 'invoice.deduction.invalid',
      comments: 'invoice.comments_too_long',
    });
    expect(bad.value).toBeNull();
  });

  it('sends only what changed, a changed deduction with both of its fields', () => {
    const initial = valuesOf(draft);
    expect(patchBody(4, initial, initial)).toBeNull();
    expect(patchBody(4, initial, { ...initial, fraud_mode: 'amount', fraud_value: '250' })).toEqual({
      version: 4,
      fraud_percentage: null,
      fraud_revenue: '250',
    });
    expect(
      patchBody(4, initial, {
        ...initial,
        spoofing_value: '',
        apply_deductions: false,
        comments: ' checked ',
      }),
    ).toEqual({
      version: 4,
      spoofing_percentage: null,
      spoofing_revenue: null,
      apply_deductions: false,
      comments: 'checked',
    });
  });
});

describe('draft values after a save', () => {
  it('show each deduction the way it was typed', () => {
    const saved: DraftFigures = {
      revenue: '1000.00',
      fraud_percentage: '25.00',
      fraud_revenue: '250.00',
      spoofing_percentage: null,
      spoofing_revenue: null,
      apply_deductions: true,
      comments: 'ok',
      tax_treatment: 'reverse_charge',
      version: 2,
    };
    expect(valuesOf(saved, { fraud: 'amount', spoofing: 'percentage' })).toEqual({
      fraud_mode: 'amount',
      fraud_value: '250.00',
      spoofing_mode: 'percentage',
      spoofing_value: '',
      apply_deductions: true,
      comments: 'ok',
    });
  });
});

describe('precreation candidates', () => {
  const c = (id: number, currency: string) => ({ counterparty_id: id, currency });
  const rows = [c(1, 'EUR'), c(1, 'USD'), c(2, 'EUR')];
  it('selects and unselects a counterparty’s lines together (the API drafts all its currencies)', () => {
    expect([...selectByCounterparty(rows, new Set(), new Set(['1-USD']))]).toEqual(['1-EUR', '1-USD']);
    expect([
      ...selectByCounterparty(rows, new Set(['1-EUR', '1-USD', '2-EUR']), new Set(['1-USD', '2-EUR'])),
    ]).toEqual(['2-EUR']);
    expect([...selectByCounterparty(rows, new Set(), new Set(['1-EUR', '1-USD', '2-EUR']))]).toHaveLength(3);
  });
});
