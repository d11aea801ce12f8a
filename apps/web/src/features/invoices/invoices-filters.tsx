/**
 * The preview's filter bar (components/filters-bar.tsx): a search (counterparty, company or
 * number), the states (Invoices tab) and the month a document covers. The page writes each change
 * to the URL; on a phone the filters fold behind a button so the documents come first.
 */
import type { InvoiceState } from '@backoffice/core/invoices';
import { monthToString, parseMonth } from '@backoffice/core/dates';
import { useTranslation } from 'react-i18next';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MonthInput } from '../../components/month-input.tsx';
import { DOCUMENT_STATES, isFiltered, type PreviewView } from './invoices-api.ts';

export function InvoicesFilters({
  view,
  onChange,
}: {
  view: PreviewView;
  onChange: (patch: Partial<PreviewView>) => void;
}) {
  const { t } = useTranslation();
  return (
    <FiltersBar
      search={view.search}
      onSearch={(search) => onChange({ search })}
      searchLabel={t('invoice.ui.search')}
      searchMaxLength={100}
      count={[view.search, view.state.length, view.month].filter(Boolean).length}
      filtered={isFiltered(view)}
      onClear={() => onChange({ search: '', state: [], month: '' })}
      testId="invoice"
    >
      {view.tab === 'invoices' ? (
        <FilterSelect<InvoiceState>
          multiple
          label={t('invoice.col.state')}
          value={view.state}
          onChange={(state) => onChange({ state })}
          options={DOCUMENT_STATES.map((s) => ({ value: s, label: t(`invoice.state.${s}`) }))}
          testId="invoice-filter-state"
        />
      ) : null}
      <MonthInput
        id="invoice-month"
        value={view.month ? parseMonth(view.month) : null}
        onChange={(m) => onChange({ month: m ? monthToString(m) : '' })}
        allowClear
        className="bo-filter bo-filter--month"
        aria-label={t('invoice.ui.month_filter')}
        placeholder={t('invoice.ui.month_filter')}
        data-testid="invoice-filter-month"
      />
    </FiltersBar>
  );
}
