/**
 * The month of a billing screen, and the filter bar of a list: a counterparty search, the
 * counterparties a link named, the states, payment badges, currency and product. Everything is
 * written to the URL by the page; the bar itself (search, phone folding, clear) is
 * components/filters-bar.tsx.
 */
import { CloseOutlined } from '@ant-design/icons';
import {
  BILLING_STATES,
  PAYMENT_BADGES,
  type BillingState,
  type PaymentBadge,
} from '@backoffice/core/billing';
import { BILLING_PRODUCTS, type BillingSide } from '@backoffice/core/billing-api';
import { monthToString, parseMonth } from '@backoffice/core/dates';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MonthInput } from '../../components/month-input.tsx';
import { isFiltered, type BillingView } from './billing-api.ts';

export interface RowsFiltersProps {
  side: BillingSide;
  view: BillingView;
  currencies: string[];
  onChange: (patch: Partial<BillingView>) => void;
}

/** The month of a billing screen (spec: the month input; last month by default). */
export function MonthField({ month, onChange }: { month: string; onChange: (month: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="bo-bill-field bo-bill-field--month">
      <label htmlFor="billing-month" className="bo-bill-field__label">
        {t('billing.ui.month')}
      </label>
      <MonthInput
        id="billing-month"
        value={parseMonth(month)}
        onChange={(m) => m && onChange(monthToString(m))}
        allowClear={false}
        className="bo-bill-month"
        data-testid="billing-month"
      />
    </div>
  );
}

const COMMON_CURRENCIES = ['EUR', 'USD', 'GBP'];

function countFilters(v: BillingView): number {
  return [v.search, v.counterparty.length, v.state.length, v.badge.length, v.currency, v.product].filter(
    Boolean,
  ).length;
}

export function RowsFilters({ side, view, currencies, onChange }: RowsFiltersProps) {
  const { t } = useTranslation();
  const currencyOptions = [
    ...new Set([...COMMON_CURRENCIES, ...currencies, ...(view.currency ? [view.currency] : [])]),
  ].sort();
  return (
    <FiltersBar
      search={view.search}
      onSearch={(search) => onChange({ search })}
      searchLabel={t('billing.ui.search')}
      count={countFilters(view)}
      filtered={isFiltered(view)}
      onClear={() =>
        onChange({ search: '', counterparty: [], state: [], badge: [], currency: '', product: '' })
      }
      className="bo-bill-filters"
      testId="billing"
    >
      <FilterSelect<BillingState>
        multiple
        label={t('billing.col.state')}
        value={view.state}
        onChange={(state) => onChange({ state })}
        options={BILLING_STATES.map((s) => ({ value: s, label: t(`billing.state.${s}`) }))}
        testId="billing-filter-state"
      />
      <FilterSelect<PaymentBadge>
        multiple
        label={t('billing.col.badge')}
        value={view.badge}
        onChange={(badge) => onChange({ badge })}
        options={PAYMENT_BADGES.map((b) => ({ value: b, label: t(`billing.badge.${b}`) }))}
        testId="billing-filter-badge"
      />
      <FilterSelect
        small
        label={t('billing.col.currency')}
        value={view.currency}
        onChange={(currency) => onChange({ currency })}
        options={currencyOptions.map((c) => ({ value: c, label: c }))}
        testId="billing-filter-currency"
      />
      <FilterSelect
        small
        label={t('billing.col.product')}
        value={view.product}
        onChange={(product) => onChange({ product })}
        options={BILLING_PRODUCTS[side].map((p) => ({ value: p, label: p }))}
        testId="billing-filter-product"
      />
      {view.counterparty.length > 0 ? (
        <Tag
          closable
          closeIcon={<CloseOutlined aria-label={t('billing.ui.remove_filter')} />}
          onClose={() => onChange({ counterparty: [] })}
          className="bo-bill-cp-filter"
          data-testid="billing-filter-counterparty"
        >
          {t('billing.ui.counterparty_filter', { count: view.counterparty.length })}
        </Tag>
      ) : null}
    </FiltersBar>
  );
}
