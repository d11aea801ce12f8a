/**
 * How an invoice's values read in the tables, the cards and the drawer: its state, kind, tax
 * treatment, blocked counterparty and missing billing information as status tags (contrast-safe
 * in both themes), the due date with "overdue", percentages in the UI language, payment terms in
 * words, and the button that opens a document.
 */
import type { InvoiceListItem, InvoiceState } from '@backoffice/core/invoices';
import type { InvoiceKind, TaxTreatment } from '@backoffice/core/invoice-document';
import { formatNumber } from '@backoffice/core/format';
import { theme as antdTheme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';

const STATE_TONE: Record<InvoiceState, StatusTone> = {
  draft: 'off',
  issued: 'info',
  sent: 'info',
  partly_paid: 'info',
  paid: 'ok',
  credited: 'off',
};

export function InvoiceStateTag({ state, testId }: { state: InvoiceState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={STATE_TONE[state]} testId={testId}>
      <span data-state={state}>{t(`invoice.state.${state}`)}</span>
    </StatusTag>
  );
}

export function KindTag({ kind }: { kind: InvoiceKind }) {
  const { t } = useTranslation();
  return <StatusTag tone={kind === 'invoice' ? 'info' : 'off'}>{t(`invoice.kind.${kind}`)}</StatusTag>;
}

export function TaxTag({ treatment }: { treatment: TaxTreatment }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={treatment === 'domestic' ? 'info' : 'off'}>{t(`invoice.tax.${treatment}`)}</StatusTag>
  );
}

export function BlockedTag({
  blocked,
  reason,
  testId,
}: {
  blocked: boolean;
  reason?: string | null;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!blocked) return <span className="bo-inv-muted">{t('common.no')}</span>;
  return (
    <span title={reason ?? undefined}>
      <StatusTag tone="bad" testId={testId}>
        {t('invoice.ui.blocked')}
      </StatusTag>
    </span>
  );
}

/** The spec's 'Inexisting data in user_billinginfo table', with what is missing as its title. */
export function MissingTag({ missing }: { missing: readonly string[] }) {
  const { t } = useTranslation();
  if (missing.length === 0) return null;
  return (
    <span title={missing.map((m) => t(`invoice.ui.missing.${m}`)).join(', ')}>
      <StatusTag tone="bad" testId="invoice-missing">
        {t('invoice.missing_info')}
      </StatusTag>
    </span>
  );
}

export function DueCell({ item }: { item: Pick<InvoiceListItem, 'due_date' | 'overdue'> }) {
  const { t } = useTranslation();
  if (!item.due_date) return <span className="bo-inv-muted">—</span>;
  return (
    <span className="bo-inv-inline">
      <span className="bo-inv-num">{item.due_date}</span>
      {item.overdue ? <StatusTag tone="bad">{t('invoice.ui.overdue')}</StatusTag> : null}
    </span>
  );
}

/** "12.50 %" (es "12,50 %"), or — when there is none. */
export function PercentCell({ value }: { value: string | null }) {
  const locale = useLocale();
  if (value === null) return <span className="bo-inv-muted">—</span>;
  return <span className="bo-inv-num">{`${formatNumber(value, locale, 2)}\u00a0%`}</span>;
}

export function IntegerCell({ value }: { value: string }) {
  const locale = useLocale();
  return <span className="bo-inv-num">{formatNumber(value, locale, 0)}</span>;
}

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "Net 30 days" for net30; other terms as they are written. */
export function termsText(terms: string, t: Translate): string {
  const days = /^net(\d+)$/.exec(terms)?.[1];
  return days ? t('billing.ui.terms_days', { days }) : terms;
}

/** A button that opens a document in the drawer (the link colour from the theme keeps 4.5:1). */
export function OpenButton({
  id,
  onOpen,
  children,
  label,
  className,
}: {
  id: number;
  onOpen: () => void;
  children: ReactNode;
  /** An accessible name when the text alone is ambiguous. */
  label?: string;
  className?: string;
}) {
  const { token } = antdTheme.useToken();
  return (
    <button
      type="button"
      className={`bo-inv-open ${className ?? ''}`}
      style={{ color: token.colorLink }}
      onClick={onOpen}
      aria-label={label}
      data-testid={`invoice-open-${id}`}
    >
      {children}
    </button>
  );
}

/** A counterparty's name with its company under it. */
export function PartyCell({ name, company }: { name: string; company: string }) {
  return (
    <span className="bo-inv-party">
      <span className="bo-inv-party__name">{name}</span>
      {company ? <span className="bo-inv-party__company">{company}</span> : null}
    </span>
  );
}
