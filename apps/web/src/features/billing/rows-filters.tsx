/**
 * The month of a billing screen, and the filter bar of a list: a counterparty search, the
 * counterparties a link named, the states, payment badges, currency and product. Everything is
 * written to the URL by the page; on a phone the filters fold behind a button so the rows come
 * first.
 */
import { CloseOutlined, FilterOutlined } from '@ant-design/icons';
import {
  BILLING_STATES,
  PAYMENT_BADGES,
  type BillingState,
  type PaymentBadge,
} from '@backoffice/core/billing';
import { BILLING_PRODUCTS, type BillingSide } from '@backoffice/core/billing-api';
import { monthToString, parseMonth } from '@backoffice/core/dates';
import { Button, Input, Select, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MonthInput } from '../../components/month-input.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
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
  const { isMobile } = useViewport();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(view.search);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(view.search), [view.search]);
  useEffect(() => {
    if (debounced.trim() !== view.search) onChange({ search: debounced.trim() });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [debounced]);

  const currencyOptions = [
    ...new Set([...COMMON_CURRENCIES, ...currencies, ...(view.currency ? [view.currency] : [])]),
  ].sort();
  const n = countFilters(view);
  return (
    <>
      {isMobile ? (
        <Button
          block
          icon={<FilterOutlined />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="billing-filters"
          className="bo-bill-filters-toggle"
          data-testid="billing-filters-toggle"
        >
          {t('resource.filters', { count: n })}
        </Button>
      ) : null}
      <div className="bo-bill-filters" id="billing-filters" data-testid="billing-filters">
        <div className="bo-bill-filters__rest" hidden={isMobile && !open}>
          <Input.Search
            allowClear
            className="bo-bill-filter bo-bill-filter--search"
            placeholder={t('billing.ui.search')}
            aria-label={t('billing.ui.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onSearch={(v) => onChange({ search: v.trim() })}
            maxLength={200}
            data-testid="billing-search"
          />
          <Select<BillingState[]>
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            className="bo-bill-filter"
            placeholder={t('billing.col.state')}
            aria-label={t('billing.col.state')}
            value={view.state}
            onChange={(state) => onChange({ state })}
            options={BILLING_STATES.map((s) => ({ value: s, label: t(`billing.state.${s}`) }))}
            data-testid="billing-filter-state"
          />
          <Select<PaymentBadge[]>
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            className="bo-bill-filter"
            placeholder={t('billing.col.badge')}
            aria-label={t('billing.col.badge')}
            value={view.badge}
            onChange={(badge) => onChange({ badge })}
            options={PAYMENT_BADGES.map((b) => ({ value: b, label: t(`billing.badge.${b}`) }))}
            data-testid="billing-filter-badge"
          />
          <Select<string>
            allowClear
            className="bo-bill-filter bo-bill-filter--small"
            placeholder={t('billing.col.currency')}
            aria-label={t('billing.col.currency')}
            value={view.currency || undefined}
            onChange={(currency) => onChange({ currency: currency ?? '' })}
            options={currencyOptions.map((c) => ({ value: c, label: c }))}
            data-testid="billing-filter-currency"
          />
          <Select<string>
            allowClear
            className="bo-bill-filter bo-bill-filter--small"
            placeholder={t('billing.col.product')}
            aria-label={t('billing.col.product')}
            value={view.product || undefined}
            onChange={(product) => onChange({ product: product ?? '' })}
            options={BILLING_PRODUCTS[side].map((p) => ({ value: p, label: p }))}
            data-testid="billing-filter-product"
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
          {isFiltered(view) ? (
            <Button
              type="link"
              onClick={() =>
                onChange({ search: '', counterparty: [], state: [], badge: [], currency: '', product: '' })
              }
              data-testid="billing-clear-filters"
            >
              {t('resource.filters.clear')}
            </Button>
          ) : null}
        </div>
      </div>
    </>
  );
}
