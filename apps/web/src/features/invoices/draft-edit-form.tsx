/**
 * Editing a draft (spec 5 "Invoice edit", PATCH /v1/invoices/{id}): fraud and spoofing, each as a
 * percentage of the revenue or as an amount (the other derived as it is typed, with core's
 * computeDeductions, and the spec's 'has to be upper than 0' / 'cannot exceed revenue' next to the
 * field), apply deductions, comments; what the invoice then comes to (net revenue, base, VAT,
 * total), exactly. The draft's version goes with the save: someone else's change in between
 * answers 409, the current figures are shown and what was typed stays.
 */
import { formatMoney, formatNumber } from '@backoffice/core/format';
import type { InvoiceListItem } from '@backoffice/core/invoices';
import { Alert, Button, Descriptions, Form, Input, Segmented, Space, Switch } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import {
  DEDUCTIONS,
  derivedOf,
  fieldErrors,
  modesOf,
  patchBody,
  previewDeductions,
  switchMode,
  valuesOf,
  type DeductionField,
  type DeductionKind,
  type DeductionValues,
} from './deduction-form.ts';
import { PercentCell } from './invoice-cells.tsx';
import { invoicePath } from './invoices-api.ts';

export interface DraftEditFormProps {
  draft: InvoiceListItem;
  canWrite: boolean;
  onSaved: (item: InvoiceListItem) => void;
  onDirtyChange: (dirty: boolean) => void;
}

export function DraftEditForm({ draft, canWrite, onSaved, onDirtyChange }: DraftEditFormProps) {
  const { t } = useTranslation();
  const notice = useNotice();
  const locale = useLocale();
  const [initial, setInitial] = useState<DeductionValues>(() => valuesOf(draft));
  const [values, setValues] = useState<DeductionValues>(initial);
  const [serverErrors, setServerErrors] = useState<Partial<Record<DeductionField, string>>>({});
  const [conflict, setConflict] = useState<InvoiceListItem | null>(null);
  const [saving, setSaving] = useState(false);
  const preview = useMemo(() => previewDeductions(draft, values), [draft, values]);
  const body = patchBody(draft.version, initial, values);
  const dirty = body !== null;

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  // A newer draft (saved here, or changed by someone and read again) shows its figures, unless something is typed.
  useEffect(() => {
    if (dirty) return;
    const fresh = valuesOf(draft, modesOf(values));
    setInitial(fresh);
    setValues(fresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- typed values win over a newer draft
  }, [draft.version]);

  const set = (patch: Partial<DeductionValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServerErrors({});
  };
  const errorOf = (f: DeductionField) => {
    const key = preview.errors[f] ?? serverErrors[f];
    return key ? t(key) : null;
  };

  const save = async () => {
    if (!body) {
      void notice.info(t('invoice.ui.nothing_changed'));
      return;
    }
    if (Object.keys(preview.errors).length > 0) return;
    setSaving(true);
    try {
      const saved = await api.requestFull<InvoiceListItem>(invoicePath(draft.id), { method: 'PATCH', body });
      const fresh = valuesOf(saved.data, modesOf(values));
      setInitial(fresh);
      setValues(fresh);
      setConflict(null);
      void notice.success(t(saved.message && saved.message !== '' ? saved.message : 'invoice.saved'));
      onSaved(saved.data);
    } catch (e) {
      if (e instanceof FetchError && e.key === 'invoice.changed') {
        const current = (e.details.body as { data?: InvoiceListItem } | undefined)?.data;
        if (current) {
          // What was typed stays; it is now compared with (and saved over) the current draft.
          setInitial(valuesOf(current, modesOf(values)));
          setConflict(current);
          onSaved(current);
        } else void notice.warning(t('invoice.changed'));
      } else if (e instanceof FetchError && e.details.errors && Object.keys(e.details.errors).length > 0) {
        setServerErrors(fieldErrors(e.details.errors));
      } else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const deduction = (kind: DeductionKind) => {
    const mode = values[`${kind}_mode`];
    const error = errorOf(`${kind}_value`);
    const derived = derivedOf(kind, mode, preview.value);
    const id = `invoice-${kind}-value`;
    return (
      <fieldset className="bo-inv-deduction" key={kind} data-testid={`invoice-edit-${kind}`}>
        <legend className="bo-inv-deduction__legend">{t(`invoice.ui.deduction.${kind}`)}</legend>
        <Segmented<'percentage' | 'amount'>
          size="small"
          value={mode}
          disabled={!canWrite}
          aria-label={t('invoice.ui.deduction_given_as', { name: t(`invoice.ui.deduction.${kind}`) })}
          onChange={() => set(switchMode(kind, values, preview))}
          options={[
            { value: 'percentage', label: t('invoice.ui.as_percentage') },
            { value: 'amount', label: t('invoice.ui.as_amount') },
          ]}
          data-testid={`invoice-edit-${kind}-mode`}
        />
        <Form.Item
          label={t(mode === 'percentage' ? `invoice.col.${kind}_percentage` : `invoice.col.${kind}_revenue`)}
          htmlFor={id}
          validateStatus={error ? 'error' : undefined}
          help={
            error ? (
              <span data-testid={`invoice-edit-${kind}-error`}>{error}</span>
            ) : derived !== null ? (
              <span data-testid={`invoice-edit-${kind}-derived`}>
                {mode === 'percentage' ? (
                  <>
                    {t(`invoice.col.${kind}_revenue`)}:{' '}
                    <MoneyCell amount={derived} currency={draft.currency} />
                  </>
                ) : (
                  <>
                    {t(`invoice.col.${kind}_percentage`)}: <PercentCell value={derived} />
                  </>
                )}
              </span>
            ) : undefined
          }
          className="bo-inv-deduction__field"
        >
          <Input
            id={id}
            inputMode="decimal"
            autoComplete="off"
            value={values[`${kind}_value`]}
            disabled={!canWrite}
            placeholder={t('invoice.ui.no_deduction')}
            suffix={canWrite ? (mode === 'percentage' ? '%' : draft.currency) : undefined}
            onChange={(e) => set({ [`${kind}_value`]: e.target.value } as Partial<DeductionValues>)}
            aria-invalid={error ? true : undefined}
            data-testid={`invoice-edit-${kind}-value`}
          />
        </Form.Item>
      </fieldset>
    );
  };

  const commentsError = errorOf('comments');
  const v = preview.value;
  return (
    <Form
      layout="vertical"
      component="div"
      className="bo-inv-form bo-inv-edit"
      data-testid="invoice-edit-form"
    >
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          className="bo-inv-gap-bottom"
          title={t('invoice.changed')}
          description={
            <span data-testid="invoice-edit-conflict">
              {t('invoice.ui.conflict_figures', {
                fraud:
                  conflict.fraud_percentage === null
                    ? '—'
                    : `${formatNumber(conflict.fraud_percentage, locale, 2)} %`,
                spoofing:
                  conflict.spoofing_percentage === null
                    ? '—'
                    : `${formatNumber(conflict.spoofing_percentage, locale, 2)} %`,
                net: formatMoney(conflict.new_revenue_net, conflict.currency, locale),
                apply: t(conflict.apply_deductions ? 'common.yes' : 'common.no'),
              })}
            </span>
          }
        />
      ) : null}
      <div className="bo-inv-deductions">{DEDUCTIONS.map(deduction)}</div>
      <Form.Item
        label={t('invoice.col.apply_deductions')}
        htmlFor="invoice-apply-deductions"
        extra={t('invoice.ui.apply_help')}
      >
        <Switch
          id="invoice-apply-deductions"
          checked={values.apply_deductions}
          disabled={!canWrite}
          onChange={(apply_deductions) => set({ apply_deductions })}
          data-testid="invoice-edit-apply"
        />
      </Form.Item>
      <Form.Item
        label={t('invoice.col.comments')}
        htmlFor="invoice-comments"
        validateStatus={commentsError ? 'error' : undefined}
        help={commentsError ?? undefined}
      >
        <Input.TextArea
          id="invoice-comments"
          value={values.comments}
          disabled={!canWrite}
          autoSize={{ minRows: 2, maxRows: 5 }}
          showCount
          maxLength={500}
          onChange={(e) => set({ comments: e.target.value })}
          data-testid="invoice-edit-comments"
        />
      </Form.Item>
      <section aria-live="polite" aria-label={t('invoice.ui.comes_to')} data-testid="invoice-edit-preview">
        <Descriptions
          size="small"
          bordered
          column={1}
          title={t('invoice.ui.comes_to')}
          className="bo-inv-gap-bottom"
        >
          <Descriptions.Item label={t('invoice.col.revenue')}>
            <MoneyCell amount={draft.revenue} currency={draft.currency} />
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.col.revenue_fraud')}>
            {v ? <MoneyCell amount={v.revenue_fraud} currency={draft.currency} /> : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.col.new_revenue_net')}>
            <strong data-testid="invoice-edit-net">
              {v ? <MoneyCell amount={v.new_revenue_net} currency={draft.currency} /> : '—'}
            </strong>
          </Descriptions.Item>
          <Descriptions.Item
            label={`${t('invoice.col.vat_amount')} · ${t(`invoice.tax.${draft.tax_treatment}`)}`}
          >
            {preview.totals ? (
              <MoneyCell amount={preview.totals.vat_amount} currency={draft.currency} />
            ) : (
              '—'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('invoice.col.total')}>
            <strong data-testid="invoice-edit-total">
              {preview.totals ? <MoneyCell amount={preview.totals.total} currency={draft.currency} /> : '—'}
            </strong>
          </Descriptions.Item>
        </Descriptions>
      </section>
      {canWrite ? (
        <Space wrap>
          <Button
            type="primary"
            loading={saving}
            disabled={!dirty || Object.keys(preview.errors).length > 0}
            onClick={() => void save()}
            data-testid="invoice-edit-save"
          >
            {t('common.save')}
          </Button>
          <Button
            disabled={!dirty || saving}
            onClick={() => {
              setValues(initial);
              setServerErrors({});
            }}
            data-testid="invoice-edit-undo"
          >
            {t('invoice.ui.undo_changes')}
          </Button>
        </Space>
      ) : null}
    </Form>
  );
}
