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
import { App, Button, Dropdown, Form, Input, Modal, Select, Space, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { DateInput } from '../../components/date-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
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

type Busy = 'pdf' | 'ubl' | 'facturae' | 'regenerate' | 'paid' | 'pending' | 'discard' | null;

/** POST an action and show the API's message (its key translated). */
async function post<T>(path: string, body: unknown = {}) {
  return api.requestFull<T>(path, { method: 'POST', body });
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
  const { modal } = App.useApp();
  const notice = useNotice();
  const locale = useLocale();
  const [busy, setBusy] = useState<Busy>(null);
  const [dialog, setDialog] = useState<'send' | 'payment' | 'block' | null>(null);

  const run = async (what: Exclude<Busy, null>, work: () => Promise<string | null>) => {
    if (busy) return;
    setBusy(what);
    try {
      const message = await work();
      if (message) void notice.success(t(message));
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(null);
    }
  };
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
  const confirm = (opts: {
    title: string;
    content: string;
    ok: string;
    danger?: boolean;
    testId: string;
    onOk: () => void;
  }) =>
    modal.confirm({
      title: opts.title,
      content: opts.content,
      okText: opts.ok,
      cancelText: t('common.cancel'),
      className: 'bo-inv-danger-scope',
      okButtonProps: { danger: opts.danger, ...({ 'data-testid': opts.testId } as Record<string, string>) },
      onOk: opts.onOk,
    });
  const markPaid = () =>
    confirm({
      title: t('invoice.ui.mark_paid_title', { number: item.number ?? '' }),
      content: t('invoice.ui.mark_paid_body', {
        amount: formatMoney(item.outstanding, item.currency, locale),
      }),
      ok: t('invoice.ui.mark_paid'),
      testId: 'invoice-mark-paid-ok',
      onOk: () =>
        void run('paid', async () => {
          const answer = await post<InvoiceListItem>(`${invoicePath(item.id)}/mark-paid`);
          onChanged();
          return answer.message || 'invoice.marked_paid';
        }),
    });
  const backToPending = () =>
    confirm({
      title: t('invoice.ui.back_to_pending_title', { number: item.number ?? '' }),
      content: t('invoice.ui.back_to_pending_body', {
        amount: formatMoney(item.paid, item.currency, locale),
      }),
      ok: t('invoice.ui.back_to_pending'),
      danger: true,
      testId: 'invoice-back-to-pending-ok',
      onOk: () =>
        void run('pending', async () => {
          const answer = await post<InvoiceListItem>(`${invoicePath(item.id)}/back-to-pending`);
          onChanged();
          return answer.message || 'invoice.back_to_pending';
        }),
    });
  const discard = () =>
    confirm({
      title: t('invoice.ui.discard_title', { name: item.name }),
      content: t('invoice.ui.discard_body'),
      ok: t('invoice.ui.discard'),
      danger: true,
      testId: 'invoice-discard-ok',
      onOk: () =>
        void run('discard', async () => {
          const answer = await api.requestFull<null>(invoicePath(item.id), { method: 'DELETE' });
          onDiscarded();
          return answer.message || 'invoice.discarded';
        }),
    });
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
  const [busy, setBusy] = useState(false);
  const send = async () => {
    const check = invoiceSendSchema.safeParse(to.length > 0 ? { to } : {});
    if (!check.success) {
      setError(t(check.error.issues[0]?.message ?? 'invoice.send.email_invalid'));
      return;
    }
    setBusy(true);
    try {
      const answer = await post<{ to: string[] }>(`${invoicePath(item.id)}/send`, check.data);
      void notice.success(`${t(answer.message || 'invoice.sent')}: ${answer.data.to.join(', ')}`);
      onSent();
      onClose();
    } catch (e) {
      if (e instanceof FetchError && e.details.errors && Object.keys(e.details.errors).length > 0)
        setError(t(Object.values(e.details.errors)[0]!));
      else if (e instanceof FetchError && e.key === 'invoice.send.no_recipient') setError(errorText(e));
      else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('invoice.ui.send_title', { number: item.number ?? '' })}
      okText={t('invoice.ui.send')}
      cancelText={t('common.cancel')}
      onOk={() => void send()}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ disabled: busy, ...({ 'data-testid': 'invoice-send-ok' } as Record<string, string>) }}
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
    </Modal>
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
  const notice = useNotice();
  const locale = useLocale();
  const [form] = Form.useForm<PaymentValues>();
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    try {
      const answer = await post<InvoiceListItem>(`${invoicePath(item.id)}/payments`, check.data);
      void notice.success(t(answer.message || 'invoice.payment.recorded'));
      onRecorded();
      onClose();
    } catch (e) {
      if (e instanceof FetchError && e.details.errors && Object.keys(e.details.errors).length > 0)
        form.setFields(
          Object.entries(e.details.errors).map(([name, key]) => ({
            name: name as keyof PaymentValues,
            errors: [t(key)],
          })),
        );
      else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('invoice.ui.record_payment_title', { number: item.number ?? '' })}
      okText={t('invoice.ui.record_payment')}
      cancelText={t('common.cancel')}
      onOk={() => void record()}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{
        disabled: busy,
        ...({ 'data-testid': 'invoice-payment-ok' } as Record<string, string>),
      }}
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
    </Modal>
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
  const notice = useNotice();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const blocking = !item.blocked;
  const apply = async () => {
    setBusy(true);
    try {
      const answer = await post<null>(`invoices/blocked/${item.id_user}`, {
        blocked: blocking,
        ...(blocking && reason.trim() ? { reason: reason.trim() } : {}),
      });
      void notice.success(t(answer.message || (blocking ? 'invoice.blocked_on' : 'invoice.blocked_off')));
      onChanged();
      onClose();
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t(blocking ? 'invoice.ui.block_title' : 'invoice.ui.unblock_title', { name: item.name })}
      className="bo-inv-danger-scope"
      okText={t(blocking ? 'invoice.ui.block' : 'invoice.ui.unblock')}
      okButtonProps={{
        danger: blocking,
        disabled: busy,
        ...({ 'data-testid': 'invoice-block-ok' } as Record<string, string>),
      }}
      cancelText={t('common.cancel')}
      onOk={() => void apply()}
      onCancel={onClose}
      confirmLoading={busy}
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
    </Modal>
  );
}
