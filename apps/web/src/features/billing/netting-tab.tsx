/**
 * Netting (SSP, spec 4): a company that both buys from us (its demand partners' rows: what it
 * owes) and sells to us (its publishers' rows: what we owe it) settles one net amount for the
 * month. The candidates with "Net", and the month's nettings with "Undo" (possible while none of
 * their rows is approved: approval has no rollback). Both ask first.
 */
import type { BillingNettingDto, NettingCandidate } from '@backoffice/core/billing-api';
import { App, Alert, Button, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { StatusTag } from '../../resources/resource-cells.tsx';
import type { NettingsAnswer } from './billing-api.ts';
import { ColumnCards, type CardColumn } from './column-cards.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { EmptyText } from './row-cells.tsx';

export function NettingTab({
  month,
  canWrite,
  onChanged,
}: {
  month: string;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const notice = useNotice();
  const { isMobile } = useViewport();
  const answer = useApiQuery<NettingsAnswer>('billing/ssp/nettings', { query: { month } });
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await work();
      void notice.success(t(done));
      void answer.refetch();
      onChanged();
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const net = (c: NettingCandidate) =>
    modal.confirm({
      title: t('billing.ui.net_title', { company: c.company_name }),
      content: t('billing.ui.net_body', {
        receivable: c.receivable_row_ids.length,
        payable: c.payable_row_ids.length,
      }),
      okText: t('billing.ui.net'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'billing-net-ok' } as Record<string, string>,
      onOk: () =>
        act(
          `net-${c.company_id}-${c.currency}`,
          () =>
            api.request('billing/ssp/nettings', {
              method: 'POST',
              body: { month, company_id: c.company_id },
            }),
          'billing.netting.created',
        ),
    });
  const undo = (n: BillingNettingDto) =>
    modal.confirm({
      title: t('billing.ui.undo_title', { company: n.company_name }),
      content: t('billing.ui.undo_body'),
      okText: t('billing.ui.undo'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'billing-undo-ok' } as Record<string, string>) },
      onOk: () =>
        act(
          `undo-${n.id}`,
          () => api.request(`billing/ssp/nettings/${n.id}/undo`, { method: 'POST' }),
          'billing.netting.undone',
        ),
    });

  const money = (currency: string) => (v: string) => (
    <MoneyCell amount={v} currency={currency} highlightNegative />
  );
  const data = answer.data;
  const candidateColumns: CardColumn<NettingCandidate>[] = [
    { key: 'company', title: t('billing.col.company'), render: (_: unknown, c) => c.company_name },
    {
      key: 'receivable',
      title: t('billing.ui.receivable'),
      align: 'right',
      render: (_: unknown, c) => money(c.currency)(c.receivable),
    },
    {
      key: 'payable',
      title: t('billing.ui.payable'),
      align: 'right',
      render: (_: unknown, c) => money(c.currency)(c.payable),
    },
    {
      key: 'net',
      title: t('billing.ui.net_amount'),
      align: 'right',
      render: (_: unknown, c) => <strong>{money(c.currency)(c.net)}</strong>,
    },
    {
      key: 'rows',
      title: t('billing.ui.rows'),
      render: (_: unknown, c) =>
        t('billing.ui.netting_rows', {
          receivable: c.receivable_row_ids.length,
          payable: c.payable_row_ids.length,
        }),
    },
    ...(canWrite
      ? [
          {
            key: 'act',
            title: <span className="bo-visually-hidden">{t('billing.ui.actions')}</span>,
            render: (_: unknown, c: NettingCandidate) => (
              <Button
                size="small"
                type="primary"
                loading={busy === `net-${c.company_id}-${c.currency}`}
                onClick={() => net(c)}
                data-testid={`billing-net-${c.company_id}`}
              >
                {t('billing.ui.net')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  const nettingColumns: CardColumn<BillingNettingDto>[] = [
    { key: 'company', title: t('billing.col.company'), render: (_: unknown, n) => n.company_name },
    {
      key: 'receivable',
      title: t('billing.ui.receivable'),
      align: 'right',
      render: (_: unknown, n) => money(n.currency)(n.receivable),
    },
    {
      key: 'payable',
      title: t('billing.ui.payable'),
      align: 'right',
      render: (_: unknown, n) => money(n.currency)(n.payable),
    },
    {
      key: 'net',
      title: t('billing.ui.net_amount'),
      align: 'right',
      render: (_: unknown, n) => <strong>{money(n.currency)(n.net)}</strong>,
    },
    {
      key: 'created',
      title: t('billing.ui.netted_by'),
      render: (_: unknown, n) => `${n.created_by ?? '—'} · ${formatDateTime(n.created_at, locale)}`,
    },
    {
      key: 'state',
      title: t('billing.col.state'),
      render: (_: unknown, n) =>
        n.undone_at ? (
          <StatusTag tone="off">
            {t('billing.ui.undone_by', { name: n.undone_by ?? '—', at: formatDateTime(n.undone_at, locale) })}
          </StatusTag>
        ) : (
          <StatusTag tone="ok">{t('billing.ui.netted')}</StatusTag>
        ),
    },
    ...(canWrite
      ? [
          {
            key: 'act',
            title: <span className="bo-visually-hidden">{t('billing.ui.actions')}</span>,
            render: (_: unknown, n: BillingNettingDto) =>
              n.undone_at ? null : n.can_undo ? (
                <Button
                  size="small"
                  danger
                  loading={busy === `undo-${n.id}`}
                  onClick={() => undo(n)}
                  data-testid={`billing-undo-${n.id}`}
                >
                  {t('billing.ui.undo')}
                </Button>
              ) : (
                <Tooltip title={t('billing.netting.approved')}>
                  <span>
                    <Button size="small" disabled aria-describedby={`billing-undo-why-${n.id}`}>
                      {t('billing.ui.undo')}
                    </Button>
                    <span id={`billing-undo-why-${n.id}`} className="bo-visually-hidden">
                      {t('billing.netting.approved')}
                    </span>
                  </span>
                </Tooltip>
              ),
          },
        ]
      : []),
  ];
  return (
    <div data-testid="billing-netting" data-state={data ? 'ready' : answer.isError ? 'error' : 'loading'}>
      <Typography.Paragraph type="secondary">{t('billing.ui.netting_help')}</Typography.Paragraph>
      {answer.isError ? <Alert type="error" showIcon title={errorText(answer.error)} /> : null}
      <Typography.Title level={2} className="bo-bill-subtitle">
        {t('billing.ui.netting_candidates')}
      </Typography.Title>
      {isMobile ? (
        <ColumnCards<NettingCandidate>
          columns={candidateColumns}
          rows={data?.candidates ?? []}
          rowKey={(c) => `${c.company_id}-${c.currency}`}
          empty={<EmptyText>{t('billing.ui.netting_no_candidates')}</EmptyText>}
        />
      ) : (
        <ScrollRegion label={t('billing.ui.netting_candidates')}>
          <Table<NettingCandidate>
            size="small"
            className="bo-bill-table"
            rowKey={(c) => `${c.company_id}-${c.currency}`}
            loading={answer.isFetching && !data}
            pagination={false}
            dataSource={data?.candidates ?? []}
            locale={{ emptyText: <EmptyText>{t('billing.ui.netting_no_candidates')}</EmptyText> }}
            columns={candidateColumns}
          />
        </ScrollRegion>
      )}
      <Typography.Title level={2} className="bo-bill-subtitle bo-bill-gap">
        {t('billing.ui.nettings')}
      </Typography.Title>
      {isMobile ? (
        <ColumnCards<BillingNettingDto>
          columns={nettingColumns}
          rows={data?.nettings ?? []}
          rowKey={(n) => String(n.id)}
          empty={<EmptyText>{t('billing.ui.nettings_none')}</EmptyText>}
        />
      ) : (
        <ScrollRegion label={t('billing.ui.nettings')}>
          <Table<BillingNettingDto>
            size="small"
            className="bo-bill-table"
            rowKey="id"
            loading={answer.isFetching && !data}
            pagination={false}
            dataSource={data?.nettings ?? []}
            locale={{ emptyText: <EmptyText>{t('billing.ui.nettings_none')}</EmptyText> }}
            columns={nettingColumns}
          />
        </ScrollRegion>
      )}
    </div>
  );
}
