import { describe, expect, it } from 'vitest';
import {
  accountListQuerySchema,
  addFigures,
  billingTermsBodySchema,
  billingTermsForm,
  billingTermsInputSchema,
  dueDate,
  isOverCreditLimit,
  isValidVatId,
  missingBillingInfo,
  parseAccountSort,
  rowStatus,
  statementOf,
  type StatementRow,
} from './billing-accounts.ts';
import { issuesToErrors } from './validation-errors.ts';

const row = (over: Partial<StatementRow> = {}): StatementRow => ({
  month: '2026-01',
  currency: 'USD',
  revenue_gross: '100.00',
  paid_revenue: '0',
  received_payment_date: null,
  charged: false,
  payment_terms: 'net30',
  ...over,
});

const terms = (over: Record<string, unknown> = {}) => ({
  payment_terms: 'net45',
  invoice_currency: 'EUR',
  min_amount: '100',
  billing_mode: 'credit',
  credit_limit: '50000.00',
  billing_email: 'ar@example.com',
  vat_id: 'DE 129 273 398',
  billing_contacts: [{ name: 'Ana Ruiz', email: 'ana@example.com', role: 'accounts_payable' }],
  ...over,
});

const errorsOf = (schema: typeof billingTermsInputSchema, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : issuesToErrors(r.error.issues);
};

describe('billing accounts: due dates', () => {
  it('is the last day of the month plus the term', () => {
    expect(dueDate('2026-01', 'net30')).toBe('2026-03-02');
    expect(dueDate('2026-02', 'net45')).toBe('2026-04-14');
    // A leap February ends on the 29th.
    expect(dueDate('2024-02', 'net60')).toBe('2024-04-29');
    expect(dueDate('2026-12', 'net30')).toBe('2027-01-30');
    expect(dueDate('2026-01', 'unknown')).toBe('2026-01-31');
  });
});

describe('billing accounts: the statement', () => {
  it('sums exactly, per currency, without floats', () => {
    const rows = Array.from({ length: 10 }, () => row({ revenue_gross: '0.10', paid_revenue: '0.03' }));
    const [usd] = statementOf(rows, '2026-01-15');
    expect(usd).toEqual({ currency: 'USD', billed: '1.00', paid: '0.30', outstanding: '0.70', overdue: '0.00', charged: '0.00' });
  });

  it('counts overdue only past the due date, and pending never below 0', () => {
    const rows = [
      row({ month: '2026-01', revenue_gross: '1000.00', paid_revenue: '250.50' }), // due 2026-03-02
      row({ month: '2026-02', revenue_gross: '500.00' }), // due 2026-03-30
      row({ month: '2026-01', revenue_gross: '80.00', paid_revenue: '90.00' }), // overpaid: pending 0
      row({ month: '2026-01', currency: 'EUR', revenue_gross: '10.00', payment_terms: 'net60' }), // due 2026-04-01
    ];
    const on = (today: string) => statementOf(rows, today);
    expect(on('2026-03-02')).toEqual([
      { currency: 'EUR', billed: '10.00', paid: '0.00', outstanding: '10.00', overdue: '0.00', charged: '0.00' },
      { currency: 'USD', billed: '1580.00', paid: '340.50', outstanding: '1249.50', overdue: '0.00', charged: '0.00' },
    ]);
    expect(on('2026-03-03')[1]!.overdue).toBe('749.50');
    expect(on('2026-03-31')[1]!.overdue).toBe('1249.50');
    expect(on('2026-04-02')[0]!.overdue).toBe('10.00');
  });

  it('a received payment date settles a row; a charged row is neither outstanding nor overdue', () => {
    const settled = row({ paid_revenue: '95.00', received_payment_date: '2026-02-10' });
    const charged = row({ charged: true, paid_revenue: '20.00' });
    expect(rowStatus(settled, '2026-06-01')).toMatchObject({ kind: 'settled', overdue: false, badge: 'full_paid', pending: 5_000_000n });
    expect(rowStatus(charged, '2026-06-01')).toMatchObject({ kind: 'charged', overdue: false, badge: 'charged' });
    expect(statementOf([settled, charged], '2026-06-01')).toEqual([
      { currency: 'USD', billed: '200.00', paid: '115.00', outstanding: '0.00', overdue: '0.00', charged: '80.00' },
    ]);
  });

  it('adds the figures of several accounts per currency', () => {
    const a = statementOf([row({ revenue_gross: '0.01' })], '2026-01-01');
    const b = statementOf([row({ revenue_gross: '0.02' }), row({ currency: 'EUR', revenue_gross: '1.00' })], '2026-01-01');
    expect(addFigures([a, b]).map((f) => [f.currency, f.billed, f.outstanding])).toEqual([
      ['EUR', '1.00', '1.00'],
      ['USD', '0.03', '0.03'],
    ]);
  });

  it('a credit account over its limit, in its invoice currency', () => {
    const statement = statementOf([row({ revenue_gross: '1000.01' })], '2026-01-01');
    expect(isOverCreditLimit({ billing_mode: 'credit', credit_limit: '1000.00', invoice_currency: 'USD', statement })).toBe(true);
    expect(isOverCreditLimit({ billing_mode: 'credit', credit_limit: '1000.01', invoice_currency: 'USD', statement })).toBe(false);
    expect(isOverCreditLimit({ billing_mode: 'credit', credit_limit: '1.00', invoice_currency: 'EUR', statement })).toBe(false);
    expect(isOverCreditLimit({ billing_mode: 'credit', credit_limit: null, invoice_currency: 'USD', statement })).toBe(false);
    expect(isOverCreditLimit({ billing_mode: 'prepayment', credit_limit: '1.00', invoice_currency: 'USD', statement })).toBe(false);
  });
});

describe('billing accounts: billing information', () => {
  it('names what an invoice lacks', () => {
    expect(missingBillingInfo(null)).toEqual(['company']);
    expect(missingBillingInfo({ tax_id: ' ', address: 'Calle 1', city: 'Madrid', postal_code: '28001' })).toEqual(['tax_id']);
    expect(missingBillingInfo({ tax_id: 'B1', address: 'Calle 1', city: '', postal_code: '28001' })).toEqual(['address']);
    expect(missingBillingInfo({ tax_id: 'B1', address: 'Calle 1', city: 'Madrid', postal_code: '28001' })).toEqual([]);
  });

  it('checks EU VAT ids with their country rule, others by shape', () => {
    expect(isValidVatId('DE129273398')).toBe(true);
    expect(isValidVatId('DE129273399')).toBe(false);
    expect(isValidVatId('ES B-8642197-1')).toBe(true);
    expect(isValidVatId('ESB86421970')).toBe(false);
    expect(isValidVatId('EL094259216')).toBe(true);
    expect(isValidVatId('GB123456789')).toBe(true);
    expect(isValidVatId('47-1234567')).toBe(true);
    expect(isValidVatId('AB')).toBe(false);
  });
});

describe('billing accounts: the terms form', () => {
  it('normalises and accepts valid terms', () => {
    const r = billingTermsInputSchema.parse(terms());
    expect(r.vat_id).toBe('DE129273398');
    expect(r.min_amount).toBe('100');
  });

  it('refuses bad values with message keys next to their fields', () => {
    expect(
      errorsOf(
        billingTermsInputSchema,
        terms({ payment_terms: 'net90', min_amount: '-1', credit_limit: '1.234', billing_email: 'nope', vat_id: 'DE129273399' }),
      ),
    ).toEqual({
      payment_terms: 'error.invalid_value',
      min_amount: 'demand_partner.min_amount_invalid',
      credit_limit: 'billing_account.credit_limit_invalid',
      billing_email: 'company.email_invalid',
      vat_id: 'billing_account.vat_id_invalid',
    });
    expect(errorsOf(billingTermsInputSchema, terms({ billing_mode: 'prepayment' }))).toEqual({ credit_limit: 'billing_account.credit_limit_prepayment' });
    expect(errorsOf(billingTermsInputSchema, terms({ billing_mode: 'prepayment', credit_limit: null }))).toEqual({});
    expect(
      errorsOf(
        billingTermsInputSchema,
        terms({
          billing_contacts: [
            { name: '', email: 'a@example.com', role: 'finance' },
            { name: 'B', email: 'b@example', role: 'boss' },
          ],
        }),
      ),
    ).toEqual({
      'billing_contacts.0.name': 'error.required',
      'billing_contacts.1.email': 'company.email_invalid',
      'billing_contacts.1.role': 'billing_account.contact_role_required',
    });
    expect(
      errorsOf(billingTermsInputSchema, terms({ billing_contacts: [{ name: 'A', email: 'a@example.com', role: 'finance' }, { name: 'B', email: 'A@example.com', role: 'legal' }] })),
    ).toEqual({ billing_contacts: 'billing_account.contact_duplicate' });
  });

  it('the PUT body needs the version', () => {
    expect(billingTermsBodySchema.safeParse(terms()).success).toBe(false);
    expect(billingTermsBodySchema.safeParse({ ...terms(), version: 3 }).success).toBe(true);
  });

  it('declares a label for every field the form sends', () => {
    const def = billingTermsForm('ssp');
    expect(def.acl).toBe('/v1/billing/ssp');
    expect(Object.keys(def.schema.shape).every((k) => def.fields[k]?.label)).toBe(true);
  });
});

describe('billing accounts: the list query', () => {
  it('parses filters and refuses what it does not know', () => {
    const q = accountListQuerySchema.parse({ billing_mode: 'prepayment', payment_terms: 'net30,net60', missing: 'true', sort: '-outstanding' });
    expect(q).toMatchObject({ billing_mode: ['prepayment'], payment_terms: ['net30', 'net60'], currency: [], missing: 'true', page: 1, page_size: 25 });
    expect(parseAccountSort(q.sort)).toEqual({ field: 'outstanding', desc: true });
    expect(accountListQuerySchema.safeParse({ billing_mode: 'cash' }).success).toBe(false);
    expect(accountListQuerySchema.safeParse({ sort: 'margin' }).success).toBe(false);
    expect(accountListQuerySchema.safeParse({ page_size: '500' }).success).toBe(false);
    expect(accountListQuerySchema.safeParse({ nope: '1' }).success).toBe(false);
  });
});
