/**
 * The draft edit form's rules (spec 5, "Invoice edit"), the browser's side of core's
 * computeDeductions: each deduction (fraud, spoofing) is typed as a percentage of the revenue or
 * as an amount, the other is derived live; errors carry core's message keys ('has to be upper
 * than 0', 'cannot exceed revenue'); the PATCH body holds only what changed, with the version.
 */
import {
  computeDeductions,
  invoicePatchSchema,
  totalsOf,
  type DeductionErrors,
  type Deductions,
  type InvoiceListItem,
  type InvoicePatch,
} from '@backoffice/core/invoices';
import { normalizeDecimal } from './invoices-api.ts';

export const DEDUCTIONS = ['fraud', 'spoofing'] as const;
export type DeductionKind = (typeof DEDUCTIONS)[number];
export type DeductionMode = 'percentage' | 'amount';

export interface DeductionValues {
  fraud_mode: DeductionMode;
  fraud_value: string;
  spoofing_mode: DeductionMode;
  spoofing_value: string;
  apply_deductions: boolean;
  comments: string;
}

/** A form field of the edit form, where the errors of a deduction show. */
export type DeductionField = 'fraud_value' | 'spoofing_value' | 'comments';

export type DraftFigures = Pick<
  InvoiceListItem,
  | 'revenue'
  | 'fraud_percentage'
  | 'fraud_revenue'
  | 'spoofing_percentage'
  | 'spoofing_revenue'
  | 'apply_deductions'
  | 'comments'
  | 'tax_treatment'
  | 'version'
>;

/**
 * The form's values for a draft: each deduction in the way it is typed (`modes`, a percentage by
 * default) with the draft's figure for it (as stored: typed or derived).
 */
export function valuesOf(
  d: DraftFigures,
  modes: { fraud: DeductionMode; spoofing: DeductionMode } = { fraud: 'percentage', spoofing: 'percentage' },
): DeductionValues {
  const figure = (kind: DeductionKind) =>
    (modes[kind] === 'percentage' ? d[`${kind}_percentage`] : d[`${kind}_revenue`]) ?? '';
  return {
    fraud_mode: modes.fraud,
    fraud_value: figure('fraud'),
    spoofing_mode: modes.spoofing,
    spoofing_value: figure('spoofing'),
    apply_deductions: d.apply_deductions,
    comments: d.comments ?? '',
  };
}

/** The modes of typed values (to show a saved draft the way it was typed). */
export const modesOf = (v: DeductionValues) => ({ fraud: v.fraud_mode, spoofing: v.spoofing_mode });

const fieldSchema = {
  percentage: invoicePatchSchema.shape.fraud_percentage,
  amount: invoicePatchSchema.shape.fraud_revenue,
};

export interface DeductionPreview {
  /** What the deductions come to, with base, VAT and total of the invoice (all exact). */
  value: Deductions | null;
  totals: { base: string; vat_rate: string; vat_amount: string; total: string } | null;
  /** Message keys per form field. */
  errors: Partial<Record<DeductionField, string>>;
}

/** The percentage and amount a value means in the API's terms (null when empty). */
function inputOf(mode: DeductionMode, value: string): { pct: string | null; amount: string | null } {
  const v = normalizeDecimal(value);
  if (v === '') return { pct: null, amount: null };
  return mode === 'percentage' ? { pct: v, amount: null } : { pct: null, amount: v };
}

/**
 * The live preview of typed values: each value's format first (core's patch schema), then
 * core's computeDeductions over the draft's revenue.
 */
export function previewDeductions(d: DraftFigures, v: DeductionValues): DeductionPreview {
  const errors: Partial<Record<DeductionField, string>> = {};
  for (const kind of DEDUCTIONS) {
    const value = normalizeDecimal(v[`${kind}_value`]);
    if (value === '') continue;
    const check = fieldSchema[v[`${kind}_mode`]].safeParse(value);
    if (!check.success)
      errors[`${kind}_value`] = check.error.issues[0]?.message ?? 'invoice.deduction.invalid';
  }
  const commentCheck = invoicePatchSchema.shape.comments.safeParse(v.comments);
  if (!commentCheck.success)
    errors.comments = commentCheck.error.issues[0]?.message ?? 'invoice.comments_too_long';
  if (errors.fraud_value || errors.spoofing_value) return { value: null, totals: null, errors };
  const fraud = inputOf(v.fraud_mode, v.fraud_value);
  const spoofing = inputOf(v.spoofing_mode, v.spoofing_value);
  const result = computeDeductions(d.revenue, {
    fraud_percentage: fraud.pct,
    fraud_revenue: fraud.amount,
    spoofing_percentage: spoofing.pct,
    spoofing_revenue: spoofing.amount,
    apply_deductions: v.apply_deductions,
  });
  if (!result.ok) return { value: null, totals: null, errors: { ...errors, ...fieldErrors(result.errors) } };
  return { value: result.value, totals: totalsOf(result.value.new_revenue_net, d.tax_treatment), errors };
}

/** core's (and the API's) error fields as the form's: fraud_percentage and fraud_revenue are one field here. */
export function fieldErrors(
  errors: DeductionErrors | Record<string, string>,
): Partial<Record<DeductionField, string>> {
  const out: Partial<Record<DeductionField, string>> = {};
  for (const [k, key] of Object.entries(errors)) {
    if (k.startsWith('fraud_')) out.fraud_value ??= key;
    else if (k.startsWith('spoofing_')) out.spoofing_value ??= key;
    else if (k === 'comments') out.comments ??= key;
  }
  return out;
}

/**
 * The PATCH body of what changed since `initial` (null when nothing did). A changed deduction
 * sends both its fields, the one not typed as null, so that a stale percentage or amount stored
 * before cannot come back.
 */
export function patchBody(
  version: number,
  initial: DeductionValues,
  v: DeductionValues,
): InvoicePatch | null {
  const body: InvoicePatch = { version };
  for (const kind of DEDUCTIONS) {
    const mode = v[`${kind}_mode`];
    const value = normalizeDecimal(v[`${kind}_value`]);
    const before = normalizeDecimal(initial[`${kind}_value`]);
    if (mode === initial[`${kind}_mode`] && value === before) continue;
    const typed = inputOf(mode, value);
    body[`${kind}_percentage`] = typed.pct;
    body[`${kind}_revenue`] = typed.amount;
  }
  if (v.apply_deductions !== initial.apply_deductions) body.apply_deductions = v.apply_deductions;
  if (v.comments.trim() !== initial.comments.trim())
    body.comments = v.comments.trim() === '' ? null : v.comments.trim();
  return Object.keys(body).length === 1 ? null : body;
}

/** The value to show in the other field of a deduction (the amount when a percentage is typed, and back). */
export function derivedOf(kind: DeductionKind, mode: DeductionMode, value: Deductions | null): string | null {
  if (!value) return null;
  return mode === 'percentage' ? value[`${kind}_revenue`] : value[`${kind}_percentage`];
}

/** Switching a deduction between percentage and amount keeps what it means: the derived figure becomes the typed one. */
export function switchMode(
  kind: DeductionKind,
  v: DeductionValues,
  preview: DeductionPreview,
):
  | Pick<DeductionValues, 'fraud_mode' | 'fraud_value'>
  | Pick<DeductionValues, 'spoofing_mode' | 'spoofing_value'> {
  const mode: DeductionMode = v[`${kind}_mode`] === 'percentage' ? 'amount' : 'percentage';
  const derived = derivedOf(kind, v[`${kind}_mode`], preview.value);
  const value = v[`${kind}_value`].trim() === '' ? '' : (derived ?? '');
  return kind === 'fraud'
    ? { fraud_mode: mode, fraud_value: value }
    : { spoofing_mode: mode, spoofing_value: value };
}
