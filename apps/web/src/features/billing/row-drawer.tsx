/**
 * One billing row (GET …/rows/{id}: the row, its payments, its history): every figure, the state
 * and who confirmed and approved it when, what it carried in and where it was accumulated, its
 * netting; the actions it allows; the edit form; its payments and "Record payment"; its history.
 * Closing with unsaved edits asks first.
 */
import type { BillingRowDto, BillingSide } from '@backoffice/core/billing-api';
import { App, Alert, Button, Descriptions, Drawer, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { useUnsavedGuard } from '../../resources/resource-form.tsx';
import { rowPath, type BillingRowDetail } from './billing-api.ts';
import { BadgeTag, CarriedInCell, DueCell, MarginCell, MinimumCell, StateTag } from './row-cells.tsx';
import { RowEditForm } from './row-edit-form.tsx';
import { RowHistory } from './row-history.tsx';
import { PaymentForm, PaymentsList } from './row-payments.tsx';
import { termsText } from './rows-columns.tsx';
import type { BulkAction } from './use-bulk-action.tsx';

export interface RowDrawerProps {
  side: BillingSide;
  rowId: number;
  /** The row as the list shows it, until its detail is in. */
  listed: BillingRowDto | null;
  canWrite: boolean;
  bulk: BulkAction;
  onClose: () => void;
  onChanged: () => void;
  onCounterparty: (id: number) => void;
}

/** The newest of the copies of a row (the list's, the detail's, a save's answer). */
function newest(...rows: (BillingRowDto | null | undefined)[]): BillingRowDto | null {
  return rows.reduce<BillingRowDto | null>(
    (best, r) => (r && (!best || r.version > best.version) ? r : best),
    null,
  );
}

function Figures({ row }: { row: BillingRowDto }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { isMobile } = useViewport();
  const money = (v: string | null) =>
    v === null ? (
      <span className="bo-bill-muted">{t('billing.ui.ours')}</span>
    ) : (
      <MoneyCell amount={v} currency={row.currency} />
    );
  const who = (name: string | null, at: string | null) =>
    at ? `${name ?? '—'} · ${formatDateTime(at, locale)}` : '—';
  return (
    <Descriptions
      size="small"
      bordered
      column={isMobile ? 1 : 2}
      className="bo-bill-figures"
      data-testid="billing-figures"
    >
      <Descriptions.Item label={t('billing.col.revenue_ours')}>{money(row.revenue_ours)}</Descriptions.Item>
      <Descriptions.Item label={t(`billing.ui.other_side.${row.kind}`)}>
        {money(row.other_side)}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.revenue_network')}>
        {money(row.revenue_network)}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.carried_in')}>
        <CarriedInCell row={row} />
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.revenue_gross')}>
        <strong data-testid="billing-detail-gross">{money(row.revenue_gross)}</strong>
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.margin_pct')}>
        <MarginCell pct={row.margin_pct} low={row.low_margin} />
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.paid_revenue')}>{money(row.paid_revenue)}</Descriptions.Item>
      <Descriptions.Item label={t('billing.col.pending')}>{money(row.pending)}</Descriptions.Item>
      <Descriptions.Item label={t('billing.col.badge')}>
        <BadgeTag badge={row.badge} overdue={row.overdue} testId="billing-detail-badge" />
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.received_payment_date')}>
        {row.received_payment_date ?? '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.min_amount')}>
        <MinimumCell row={row} />
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.payment_terms')}>
        {termsText(row.payment_terms, t)}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.due_date')}>
        <DueCell row={row} />
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.col.document_id')}>{row.document_id ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('billing.col.demand_partners')}>
        {row.demand_partners || '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.ui.computed_at')}>
        {formatDateTime(row.computed_at, locale)}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.ui.confirmed')}>
        {who(row.confirmed_by, row.confirmed_at)}
      </Descriptions.Item>
      <Descriptions.Item label={t('billing.ui.approved')}>
        {who(row.approved_by, row.approved_at)}
      </Descriptions.Item>
      {row.accumulated_into !== null ? (
        <Descriptions.Item label={t('billing.ui.accumulated_into')}>
          {t('billing.ui.row_ref', { id: row.accumulated_into })}
        </Descriptions.Item>
      ) : null}
      {row.netting_id !== null ? (
        <Descriptions.Item label={t('billing.ui.netting')}>
          {t('billing.ui.netting_ref', { id: row.netting_id })}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

export function RowDrawer({
  side,
  rowId,
  listed,
  canWrite,
  bulk,
  onClose,
  onChanged,
  onCounterparty,
}: RowDrawerProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { isMobile } = useViewport();
  const detail = useApiQuery<BillingRowDetail>(rowPath(side, rowId));
  const [saved, setSaved] = useState<BillingRowDto | null>(null);
  const [dirty, setDirty] = useState(false);
  const [tab, setTab] = useState('figures');
  const row = newest(listed, detail.data?.row, saved);
  // Leaving the screen (another route, a reload) with unsaved edits asks too.
  useUnsavedGuard(dirty);

  const changed = (r: BillingRowDto) => {
    setSaved(r);
    onChanged();
    void detail.refetch();
  };
  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true },
      onOk: onClose,
    });
  };

  const title = row ? (
    <div className="bo-bill-drawer-title">
      <span>
        {row.counterparty.name} · {row.product} · {row.month}
      </span>
      <Space size={4}>
        <StateTag state={row.state} testId="billing-detail-state" />
        <BadgeTag badge={row.badge} overdue={row.overdue} />
      </Space>
    </div>
  ) : (
    t('common.loading')
  );

  const actions =
    row && row.actions.length > 0 ? (
      <Space wrap role="group" aria-label={t('billing.ui.row_actions')}>
        {row.actions.map((a) => (
          <Button
            key={a}
            type={a === 'approve' || a === 'confirm' ? 'primary' : 'default'}
            danger={a === 'discard'}
            loading={bulk.busy === a}
            disabled={bulk.busy !== null && bulk.busy !== a}
            onClick={() => bulk.run(a, [row])}
            data-testid={`billing-row-${a}`}
          >
            {t(`billing.action.${a}`)}
          </Button>
        ))}
      </Space>
    ) : null;

  return (
    <Drawer
      open
      onClose={close}
      title={title}
      footer={actions}
      size={isMobile ? '100%' : 720}
      destroyOnHidden
      data-testid="billing-drawer"
    >
      {detail.isError && !row ? <Alert type="error" showIcon title={errorText(detail.error)} /> : null}
      {row ? (
        <>
          <div className="bo-bill-drawer-head">
            <Typography.Text type="secondary">
              {row.counterparty.company_name ? `${row.counterparty.company_name} · ` : ''}
              {row.currency}
            </Typography.Text>
            <Button
              type="link"
              size="small"
              onClick={() => onCounterparty(row.counterparty.id)}
              data-testid="billing-only-counterparty"
            >
              {t('billing.ui.only_counterparty')}
            </Button>
          </div>
          <Tabs
            activeKey={tab}
            onChange={setTab}
            className="bo-bill-drawer-tabs"
            items={[
              {
                key: 'figures',
                label: t('billing.ui.tab.figures'),
                children: (
                  <>
                    <Figures row={row} />
                    <Typography.Title level={2} className="bo-bill-subtitle">
                      {t('billing.ui.edit')}
                    </Typography.Title>
                    <RowEditForm
                      side={side}
                      row={row}
                      canWrite={canWrite}
                      onSaved={changed}
                      onDirtyChange={setDirty}
                    />
                  </>
                ),
              },
              {
                key: 'payments',
                label: t('billing.ui.tab.payments'),
                children: (
                  <div data-testid="billing-payments-tab">
                    {detail.isError ? (
                      <Alert
                        type="error"
                        showIcon
                        className="bo-bill-gap-bottom"
                        title={errorText(detail.error)}
                      />
                    ) : null}
                    <PaymentsList row={row} payments={detail.data?.payments ?? null} />
                    <div className="bo-bill-gap">
                      <PaymentForm
                        side={side}
                        row={row}
                        canWrite={canWrite}
                        onRecorded={changed}
                        onStale={() => {
                          onChanged();
                          void detail.refetch();
                        }}
                      />
                    </div>
                  </div>
                ),
              },
              {
                key: 'history',
                label: t('billing.ui.tab.history'),
                children: detail.isError ? (
                  <Alert type="error" showIcon title={errorText(detail.error)} />
                ) : (
                  <RowHistory history={detail.data?.history ?? []} currency={row.currency} />
                ),
              },
            ]}
          />
        </>
      ) : null}
    </Drawer>
  );
}
