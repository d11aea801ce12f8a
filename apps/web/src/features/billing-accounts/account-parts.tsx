/**
 * Small pieces the billing accounts' list and account page share: the amounts of every currency
 * of a figure, the account's badges, a month's name, a focusable scrolling table region.
 */
import { ExclamationCircleOutlined, WarningOutlined } from '@ant-design/icons';
import type { AccountFigures, BillingAccount } from '@backoffice/core/billing-accounts';
import { Space } from 'antd';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { StatusTag } from '../../resources/resource-cells.tsx';

export type Figure = 'billed' | 'paid' | 'outstanding' | 'overdue' | 'charged';

/** The class of a labelled figure: overdue amounts above 0 stand out. */
export const figureClass = (figure: Figure, amount: string) =>
  `bo-acc-figure bo-acc-figure--${figure}${figure === 'overdue' && /[1-9]/.test(amount) && !amount.startsWith('-') ? ' bo-acc-figure--alert' : ''}`;
export const FIGURES: readonly Figure[] = ['billed', 'paid', 'outstanding', 'overdue', 'charged'];

/** A figure in each currency of the statement (one line each), or a dash. */
export function FigureCell({ statement, figure }: { statement: readonly AccountFigures[]; figure: Figure }) {
  if (statement.length === 0) return <span className="bo-res-empty">—</span>;
  return (
    <span className="bo-acc-amounts">
      {statement.map((f) => (
        <MoneyCell key={f.currency} amount={f[figure]} currency={f.currency} />
      ))}
    </span>
  );
}

/** What needs attention on an account: billing info missing, something overdue, over its credit limit; prepayment. */
export function AccountBadges({ account, withMode = true }: { account: BillingAccount; withMode?: boolean }) {
  const { t } = useTranslation();
  const tags: ReactNode[] = [];
  if (account.missing.length > 0)
    tags.push(
      <StatusTag key="missing" tone="bad" testId="account-badge-missing">
        <ExclamationCircleOutlined aria-hidden /> {t('billing_account.badge.missing')}
      </StatusTag>,
    );
  if (account.has_overdue)
    tags.push(
      <StatusTag key="overdue" tone="bad" testId="account-badge-overdue">
        <WarningOutlined aria-hidden /> {t('billing_account.badge.overdue')}
      </StatusTag>,
    );
  if (account.over_credit_limit)
    tags.push(
      <StatusTag key="limit" tone="bad" testId="account-badge-over-limit">
        {t('billing_account.badge.over_limit')}
      </StatusTag>,
    );
  if (withMode && account.billing_mode === 'prepayment')
    tags.push(
      <StatusTag key="mode" tone="info" testId="account-badge-prepayment">
        {t('billing_account.billing_mode.prepayment')}
      </StatusTag>,
    );
  return tags.length > 0 ? (
    <Space size={4} wrap className="bo-acc-badges">
      {tags}
    </Space>
  ) : null;
}

const monthFormats = new Map<string, Intl.DateTimeFormat>();
/** `2025-03` as "Mar 2025" / "mar 2025". */
export function monthName(month: string, locale: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  let f = monthFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    monthFormats.set(locale, f);
  }
  return f.format(Date.UTC(y, m - 1, 1));
}

/**
 * A wide table that scrolls sideways on a narrow screen must be reachable with the keyboard
 * (WCAG 2.1.1; axe's scrollable-region-focusable): the scrolling parts of the antd tables inside
 * are made focusable and named.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    for (const el of ref.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ?? []) {
      if (el.tabIndex !== 0) el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', label);
    }
  });
  return <div ref={ref}>{children}</div>;
}
