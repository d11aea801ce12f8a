/**
 * How a billing row's values read in the table, the cards and the drawer: its state and payment
 * badge as status tags (contrast-safe in both themes), the margin with the low-margin flag
 * (spec 5 and 9: under 20%), the due date with "overdue", the minimum with "under minimum", and
 * what was carried in with the months it came from.
 */
import type { BillingState, PaymentBadge } from '@backoffice/core/billing';
import type { BillingCounterparty, BillingRowDto } from '@backoffice/core/billing-api';
import { formatNumber } from '@backoffice/core/format';
import { Button, Popover, theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';

const STATE_TONE: Record<BillingState, StatusTone> = {
  open: 'off',
  confirmed: 'info',
  approved: 'ok',
  invoiced: 'ok',
  discarded: 'off',
  accumulated: 'off',
};
const BADGE_TONE: Record<PaymentBadge, StatusTone> = {
  full_paid: 'ok',
  some_paid: 'info',
  no_paid: 'off',
  charged: 'info',
};

export function StateTag({ state, testId }: { state: BillingState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={STATE_TONE[state]} testId={testId}>
      <span data-state={state}>{t(`billing.state.${state}`)}</span>
    </StatusTag>
  );
}

export function BadgeTag({
  badge,
  overdue,
  testId,
}: {
  badge: PaymentBadge;
  overdue?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={overdue && badge !== 'full_paid' ? 'bad' : BADGE_TONE[badge]} testId={testId}>
      <span data-badge={badge}>{t(`billing.badge.${badge}`)}</span>
    </StatusTag>
  );
}

/** "19.73 %" and, under 20%, a "Low margin" tag. */
export function MarginCell({ pct, low }: { pct: string | null; low: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <span className="bo-bill-margin">
      <span className="bo-bill-num">
        {pct === null ? '—' : `${formatNumber(pct, locale, 2)}${locale === 'es' ? '\u00a0%' : '%'}`}
      </span>
      {low ? <StatusTag tone="bad">{t('billing.ui.low_margin')}</StatusTag> : null}
    </span>
  );
}

export function DueCell({ row }: { row: BillingRowDto }) {
  const { t } = useTranslation();
  return (
    <span className="bo-bill-due">
      <span className="bo-bill-num">{row.due_date}</span>
      {row.overdue ? <StatusTag tone="bad">{t('billing.ui.overdue')}</StatusTag> : null}
    </span>
  );
}

export function MinimumCell({ row }: { row: BillingRowDto }) {
  const { t } = useTranslation();
  return (
    <span className="bo-bill-due">
      <MoneyCell amount={row.min_amount} currency={row.currency} />
      {row.below_minimum ? (
        <span title={t('billing.ui.under_minimum_help')}>
          <StatusTag tone="info">{t('billing.ui.under_minimum')}</StatusTag>
        </span>
      ) : null}
    </span>
  );
}

/** What earlier months carried into the row; a button opens the months it came from. */
export function CarriedInCell({ row }: { row: BillingRowDto }) {
  const { t } = useTranslation();
  if (row.carried_from.length === 0 || /^0(\.0*)?$/.test(row.carried_in))
    return <MoneyCell amount={row.carried_in} currency={row.currency} />;
  return (
    <Popover
      trigger={['click']}
      title={t('billing.ui.carried_from')}
      content={
        <ul className="bo-bill-plain-list" data-testid="billing-carried-from">
          {row.carried_from.map((c) => (
            <li key={`${c.id}-${c.month}`}>
              {c.month}: <MoneyCell amount={c.amount} currency={row.currency} />
            </li>
          ))}
        </ul>
      }
    >
      <Button
        type="link"
        size="small"
        className="bo-bill-linkish"
        title={t('billing.ui.carried_from_months', { count: row.carried_from.length })}
        aria-haspopup="dialog"
      >
        <MoneyCell amount={row.carried_in} currency={row.currency} />
      </Button>
    </Popover>
  );
}

export function CounterpartyCell({ counterparty }: { counterparty: BillingCounterparty }) {
  return (
    <span className="bo-bill-cp">
      <span className="bo-bill-cp__name">{counterparty.name}</span>
      {counterparty.company_name ? (
        <span className="bo-bill-cp__company">{counterparty.company_name}</span>
      ) : null}
    </span>
  );
}

/** A table's "nothing here" text in a colour that keeps its contrast (antd's placeholder grey does not). */
export function EmptyText({ children }: { children: string }) {
  return <span className="bo-bill-empty">{children}</span>;
}

/** The counterparty as the button that opens its row (the link colour from the theme: it keeps 4.5:1 on a selected row). */
export function OpenRowButton({
  row,
  onOpen,
  className,
}: {
  row: BillingRowDto;
  onOpen: () => void;
  className?: string;
}) {
  const { token } = antdTheme.useToken();
  return (
    <button
      type="button"
      className={`bo-bill-open ${className ?? ''}`}
      style={{ color: token.colorLink }}
      onClick={onOpen}
      data-testid={`billing-open-${row.id}`}
    >
      <CounterpartyCell counterparty={row.counterparty} />
    </button>
  );
}
