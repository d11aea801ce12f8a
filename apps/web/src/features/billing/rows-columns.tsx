/**
 * The columns of a billing list (spec 3's fields: revenue_gross, revenue per product with its
 * currency, paid_revenue, received_payment_date, document_id, min_amount, payment_terms,
 * demand_partners, description, and the state, payment badge, due date and margin), which ones
 * each person shows (remembered per list in local storage) and the chooser.
 */
import { SettingOutlined } from '@ant-design/icons';
import { BILLING_SORTS, type BillingKind, type BillingRowDto, type BillingSide } from '@backoffice/core/billing-api';
import { Button, Checkbox, Dropdown, theme as antdTheme, type TableColumnsType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useSession } from '../../lib/session-store.ts';
import {
  BadgeTag,
  CarriedInCell,
  CounterpartyCell,
  DueCell,
  MarginCell,
  MinimumCell,
  OpenRowButton,
  StateTag,
} from './row-cells.tsx';

export const COLUMN_KEYS = [
  'counterparty',
  'product',
  'state',
  'currency',
  'revenue_ours',
  'revenue_network',
  'carried_in',
  'revenue_gross',
  'paid_revenue',
  'pending',
  'badge',
  'margin_pct',
  'due_date',
  'received_payment_date',
  'document_id',
  'min_amount',
  'payment_terms',
  'demand_partners',
  'description',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

const DEFAULT_VISIBLE: readonly ColumnKey[] = [
  'counterparty',
  'product',
  'state',
  'revenue_ours',
  'revenue_network',
  'carried_in',
  'revenue_gross',
  'paid_revenue',
  'pending',
  'badge',
  'margin_pct',
  'due_date',
];
/** Columns the API sorts by. */
const SORTABLE: ReadonlySet<string> = new Set(BILLING_SORTS);
const MONEY = new Set<ColumnKey>(['revenue_ours', 'revenue_gross', 'paid_revenue', 'pending']);

const storageKey = (userId: number | undefined, side: BillingSide, kind: BillingKind) =>
  `bo.columns.${userId ?? 0}.billing_${side}_${kind}`;

export function useVisibleColumns(
  side: BillingSide,
  kind: BillingKind,
): [ColumnKey[], (next: ColumnKey[]) => void] {
  const userId = useSession((s) => s.user?.id);
  const [visible, setVisible] = useState<ColumnKey[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey(userId, side, kind)) ?? 'null') as unknown;
      if (Array.isArray(saved)) {
        const kept = COLUMN_KEYS.filter((k) => saved.includes(k));
        if (kept.length > 0) return kept;
      }
    } catch {
      // a broken value: the default columns
    }
    return [...DEFAULT_VISIBLE];
  });
  const save = (next: ColumnKey[]) => {
    const ordered = COLUMN_KEYS.filter((k) => next.includes(k));
    if (ordered.length === 0) return;
    setVisible(ordered);
    localStorage.setItem(storageKey(userId, side, kind), JSON.stringify(ordered));
  };
  return [visible, save];
}

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "Net 30 days" for net30; other terms as they are written. */
export function termsText(terms: string, t: Translate): string {
  const days = /^net(\d+)$/.exec(terms)?.[1];
  return days ? t('billing.ui.terms_days', { days }) : terms;
}

/** A column's cell. */
export function cellOf(key: ColumnKey, r: BillingRowDto, t: Translate): ReactNode {
  if (MONEY.has(key)) return <MoneyCell amount={r[key as 'revenue_gross']} currency={r.currency} />;
  switch (key) {
    case 'counterparty':
      return <CounterpartyCell counterparty={r.counterparty} />;
    case 'product':
      return r.product;
    case 'currency':
      return r.currency;
    case 'revenue_network':
      return r.revenue_network === null ? (
        <span className="bo-bill-muted">{t('billing.ui.ours')}</span>
      ) : (
        <MoneyCell amount={r.revenue_network} currency={r.currency} />
      );
    case 'carried_in':
      return <CarriedInCell row={r} />;
    case 'badge':
      return <BadgeTag badge={r.badge} overdue={r.overdue} testId={`billing-badge-${r.id}`} />;
    case 'received_payment_date':
      return r.received_payment_date ?? '—';
    case 'document_id':
      return r.document_id ?? '—';
    case 'min_amount':
      return <MinimumCell row={r} />;
    case 'payment_terms':
      return termsText(r.payment_terms, t);
    case 'due_date':
      return <DueCell row={r} />;
    case 'margin_pct':
      return <MarginCell pct={r.margin_pct} low={r.low_margin} />;
    case 'state':
      return <StateTag state={r.state} testId={`billing-state-${r.id}`} />;
    case 'demand_partners':
      return r.demand_partners || '—';
    case 'description':
      return r.description ? <span className="bo-bill-desc">{r.description}</span> : '—';
    default:
      return null;
  }
}

export function buildColumns(
  visible: readonly ColumnKey[],
  sort: string,
  t: Translate,
  open: (row: BillingRowDto) => void,
): TableColumnsType<BillingRowDto> {
  const field = sort.replace(/^-/, '');
  const order = (k: ColumnKey): SortOrder =>
    field === k ? (sort.startsWith('-') ? 'descend' : 'ascend') : null;
  return visible.map((key) => ({
    key,
    title: t(`billing.col.${key}`),
    align:
      MONEY.has(key) ||
      key === 'margin_pct' ||
      key === 'carried_in' ||
      key === 'revenue_network' ||
      key === 'min_amount'
        ? ('right' as const)
        : undefined,
    sorter: SORTABLE.has(key) ? true : undefined,
    sortOrder: SORTABLE.has(key) ? order(key) : undefined,
    showSorterTooltip: false,
    render: (_: unknown, r: BillingRowDto) =>
      key === 'counterparty' ? <OpenRowButton row={r} onOpen={() => open(r)} /> : cellOf(key, r, t),
  }));
}

export function ColumnChooser({
  visible,
  onChange,
}: {
  visible: ColumnKey[];
  onChange: (next: ColumnKey[]) => void;
}) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  return (
    <Dropdown
      trigger={['click']}
      popupRender={() => (
        <div
          className="bo-bill-chooser"
          role="group"
          aria-label={t('resource.columns')}
          style={{ background: token.colorBgElevated, boxShadow: token.boxShadowSecondary }}
        >
          {COLUMN_KEYS.map((k) => (
            <Checkbox
              key={k}
              checked={visible.includes(k)}
              disabled={k === 'counterparty'}
              onChange={(e) => onChange(e.target.checked ? [...visible, k] : visible.filter((x) => x !== k))}
            >
              {t(`billing.col.${k}`)}
            </Checkbox>
          ))}
        </div>
      )}
    >
      <Button icon={<SettingOutlined />} data-testid="billing-columns">
        {t('resource.columns')}
      </Button>
    </Dropdown>
  );
}
