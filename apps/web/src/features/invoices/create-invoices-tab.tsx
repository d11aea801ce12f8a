/**
 * "Create invoices" (precreation): the team and the months, then what precreation would draft
 * (GET /v1/invoices/candidates): one line per counterparty and currency with its approved billing
 * rows of those months not on an invoice yet, its tax treatment, terms, and whether its invoicing
 * is blocked or its billing information is missing ('Inexisting data in user_billinginfo table').
 * Some or all are selected and "Create drafts" (POST /v1/invoices/precreate) makes the drafts,
 * then links to the team's drafts.
 */
import { FileAddOutlined } from '@ant-design/icons';
import { INVOICE_TEAMS, type InvoiceCandidate, type InvoiceTeam } from '@backoffice/core/invoices';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Result,
  Segmented,
  Select,
  Space,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MoneyCell } from '../../components/money-cell.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { ButtonLink } from '../../shell/button-link.tsx';
import { BlockedTag, IntegerCell, MissingTag, PartyCell, TaxTag, termsText } from './invoice-cells.tsx';
import {
  candidateKey as keyOf,
  candidatesPath,
  monthChoices,
  monthLabel,
  selectByCounterparty,
  type PrecreateResult,
  type PrecreationView,
} from './invoices-api.ts';
import '../../components/data-views.css';

export interface CreateInvoicesTabProps {
  view: PrecreationView;
  canWrite: boolean;
  onChange: (patch: Partial<PrecreationView>) => void;
}

export function CreateInvoicesTab({ view, canWrite, onChange }: CreateInvoicesTabProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { lang } = useParams();
  const { isMobile } = useViewport();
  const candidates = useApiQuery<InvoiceCandidate[]>(candidatesPath, {
    query: { team: view.team, months: view.months.join(',') },
  });
  const rows = candidates.data ?? [];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ team: InvoiceTeam; result: PrecreateResult } | null>(null);
  const chosen = rows.filter((r) => selected.has(keyOf(r)));
  const ids = [...new Set(chosen.map((r) => r.counterparty_id))];

  const change = (patch: Partial<PrecreationView>) => {
    setSelected(new Set());
    setDone(null);
    onChange(patch);
  };
  const create = async () => {
    if (busy || ids.length === 0) return;
    setBusy(true);
    try {
      const answer = await api.requestFull<PrecreateResult>('invoices/precreate', {
        method: 'POST',
        body: { team: view.team, months: view.months, counterparty_ids: ids },
      });
      setDone({ team: view.team, result: answer.data });
      setSelected(new Set());
      if (answer.data.created.length === 0)
        void notice.warning(t(answer.message || 'invoice.nothing_to_precreate'));
      void candidates.refetch();
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
      void candidates.refetch();
    } finally {
      setBusy(false);
    }
  };

  const columns: TableColumnsType<InvoiceCandidate> = [
    {
      key: 'name',
      title: t('invoice.col.name'),
      render: (_: unknown, c) => <PartyCell name={c.name} company={c.company_name} />,
    },
    { key: 'country', title: t('invoice.ui.country'), render: (_: unknown, c) => c.country || '—' },
    {
      key: 'tax',
      title: t('invoice.ui.tax_treatment'),
      render: (_: unknown, c) => <TaxTag treatment={c.tax_treatment} />,
    },
    { key: 'currency', title: t('invoice.col.currency'), render: (_: unknown, c) => c.currency },
    {
      key: 'months',
      title: t('invoice.col.months'),
      render: (_: unknown, c) => <span className="bo-inv-num">{c.months.join(', ')}</span>,
    },
    {
      key: 'rows',
      title: t('invoice.ui.rows'),
      align: 'right',
      render: (_: unknown, c) => <IntegerCell value={String(c.rows)} />,
    },
    {
      key: 'impressions',
      title: t('invoice.col.impressions'),
      align: 'right',
      render: (_: unknown, c) => <IntegerCell value={c.impressions} />,
    },
    {
      key: 'revenue',
      title: t('invoice.col.revenue'),
      align: 'right',
      render: (_: unknown, c) => <MoneyCell amount={c.revenue} currency={c.currency} />,
    },
    {
      key: 'terms',
      title: t('invoice.col.payment_terms'),
      render: (_: unknown, c) => termsText(c.payment_terms, t),
    },
    {
      key: 'status',
      title: t('invoice.ui.can_issue'),
      render: (_: unknown, c) => (
        <Space size={4} wrap>
          {c.blocked ? <BlockedTag blocked /> : null}
          <MissingTag missing={c.missing} />
          {!c.blocked && c.missing.length === 0 ? (
            <span className="bo-inv-muted">{t('invoice.ui.ready')}</span>
          ) : null}
        </Space>
      ),
    },
  ];

  const header = (
    <div className="bo-inv-pick">
      <div className="bo-inv-field">
        <span className="bo-inv-field__label" id="invoice-team-label">
          {t('invoice.ui.team_label')}
        </span>
        <Segmented<InvoiceTeam>
          value={view.team}
          onChange={(team) => change({ team })}
          options={INVOICE_TEAMS.map((team) => ({ value: team, label: t(`invoice.ui.team.${team}`) }))}
          aria-labelledby="invoice-team-label"
          data-testid="invoice-team"
        />
      </div>
      <div className="bo-inv-field bo-inv-field--grow">
        <label htmlFor="invoice-months" className="bo-inv-field__label">
          {t('invoice.col.months')}
        </label>
        <Select<string[]>
          id="invoice-months"
          mode="multiple"
          value={view.months}
          maxCount={12}
          onChange={(months) => months.length > 0 && change({ months })}
          options={monthChoices().map((m) => ({ value: m, label: monthLabel(m, locale) }))}
          className="bo-inv-months"
          data-testid="invoice-months"
        />
      </div>
    </div>
  );

  // The API drafts per counterparty (all its currencies): a counterparty's lines are chosen together.
  const pick = (keys: readonly Key[]) =>
    setSelected((before) => selectByCounterparty(rows, before, new Set(keys.map(String))));
  const list = isMobile ? (
    <div className="bo-data-cards" data-testid="invoice-candidate-cards">
      {rows.length > 0 ? (
        <Checkbox
          checked={selected.size === rows.length}
          indeterminate={selected.size > 0 && selected.size < rows.length}
          onChange={(e) => pick(e.target.checked ? rows.map(keyOf) : [])}
        >
          {t('invoice.ui.select_all')}
        </Checkbox>
      ) : null}
      {rows.map((c) => (
        <Card
          key={keyOf(c)}
          size="small"
          className="bo-data-card"
          data-testid={`invoice-candidate-${c.counterparty_id}`}
        >
          <div className="bo-data-card__head">
            <Checkbox
              checked={selected.has(keyOf(c))}
              onChange={(e) =>
                pick(e.target.checked ? [...selected, keyOf(c)] : [...selected].filter((k) => k !== keyOf(c)))
              }
              aria-label={t('invoice.ui.select_row', { name: c.name })}
            />
            <span className="bo-data-card__title">
              <PartyCell name={c.name} company={c.company_name} />
            </span>
          </div>
          <dl className="bo-data-card__grid bo-data-card__grid--spaced">
            {columns.slice(1).map((col) => (
              <div key={String(col.key)}>
                <dt>{col.title as string}</dt>
                <dd>
                  {(col as { render: (v: unknown, c: InvoiceCandidate, i: number) => ReactNode }).render(
                    undefined,
                    c,
                    0,
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      ))}
    </div>
  ) : (
    <ScrollRegion label={t('invoice.ui.candidates_region')}>
      <Table<InvoiceCandidate>
        rowKey={keyOf}
        size="small"
        className="bo-data-table"
        data-testid="invoice-candidates"
        columns={columns}
        dataSource={rows}
        loading={candidates.isFetching}
        pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        onRow={(c) =>
          ({ 'data-testid': `invoice-candidate-${c.counterparty_id}` }) as HTMLAttributes<HTMLElement>
        }
        rowSelection={
          canWrite
            ? {
                selectedRowKeys: [...selected],
                onChange: pick,
                getCheckboxProps: (c) =>
                  ({
                    'aria-label': t('invoice.ui.select_row', { name: `${c.name} ${c.currency}` }),
                  }) as never,
              }
            : undefined
        }
        locale={{ emptyText: candidates.isFetching ? <span /> : <span /> }}
      />
    </ScrollRegion>
  );

  return (
    <div
      data-testid="invoice-create"
      data-state={candidates.data ? 'ready' : candidates.isError ? 'error' : 'loading'}
    >
      {header}
      {done && done.result.created.length > 0 ? (
        <Alert
          type="success"
          showIcon
          className="bo-inv-gap-bottom"
          data-testid="invoice-precreated"
          title={t('invoice.ui.precreated', { count: done.result.created.length, rows: done.result.rows })}
          action={
            <ButtonLink
              type="primary"
              size="small"
              to={`/${lang ?? 'en'}/billing/${done.team}?tab=drafts`}
              data-testid="invoice-precreated-link"
            >
              {t('invoice.ui.see_drafts')}
            </ButtonLink>
          }
        />
      ) : null}
      {candidates.isError ? (
        <Alert
          type="error"
          showIcon
          className="bo-inv-gap-bottom"
          title={errorText(candidates.error)}
          action={
            <Button size="small" onClick={() => void candidates.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      {candidates.data && rows.length === 0 ? (
        done && done.result.created.length > 0 ? (
          <Result
            status="success"
            title={<h2 className="bo-result-title">{t('invoice.ui.all_drafted')}</h2>}
            subTitle={t('invoice.nothing_to_precreate')}
          />
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('invoice.nothing_to_precreate')}
            data-testid="invoice-candidates-empty"
          />
        )
      ) : (
        <>
          {canWrite ? (
            <div className="bo-inv-actionbar" role="group" aria-label={t('invoice.ui.bulk_actions')}>
              <Typography.Text data-testid="invoice-candidates-selected">
                {t('invoice.ui.selected_of', { count: chosen.length, total: rows.length })}
              </Typography.Text>
              <Button
                type="primary"
                icon={<FileAddOutlined />}
                loading={busy}
                disabled={busy || ids.length === 0}
                onClick={() => void create()}
                data-testid="invoice-create-drafts"
              >
                {t('invoice.ui.create_drafts')}
                {chosen.length > 0 ? ` (${chosen.length})` : ''}
              </Button>
            </div>
          ) : null}
          {list}
        </>
      )}
    </div>
  );
}
