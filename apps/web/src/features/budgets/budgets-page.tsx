/**
 * Budgets by company (`/partners/perf-budgets-companies`, `/new`, `/{id}`) on the resource layer:
 * a performance-side company's monthly budget, with what it spent (the API adds it to every row
 * from the warehouse) against the budget: pace against the expected spend to date, the share used
 * as a bar, a status and an over-budget alert. A budget in another currency than the warehouse's
 * (USD) shows its spend without comparing (docs/decisions/015-budgets.md). The company picker
 * offers the companies of the performance side only (the API refuses the others).
 */
import { QuestionCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { PACE_STATUSES, SPEND_CURRENCY, type BudgetPacing, type PaceStatus } from '@backoffice/core/budgets';
import { monthToString, parseMonth } from '@backoffice/core/dates';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { budgets } from '@backoffice/core/resources/budgets';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Input, Popover, Progress, Select, Space, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MonthInput } from '../../components/month-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { api } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { listPrefetcher, type ResourceRow } from '../../resources/resource-api.ts';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import './budgets.css';

type BudgetRow = ResourceRow & Partial<BudgetPacing> & { amount?: string; currency?: string; month?: string; company_id_label?: string | null };

const TONE: Record<PaceStatus, StatusTone> = { behind: 'bad', on_track: 'ok', ahead: 'info' };
const percent = (value: number | null | undefined, locale: string) => (typeof value === 'number' ? `${formatNumber(value, locale, 1)} %` : '—');

/** The month as `YYYY-MM` text, picked with the app's month input (future months allowed). */
function BudgetMonthInput({ id, value, onChange }: { id?: string; value?: string; onChange?: (v: string) => void }) {
  return (
    <MonthInput
      id={id}
      allowFuture
      style={{ width: '100%' }}
      value={value ? parseMonth(value) : null}
      onChange={(m) => onChange?.(m ? monthToString(m) : '')}
    />
  );
}

interface CompanyOption {
  id: number;
  value: string;
}

/** The companies a budget can be for (those with a performance-side partner), searched on the server. */
function PerformanceCompanySelect({ id, value, onChange }: { id?: string; value?: number | null; onChange?: (v: number | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const found = useQuery<CompanyOption[]>({
    queryKey: ['api', 'budgets', 'companies', term],
    queryFn: ({ signal }) => api.request<CompanyOption[]>('budgets/companies', { query: term ? { q: term, limit: 50 } : { limit: 50 }, signal }),
    staleTime: 60_000,
  });
  const current = useQuery<CompanyOption[]>({
    queryKey: ['api', 'budgets', 'companies', 'ids', value],
    queryFn: ({ signal }) => api.request<CompanyOption[]>('budgets/companies', { query: { ids: String(value) }, signal }),
    enabled: typeof value === 'number',
    staleTime: 60_000,
  });
  const options = new Map<number, string>();
  for (const o of current.data ?? []) options.set(o.id, o.value);
  for (const o of found.data ?? []) options.set(o.id, o.value);
  return (
    <Select<number>
      id={id}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      loading={found.isFetching}
      placeholder={t('budget.company_placeholder')}
      notFoundContent={found.isFetching ? t('inputs.autocomplete.searching') : t('inputs.autocomplete.no_results')}
      options={[...options].map(([v, label]) => ({ value: v, label }))}
    />
  );
}

/** How much of the budget is used: a bar (red over 100 %), or why there is none. */
function UsageBar({ row }: { row: BudgetRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (row.comparable === false) return <Typography.Text type="secondary">{t('budget.not_compared')}</Typography.Text>;
  if (typeof row.usage_pct !== 'number') return <span className="bo-res-empty">—</span>;
  return (
    <Progress
      className="bo-budget-usage"
      percent={Math.min(row.usage_pct, 100)}
      status={row.alert ? 'exception' : 'normal'}
      format={() => percent(row.usage_pct, locale)}
      size="small"
      aria-label={`${t('budget.usage')}: ${percent(row.usage_pct, locale)}`}
      data-testid="budget-usage"
    />
  );
}

/** The status (behind, on track, ahead; not started; not compared) and the over-budget alert. */
function StatusCell({ row }: { row: BudgetRow }) {
  const { t } = useTranslation();
  const tags: ReactNode[] = [];
  if (row.status && (PACE_STATUSES as readonly string[]).includes(row.status)) {
    tags.push(
      <StatusTag key="status" tone={TONE[row.status]} testId="budget-status">
        {t(`budget.status.${row.status}`)}
      </StatusTag>,
    );
  } else if (row.comparable !== false && row.elapsed_pct === 0) {
    tags.push(
      <StatusTag key="status" tone="off" testId="budget-status">
        {t('budget.status.not_started')}
      </StatusTag>,
    );
  }
  if (row.alert) {
    tags.push(
      <StatusTag key="alert" tone="bad" testId="budget-alert">
        <WarningOutlined /> {t('budget.alert')}
      </StatusTag>,
    );
  }
  return tags.length > 0 ? <Space size={4} wrap>{tags}</Space> : <span className="bo-res-empty">—</span>;
}

/** The spend and pacing of one budget, with what the figures mean (its page's tab). */
function SpendTab({ row }: { row: BudgetRow }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const currency = String(row.currency ?? SPEND_CURRENCY);
  return (
    <div data-testid="budget-spend">
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          { key: 'amount', label: t('budget.amount'), children: formatMoney(row.amount, currency, locale) },
          { key: 'spent', label: t('budget.spent'), children: formatMoney(row.spent, SPEND_CURRENCY, locale) },
          { key: 'elapsed', label: t('budget.elapsed'), children: percent(row.elapsed_pct, locale) },
          { key: 'expected', label: t('budget.expected'), children: formatMoney(row.expected, currency, locale) },
          { key: 'pace', label: t('budget.pace'), children: percent(row.pace_pct, locale) },
          { key: 'usage', label: t('budget.usage'), children: <UsageBar row={row} /> },
          { key: 'status', label: t('budget.status'), children: <StatusCell row={row} /> },
        ]}
      />
      <div className="bo-budget-notes">
        {row.as_of ? <Typography.Paragraph type="secondary">{t('budget.as_of', { at: formatDateTime(row.as_of, locale) })}</Typography.Paragraph> : null}
        <Typography.Paragraph type="secondary">{t('budget.spent_help')}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('budget.pacing_rule')}</Typography.Paragraph>
        {row.comparable === false ? <Typography.Paragraph type="warning">{t('budget.currency_rule', { currency })}</Typography.Paragraph> : null}
      </div>
    </div>
  );
}

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(budgets);

export default function BudgetsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (amount: unknown, currency: unknown) => <span className="bo-budget-money">{formatMoney(typeof amount === 'string' ? amount : null, String(currency ?? SPEND_CURRENCY), locale)}</span>;
  const extraColumns: TableColumnsType<ResourceRow> = [
    { key: 'spent', title: t('budget.spent'), align: 'right', render: (_: unknown, row: BudgetRow) => money(row.spent, SPEND_CURRENCY) },
    { key: 'expected', title: t('budget.expected'), align: 'right', render: (_: unknown, row: BudgetRow) => money(row.expected, row.currency) },
    { key: 'pace', title: t('budget.pace'), align: 'right', render: (_: unknown, row: BudgetRow) => <span className="bo-budget-money">{percent(row.pace_pct, locale)}</span> },
    { key: 'usage', title: t('budget.usage'), render: (_: unknown, row: BudgetRow) => <UsageBar row={row} /> },
    { key: 'status', title: t('budget.status'), render: (_: unknown, row: BudgetRow) => <StatusCell row={row} /> },
  ];
  return (
    <ResourcePage
      def={budgets}
      basePath="/partners/perf-budgets-companies"
      titleKey="budget.title"
      newTitleKey="budget.new_title"
      rowTitle={(row) => t('budget.row_title', { company: String(row.company_id_label ?? `#${String(row.company_id)}`), month: String(row.month) })}
      inputs={{ company_id: <PerformanceCompanySelect />, month: <BudgetMonthInput />, notes: <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} /> }}
      cells={{
        // On a phone the name wraps, so that the month and the figures come into view.
        company_id: (value, row) => <span className="bo-budget-company">{typeof row.company_id_label === 'string' ? row.company_id_label : `#${String(value)}`}</span>,
        amount: (value, row) => money(value, row.currency),
      }}
      extraColumns={extraColumns}
      listActions={
        <Popover
          trigger="click"
          content={
            <div className="bo-budget-help" data-testid="budget-help">
              <Typography.Paragraph>{t('budget.spent_help')}</Typography.Paragraph>
              <Typography.Paragraph>{t('budget.pacing_rule')}</Typography.Paragraph>
              <Typography.Paragraph>{t('budget.currency_rule', { currency: 'EUR' })}</Typography.Paragraph>
            </div>
          }
        >
          <Button icon={<QuestionCircleOutlined />} aria-label={t('budget.tab.spend')}>
            {t('budget.tab.spend')}
          </Button>
        </Popover>
      }
      tabs={(row) => [{ key: 'spend', label: t('budget.tab.spend'), children: <SpendTab row={row as BudgetRow} /> }]}
    />
  );
}
