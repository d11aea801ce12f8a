/**
 * A row's payments and "Record payment" (POST …/rows/{id}/payments): amount, date, document id,
 * bank reference and "settles the row" (a short payment that closes it: bank fees). Only a
 * confirmed, approved or invoiced row that is not settled takes payments. The API's errors show
 * next to their fields and what was typed stays.
 */
import type { BillingRowDto, BillingSide } from '@backoffice/core/billing-api';
import { billingPaymentSchema } from '@backoffice/core/billing-api';
import { todayIn } from '@backoffice/core/dates';
import { formatMoney } from '@backoffice/core/format';
import { Alert, Button, Checkbox, Form, Input, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import type { BillingPayment } from './billing-api.ts';
import { EmptyText } from './row-cells.tsx';

interface Values {
  amount: string;
  paid_on: string | null;
  document_id: string;
  reference: string;
  settles: boolean;
}

const PAYABLE = ['confirmed', 'approved', 'invoiced'];

export function PaymentsList({ row, payments }: { row: BillingRowDto; payments: BillingPayment[] | null }) {
  const { t } = useTranslation();
  if (payments === null) return null;
  return (
    <Table<BillingPayment>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={payments}
      className="bo-bill-subtable"
      locale={{ emptyText: <EmptyText>{t('billing.ui.no_payments')}</EmptyText> }}
      data-testid="billing-payments"
      columns={[
        { key: 'paid_on', title: t('billing.ui.paid_on'), render: (_: unknown, p) => p.paid_on },
        {
          key: 'amount',
          title: t('billing.ui.amount'),
          align: 'right',
          render: (_: unknown, p) => <MoneyCell amount={p.amount} currency={row.currency} />,
        },
        {
          key: 'document_id',
          title: t('billing.col.document_id'),
          render: (_: unknown, p) => p.document_id ?? '—',
        },
        {
          key: 'reference',
          title: t('billing.ui.reference'),
          render: (_: unknown, p) => (
            <>
              {p.reference || '—'}
              <div className="bo-bill-muted">
                {t(`billing.ui.payment_source.${p.source}`)}
                {p.settles ? ` · ${t('billing.ui.settles_short')}` : ''}
                {p.created_by ? ` · ${p.created_by}` : ''}
              </div>
            </>
          ),
        },
      ]}
    />
  );
}

export interface PaymentFormProps {
  side: BillingSide;
  row: BillingRowDto;
  canWrite: boolean;
  onRecorded: (row: BillingRowDto) => void;
  onStale: () => void;
}

export function PaymentForm(props: PaymentFormProps) {
  const { t } = useTranslation();
  const { row } = props;
  if (!props.canWrite) return null;
  if (!PAYABLE.includes(row.state))
    return (
      <Alert
        type="info"
        showIcon
        title={t('billing.payment_not_billed')}
        data-testid="billing-payment-not-billed"
      />
    );
  if (row.received_payment_date)
    return (
      <Alert
        type="success"
        showIcon
        title={t('billing.ui.settled_on', { date: row.received_payment_date })}
      />
    );
  return <PaymentFormFields {...props} />;
}

function PaymentFormFields({ side, row, onRecorded, onStale }: PaymentFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const record = async (v: Values) => {
    const body = {
      amount: (v.amount ?? '').trim(),
      paid_on: v.paid_on ?? '',
      document_id: v.document_id?.trim() ? v.document_id.trim() : null,
      reference: (v.reference ?? '').trim(),
      settles: Boolean(v.settles),
      version: row.version,
    };
    const check = billingPaymentSchema.safeParse(body);
    if (!check.success) {
      form.setFields(
        check.error.issues.map((i) => ({ name: String(i.path[0]) as keyof Values, errors: [t(i.message)] })),
      );
      return;
    }
    setBusy(true);
    try {
      const saved = await api.request<BillingRowDto>(`billing/${side}/rows/${row.id}/payments`, {
        method: 'POST',
        body: check.data,
      });
      void notice.success(t('billing.payment_recorded'));
      form.resetFields();
      onRecorded(saved);
    } catch (e) {
      if (e instanceof FetchError && e.details.errors && Object.keys(e.details.errors).length > 0) {
        form.setFields(
          Object.entries(e.details.errors).map(([name, key]) => ({
            name: name as keyof Values,
            errors: [t(key)],
          })),
        );
      } else if (e instanceof FetchError && e.key === 'billing.row_changed') {
        void notice.warning(t('billing.row_changed'));
        onStale();
      } else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      className="bo-bill-payment-form"
      initialValues={{
        amount: '',
        paid_on: todayIn(),
        document_id: row.document_id ?? '',
        reference: '',
        settles: false,
      }}
      onFinish={(v) => void record(v)}
      data-testid="billing-payment-form"
    >
      <Typography.Title level={2} className="bo-bill-subtitle">
        {t('billing.ui.record_payment')}
      </Typography.Title>
      <div className="bo-bill-form-grid">
        <Form.Item
          name="amount"
          label={t('billing.ui.amount')}
          extra={t('billing.ui.pending_is', { amount: formatMoney(row.pending, row.currency, locale) })}
        >
          <Input inputMode="decimal" suffix={row.currency} data-testid="billing-payment-amount" />
        </Form.Item>
        <Form.Item name="paid_on" label={t('billing.ui.paid_on')}>
          <DateInput allowClear={false} data-testid="billing-payment-date" />
        </Form.Item>
        <Form.Item name="document_id" label={t('billing.col.document_id')}>
          <Input maxLength={64} data-testid="billing-payment-document" />
        </Form.Item>
        <Form.Item name="reference" label={t('billing.ui.reference')}>
          <Input maxLength={200} data-testid="billing-payment-reference" />
        </Form.Item>
      </div>
      <Form.Item name="settles" valuePropName="checked" extra={t('billing.ui.settles_help')}>
        <Checkbox data-testid="billing-payment-settles">{t('billing.ui.settles')}</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="billing-payment-save">
        {t('billing.ui.record_payment')}
      </Button>
    </Form>
  );
}
