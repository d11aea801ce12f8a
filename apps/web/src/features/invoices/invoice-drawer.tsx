/**
 * One invoice or credit note (GET /v1/invoices/{id}), in a drawer whose id is in the URL: its
 * number, state and kind; the parties (the customer as printed), lines, deductions, base / VAT /
 * total with the tax treatment's mention; the payments; the credit notes correcting it (or, for a
 * credit note, the invoice it corrects), each opening in the drawer; the VERI*FACTU record; the
 * history. A draft opens on its deductions form. Three tabs at most, so that they fit at 375 px. Closing with unsaved edits asks first.
 */
import type { InvoiceDetail, InvoiceListItem } from '@backoffice/core/invoices';
import { formatNumber } from '@backoffice/core/format';
import { Alert, App, Descriptions, Drawer, Empty, Space, Table, Tabs, Timeline, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { useUnsavedGuard } from '../../resources/resource-form.tsx';
import { DraftEditForm } from './draft-edit-form.tsx';
import { InvoiceActions } from './invoice-actions.tsx';
import {
  BlockedTag,
  DueCell,
  IntegerCell,
  InvoiceStateTag,
  KindTag,
  MissingTag,
  OpenButton,
  PercentCell,
  TaxTag,
  termsText,
} from './invoice-cells.tsx';
import { invoicePath } from './invoices-api.ts';
import type { IssueAction } from './use-issue.tsx';

export interface InvoiceDrawerProps {
  id: number;
  /** The document as the list shows it, until its detail is in. */
  listed: InvoiceListItem | null;
  canWrite: boolean;
  canApprove: boolean;
  issue: IssueAction;
  onClose: () => void;
  /** Another document (a credit note, the invoice it corrects). */
  onOpen: (id: number) => void;
  onChanged: () => void;
}

/** The newest of the copies of a document (the list's, the detail's, a save's answer). */
function newest<T extends { version: number }>(...items: (T | null | undefined)[]): T | null {
  return items.reduce<T | null>((best, r) => (r && (!best || r.version > best.version) ? r : best), null);
}

function DocumentTab({
  item,
  detail,
  onOpen,
}: {
  item: InvoiceListItem;
  detail: InvoiceDetail | null;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { isMobile } = useViewport();
  const money = (v: string | null) => (v === null ? '—' : <MoneyCell amount={v} currency={item.currency} />);
  const c = detail?.customer;
  return (
    <div data-testid="invoice-document">
      <Descriptions size="small" bordered column={isMobile ? 1 : 2} className="bo-inv-gap-bottom">
        <Descriptions.Item label={t('invoice.col.number')}>
          <span data-testid="invoice-detail-number">{item.number ?? t('invoice.ui.not_numbered')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.state')}>
          <InvoiceStateTag state={item.state} testId="invoice-detail-state" />
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.issue_date')}>{item.issue_date ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.due_date')}>
          <DueCell item={item} />
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.period')}>
          {item.date_start} – {item.date_end}
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.payment_terms')}>
          {termsText(item.payment_terms, t)}
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.impressions')}>
          <IntegerCell value={item.impressions} />
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.language')}>
          {detail ? t(`invoice.ui.lang.${detail.language}`) : '—'}
        </Descriptions.Item>
        {detail?.sent_at ? (
          <Descriptions.Item label={t('invoice.ui.sent')} span={isMobile ? 1 : 2}>
            {formatDateTime(detail.sent_at, locale)} · {detail.sent_to.join(', ')}
          </Descriptions.Item>
        ) : null}
        {item.kind === 'invoice' && item.state === 'draft' ? (
          <Descriptions.Item label={t('invoice.col.blocked')}>
            <BlockedTag blocked={item.blocked} reason={item.blocked_reason} testId="invoice-detail-blocked" />
            {item.blocked && item.blocked_reason ? (
              <span className="bo-inv-muted"> {item.blocked_reason}</span>
            ) : null}
          </Descriptions.Item>
        ) : null}
      </Descriptions>

      {item.corrects ? (
        <Alert
          type="info"
          showIcon
          className="bo-inv-gap-bottom"
          title={
            <span data-testid="invoice-detail-corrects">
              {t('invoice.ui.corrects')}{' '}
              <OpenButton id={item.corrects.id} onOpen={() => onOpen(item.corrects!.id)}>
                <span className="bo-inv-num">{item.corrects.number}</span>
              </OpenButton>
            </span>
          }
          description={
            detail?.correction_reason ? `${t('invoice.ui.reason')}: ${detail.correction_reason}` : undefined
          }
        />
      ) : null}

      <Typography.Title level={3} className="bo-inv-subtitle">
        {t('invoice.ui.parties')}
      </Typography.Title>
      <div className="bo-inv-parties">
        <section className="bo-inv-party-box" aria-label={t('invoice.ui.issuer')}>
          <strong>{t('invoice.ui.issuer')}</strong>
          <div>{detail?.issuer.legal_name ?? '—'}</div>
          <div className="bo-inv-muted">{detail?.issuer.tax_id}</div>
        </section>
        <section
          className="bo-inv-party-box"
          aria-label={t('invoice.ui.customer')}
          data-testid="invoice-detail-customer"
        >
          <strong>{t('invoice.ui.customer')}</strong>
          <div>{c?.legal_name || item.company_name || '—'}</div>
          {c ? (
            <>
              <div className="bo-inv-muted">{c.tax_id || '—'}</div>
              <div>
                {[c.address, [c.postal_code, c.city].filter(Boolean).join(' '), c.country]
                  .filter(Boolean)
                  .join(', ')}
              </div>
              {c.email ? <div className="bo-inv-muted">{c.email}</div> : null}
            </>
          ) : null}
          <MissingTag missing={item.missing} />
        </section>
      </div>

      <Typography.Title level={3} className="bo-inv-subtitle">
        {t('invoice.ui.lines')}
      </Typography.Title>
      <Table
        size="small"
        rowKey="position"
        pagination={false}
        className="bo-inv-subtable"
        dataSource={detail?.lines ?? []}
        loading={!detail}
        data-testid="invoice-detail-lines"
        columns={[
          {
            key: 'description',
            title: t('invoice.ui.description'),
            render: (_: unknown, l) => l.description,
          },
          {
            key: 'quantity',
            title: t('invoice.col.impressions'),
            align: 'right',
            render: (_: unknown, l) => (
              <span className="bo-inv-num">{formatNumber(l.quantity, locale, 0)}</span>
            ),
          },
          {
            key: 'amount',
            title: t('invoice.ui.amount'),
            align: 'right',
            render: (_: unknown, l) => money(l.amount),
          },
        ]}
      />

      <Typography.Title level={3} className="bo-inv-subtitle">
        {t('invoice.ui.figures')}
      </Typography.Title>
      <Descriptions size="small" bordered column={1} data-testid="invoice-detail-figures">
        <Descriptions.Item label={t('invoice.col.revenue')}>{money(item.revenue)}</Descriptions.Item>
        {item.kind === 'invoice' ? (
          <>
            <Descriptions.Item label={t('invoice.ui.deduction.fraud')}>
              {item.fraud_revenue === null ? (
                '—'
              ) : (
                <Space size={8} wrap>
                  <PercentCell value={item.fraud_percentage} />
                  {money(item.fraud_revenue)}
                </Space>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.ui.deduction.spoofing')}>
              {item.spoofing_revenue === null ? (
                '—'
              ) : (
                <Space size={8} wrap>
                  <PercentCell value={item.spoofing_percentage} />
                  {money(item.spoofing_revenue)}
                </Space>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.apply_deductions')}>
              {t(item.apply_deductions ? 'common.yes' : 'common.no')}
            </Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.new_revenue_net')}>
              {money(item.new_revenue_net)}
            </Descriptions.Item>
          </>
        ) : null}
        <Descriptions.Item label={t('invoice.col.base')}>
          <span data-testid="invoice-detail-base">{money(item.base)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.vat_amount')}>
          <Space size={8} wrap>
            {money(item.vat_amount)}
            <TaxTag treatment={item.tax_treatment} />
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.total')}>
          <strong data-testid="invoice-detail-total">{money(item.total)}</strong>
        </Descriptions.Item>
        {item.kind === 'invoice' && item.state !== 'draft' ? (
          <>
            <Descriptions.Item label={t('invoice.col.paid')}>{money(item.paid)}</Descriptions.Item>
            <Descriptions.Item label={t('invoice.ui.credited')}>{money(item.credited)}</Descriptions.Item>
            <Descriptions.Item label={t('invoice.col.outstanding')}>
              <strong data-testid="invoice-detail-outstanding">{money(item.outstanding)}</strong>
            </Descriptions.Item>
          </>
        ) : null}
      </Descriptions>
      <Typography.Paragraph className="bo-inv-muted bo-inv-gap">
        {t(`invoice.ui.tax_mention.${item.tax_treatment}`)}
      </Typography.Paragraph>

      {item.kind === 'invoice' && detail && detail.credit_notes.length > 0 ? (
        <>
          <Typography.Title level={3} className="bo-inv-subtitle">
            {t('invoice.ui.credit_notes')}
          </Typography.Title>
          <ul className="bo-inv-plain-list" data-testid="invoice-detail-credit-notes">
            {detail.credit_notes.map((cn) => (
              <li key={cn.id}>
                <OpenButton id={cn.id} onOpen={() => onOpen(cn.id)}>
                  <span className="bo-inv-num">{cn.number}</span>
                </OpenButton>{' '}
                · {cn.issue_date} · {money(cn.total)} · {cn.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {detail && detail.rows.length > 0 ? (
        <>
          <Typography.Title level={3} className="bo-inv-subtitle">
            {t('invoice.ui.billing_rows')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={detail.rows.length > 10 ? { pageSize: 10 } : false}
            className="bo-inv-subtable"
            dataSource={detail.rows}
            columns={[
              { key: 'month', title: t('invoice.ui.month'), render: (_: unknown, r) => r.month },
              { key: 'product', title: t('invoice.ui.product'), render: (_: unknown, r) => r.product },
              {
                key: 'gross',
                title: t('invoice.col.revenue'),
                align: 'right',
                render: (_: unknown, r) => money(r.revenue_gross),
              },
              {
                key: 'state',
                title: t('invoice.col.state'),
                render: (_: unknown, r) => t(`billing.state.${r.state}`),
              },
            ]}
          />
        </>
      ) : null}
    </div>
  );
}

function PaymentsTab({ item, detail }: { item: InvoiceListItem; detail: InvoiceDetail | null }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      className="bo-inv-subtable"
      loading={!detail}
      dataSource={detail?.payments ?? []}
      data-testid="invoice-payments"
      locale={{ emptyText: <span className="bo-inv-empty">{t('invoice.ui.no_payments')}</span> }}
      columns={[
        {
          key: 'paid_on',
          title: t('invoice.ui.paid_on'),
          render: (_: unknown, p) => <span className="bo-inv-num">{p.paid_on}</span>,
        },
        {
          key: 'amount',
          title: t('invoice.ui.amount'),
          align: 'right',
          render: (_: unknown, p) => (
            <MoneyCell amount={p.amount} currency={item.currency} highlightNegative />
          ),
        },
        { key: 'reference', title: t('invoice.ui.reference'), render: (_: unknown, p) => p.reference ?? '—' },
        { key: 'by', title: t('invoice.ui.by'), render: (_: unknown, p) => p.created_by ?? '—' },
      ]}
    />
  );
}

function VerifactuSection({ detail }: { detail: InvoiceDetail | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const r = detail?.verifactu;
  if (!r) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('invoice.ui.no_verifactu')} />;
  return (
    <Descriptions size="small" bordered column={1} data-testid="invoice-verifactu">
      <Descriptions.Item label={t('invoice.ui.vf_kind')}>
        {r.kind} · {r.invoice_type}
      </Descriptions.Item>
      <Descriptions.Item label={t('invoice.ui.vf_hash')}>
        <code className="bo-inv-hash" data-testid="invoice-verifactu-hash">
          {r.hash}
        </code>
      </Descriptions.Item>
      <Descriptions.Item label={t('invoice.ui.vf_previous')}>
        <code className="bo-inv-hash">{r.previous_hash || '—'}</code>
      </Descriptions.Item>
      <Descriptions.Item label={t('invoice.ui.vf_generated')}>
        {formatDateTime(r.generated_at, locale)}
      </Descriptions.Item>
      <Descriptions.Item label={t('invoice.ui.vf_qr')}>
        <a
          href={r.qr_url}
          target="_blank"
          rel="noopener noreferrer"
          className="bo-inv-break"
          data-testid="invoice-verifactu-qr"
        >
          {r.qr_url}
        </a>
      </Descriptions.Item>
      <Descriptions.Item label={t('invoice.ui.vf_submission')}>
        <span data-testid="invoice-verifactu-submission">
          {!r.submission
            ? t('invoice.ui.vf_not_sent')
            : r.submission.accepted
              ? t('invoice.ui.vf_accepted', {
                  csv: r.submission.csv ?? '—',
                  at: formatDateTime(r.submission.at, locale),
                })
              : t('invoice.ui.vf_refused', {
                  error: r.submission.error ?? '—',
                  at: formatDateTime(r.submission.at, locale),
                })}
        </span>
      </Descriptions.Item>
    </Descriptions>
  );
}

const historyText = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

function HistoryTab({ detail }: { detail: InvoiceDetail | null }) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  if (!detail) return null;
  if (detail.history.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.no_data_available')} />;
  return (
    <Timeline
      className="bo-inv-history"
      data-testid="invoice-history"
      items={detail.history.map((h, i) => {
        const key = `invoice.ui.history.${h.action.replace(/^invoices\./, '')}`;
        const d = (h.detail ?? {}) as {
          before?: Record<string, unknown> | null;
          after?: Record<string, unknown> | null;
        };
        const before = d.before ?? {};
        const after = d.after ?? {};
        const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
          (k) => historyText(before[k]) !== historyText(after[k]),
        );
        return {
          key: i,
          content: (
            <div>
              <strong>{i18n.exists(key) ? t(key) : h.action}</strong>
              <div>
                <Typography.Text type="secondary">
                  {formatDateTime(h.at, locale)} · {h.user ?? '—'}
                </Typography.Text>
              </div>
              {keys.length > 0 ? (
                <ul className="bo-inv-changes">
                  {keys.map((k) => (
                    <li key={k}>
                      {i18n.exists(`invoice.col.${k}`) ? t(`invoice.col.${k}`) : k}:{' '}
                      {k in before ? (
                        <>
                          <del>{historyText(before[k])}</del> →{' '}
                        </>
                      ) : null}
                      <ins>{historyText(after[k])}</ins>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ),
        };
      })}
    />
  );
}

export function InvoiceDrawer({
  id,
  listed,
  canWrite,
  canApprove,
  issue,
  onClose,
  onOpen,
  onChanged,
}: InvoiceDrawerProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { isMobile } = useViewport();
  const detail = useApiQuery<InvoiceDetail>(invoicePath(id));
  const [saved, setSaved] = useState<InvoiceListItem | null>(null);
  const [dirty, setDirty] = useState(false);
  const item = newest<InvoiceListItem>(listed, detail.data, saved);
  const isDraft = item?.state === 'draft';
  const [tab, setTab] = useState<string | null>(null);
  const activeTab = tab ?? (isDraft ? 'edit' : 'document');
  // Leaving the screen (another route, a reload) with unsaved edits asks too.
  useUnsavedGuard(dirty);

  const changed = () => {
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
      className: 'bo-inv-danger-scope',
      okButtonProps: {
        danger: true,
        ...({ 'data-testid': 'invoice-unsaved-leave' } as Record<string, string>),
      },
      onOk: onClose,
    });
  };

  const title: ReactNode = item ? (
    <div className="bo-inv-drawer-title">
      <span data-testid="invoice-drawer-title">
        {item.number ?? t('invoice.ui.draft_of', { name: item.name })}
        {item.number ? ` · ${item.name}` : ''}
      </span>
      <Space size={4} wrap>
        <KindTag kind={item.kind} />
        <InvoiceStateTag state={item.state} />
      </Space>
    </div>
  ) : (
    t('common.loading')
  );

  const tabs = item
    ? [
        ...(isDraft
          ? [
              {
                key: 'edit',
                label: t('invoice.ui.tab.edit'),
                children: (
                  <DraftEditForm
                    draft={item}
                    canWrite={canWrite}
                    onSaved={(r) => {
                      setSaved(r);
                      changed();
                    }}
                    onDirtyChange={setDirty}
                  />
                ),
              },
            ]
          : []),
        {
          key: 'document',
          label: t('invoice.ui.tab.document'),
          children: (
            <>
              <DocumentTab item={item} detail={detail.data ?? null} onOpen={onOpen} />
              {!isDraft ? (
                <>
                  <Typography.Title level={3} className="bo-inv-subtitle">
                    VERI*FACTU
                  </Typography.Title>
                  <VerifactuSection detail={detail.data ?? null} />
                </>
              ) : null}
            </>
          ),
        },
        ...(!isDraft && item.kind === 'invoice'
          ? [
              {
                key: 'payments',
                label: t('invoice.ui.tab.payments'),
                children: <PaymentsTab item={item} detail={detail.data ?? null} />,
              },
            ]
          : []),
        {
          key: 'history',
          label: t('invoice.ui.tab.history'),
          children: <HistoryTab detail={detail.data ?? null} />,
        },
      ]
    : [];

  return (
    <Drawer
      open
      onClose={close}
      title={title}
      footer={
        item ? (
          <InvoiceActions
            item={item}
            detail={detail.data ?? null}
            canWrite={canWrite}
            canApprove={canApprove}
            issue={issue}
            onChanged={changed}
            onDiscarded={() => {
              onChanged();
              onClose();
            }}
          />
        ) : null
      }
      size={isMobile ? '100%' : 760}
      destroyOnHidden
      data-testid="invoice-drawer"
    >
      {detail.isError && !item ? <Alert type="error" showIcon title={errorText(detail.error)} /> : null}
      {item ? (
        <Tabs
          activeKey={tabs.some((x) => x.key === activeTab) ? activeTab : tabs[0]?.key}
          onChange={setTab}
          // At 375 px three tabs fit without antd's overflow menu (a button inside the tab list).
          size={isMobile ? 'small' : 'middle'}
          tabBarGutter={isMobile ? 16 : undefined}
          className="bo-inv-drawer-tabs"
          items={tabs}
        />
      ) : null}
    </Drawer>
  );
}
