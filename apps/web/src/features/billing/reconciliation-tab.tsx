/**
 * Reconciliation of a month (GET …/reconciliation): per counterparty, the warehouse's figure now
 * against what the rows bill, the difference, and the parts it is made of (data that arrived after
 * the rows were computed, the partners' figures, amounts carried in, accumulated out, discarded,
 * rounding; only the parts that are not zero), with totals per currency.
 */
import { toMicros } from '@backoffice/core/billing';
import type {
  BillingKind,
  BillingSide,
  ReconciliationAnswer,
  ReconciliationLine,
} from '@backoffice/core/billing-api';
import { Alert, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { CounterpartyCell, EmptyText } from './row-cells.tsx';
import { ColumnCards, type CardColumn } from './column-cards.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';

const PARTS = [
  'not_recomputed',
  'network_edits',
  'carried_in',
  'accumulated_out',
  'discarded',
  'rounding',
] as const;

/** A part shows when it is at least half a cent (rounding leaves sub-cent remainders). */
const shows = (v: string) => {
  const m = toMicros(v);
  return (m < 0n ? -m : m) >= 5_000n;
};

function Explained({ line }: { line: ReconciliationLine }) {
  const { t } = useTranslation();
  const parts = PARTS.filter((p) => shows(line.explained[p]));
  if (parts.length === 0) return <span className="bo-bill-muted">—</span>;
  return (
    <ul className="bo-bill-plain-list">
      {parts.map((p) => (
        <li key={p}>
          {t(`billing.ui.recon.${p}`)}:{' '}
          <MoneyCell amount={line.explained[p]} currency={line.currency} highlightNegative />
        </li>
      ))}
    </ul>
  );
}

export function ReconciliationTab({
  side,
  kind,
  month,
}: {
  side: BillingSide;
  kind: BillingKind;
  month: string;
}) {
  const { t } = useTranslation();
  const answer = useApiQuery<ReconciliationAnswer>(`billing/${side}/reconciliation`, {
    query: { kind, month },
  });
  const data = answer.data;
  const { isMobile } = useViewport();
  const money = (l: ReconciliationLine, v: string, negative = false) => (
    <MoneyCell amount={v} currency={l.currency} highlightNegative={negative} />
  );
  const columns: CardColumn<ReconciliationLine>[] = [
    {
      key: 'cp',
      title: t('billing.col.counterparty'),
      render: (_: unknown, l) => <CounterpartyCell counterparty={l.counterparty} />,
    },
    {
      key: 'warehouse',
      title: t('billing.ui.recon.warehouse'),
      align: 'right',
      render: (_: unknown, l) => money(l, l.warehouse),
    },
    {
      key: 'billed',
      title: t('billing.ui.recon.billed'),
      align: 'right',
      render: (_: unknown, l) => money(l, l.billed),
    },
    {
      key: 'difference',
      title: t('billing.ui.recon.difference'),
      align: 'right',
      render: (_: unknown, l) => <strong>{money(l, l.difference, true)}</strong>,
    },
    {
      key: 'explained',
      title: t('billing.ui.recon.explained'),
      render: (_: unknown, l) => <Explained line={l} />,
    },
  ];
  const rowKey = (l: ReconciliationLine) => `${l.counterparty.type}-${l.counterparty.id}-${l.currency}`;
  return (
    <div
      data-testid="billing-reconciliation"
      data-state={data ? 'ready' : answer.isError ? 'error' : 'loading'}
    >
      <Typography.Paragraph type="secondary">{t('billing.ui.recon_help')}</Typography.Paragraph>
      {answer.isError ? <Alert type="error" showIcon title={errorText(answer.error)} /> : null}
      {data && data.totals.length > 0 ? (
        <div className="bo-bill-recon-totals" data-testid="billing-recon-totals">
          {data.totals.map((tot) => (
            <div key={tot.currency} className="bo-bill-recon-total">
              <strong>{tot.currency}</strong>
              <span>
                {t('billing.ui.recon.warehouse')}:{' '}
                <MoneyCell amount={tot.warehouse} currency={tot.currency} />
              </span>
              <span>
                {t('billing.ui.recon.billed')}: <MoneyCell amount={tot.billed} currency={tot.currency} />
              </span>
              <span>
                {t('billing.ui.recon.difference')}:{' '}
                <MoneyCell amount={tot.difference} currency={tot.currency} highlightNegative />
              </span>
            </div>
          ))}
        </div>
      ) : null}
      {isMobile ? (
        <ColumnCards<ReconciliationLine>
          columns={columns}
          rows={data?.lines ?? []}
          rowKey={rowKey}
          empty={<EmptyText>{t('billing.not_found')}</EmptyText>}
        />
      ) : (
        <ScrollRegion label={t('billing.ui.tab.reconciliation')}>
          <Table<ReconciliationLine>
            size="small"
            className="bo-bill-table"
            rowKey={rowKey}
            loading={answer.isFetching && !data}
            dataSource={data?.lines ?? []}
            pagination={(data?.lines.length ?? 0) > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            locale={{ emptyText: <EmptyText>{t('billing.not_found')}</EmptyText> }}
            columns={columns}
          />
        </ScrollRegion>
      )}
    </div>
  );
}
