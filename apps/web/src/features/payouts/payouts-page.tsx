/**
 * The payout screens (issue 23): `/billing_performance/publishers_reports` (Publisher pending
 * payout), `/billing_ssp/supply-billing` (Supply pending payout) and
 * `/billing_performance/performance-publisher-monthly-report` (Publisher payouts: the month's
 * approved and paid). One month's payouts, one per publisher, with the spec's columns, filtered,
 * sorted and paged by the API; totals per currency and the payouts per state; the selection's
 * actions (confirm with comment and code, back to pending, hold, release, approve, mark paid, SEPA
 * file); compute from the warehouse, the payment CSV, the alert thresholds, export; a drawer per
 * payout. The minimum-revenue filter asks before it changes (spec 5). Month, filters, sort, page
 * and open payout live in the URL.
 */
import { CalculatorOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { formatMoney } from '@backoffice/core/format';
import {
  PAYOUT_DEFAULT_SORT,
  PAYOUT_STATES,
  PAYOUTS_RESOURCE,
  payoutExportName,
  type PayoutAction,
  type PayoutDto,
  type PayoutListAnswer,
  type PayoutRun,
  type PayoutSide,
} from '@backoffice/core/payouts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { CurrencyTotals } from '../../components/currency-totals.tsx';
import { DataTable, EmptyList, ListError, sortChoices, useFreshSelection, type DataColumn } from '../../components/data-table.tsx';
import { FilterSelect, FiltersBar } from '../../components/filters-bar.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { MonthInput } from '../../components/month-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { Page } from '../../shell/page.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { AlertTags, StateTag } from './payout-cells.tsx';
import { HoldDialog, ImportDialog, PayDialog, SepaDialog, SettingsDialog } from './payout-dialogs.tsx';
import { PayoutDrawer } from './payout-drawer.tsx';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { DEFAULT_STATES, filterCount, listPath, listQuery, PAGE_SIZES, readView, sumAmounts, viewPatch, type PayoutsMode, type PayoutsView } from './payouts-api.ts';
import './payouts.css';

const COLUMNS = ['name', 'id_user', 'period', 'payment_terms', 'revenue_gross', 'share', 'new_revenue', 'carried_in', 'adjustment', 'payout', 'state', 'alerts', 'comments', 'paid'] as const;
type ColumnKey = (typeof COLUMNS)[number];
const DEFAULT_COLUMNS: Record<PayoutsMode, ColumnKey[]> = {
  pending: ['name', 'id_user', 'period', 'payment_terms', 'revenue_gross', 'new_revenue', 'carried_in', 'payout', 'state', 'alerts', 'comments'],
  monthly: ['name', 'id_user', 'period', 'payment_terms', 'revenue_gross', 'new_revenue', 'payout', 'state', 'paid'],
};
const SORT_FIELDS = ['payout', 'name', 'new_revenue', 'revenue_gross', 'carried_in', 'effective_pct', 'state', 'id_user'] as const;
const SORT_LABEL: Record<string, string> = { name: 'payout.col.name', payout: 'payout.col.payout', new_revenue: 'payout.col.new_revenue', revenue_gross: 'payout.col.revenue_gross', carried_in: 'payout.col.carried_in', effective_pct: 'payout.col.effective_pct', state: 'payout.col.state', id_user: 'payout.col.id_user' };

type Dialog = 'confirm' | 'hold' | 'pay' | 'sepa' | 'import' | 'settings' | null;
type BarAction = PayoutAction | 'sepa';

export interface PayoutsPageProps {
  side: PayoutSide;
  mode: PayoutsMode;
  /** The menu entry naming the screen. */
  menuId: string;
}

export function PayoutsPage({ side, mode, menuId }: PayoutsPageProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { modal } = App.useApp();
  const queries = useQueryClient();
  const canWrite = usePermission(PAYOUTS_RESOURCE, 'write');
  const canApprove = usePermission(PAYOUTS_RESOURCE, 'approve');
  const [params, update] = useUrlState();
  const view = useMemo(() => readView(params, mode), [params, mode]);
  const query = listQuery(view);
  const list = useApiQuery<PayoutListAnswer>(listPath(side), { query }, { placeholderData: keepPreviousData });
  const data = list.data;
  const [visible, setVisible] = useStoredColumns(`payouts.${side}.${mode}`, COLUMNS, DEFAULT_COLUMNS[mode]);
  const [selected, setSelected] = useState<Map<number, PayoutDto>>(new Map());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<BarAction | 'compute' | null>(null);
  const [minText, setMinText] = useState(view.minPayout);
  useEffect(() => setMinText(view.minPayout), [view.minPayout]);
  useFreshSelection(data?.rows, selected, setSelected, (r) => r.id);

  useEffect(() => {
    if (!params.get('month')) update({ month: view.month });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per missing month
  }, [params]);

  const apply = (patch: Partial<PayoutsView>) => {
    const withPage = 'page' in patch || 'payout' in patch ? patch : { ...patch, page: 1 };
    if ('month' in patch && patch.month !== view.month) setSelected(new Map());
    update(viewPatch(withPage));
  };
  const reload = () => void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'api' && typeof q.queryKey[1] === 'string' && q.queryKey[1].startsWith(`payouts/`) });
  const rows = [...selected.values()];
  const money = (amount: string, currency: string) => <MoneyCell amount={amount} currency={currency} />;

  /** Results of a run: the count, and the skipped with their reasons. */
  const finished = (run: PayoutRun) => {
    setDialog(null);
    reload();
    void notice.success(t('payout.ui.result', { applied: run.applied, skipped: run.skipped }));
    const skipped = run.results.filter((r) => !r.ok);
    if (skipped.length > 0)
      modal.info({
        title: t('payout.ui.result', { applied: run.applied, skipped: run.skipped }),
        content: (
          <ul className="bo-pay-list" data-testid="payout-skipped">
            {skipped.slice(0, 20).map((r) => (
              <li key={r.id}>
                {selected.get(r.id)?.name ?? `#${r.id}`}: {t(r.reason ?? 'payout.skip.state')}
              </li>
            ))}
          </ul>
        ),
      });
    else setSelected(new Map());
  };
  const post = async (action: 'unconfirm' | 'release' | 'approve') => {
    setBusy(action);
    try {
      finished(await api.request<PayoutRun>(`payouts/${side}/actions`, { method: 'POST', body: { action, rows: rows.map((r) => ({ id: r.id, version: r.version })), idempotency_key: newIdempotencyKey('po-') } }));
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
      reload();
    } finally {
      setBusy(null);
    }
  };
  const act = (a: BarAction) => {
    if (rows.length === 0) return void notice.error(t('payout.none_selected'));
    if (a === 'confirm' || a === 'hold' || a === 'pay' || a === 'sepa') return setDialog(a);
    if (a === 'approve')
      return void modal.confirm({
        title: t('payout.ui.approve_title', { count: rows.length }),
        content: t('payout.ui.approve_body', { total: totalsText(rows) }),
        okText: t('payout.action.approve'),
        cancelText: t('payout.ui.cancel'),
        okButtonProps: { 'data-testid': 'payout-approve-ok' } as Record<string, string>,
        onOk: () => void post('approve'),
      });
    void post(a);
  };
  const totalsText = (list: PayoutDto[]) =>
    [...new Set(list.map((r) => r.currency))]
      .map((c) => formatMoney(sumAmounts(list.filter((r) => r.currency === c).map((r) => r.payout)), c, locale))
      .join(' · ');
  const compute = () =>
    modal.confirm({
      title: t('payout.ui.compute'),
      content: t('payout.ui.never_computed'),
      okText: t('payout.ui.compute'),
      cancelText: t('payout.ui.cancel'),
      okButtonProps: { 'data-testid': 'payout-compute-ok' } as Record<string, string>,
      onOk: async () => {
        setBusy('compute');
        try {
          const r = await api.request<{ inserted: number; updated: number; kept: number; carried: number }>(`payouts/${side}/compute`, { method: 'POST', body: { month: view.month } });
          void notice.success(t('payout.ui.computed', r));
          reload();
        } catch (e) {
          if (!isSessionError(e)) void notice.error(errorText(e));
        } finally {
          setBusy(null);
        }
      },
    });
  /** The minimum-revenue filter asks before it changes (spec 5). */
  const changeMin = (next: string) => {
    const value = next.trim();
    if (value === view.minPayout) return;
    if (value !== '' && !/^\d{1,12}(\.\d{1,2})?$/.test(value)) {
      setMinText(view.minPayout);
      return void notice.error(t('payout.amount_invalid'));
    }
    modal.confirm({
      title: t('payout.ui.min_payout.confirm_title'),
      content: value ? t('payout.ui.min_payout.confirm_body', { amount: value }) : t('payout.ui.min_payout.confirm_clear'),
      okText: t('common.ok'),
      cancelText: t('payout.ui.cancel'),
      okButtonProps: { 'data-testid': 'payout-min-ok' } as Record<string, string>,
      onOk: () => apply({ minPayout: value }),
      onCancel: () => setMinText(view.minPayout),
    });
  };

  const col = (key: ColumnKey): DataColumn<PayoutDto> => {
    const right = 'right' as const;
    switch (key) {
      case 'name':
        return {
          key,
          title: t('payout.col.name'),
          sort: 'name',
          render: (r) => (
            <Button type="link" className="bo-pay-open" onClick={() => apply({ payout: r.id })} data-testid={`payout-open-${r.id}`}>
              {r.name}
            </Button>
          ),
        };
      case 'id_user':
        return { key, title: t('payout.col.id_user'), sort: 'id_user', render: (r) => r.id_user };
      case 'period':
        return { key, title: `${t('payout.col.from_date')} – ${t('payout.col.to_date')}`, render: (r) => `${r.from_date} – ${r.to_date}` };
      case 'payment_terms':
        return { key, title: t('payout.col.payment_terms'), render: (r) => r.payment_terms };
      case 'revenue_gross':
        return { key, title: t('payout.col.revenue_gross'), align: right, sort: 'revenue_gross', render: (r) => money(r.revenue_gross, r.currency) };
      case 'share':
        return { key, title: `${t('payout.col.share_pct')} / ${t('payout.col.effective_pct')}`, align: right, sort: 'effective_pct', render: (r) => `${r.share_pct}% / ${r.effective_pct ?? '—'}%` };
      case 'new_revenue':
        return { key, title: t('payout.col.new_revenue'), align: right, sort: 'new_revenue', render: (r) => money(r.new_revenue, r.currency) };
      case 'carried_in':
        return { key, title: t('payout.col.carried_in'), align: right, sort: 'carried_in', render: (r) => (r.carried_in === '0.00' ? '—' : money(r.carried_in, r.currency)) };
      case 'adjustment':
        return { key, title: t('payout.col.adjustment'), align: right, render: (r) => (r.adjustment === '0.00' ? '—' : money(r.adjustment, r.currency)) };
      case 'payout':
        return { key, title: t('payout.col.payout'), align: right, sort: 'payout', render: (r) => <strong data-testid={`payout-amount-${r.id}`}>{money(r.payout, r.currency)}</strong> };
      case 'state':
        return { key, title: t('payout.col.state'), sort: 'state', render: (r) => <StateTag state={r.state} testId={`payout-state-${r.id}`} /> };
      case 'alerts':
        return { key, title: t('payout.col.alerts'), render: (r) => <AlertTags payout={r} /> };
      case 'comments':
        return { key, title: t('payout.col.comments'), render: (r) => <span className="bo-pay-comment">{r.comments}</span> };
      case 'paid':
        return { key, title: t('payout.col.paid_on'), render: (r) => (r.paid_on ? `${r.paid_on} · ${r.bank_reference ?? ''}` : '—') };
    }
  };

  const states = data?.totals.states;
  const offered: BarAction[] = [
    ...(canWrite ? (['confirm', 'unconfirm', 'hold', 'release'] as const) : []),
    ...(canApprove ? (['approve'] as const) : []),
    ...(canWrite ? (['pay', 'sepa'] as const) : []),
  ];
  const applicable = (a: BarAction) => (a === 'sepa' ? rows.filter((r) => r.state === 'approved' && r.currency === 'EUR').length : rows.filter((r) => r.actions.includes(a)).length);

  return (
    <Page title={t(`menu.${menuId}`)} testId="payouts-page">
      <Typography.Paragraph type="secondary">{t(`payout.ui.subtitle.${mode}`)}</Typography.Paragraph>
      <div className="bo-pay-toolbar">
        <div className="bo-pay-field">
          <label htmlFor="payout-month" className="bo-pay-label">
            {t('payout.ui.month')}
          </label>
          <MonthInput
            id="payout-month"
            value={{ year: Number(view.month.slice(0, 4)), month: Number(view.month.slice(5, 7)) }}
            onChange={(m) => m && apply({ month: `${m.year}-${String(m.month).padStart(2, '0')}` })}
            allowClear={false}
            data-testid="payout-month"
          />
        </div>
        <Space wrap>
          {canWrite ? (
            <Button icon={<CalculatorOutlined />} onClick={compute} loading={busy === 'compute'} data-testid="payout-compute">
              {t('payout.ui.compute')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button icon={<UploadOutlined />} onClick={() => setDialog('import')} data-testid="payout-import-open">
              {t('payout.ui.import')}
            </Button>
          ) : null}
          {canApprove && data ? (
            <Button icon={<SettingOutlined />} onClick={() => setDialog('settings')} data-testid="payout-settings-open">
              {t('payout.ui.settings')}
            </Button>
          ) : null}
          <ApiExportButton path={`/v1/payouts/${side}/export`} query={query} name={payoutExportName(side)} disabled={!data || data.total === 0} testId="payout-export" />
          <ColumnChooser all={COLUMNS} visible={visible} onChange={setVisible} label={(k) => t(k === 'period' ? 'payout.col.from_date' : k === 'share' ? 'payout.col.share_pct' : k === 'paid' ? 'payout.col.paid_on' : `payout.col.${k}`)} required={['name']} testId="payout-columns" />
        </Space>
      </div>
      {data?.computed_at ? (
        <Typography.Text type="secondary" className="bo-pay-block" data-testid="payout-computed-at">
          {t('payout.ui.computed_at', { at: formatDateTime(data.computed_at, locale) })}
        </Typography.Text>
      ) : null}

      <FiltersBar
        search={view.search}
        onSearch={(search) => apply({ search })}
        searchLabel={t('payout.ui.search')}
        count={filterCount(view, mode)}
        filtered={filterCount(view, mode) > 0}
        onClear={() => apply({ search: '', state: [...DEFAULT_STATES[mode]], minPayout: '', alerts: '', currency: '' })}
        testId="payout"
      >
        <FilterSelect multiple label={t('payout.ui.states')} value={view.state} onChange={(state) => apply({ state })} options={PAYOUT_STATES.map((s) => ({ value: s, label: t(`payout.state.${s}`) }))} testId="payout-filter-state" />
        <FilterSelect small label={t('payout.col.currency')} value={view.currency} onChange={(currency) => apply({ currency })} options={['EUR', 'USD', 'GBP'].map((c) => ({ value: c, label: c }))} testId="payout-filter-currency" />
        <FilterSelect small label={t('payout.col.alerts')} value={view.alerts} onChange={(alerts) => apply({ alerts: alerts as '' | 'true' })} options={[{ value: 'true', label: t('payout.ui.alerts_only') }]} testId="payout-filter-alerts" />
        <Input
          className="bo-filter bo-filter--small"
          placeholder={t('payout.ui.min_payout')}
          aria-label={t('payout.ui.min_payout')}
          value={minText}
          inputMode="decimal"
          allowClear
          onChange={(e) => {
            setMinText(e.target.value);
            if (e.target.value === '' && view.minPayout) changeMin('');
          }}
          onPressEnter={() => changeMin(minText)}
          onBlur={() => changeMin(minText)}
          data-testid="payout-filter-min"
        />
      </FiltersBar>

      {data ? (
        <CurrencyTotals
          label={t('payout.ui.total')}
          testId="payout"
          cards={data.totals.by_currency.map((c) => ({
            key: c.currency,
            title: c.currency,
            aside: t('resource.rows', { count: c.payouts }),
            figures: [
              { label: t('payout.col.payout'), amount: c.payout, currency: c.currency, testId: `payout-total-payout-${c.currency}` },
              { label: t('payout.col.new_revenue'), amount: c.new_revenue, currency: c.currency },
              { label: t('payout.col.revenue_gross'), amount: c.revenue_gross, currency: c.currency },
              { label: t('payout.col.carried_in'), amount: c.carried_in, currency: c.currency },
            ],
          }))}
          states={
            states
              ? {
                  label: t('payout.ui.states'),
                  states: PAYOUT_STATES,
                  count: (s) => states[s],
                  text: (s) => t(`payout.state.${s}`),
                  active: view.state,
                  onToggle: (s) => apply({ state: view.state.length === 1 && view.state[0] === s ? [...DEFAULT_STATES[mode]] : [s] }),
                }
              : undefined
          }
        >
          {data.totals.alerts > 0 ? (
            <Button type="link" onClick={() => apply({ alerts: view.alerts ? '' : 'true' })} data-testid="payout-alerts-count">
              {t('payout.col.alerts')}: {data.totals.alerts}
            </Button>
          ) : null}
        </CurrencyTotals>
      ) : null}
      {mode === 'pending' && data?.confirm_month_error ? (
        <Alert type="info" showIcon className="bo-pay-gap" title={t(data.confirm_month_error, { day: 15 })} data-testid="payout-month-rule" />
      ) : null}

      {offered.length > 0 ? (
        <div className="bo-pay-actionbar" role="group" aria-label={t('payout.ui.selected', { count: rows.length })} data-testid="payout-actionbar">
          <Typography.Text data-testid="payout-selected-count">{t('payout.ui.selected', { count: rows.length })}</Typography.Text>
          <Space wrap size={[8, 8]}>
            {offered.map((a) => (
              <Button
                key={a}
                type={a === 'approve' || a === 'confirm' ? 'primary' : 'default'}
                loading={busy === a}
                disabled={busy !== null && busy !== a}
                onClick={() => act(a)}
                data-testid={`payout-bulk-${a}`}
              >
                {a === 'sepa' ? t('payout.ui.sepa') : t(`payout.action.${a}`)}
                {rows.length > 0 ? ` (${applicable(a)})` : ''}
              </Button>
            ))}
          </Space>
        </div>
      ) : null}

      {list.error ? <ListError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable<PayoutDto, number>
        rows={data?.rows ?? []}
        total={data?.total ?? 0}
        loading={list.isFetching}
        rowKey={(r) => r.id}
        columns={visible.map(col)}
        view={view}
        onView={(patch) => apply(patch)}
        defaultSort={PAYOUT_DEFAULT_SORT}
        pageSizes={PAGE_SIZES}
        sortOptions={sortChoices(SORT_FIELDS, (f) => t(SORT_LABEL[f]!))}
        sortLabel={t('payout.ui.sort_by')}
        regionLabel={t(`menu.${menuId}`)}
        testId="payout"
        selection={canWrite || canApprove ? { selected, onChange: setSelected, label: (r) => r.name } : undefined}
        card={{
          title: (r, className) => (
            <Button type="link" className={className} onClick={() => apply({ payout: r.id })} data-testid={`payout-open-${r.id}`}>
              {r.name}
            </Button>
          ),
          tag: (r) => <StateTag state={r.state} />,
          note: (r) => (r.alerts.length > 0 || r.blockers.length > 0 ? <AlertTags payout={r} /> : null),
          fields: (r) => [
            { label: t('payout.col.payout'), value: <strong>{money(r.payout, r.currency)}</strong> },
            { label: t('payout.col.new_revenue'), value: money(r.new_revenue, r.currency) },
            { label: t('payout.col.revenue_gross'), value: money(r.revenue_gross, r.currency) },
            { label: t('payout.col.payment_terms'), value: r.payment_terms },
            ...(r.carried_in !== '0.00' ? [{ label: t('payout.col.carried_in'), value: money(r.carried_in, r.currency) }] : []),
          ],
        }}
        empty={
          data && !data.computed_at ? (
            <EmptyList description={t('payout.ui.never_computed')} testId="payout-empty">
              {canWrite ? (
                <Button type="primary" onClick={compute} data-testid="payout-empty-compute">
                  {t('payout.ui.compute')}
                </Button>
              ) : null}
            </EmptyList>
          ) : (
            <EmptyList description={t('payout.ui.empty')} testId="payout-empty" onClear={filterCount(view, mode) > 0 ? () => apply({ search: '', state: [], minPayout: '', alerts: '', currency: '' }) : undefined} />
          )
        }
      />

      {view.payout !== null && data ? (
        <PayoutDrawer side={side} id={view.payout} listed={data.rows.find((r) => r.id === view.payout) ?? null} settings={data.settings} onClose={() => apply({ payout: null })} onChanged={reload} />
      ) : null}
      {dialog === 'confirm' ? <ConfirmDialog side={side} rows={rows} monthError={data?.confirm_month_error ?? null} onClose={() => setDialog(null)} onDone={finished} /> : null}
      {dialog === 'hold' ? <HoldDialog side={side} rows={rows} onClose={() => setDialog(null)} onDone={finished} /> : null}
      {dialog === 'pay' ? <PayDialog side={side} rows={rows} onClose={() => setDialog(null)} onDone={finished} /> : null}
      {dialog === 'sepa' ? (
        <SepaDialog
          side={side}
          rows={rows}
          onClose={() => setDialog(null)}
          onDone={(file) => {
            setDialog(null);
            void notice.success(file);
            reload();
          }}
        />
      ) : null}
      {dialog === 'import' ? (
        <ImportDialog
          side={side}
          onClose={() => setDialog(null)}
          onDone={(answer) => {
            setDialog(null);
            void notice.success(t('payout.ui.import_preview', { matched: answer.matched, unmatched: answer.unmatched, invalid: answer.invalid, duplicate: answer.duplicate }));
            reload();
          }}
        />
      ) : null}
      {dialog === 'settings' && data ? (
        <SettingsDialog
          settings={data.settings}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            void notice.success(t('payout.ui.saved'));
            reload();
          }}
        />
      ) : null}
    </Page>
  );
}
