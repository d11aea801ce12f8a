/**
 * One request in a drawer: its state and live progress, the reason and a retry when it failed,
 * and its rows per day and partner (filter flagged / undecided / all, sort, page: in the URL) with
 * ours, theirs and delta %; rows are decided one by one or selected and decided in bulk (ours,
 * theirs, a split as a share of the way or, for one row, an agreed amount). Once every flagged row
 * is decided, "Apply to billing" (confirmation) writes the accepted revenue and lists what was
 * written and what was skipped.
 */
import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { fromMicros, toMicros } from '@backoffice/core/billing';
import { discrepancyRowsExportName, toleranceText, type DiscrepancyDecision, type DiscrepancyRequestDto, type DiscrepancyRowDto } from '@backoffice/core/discrepancy';
import { Alert, Button, Descriptions, Drawer, Form, Input, List, Progress, Radio, Segmented, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionModal } from '../../components/action-modal.tsx';
import { ApiExportButton } from '../../components/api-export-button.tsx';
import { DataTable, EmptyList, ListError, sortChoices, useFreshSelection, type DataColumn } from '../../components/data-table.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { NumberCell } from '../../components/number-cell.tsx';
import { useApiAction } from '../../components/use-api-action.ts';
import { api } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { rowsQuery, useInvalidate, useRequest, useRows, type DiscrepancyView } from './discrepancy-api.ts';

export const STATE_TONE: Record<DiscrepancyRequestDto['state'], StatusTone> = { queued: 'info', running: 'info', ready: 'bad', reviewed: 'ok', applied: 'off', failed: 'bad' };

export function StateTag({ state }: { state: DiscrepancyRequestDto['state'] }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={STATE_TONE[state]} testId={`discrepancy-state-${state}`}>
      {t(`discrepancy.state.${state}`)}
    </StatusTag>
  );
}

const pct = (v: string | null) => (v === null ? '—' : `${v} %`);

export function ReviewDrawer({ view, onView, onClose }: { view: DiscrepancyView; onView: (patch: Record<string, string | null>) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const canWrite = usePermission('/v1/discrepancy', 'write');
  const request = useRequest(view.request);
  const req = request.data;
  const ready = req && !['queued', 'running', 'failed'].includes(req.state);
  const rows = useRows(view.request, view, Boolean(ready));
  const invalidate = useInvalidate();
  const action = useApiAction<'decide' | 'apply' | 'retry'>();
  const [selected, setSelected] = useState<Map<number, DiscrepancyRowDto>>(new Map());
  const [dialog, setDialog] = useState<{ rows: DiscrepancyRowDto[] } | null>(null);
  const [decision, setDecision] = useState<DiscrepancyDecision>('theirs');
  const [splitPct, setSplitPct] = useState('50');
  const [amount, setAmount] = useState('');
  const [dialogError, setDialogError] = useState<Record<string, string>>({});
  useFreshSelection(rows.data?.rows, selected, setSelected, (r) => r.id);

  const reload = async () => {
    await invalidate();
  };
  const decide = (list: DiscrepancyRowDto[], d: DiscrepancyDecision, extra: Record<string, string> = {}) =>
    action.run(
      'decide',
      async () => {
        await api.request(`discrepancy/requests/${req!.id}/decisions`, { method: 'POST', body: { rows: list.map((r) => ({ id: r.id, version: r.version })), decision: d, ...extra } });
        setSelected(new Map());
        setDialog(null);
        await reload();
        return 'discrepancy.decided';
      },
      (e) => {
        if (e instanceof FetchError && e.httpStatus === 409) void reload();
        if (e instanceof FetchError && e.httpStatus === 400 && e.details.errors && dialog) {
          setDialogError(e.details.errors);
          return true;
        }
        return false;
      },
    );
  const openDialog = (list: DiscrepancyRowDto[]) => {
    setDecision('theirs');
    setSplitPct('50');
    setAmount('');
    setDialogError({});
    setDialog({ rows: list });
  };
  const submitDialog = () => {
    if (!dialog) return;
    if (decision !== 'split') return void decide(dialog.rows, decision);
    if (dialog.rows.length === 1 && amount.trim()) {
      if (!/^\d{1,12}(\.\d{1,6})?$/.test(amount.trim())) return setDialogError({ amount: 'discrepancy.split.amount_invalid' });
      const [o, th, a] = [toMicros(dialog.rows[0]!.ours_revenue), toMicros(dialog.rows[0]!.theirs_revenue), toMicros(amount.trim())];
      if (a < (o < th ? o : th) || a > (o < th ? th : o)) return setDialogError({ amount: 'discrepancy.split.amount_between' });
      return void decide(dialog.rows, 'split', { amount: amount.trim() });
    }
    if (!toleranceText.safeParse(splitPct).success) return setDialogError({ split_pct: 'discrepancy.tolerance_invalid' });
    return void decide(dialog.rows, 'split', { split_pct: splitPct.trim() });
  };

  const apply = () =>
    action.confirm(
      { title: t('discrepancy.apply_title'), content: t('discrepancy.apply_body', { month: req!.month }), ok: t('discrepancy.apply'), testId: 'discrepancy-apply-confirm' },
      'apply',
      async () => {
        await api.request(`discrepancy/requests/${req!.id}/apply`, { method: 'POST', body: { version: req!.version } });
        await reload();
        return 'discrepancy.apply_done';
      },
    );
  const retry = () =>
    action.run('retry', async () => {
      await api.request(`discrepancy/requests/${req!.id}/retry`, { method: 'POST' });
      await reload();
      return 'discrepancy.retried';
    });

  const decisionCell = (r: DiscrepancyRowDto) =>
    r.decision ? (
      <StatusTag tone="ok" testId={`discrepancy-decision-${r.id}`}>
        {t(`discrepancy.decision.${r.decision}`)}
      </StatusTag>
    ) : r.flagged ? (
      <StatusTag tone="bad" testId={`discrepancy-flag-${r.id}`}>
        {t('discrepancy.flagged')}
      </StatusTag>
    ) : (
      <Typography.Text type="secondary">{t('discrepancy.undecided')}</Typography.Text>
    );
  const decideButton = (r: DiscrepancyRowDto) =>
    canWrite && req?.actions.review ? (
      <Button size="small" onClick={() => openDialog([r])} data-testid={`discrepancy-decide-${r.id}`} aria-label={`${t('discrepancy.decide')} ${r.network} ${r.day}`}>
        {t('discrepancy.decide')}
      </Button>
    ) : null;
  const columns: DataColumn<DiscrepancyRowDto>[] = [
    { key: 'day', title: t('discrepancy.col.day'), sort: 'day', render: (r) => r.day },
    { key: 'network', title: t('discrepancy.col.network'), sort: 'network', render: (r) => r.network },
    { key: 'ours_rev', title: t('discrepancy.col.ours_revenue'), align: 'right', render: (r) => <MoneyCell amount={r.ours_revenue} currency={r.currency} /> },
    { key: 'theirs_rev', title: t('discrepancy.col.theirs_revenue'), align: 'right', render: (r) => <MoneyCell amount={r.theirs_revenue} currency={r.currency} /> },
    { key: 'delta', title: t('discrepancy.col.revenue_delta'), sort: 'delta', align: 'right', render: (r) => pct(r.revenue_delta_pct) },
    { key: 'decision', title: t('discrepancy.col.decision'), render: decisionCell },
    { key: 'accepted', title: t('discrepancy.col.accepted'), align: 'right', render: (r) => (r.accepted_revenue === null ? '—' : <MoneyCell amount={r.accepted_revenue} currency={r.currency} />) },
    { key: 'act', title: '', render: (r) => decideButton(r) },
    { key: 'ours_imp', title: t('discrepancy.col.ours_impressions'), align: 'right', render: (r) => <NumberCell value={r.ours_impressions} decimals={0} /> },
    { key: 'theirs_imp', title: t('discrepancy.col.theirs_impressions'), align: 'right', render: (r) => <NumberCell value={r.theirs_impressions} decimals={0} /> },
    { key: 'imp_delta', title: t('discrepancy.col.impressions_delta'), align: 'right', render: (r) => pct(r.impressions_delta_pct) },
  ];
  const list = [...selected.values()];

  return (
    <Drawer
      open={view.request !== null}
      onClose={onClose}
      width={isMobile ? '100%' : 1100}
      title={req ? `${t('discrepancy.col.id')} #${req.id} · ${req.from_date} – ${req.date}` : t('common.loading')}
      data-testid="discrepancy-drawer"
      extra={req ? <StateTag state={req.state} /> : null}
    >
      {request.error ? <ListError error={request.error} onRetry={() => void request.refetch()} /> : null}
      {req ? (
        <Space direction="vertical" size="middle" className="bo-disc-full">
          <Descriptions size="small" column={isMobile ? 1 : 3} bordered>
            <Descriptions.Item label={t('discrepancy.col.networks')}>{req.networks.map((n) => n.name).join(', ')}</Descriptions.Item>
            <Descriptions.Item label={t('discrepancy.col.tolerance')}>{req.tolerance_pct} %</Descriptions.Item>
            <Descriptions.Item label={t('discrepancy.col.source')}>{req.file_name ?? t('discrepancy.source.typed')}</Descriptions.Item>
          </Descriptions>
          {req.state === 'queued' || req.state === 'running' ? (
            <div data-testid="discrepancy-progress">
              <Progress percent={req.progress.total ? Math.round((req.progress.done / req.progress.total) * 100) : 0} status="active" />
              <Typography.Text type="secondary">{t('discrepancy.progress', req.progress)}</Typography.Text>
            </div>
          ) : null}
          {req.state === 'failed' ? (
            <Alert
              type="error"
              showIcon
              title={t('discrepancy.failed_reason', { reason: req.error ?? '' })}
              description={t('discrepancy.progress', req.progress)}
              action={
                canWrite ? (
                  <Button icon={<ReloadOutlined />} onClick={() => void retry()} loading={action.busy === 'retry'} data-testid="discrepancy-retry">
                    {t('discrepancy.retry')}
                  </Button>
                ) : null
              }
            />
          ) : null}
          {req.apply_result ? (
            <Alert
              type="info"
              showIcon
              title={t('discrepancy.applied', { applied: req.apply_result.filter((o) => o.ok).length, skipped: req.apply_result.filter((o) => !o.ok).length })}
              description={
                <List
                  size="small"
                  dataSource={req.apply_result}
                  data-testid="discrepancy-apply-result"
                  renderItem={(o) => (
                    <List.Item>
                      <strong>{o.name}</strong>: {o.ok ? o.rows.map((r) => `${r.product} ${r.before ?? '—'} → ${r.after}`).join(', ') : `${t(o.reason!)} ${o.rows.map((r) => `#${r.id} (${r.product})`).join(', ')}`}
                    </List.Item>
                  )}
                />
              }
            />
          ) : null}
          {ready ? (
            <>
              <div className="bo-disc-bar">
                <Segmented
                  value={view.filter}
                  onChange={(v) => onView({ filter: String(v), rpage: null })}
                  options={(['flagged', 'undecided', 'all'] as const).map((f) => ({ value: f, label: t(`discrepancy.rows_filter.${f}`) }))}
                  data-testid="discrepancy-rows-filter"
                />
                <Space wrap>
                  {canWrite && req.actions.review && list.length > 0 ? (
                    <>
                      <Typography.Text>{t('discrepancy.selected', { count: list.length })}</Typography.Text>
                      <Button onClick={() => void decide(list, 'ours')} loading={action.busy === 'decide'} data-testid="discrepancy-bulk-ours">
                        {t('discrepancy.accept_ours')}
                      </Button>
                      <Button onClick={() => void decide(list, 'theirs')} loading={action.busy === 'decide'} data-testid="discrepancy-bulk-theirs">
                        {t('discrepancy.accept_theirs')}
                      </Button>
                      <Button onClick={() => openDialog(list)}>{t('discrepancy.accept_split')}</Button>
                    </>
                  ) : null}
                  {canWrite && req.actions.apply ? (
                    <Button type="primary" icon={<CheckOutlined />} onClick={apply} loading={action.busy === 'apply'} data-testid="discrepancy-apply">
                      {t('discrepancy.apply')}
                    </Button>
                  ) : null}
                  <ApiExportButton path={`/v1/discrepancy/requests/${req.id}/rows/export`} query={rowsQuery(view, false)} name={discrepancyRowsExportName(req.id)} disabled={!rows.data || rows.data.total === 0} testId="discrepancy-rows-export" />
                </Space>
              </div>
              {rows.error ? <ListError error={rows.error} onRetry={() => void rows.refetch()} /> : null}
              <DataTable<DiscrepancyRowDto, number>
                rows={rows.data?.rows ?? []}
                total={rows.data?.total ?? 0}
                loading={rows.isFetching}
                rowKey={(r) => r.id}
                columns={columns}
                view={{ sort: view.rowSort, page: view.rowPage, pageSize: view.rowPageSize }}
                onView={(p) => onView({ ...(p.sort !== undefined ? { rsort: p.sort } : {}), ...(p.page !== undefined ? { rpage: String(p.page) } : {}), ...(p.pageSize !== undefined ? { rpage_size: String(p.pageSize), rpage: null } : {}) })}
                defaultSort="day"
                pageSizes={[20, 50, 100, 200]}
                sortOptions={sortChoices(['day', 'network', 'delta'], (f) => t(f === 'delta' ? 'discrepancy.col.revenue_delta' : `discrepancy.col.${f}`))}
                sortLabel={t('discrepancy.col.day')}
                regionLabel={t('menu.discrepancy')}
                testId="discrepancy-rows"
                selection={canWrite && req.actions.review ? { selected, onChange: setSelected, label: (r) => `${r.network} ${r.day}` } : undefined}
                card={{
                  title: (r, className) => (
                    <span className={className}>
                      {r.day} · {r.network}
                    </span>
                  ),
                  tag: decisionCell,
                  fields: (r) => [
                    { label: t('discrepancy.col.ours_revenue'), value: <MoneyCell amount={r.ours_revenue} currency={r.currency} /> },
                    { label: t('discrepancy.col.theirs_revenue'), value: <MoneyCell amount={r.theirs_revenue} currency={r.currency} /> },
                    { label: t('discrepancy.col.revenue_delta'), value: pct(r.revenue_delta_pct) },
                    { label: t('discrepancy.col.impressions_delta'), value: pct(r.impressions_delta_pct) },
                    ...(r.accepted_revenue ? [{ label: t('discrepancy.col.accepted'), value: <MoneyCell amount={r.accepted_revenue} currency={r.currency} /> }] : []),
                    ...(canWrite && req.actions.review ? [{ key: 'act', label: t('discrepancy.col.decision'), value: decideButton(r) }] : []),
                  ],
                }}
                empty={<EmptyList description={t('common.no_data_found')} testId="discrepancy-rows-empty" />}
              />
            </>
          ) : null}
        </Space>
      ) : null}
      {dialog ? (
        <ActionModal
          title={t('discrepancy.decide_title', { count: dialog.rows.length })}
          ok={t('discrepancy.decide')}
          onOk={submitDialog}
          onCancel={() => setDialog(null)}
          busy={action.busy === 'decide'}
          testId="discrepancy-decide-ok"
        >
          <Form layout="vertical" component="div">
            <Form.Item label={t('discrepancy.col.decision')}>
              <Radio.Group value={decision} onChange={(e) => setDecision(e.target.value as DiscrepancyDecision)} data-testid="discrepancy-decision">
                {(['ours', 'theirs', 'split'] as const).map((d) => (
                  <Radio key={d} value={d} data-testid={`discrepancy-decision-${d}`}>
                    {t(`discrepancy.decision.${d}`)}
                    {dialog.rows.length === 1 && d !== 'split' ? ` (${fromMicros(toMicros(d === 'ours' ? dialog.rows[0]!.ours_revenue : dialog.rows[0]!.theirs_revenue), 2)} ${dialog.rows[0]!.currency})` : ''}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            {decision === 'split' ? (
              <>
                <Form.Item label={t('discrepancy.split.pct')} extra={t('discrepancy.split.pct_help')} validateStatus={dialogError.split_pct ? 'error' : undefined} help={dialogError.split_pct ? t(dialogError.split_pct) : undefined}>
                  <Input value={splitPct} onChange={(e) => setSplitPct(e.target.value)} inputMode="decimal" suffix="%" disabled={Boolean(amount.trim())} />
                </Form.Item>
                {dialog.rows.length === 1 ? (
                  <Form.Item
                    label={t('discrepancy.split.amount')}
                    extra={t('discrepancy.split.amount_help', { ours: dialog.rows[0]!.ours_revenue, theirs: dialog.rows[0]!.theirs_revenue })}
                    validateStatus={dialogError.amount ? 'error' : undefined}
                    help={dialogError.amount ? t(dialogError.amount) : undefined}
                  >
                    <Input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" />
                  </Form.Item>
                ) : null}
              </>
            ) : null}
          </Form>
        </ActionModal>
      ) : null}
    </Drawer>
  );
}
