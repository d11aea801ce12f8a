/**
 * What can be done with one document, from its drawer (spec 4 "Invoice actions": regenerate PDF,
 * mark as paid, back to pending, download, show advertiser information; and download UBL and
 * Facturae XML, send by e-mail, record a payment, create a credit note). A draft: issue, block or
 * unblock the counterparty's invoicing, discard. Final or destructive actions ask first; every
 * action disables its button while it runs and ends with the API's translated message.
 */
import {
  CheckCircleOutlined,
  DeleteOutlined,
  DownOutlined,
  DownloadOutlined,
  LockOutlined,
  MoreOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { todayIn } from '@backoffice/core/dates';
import { formatMoney } from '@backoffice/core/format';
import {
  invoicePaymentSchema,
  invoiceSendSchema,
  toCents,
  type InvoiceDetail,
  type InvoiceListItem,
} from '@backoffice/core/invoices';
import { Button, Dropdown, Form, Input, Select, Space, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ActionModal } from '../../components/action-modal.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { useApiAction, type ConfirmOptions } from '../../components/use-api-action.ts';
import { api, errorText } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { AdvertiserInfo } from './advertiser-info.tsx';
import {
  canBeCredited,
  canGoBackToPending,
  canTakePayment,
  invoicePath,
  normalizeDecimal,
} from './invoices-api.ts';
import { ISSUER_ZONE, type IssueAction } from './use-issue.tsx';

export interface InvoiceActionsProps {
  item: InvoiceListItem;
  detail: InvoiceDetail | null;
  canWrite: boolean;
  canApprove: boolean;
  issue: IssueAction;
  /** After a change: read the list and the document again. */
  onChanged: () => void;
  /** After the draft is gone. */
  onDiscarded: () => void;
}

type Busy = 'pdf' | 'ubl' | 'facturae' | 'regenerate' | 'paid' | 'pending' | 'discard';

/** POST an action; its answer carries the API's message key. */
async function post<T>(path: string, body: unknown = {}) {
  return api.requestFull<T>(path, { method: 'POST', body });
}

/** The field errors of a rejected request (field, message key), none for other errors. */
function fieldErrors(e: unknown): [string, string][] {
  return e instanceof FetchError && e.details.errors ? Object.entries(e.details.errors) : [];
}

export function InvoiceActions({
  item,
  detail,
  canWrite,
  canApprove,
  issue,
  onChanged,
  onDiscarded,
}: InvoiceActionsProps) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const navigate = useNavigate();
  const notice = useNotice();
  const locale = useLocale();
  const { busy, run, confirm } = useApiAction<Busy>();
  const [dialog, setDialog] = useState<'send' | 'payment' | 'block' | null>(null);

  const download = (what: 'pdf' | 'ubl' | 'facturae') =>
    run(what, async () => {
      const ext = what === 'pdf' ? 'pdf' : what === 'ubl' ? 'ubl.xml' : 'xsig.xml';
      await downloadApiFile(`/v1/invoices/${item.id}/${what}`, {}, `${item.number ?? item.id}.${ext}`);
      return null;
    });
  const regenerate = () =>
    run('regenerate', async () => {
      const answer = await post<{ same: boolean }>(`${invoicePath(item.id)}/pdf`);
      onChanged();
      if (answer.data.same) return answer.message || 'invoice.pdf_same';
      void notice.warning(t(answer.message || 'invoice.pdf_changed'));
      return null;
    });
  /** Asks first, then POSTs (or DELETEs) the action and shows the API's message. */
  const confirmed = (
    what: Busy,
    ask: Omit<ConfirmOptions, 'className'>,
    call: () => Promise<{ message: string | null }>,
    fallback: string,
    after: () => void,
  ) =>
    confirm({ ...ask, className: 'bo-inv-danger-scope' }, what, async () => {
      const answer = await call();
      after();
      return answer.message || fallback;
    });
  const markPaid = () =>
    confirmed(
      'paid',
      {
        title: t('invoice.ui.mark_paid_title', { number: item.number ?? '' }),
        content: t('invoice.ui.mark_paid_body', {
          amount: formatMoney(item.outstanding, item.currency, locale),
        }),
        ok: t('invoice.ui.mark_paid'),
        testId: 'invoice-mark-paid-ok',
      },
      () => post<InvoiceListItem>(`${invoicePath(item.id)}/mark-paid`),
      'invoice.marked_paid',
      onChanged,
    );
  const backToPending = () =>
    confirmed(
      'pending',
      {
        title: t('invoice.ui.back_to_pending_title', { number: item.number ?? '' }),
        content: t('invoice.ui.back_to_pending_body', {
          amount: formatMoney(item.paid, item.currency, locale),
        }),
        ok: t('invoice.ui.back_to_pending'),
        danger: true,
        testId: 'invoice-back-to-pending-ok',
      },
      () => post<InvoiceListItem>(`${invoicePath(item.id)}/back-to-pending`),
      'invoice.back_to_pending',
      onChanged,
    );
  const discard = () =>
    confirmed(
      'discard',
      {
        title: t('invoice.ui.discard_title', { name: item.name }),
        content: t('invoice.ui.discard_body'),
        ok: t('invoice.ui.discard'),
        danger: true,
        testId: 'invoice-discard-ok',
      },
      () => api.requestFull<null>(invoicePath(item.id), { method: 'DELETE' }),
      'invoice.discarded',
      onDiscarded,
    );
  const creditNote = () =>
    navigate(
      `/${lang ?? 'en'}/billing_ssp/invoice-precreation?tab=credit&team=${item.team}&invoice=${item.id}`,
    );

  const dialogs = (
    <>
      {dialog === 'send' ? (
        <SendDialog item={item} detail={detail} onClose={() => setDialog(null)} onSent={onChanged} />
      ) : null}
      {dialog === 'payment' ? (
        <PaymentDialog item={item} onClose={() => setDialog(null)} onRecorded={onChanged} />
      ) : null}
      {dialog === 'block' ? (
        <BlockDialog item={item} onClose={() => setDialog(null)} onChanged={onChanged} />
      ) : null}
    </>
  );

  if (item.state === 'draft') {
    return (
      <Space wrap role="group" aria-label={t('invoice.ui.actions')}>
        {canApprove ? (
          <Button
            type="primary"
            loading={issue.busy}
            disabled={issue.busy}
            onClick={() => issue.start([item])}
            data-testid="invoice-action-issue"
          >
            {t('invoice.ui.issue')}
          </Button>
        ) : null}
        {canWrite ? (
          <>
            <Button
              icon={item.blocked ? <UnlockOutlined /> : <LockOutlined />}
              onClick={() => setDialog('block')}
              data-testid="invoice-action-block"
            >
              {t(item.blocked ? 'invoice.ui.unblock' : 'invoice.ui.block')}
            </Button>
            <Button
              danger
              icon={<DeleteOutlined />}
              loading={busy === 'discard'}
              onClick={discard}
              data-testid="invoice-action-discard"
            >
              {t('invoice.ui.discard')}
            </Button>
          </>
        ) : null}
        <AdvertiserInfo item={item} detail={detail} />
        {dialogs}
      </Space>
    );
  }

  const more: MenuProps['items'] = [
    {
      key: 'ubl',
      label: t('invoice.ui.download_ubl'),
      icon: <DownloadOutlined />,
      onClick: () => void download('ubl'),
    },
    {
      key: 'facturae',
      label: t('invoice.ui.download_facturae'),
      icon: <DownloadOutlined />,
      onClick: () => void download('facturae'),
    },
    ...(canWrite
      ? [
          { key: 'regenerate', label: t('invoice.ui.regenerate_pdf'), onClick: () => void regenerate() },
          { key: 'send', label: t('invoice.ui.send'), onClick: () => setDialog('send') },
        ]
      : []),
    ...(canWrite && canTakePayment(item)
      ? [{ key: 'payment', label: t('invoice.ui.record_payment'), onClick: () => setDialog('payment') }]
      : []),
    ...(canWrite && canGoBackToPending(item)
      ? [{ key: 'pending', label: t('invoice.ui.back_to_pending'), danger: true, onClick: backToPending }]
      : []),
    ...(canApprove && canBeCredited(item)
      ? [{ key: 'credit', label: t('invoice.ui.create_credit_note'), onClick: creditNote }]
      : []),
  ];
  return (
    <Space wrap role="group" aria-label={t('invoice.ui.actions')}>
      <Button
        type="primary"
        icon={<DownloadOutlined />}
        loading={busy === 'pdf'}
        onClick={() => void download('pdf')}
        data-testid="invoice-action-pdf"
      >
        {t('invoice.ui.download_pdf')}
      </Button>
      {canWrite && canTakePayment(item) ? (
        <Button
          icon={<CheckCircleOutlined />}
          loading={busy === 'paid'}
          onClick={markPaid}
          data-testid="invoice-action-mark-paid"
        >
          {t('invoice.ui.mark_paid')}
        </Button>
      ) : null}
      <AdvertiserInfo item={item} detail={detail} />
      <Dropdown trigger={['click']} menu={{ items: more }}>
        <Button
          icon={<MoreOutlined />}
          loading={busy === 'ubl' || busy === 'facturae' || busy === 'regenerate' || busy === 'pending'}
          data-testid="invoice-action-more"
        >
          {t('invoice.ui.more_actions')} <DownOutlined />
        </Button>
      </Dropdown>
      {dialogs}
    </Space>
  );
}

// ------------------------------------------------------------------------------------- dialogs

function SendDialog({
  item,
  detail,
  onClose,
  onSent,
}: {
  item: InvoiceListItem;
  detail: InvoiceDetail | null;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [to, setTo] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const action = useApiAction<'send'>();
  const busy = action.busy !== null;
  const send = async () => {
    const check = invoiceSendSchema.safeParse(to.length > 0 ? { to } : {});
    if (!check.success) {
      setError(t(check.error.issues[0]?.message ?? 'invoice.send.email_invalid'));
      return;
    }
    await action.run(
      'send',
      async () => {
        const answer = await post<{ to: string[] }>(`${invoicePath(item.id)}/send`, check.data);
        void notice.success(`${t(answer.message || 'invoice.sent')}: ${answer.data.to.join(', ')}`);
        onSent();
        onClose();
        return null;
      },
      (e) => {
        const field = fieldErrors(e)[0];
        if (field) setError(t(field[1]));
        else if (e instanceof FetchError && e.key === 'invoice.send.no_recipient') setError(errorText(e));
        else return false;
        return true;
      },
    );
  };
  return (
    <ActionModal
      title={t('invoice.ui.send_title', { number: item.number ?? '' })}
      ok={t('invoice.ui.send')}
      onOk={() => void send()}
      onCancel={onClose}
      busy={busy}
      testId="invoice-send-ok"
    >
      <p>
        {detail?.customer.email
          ? t('invoice.ui.send_default', { email: detail.customer.email })
          : t('invoice.ui.send_contacts')}
      </p>
      {detail?.sent_at ? (
        <p className="bo-inv-muted">{t('invoice.ui.sent_before', { to: detail.sent_to.join(', ') })}</p>
      ) : null}
      <Form layout="vertical" component="div" className="bo-inv-form">
        <Form.Item
          label={t('invoice.ui.send_extra')}
          htmlFor="invoice-send-to"
          extra={error ? undefined : t('invoice.ui.send_extra_help')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Select
            id="invoice-send-to"
            mode="tags"
            value={to}
            tokenSeparators={[',', ' ', ';']}
            open={false}
            suffixIcon={null}
            onChange={(v: string[]) => {
              setTo(v.map((s) => s.trim()).filter(Boolean));
              setError(null);
            }}
            data-testid="invoice-send-to"
          />
        </Form.Item>
      </Form>
    </ActionModal>
  );
}

interface PaymentValues {
  amount: string;
  paid_on: string | null;
  reference: string;
}

function PaymentDialog({
  item,
  onClose,
  onRecorded,
}: {
  item: InvoiceListItem;
  onClose: () => void;
  onRecorded: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm<PaymentValues>();
  const action = useApiAction<'payment'>();
  const busy = action.busy !== null;
  const today = todayIn(new Date(), ISSUER_ZONE);
  const record = async () => {
    const v = form.getFieldsValue();
    const body = {
      amount: normalizeDecimal(v.amount ?? ''),
      paid_on: v.paid_on ?? '',
      ...(v.reference?.trim() ? { reference: v.reference.trim() } : {}),
    };
    const check = invoicePaymentSchema.safeParse(body);
    const errors: { name: keyof PaymentValues; errors: string[] }[] = [];
    if (!check.success)
      for (const i of check.error.issues)
        errors.push({ name: String(i.path[0]) as keyof PaymentValues, errors: [t(i.message)] });
    else if (toCents(check.data.amount) <= 0n)
      errors.push({ name: 'amount', errors: [t('invoice.payment.amount_invalid')] });
    else if (toCents(check.data.amount) > toCents(item.outstanding))
      errors.push({ name: 'amount', errors: [t('invoice.payment.amount_exceeds')] });
    if (errors.length > 0 || !check.success) {
      form.setFields(errors);
      return;
    }
    await action.run(
      'payment',
      async () => {
        const answer = await post<InvoiceListItem>(`${invoicePath(item.id)}/payments`, check.data);
        onRecorded();
        onClose();
        return answer.message || 'invoice.payment.recorded';
      },
      (e) => {
        const fields = fieldErrors(e);
        if (fields.length === 0) return false;
        form.setFields(
          fields.map(([name, key]) => ({ name: name as keyof PaymentValues, errors: [t(key)] })),
        );
        return true;
      },
    );
  };
  return (
    <ActionModal
      title={t('invoice.ui.record_payment_title', { number: item.number ?? '' })}
      ok={t('invoice.ui.record_payment')}
      onOk={() => void record()}
      onCancel={onClose}
      busy={busy}
      testId="invoice-payment-ok"
      destroyOnHidden
    >
      <Form<PaymentValues>
        form={form}
        layout="vertical"
        className="bo-inv-form"
        initialValues={{ amount: item.outstanding, paid_on: today, reference: '' }}
        onFinish={() => void record()}
        data-testid="invoice-payment-form"
      >
        <Form.Item
          name="amount"
          label={t('invoice.ui.amount')}
          extra={t('invoice.ui.outstanding_is', {
            amount: formatMoney(item.outstanding, item.currency, locale),
          })}
        >
          <Input inputMode="decimal" suffix={item.currency} data-testid="invoice-payment-amount" />
        </Form.Item>
        <Form.Item name="paid_on" label={t('invoice.ui.paid_on')}>
          <DateInput allowClear={false} min={item.issue_date ?? undefined} timeZone={ISSUER_ZONE} />
        </Form.Item>
        <Form.Item name="reference" label={t('invoice.ui.reference')}>
          <Input maxLength={100} data-testid="invoice-payment-reference" />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </ActionModal>
  );
}

function BlockDialog({
  item,
  onClose,
  onChanged,
}: {
  item: InvoiceListItem;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const action = useApiAction<'block'>();
  const busy = action.busy !== null;
  const blocking = !item.blocked;
  const apply = () =>
    action.run('block', async () => {
      const answer = await post<null>(`invoices/blocked/${item.id_user}`, {
        blocked: blocking,
        ...(blocking && reason.trim() ? { reason: reason.trim() } : {}),
      });
      onChanged();
      onClose();
      return answer.message || (blocking ? 'invoice.blocked_on' : 'invoice.blocked_off');
    });
  return (
    <ActionModal
      title={t(blocking ? 'invoice.ui.block_title' : 'invoice.ui.unblock_title', { name: item.name })}
      className="bo-inv-danger-scope"
      ok={t(blocking ? 'invoice.ui.block' : 'invoice.ui.unblock')}
      danger={blocking}
      onOk={() => void apply()}
      onCancel={onClose}
      busy={busy}
      testId="invoice-block-ok"
    >
      <p>
        {t(blocking ? 'invoice.ui.block_body' : 'invoice.ui.unblock_body', {
          reason: item.blocked_reason ?? '—',
        })}
      </p>
      {blocking ? (
        <Form layout="vertical" component="div" className="bo-inv-form">
          <Form.Item label={t('invoice.ui.block_reason')} htmlFor="invoice-block-reason">
            <Input.TextArea
              id="invoice-block-reason"
              value={reason}
              maxLength={200}
              showCount
              autoSize={{ minRows: 2, maxRows: 4 }}
              onChange={(e) => setReason(e.target.value)}
              data-testid="invoice-block-reason"
            />
          </Form.Item>
        </Form>
      ) : null}
    </ActionModal>
  );
}
