/**
 * Editing a billing row (PATCH …/rows/{id}): the revenue network (the partner-reported figure;
 * only while the row is open; empty, or "Use our figure", restores ours), the document id and the
 * description. The margin the typed figure leaves is shown as it is typed, with the spec's
 * warning under 20%. The row's version goes with the save: someone else's change in between
 * answers 409, the row's current figures are shown and what was typed stays.
 */
import { isEditable, isLowMargin, marginPct } from '@backoffice/core/billing';
import { billingRowPatchSchema, type BillingRowDto, type BillingSide } from '@backoffice/core/billing-api';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { effectiveFigure, rowPath } from './billing-api.ts';

interface Values {
  revenue_network: string;
  document_id: string;
  description: string;
}

const valuesOf = (r: BillingRowDto): Values => ({
  revenue_network: r.revenue_network ?? '',
  document_id: r.document_id ?? '',
  description: r.description,
});
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/** The margin a typed figure leaves (core's rule, exact), or null while it is not a number. */
export function previewMargin(
  row: BillingRowDto,
  network: string,
): { pct: string | null; low: boolean } | null {
  const figure = effectiveFigure(row, network);
  if (!DECIMAL.test(figure) && figure !== row.revenue_ours) return null;
  const [revenue, cost] = row.kind === 'advertiser' ? [figure, row.other_side] : [row.other_side, figure];
  return { pct: marginPct(revenue, cost), low: isLowMargin(revenue, cost) };
}

export interface RowEditFormProps {
  side: BillingSide;
  row: BillingRowDto;
  canWrite: boolean;
  onSaved: (row: BillingRowDto) => void;
  onDirtyChange: (dirty: boolean) => void;
}

export function RowEditForm({ side, row, canWrite, onSaved, onDirtyChange }: RowEditFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const network = Form.useWatch('revenue_network', form) ?? row.revenue_network ?? '';
  const editable = isEditable(row.state);

  // A fresh row (opened, saved, or changed by an action) shows its values, unless something is typed.
  useEffect(() => {
    if (!dirty) form.setFieldsValue(valuesOf(row));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- typed values win over a newer row
  }, [row, form]);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const preview = previewMargin(row, network);
  const save = async (values: Values) => {
    const initial = valuesOf(row);
    const body: Record<string, unknown> = { version: row.version };
    if (editable && values.revenue_network.trim() !== (row.revenue_network ?? ''))
      body.revenue_network = values.revenue_network.trim() === '' ? null : values.revenue_network.trim();
    if (values.document_id.trim() !== initial.document_id)
      body.document_id = values.document_id.trim() === '' ? null : values.document_id.trim();
    if (values.description.trim() !== initial.description) body.description = values.description.trim();
    if (Object.keys(body).length === 1) {
      setDirty(false);
      void notice.info(t('billing.nothing_changed'));
      return;
    }
    const check = billingRowPatchSchema.safeParse(body);
    if (!check.success) {
      form.setFields(
        check.error.issues.map((i) => ({ name: String(i.path[0]) as keyof Values, errors: [t(i.message)] })),
      );
      return;
    }
    setSaving(true);
    try {
      const saved = await api.requestFull<BillingRowDto>(rowPath(side, row.id), {
        method: 'PATCH',
        body: check.data,
      });
      setDirty(false);
      setConflict(false);
      form.setFieldsValue(valuesOf(saved.data));
      if (saved.message === 'billing.saved_low_margin') void notice.warning(t('billing.saved_low_margin'));
      else void notice.success(t('billing.saved'));
      onSaved(saved.data);
    } catch (e) {
      if (e instanceof FetchError && e.key === 'billing.row_changed') {
        const current = (e.details.body as { data?: BillingRowDto } | undefined)?.data;
        setConflict(true);
        if (current) {
          // What was typed stays; the fields left alone show the current values (saved again, they would undo the other edit).
          const fresh = valuesOf(current);
          const untouched = (Object.keys(fresh) as (keyof Values)[]).filter((k) => !form.isFieldTouched(k));
          form.setFieldsValue(Object.fromEntries(untouched.map((k) => [k, fresh[k]])));
          onSaved(current);
        }
      } else if (e instanceof FetchError && e.details.errors) {
        form.setFields(
          Object.entries(e.details.errors).map(([name, key]) => ({
            name: name as keyof Values,
            errors: [t(key)],
          })),
        );
      } else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={valuesOf(row)}
      onValuesChange={() => setDirty(true)}
      onFinish={(v) => void save(v)}
      disabled={!canWrite}
      className="bo-bill-edit"
      data-testid="billing-edit-form"
    >
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          className="bo-bill-gap-bottom"
          title={t('billing.row_changed')}
          data-testid="billing-row-conflict"
        />
      ) : null}
      <Form.Item
        label={t('billing.col.revenue_network')}
        extra={
          editable
            ? t('billing.ui.network_help', {
                ours: formatMoney(row.revenue_ours, row.currency, locale),
                currency: row.currency,
              })
            : t('billing.not_editable')
        }
      >
        <Space.Compact className="bo-bill-network">
          <Form.Item name="revenue_network" noStyle>
            <Input
              inputMode="decimal"
              disabled={!editable || !canWrite}
              aria-label={t('billing.col.revenue_network')}
              placeholder={t('billing.ui.ours')}
              // A disabled field's suffix keeps antd's faint colour, under 4.5:1: none then.
              suffix={editable && canWrite ? row.currency : undefined}
              data-testid="billing-edit-network"
            />
          </Form.Item>
          <Button
            disabled={!editable || !canWrite || network === ''}
            onClick={() => {
              form.setFields([{ name: 'revenue_network', value: '', touched: true }]);
              setDirty(true);
            }}
            data-testid="billing-edit-use-ours"
          >
            {t('billing.ui.use_ours')}
          </Button>
        </Space.Compact>
      </Form.Item>
      {preview ? (
        <div className="bo-bill-preview" aria-live="polite" data-testid="billing-margin-preview">
          <Typography.Text type="secondary">{t('billing.ui.margin_preview')}</Typography.Text>{' '}
          <strong>{preview.pct === null ? '—' : `${formatNumber(preview.pct, locale, 2)}%`}</strong>
          {preview.low ? (
            <Alert
              type="warning"
              showIcon
              className="bo-bill-gap-small"
              title={t('billing.ui.margin_low_typed')}
              data-testid="billing-margin-warning"
            />
          ) : null}
        </div>
      ) : null}
      <Form.Item name="document_id" label={t('billing.col.document_id')}>
        <Input maxLength={64} data-testid="billing-edit-document" />
      </Form.Item>
      <Form.Item name="description" label={t('billing.col.description')}>
        <Input.TextArea
          maxLength={500}
          autoSize={{ minRows: 2, maxRows: 5 }}
          data-testid="billing-edit-description"
        />
      </Form.Item>
      {canWrite ? (
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            loading={saving}
            disabled={!dirty}
            data-testid="billing-edit-save"
          >
            {t('common.save')}
          </Button>
          <Button
            disabled={!dirty || saving}
            onClick={() => {
              form.setFieldsValue(valuesOf(row));
              setDirty(false);
              setConflict(false);
            }}
          >
            {t('billing.ui.undo_changes')}
          </Button>
        </Space>
      ) : null}
    </Form>
  );
}
