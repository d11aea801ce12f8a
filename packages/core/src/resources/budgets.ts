/**
 * Budgets (`/partners/perf-budgets-companies`): what a company of the performance side may spend
 * in a month, one budget per company and month. The API adds to each row what the company's
 * performance-side demand partners spent that month in the warehouse and the pacing
 * (`../budgets.ts`, docs/decisions/015-budgets.md). A budget is for a company with at least one
 * performance-side demand partner (the API checks it; the form offers only those companies).
 */
import { z } from 'zod';
import { isBudgetMonth } from '../budgets.ts';
import { CURRENCIES } from './companies.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText, optionalText } from './field-schemas.ts';

/** The largest monthly budget the form takes. */
export const MAX_BUDGET_AMOUNT = 100_000_000;

export const budgetFieldsSchema = z.strictObject({
  // A cleared picker sends null: the form and the API then say what is missing, not "wrong type".
  company_id: z
    .number({ error: 'budget.company_required' })
    .int('budget.company_required')
    .min(1, 'budget.company_required')
    .max(2_147_483_647, 'budget.company_required')
    .nullable()
    .refine((v) => v !== null, 'budget.company_required'),
  month: z
    .string({ error: 'budget.month_invalid' })
    .trim()
    .refine(isBudgetMonth, 'budget.month_invalid'),
  /** Two decimals at most, above 0, sent as text so no float rounding reaches the database. */
  amount: decimalText(2, MAX_BUDGET_AMOUNT, 'budget.amount_invalid').refine((v) => /[1-9]/.test(v), 'budget.amount_invalid'),
  currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('USD'),
  notes: optionalText(500),
});

export type BudgetInput = z.input<typeof budgetFieldsSchema>;

export const budgets = defineResource({
  name: 'budgets',
  entity: 'budget',
  path: '/v1/budgets',
  acl: '/v1/budgets',
  schema: budgetFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    company_id: { label: 'budget.company', type: 'ref', ref: 'companies', list: true, filter: 'in' },
    month: { label: 'budget.month', type: 'text', list: true, sort: true, filter: 'contains' },
    amount: { label: 'budget.amount', type: 'money', list: true, sort: true, filter: 'range' },
    currency: { label: 'budget.currency', type: 'enum', options: CURRENCIES, sort: true, filter: 'in' },
    notes: { label: 'budget.notes', type: 'text' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'month',
  defaultSort: '-month',
  exportName: 'budgets',
});
