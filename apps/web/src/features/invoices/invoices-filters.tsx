/**
 * The preview's filter bar: a search (counterparty, company or number), the states (Invoices tab)
 * and the month a document covers. The page writes each change to the URL; on a phone the filters
 * fold behind a button so the documents come first.
 */
import { FilterOutlined } from '@ant-design/icons';
import type { InvoiceState } from '@backoffice/core/invoices';
import { monthToString, parseMonth } from '@backoffice/core/dates';
import { Button, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MonthInput } from '../../components/month-input.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { DOCUMENT_STATES, isFiltered, type PreviewView } from './invoices-api.ts';

export function InvoicesFilters({
  view,
  onChange,
}: {
  view: PreviewView;
  onChange: (patch: Partial<PreviewView>) => void;
}) {
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
  const count = [view.search, view.state.length, view.month].filter(Boolean).length;

  return (
    <>
      {isMobile ? (
        <Button
          block
          icon={<FilterOutlined />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="invoice-filters"
          className="bo-inv-filters-toggle"
          data-testid="invoice-filters-toggle"
        >
          {t('resource.filters', { count })}
        </Button>
      ) : null}
      <div
        className="bo-inv-filters"
        id="invoice-filters"
        data-testid="invoice-filters"
        hidden={isMobile && !open}
      >
        <Input.Search
          allowClear
          className="bo-inv-filter bo-inv-filter--search"
          placeholder={t('invoice.ui.search')}
          aria-label={t('invoice.ui.search')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(v) => onChange({ search: v.trim() })}
          maxLength={100}
          data-testid="invoice-search"
        />
        {view.tab === 'invoices' ? (
          <Select<InvoiceState[]>
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            className="bo-inv-filter"
            placeholder={t('invoice.col.state')}
            aria-label={t('invoice.col.state')}
            value={view.state}
            onChange={(state) => onChange({ state })}
            options={DOCUMENT_STATES.map((s) => ({ value: s, label: t(`invoice.state.${s}`) }))}
            data-testid="invoice-filter-state"
          />
        ) : null}
        <MonthInput
          id="invoice-month"
          value={view.month ? parseMonth(view.month) : null}
          onChange={(m) => onChange({ month: m ? monthToString(m) : '' })}
          allowClear
          className="bo-inv-filter bo-inv-filter--month"
          aria-label={t('invoice.ui.month_filter')}
          placeholder={t('invoice.ui.month_filter')}
          data-testid="invoice-filter-month"
        />
        {isFiltered(view) ? (
          <Button
            type="link"
            onClick={() => onChange({ search: '', state: [], month: '' })}
            data-testid="invoice-clear-filters"
          >
            {t('resource.filters.clear')}
          </Button>
        ) : null}
      </div>
    </>
  );
}
