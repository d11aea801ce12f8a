/**
 * "Credit note" (precreation): an issued invoice is found by number or counterparty (GET
 * /v1/invoices, the team's invoices still open to correction), its figures shown (total, what
 * credit notes took, what is left to credit), and a credit note is issued for an amount (the
 * whole of what is left when empty; above 0, at most what is left, two decimals) with a reason of
 * 10–300 characters, each error next to its field with core's message keys. Issuing is final (no
 * rollback), so it asks first; the result names the credit note and links both documents.
 */
import { formatMoney } from '@backoffice/core/format';
import {
  INVOICE_TEAMS,
  totalsOf,
  type InvoiceDetail,
  type InvoiceList,
  type InvoiceTeam,
} from '@backoffice/core/invoices';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Form,
  Input,
  Result,
  Segmented,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { ButtonLink } from '../../shell/button-link.tsx';
import { DueCell, InvoiceStateTag, TaxTag } from './invoice-cells.tsx';
import {
  canBeCredited,
  checkCreditNote,
  CREDITABLE_STATES,
  documentLink,
  invoicePath,
  invoicesPath,
  leftToCredit,
  normalizeDecimal,
  type CreditField,
  type PrecreationView,
} from './invoices-api.ts';

export interface CreditNoteTabProps {
  view: PrecreationView;
  canApprove: boolean;
  onChange: (patch: Partial<PrecreationView>) => void;
}

/** Finding an issued invoice of the team by its number or its counterparty. */
function InvoicePicker({
  team,
  value,
  onPick,
}: {
  team: InvoiceTeam;
  value: number | null;
  onPick: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 300);
  const found = useApiQuery<InvoiceList>(invoicesPath, {
    query: {
      team,
      kind: 'invoice',
      state: CREDITABLE_STATES.join(','),
      sort: '-issue_date',
      page_size: 20,
      ...(q ? { q } : {}),
    },
  });
  return (
    <Select<number>
      id="invoice-credit-pick"
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      value={value ?? undefined}
      placeholder={t('invoice.ui.credit_search')}
      onChange={(id) => onPick(id ?? null)}
      loading={found.isFetching}
      notFoundContent={found.isFetching ? <Spin size="small" /> : t('invoice.ui.none_found')}
      options={(found.data?.rows ?? []).map((r) => ({
        value: r.id,
        label: `${r.number ?? ''} · ${r.name} · ${formatMoney(r.total, r.currency, locale)}`,
      }))}
      className="bo-inv-credit-pick"
      data-testid="invoice-credit-pick"
    />
  );
}

export function CreditNoteTab({ view, canApprove, onChange }: CreditNoteTabProps) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const { modal } = App.useApp();
  const notice = useNotice();
  const locale = useLocale();
  const { isMobile } = useViewport();
  const detail = useApiQuery<InvoiceDetail>(view.invoice ? invoicePath(view.invoice) : null);
  const invoice = detail.data;
  const creditIds = invoice?.credit_notes.map((c) => c.id) ?? [];
  // The bases the credit notes took (the invoice's answer gives their totals only).
  const bases = useQuery({
    queryKey: ['api', 'invoices/credited-bases', creditIds],
    enabled: Boolean(invoice),
    queryFn: async () =>
      Promise.all(creditIds.map((id) => api.request<InvoiceDetail>(invoicePath(id)).then((d) => d.base))),
  });
  const left = invoice && bases.data ? leftToCredit(invoice.base, bases.data) : null;
  const [values, setValues] = useState({ amount: '', reason: '' });
  const [checked, setChecked] = useState<Set<CreditField>>(new Set());
  const [serverErrors, setServerErrors] = useState<Partial<Record<CreditField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ id: number; number: string; invoice: InvoiceDetail } | null>(null);
  const inFlight = useRef(false);
  // One key per credit note asked for: a retry after a lost answer gets the note already issued.
  const requestKey = useRef(newIdempotencyKey());

  const check = left !== null ? checkCreditNote(values, left) : null;
  const errorOf = (f: CreditField) => {
    const key = (check && !check.ok && checked.has(f) ? check.errors[f] : undefined) ?? serverErrors[f];
    return key ? t(key) : null;
  };
  const amount = normalizeDecimal(values.amount) || left || '0';
  const preview = invoice && check?.ok ? totalsOf(`-${amount}`, invoice.tax_treatment) : null;

  const reset = () => {
    setIssued(null);
    setValues({ amount: '', reason: '' });
    setChecked(new Set());
    setServerErrors({});
  };
  const pick = (invoiceId: number | null) => {
    reset();
    onChange({ invoice: invoiceId });
  };

  const send = async (body: { reason: string; amount?: string }) => {
    if (!invoice || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await api.requestFull<{ id: number; number: string }>(
        `${invoicePath(invoice.id)}/credit-note`,
        { method: 'POST', body: { ...body, idempotency_key: requestKey.current } },
      );
      requestKey.current = newIdempotencyKey();
      void notice.success(t(answer.message || 'invoice.credit.issued'));
      setIssued({ ...answer.data, invoice });
      setValues({ amount: '', reason: '' });
      setChecked(new Set());
      void detail.refetch();
      void bases.refetch();
    } catch (e) {
      if (e instanceof FetchError && e.details.errors && Object.keys(e.details.errors).length > 0) {
        setServerErrors(e.details.errors as Partial<Record<CreditField, string>>);
      } else if (e instanceof FetchError && e.key?.startsWith('invoice.credit.amount')) {
        setServerErrors({ amount: e.key });
      } else if (!isSessionError(e)) void notice.error(errorText(e));
      void detail.refetch();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const submit = () => {
    setChecked(new Set(['amount', 'reason']));
    if (!invoice || !check || !check.ok || !preview) return;
    const body = check.body;
    modal.confirm({
      title: t('invoice.ui.credit_confirm_title', { number: invoice.number ?? '' }),
      content: (
        <div data-testid="invoice-credit-confirm">
          <p>{t('invoice.ui.credit_final')}</p>
          <p>
            {t('invoice.ui.credit_confirm_body', {
              base: formatMoney(preview.base, invoice.currency, locale),
              total: formatMoney(preview.total, invoice.currency, locale),
            })}
          </p>
        </div>
      ),
      okText: t('invoice.ui.issue_credit_note'),
      cancelText: t('common.cancel'),
      className: 'bo-inv-danger-scope',
      okButtonProps: { danger: true, ...({ 'data-testid': 'invoice-credit-ok' } as Record<string, string>) },
      onOk: () => send(body),
    });
  };

  const team = view.team;
  const wrongTeam = invoice && invoice.team !== team;
  return (
    <div
      className="bo-inv-danger-scope"
      data-testid="invoice-credit"
      data-state={view.invoice === null || invoice ? 'ready' : 'loading'}
    >
      <div className="bo-inv-pick">
        <div className="bo-inv-field">
          <span className="bo-inv-field__label" id="invoice-credit-team-label">
            {t('invoice.ui.team_label')}
          </span>
          <Segmented<InvoiceTeam>
            value={team}
            onChange={(next) => {
              reset();
              onChange({ team: next, invoice: null });
            }}
            options={INVOICE_TEAMS.map((x) => ({ value: x, label: t(`invoice.ui.team.${x}`) }))}
            aria-labelledby="invoice-credit-team-label"
          />
        </div>
        <div className="bo-inv-field bo-inv-field--grow">
          <label htmlFor="invoice-credit-pick" className="bo-inv-field__label">
            {t('invoice.ui.credit_invoice')}
          </label>
          <InvoicePicker key={team} team={team} value={view.invoice} onPick={pick} />
        </div>
      </div>

      {issued ? (
        <Result
          status="success"
          className="bo-inv-result"
          data-testid="invoice-credit-issued"
          title={
            <h2 className="bo-result-title">{t('invoice.ui.credit_issued', { number: issued.number })}</h2>
          }
          subTitle={t('invoice.ui.credit_issued_sub', { invoice: issued.invoice.number ?? '' })}
          extra={
            <Space wrap>
              <ButtonLink
                type="primary"
                to={`/${lang ?? 'en'}${documentLink(issued.invoice.team, 'credit_note', issued.id)}`}
                data-testid="invoice-credit-open-note"
              >
                {t('invoice.ui.open_document', { number: issued.number })}
              </ButtonLink>
              <ButtonLink
                to={`/${lang ?? 'en'}${documentLink(issued.invoice.team, 'invoice', issued.invoice.id)}`}
                data-testid="invoice-credit-open-invoice"
              >
                {t('invoice.ui.open_document', { number: issued.invoice.number ?? '' })}
              </ButtonLink>
            </Space>
          }
        />
      ) : null}

      {view.invoice === null && !issued ? (
        <Typography.Paragraph type="secondary">{t('invoice.ui.credit_intro')}</Typography.Paragraph>
      ) : null}
      {detail.isError ? (
        <Alert type="error" showIcon className="bo-inv-gap-bottom" title={errorText(detail.error)} />
      ) : null}
      {view.invoice !== null && !invoice && !detail.isError ? <Spin /> : null}

      {invoice ? (
        <section
          aria-label={t('invoice.ui.credit_invoice')}
          className="bo-inv-gap-bottom"
          data-testid="invoice-credit-figures"
        >
          <Descriptions
            size="small"
            bordered
            column={isMobile ? 1 : 2}
            title={`${invoice.number ?? ''} · ${invoice.name}`}
          >
            <Descriptions.Item label={t('invoice.ui.customer')}>
              {invoice.customer.legal_name || invoice.company_name}
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.state')}>
              <InvoiceStateTag state={invoice.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.issue_date')}>{invoice.issue_date}</Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.due_date')}>
              <DueCell item={invoice} />
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.base')}>
              <MoneyCell amount={invoice.base} currency={invoice.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.vat_amount')}>
              <Space size={6} wrap>
                <MoneyCell amount={invoice.vat_amount} currency={invoice.currency} />
                <TaxTag treatment={invoice.tax_treatment} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.total')}>
              <strong data-testid="invoice-credit-total">
                <MoneyCell amount={invoice.total} currency={invoice.currency} />
              </strong>
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.ui.credited')}>
              <span data-testid="invoice-credit-credited">
                <MoneyCell amount={invoice.credited} currency={invoice.currency} />
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.ui.left_to_credit')} span={isMobile ? 1 : 2}>
              <strong data-testid="invoice-credit-left">
                {left === null ? (
                  <Spin size="small" />
                ) : (
                  <MoneyCell amount={left} currency={invoice.currency} />
                )}
              </strong>{' '}
              <span className="bo-inv-muted">{t('invoice.ui.left_net')}</span>
            </Descriptions.Item>
          </Descriptions>
          {invoice.credit_notes.length > 0 ? (
            <ul className="bo-inv-plain-list bo-inv-gap">
              {invoice.credit_notes.map((cn) => (
                <li key={cn.id}>
                  <ButtonLink
                    type="link"
                    size="small"
                    className="bo-inv-linkish"
                    to={`/${lang ?? 'en'}${documentLink(invoice.team, 'credit_note', cn.id)}`}
                  >
                    {cn.number}
                  </ButtonLink>{' '}
                  · {cn.issue_date} · <MoneyCell amount={cn.total} currency={invoice.currency} /> ·{' '}
                  {cn.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}

      {invoice && (wrongTeam || !canBeCredited(invoice) || left === '0.00') ? (
        <Alert
          type="info"
          showIcon
          data-testid="invoice-credit-not-possible"
          title={t(
            wrongTeam
              ? 'invoice.ui.credit_other_team'
              : invoice.state === 'credited' || left === '0.00'
                ? 'invoice.credit.nothing_left'
                : 'invoice.credit.not_issued',
          )}
        />
      ) : invoice && left !== null && canApprove ? (
        <Form
          layout="vertical"
          component="div"
          className="bo-inv-form bo-inv-credit-form"
          data-testid="invoice-credit-form"
        >
          <Typography.Title level={2} className="bo-inv-subtitle">
            {t('invoice.ui.new_credit_note')}
          </Typography.Title>
          <Form.Item
            label={t('invoice.ui.credit_amount')}
            htmlFor="invoice-credit-amount"
            validateStatus={errorOf('amount') ? 'error' : undefined}
            help={
              errorOf('amount') ? (
                <span data-testid="invoice-credit-amount-error">{errorOf('amount')}</span>
              ) : undefined
            }
            extra={t('invoice.ui.credit_amount_help', {
              amount: formatMoney(left, invoice.currency, locale),
            })}
          >
            <Input
              id="invoice-credit-amount"
              inputMode="decimal"
              autoComplete="off"
              value={values.amount}
              placeholder={formatMoney(left, invoice.currency, locale)}
              suffix={invoice.currency}
              onChange={(e) => {
                setValues((v) => ({ ...v, amount: e.target.value }));
                setServerErrors({});
              }}
              onBlur={() => setChecked((c) => new Set([...c, 'amount']))}
              data-testid="invoice-credit-amount"
            />
          </Form.Item>
          <Form.Item
            label={t('invoice.ui.credit_reason')}
            htmlFor="invoice-credit-reason"
            validateStatus={errorOf('reason') ? 'error' : undefined}
            help={
              errorOf('reason') ? (
                <span data-testid="invoice-credit-reason-error">{errorOf('reason')}</span>
              ) : undefined
            }
            extra={t('invoice.ui.credit_reason_help')}
          >
            <Input.TextArea
              id="invoice-credit-reason"
              value={values.reason}
              showCount
              maxLength={300}
              autoSize={{ minRows: 2, maxRows: 5 }}
              onChange={(e) => {
                setValues((v) => ({ ...v, reason: e.target.value }));
                setServerErrors({});
              }}
              onBlur={() => setChecked((c) => new Set([...c, 'reason']))}
              data-testid="invoice-credit-reason"
            />
          </Form.Item>
          {preview ? (
            <p aria-live="polite" data-testid="invoice-credit-preview">
              {t('invoice.ui.credit_preview', {
                base: formatMoney(preview.base, invoice.currency, locale),
                vat: formatMoney(preview.vat_amount, invoice.currency, locale),
                total: formatMoney(preview.total, invoice.currency, locale),
              })}
            </p>
          ) : null}
          <Button
            type="primary"
            danger
            loading={busy}
            disabled={busy}
            onClick={submit}
            data-testid="invoice-credit-submit"
          >
            {t('invoice.ui.issue_credit_note')}
          </Button>
        </Form>
      ) : invoice && !canApprove ? (
        <Alert type="info" showIcon title={t('invoice.ui.credit_needs_approve')} />
      ) : null}
    </div>
  );
}
