/**
 * One prepaid advertiser, in a drawer over the list (`?advertiser={id}&tab=…&lpage=…&kind=…`): its
 * balance and threshold, its ledger paged by the server with the balance after each entry, adding a
 * top-up, adjustment or refund (core's schema: the API's rules and messages, errors next to the
 * fields, what was typed kept), reversing an entry (confirmation with a reason), the threshold
 * (with its version: a concurrent change is explained, never overwritten) and the history.
 */
import { DownloadOutlined, PlusOutlined, RollbackOutlined } from '@ant-design/icons';
import { formatMoney } from '@backoffice/core/format';
import {
  ADJUSTMENT_DIRECTIONS,
  ENTRY_KINDS,
  LEDGER_PAGE_SIZE,
  MANUAL_KINDS,
  canReverse,
  entryInputSchema,
  thresholdFieldSchema,
  type EntryKind,
  type LedgerEntry,
  type PrepaymentAccount,
} from '@backoffice/core/prepayments';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { Alert, App, Button, Drawer, Empty, Form, Input, List, Modal, Result, Select, Skeleton, Space, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import type { FormInstance } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { i18n } from '../../lib/i18n.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag, formatDateTime } from '../../resources/resource-cells.tsx';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { exportLedger, useAccount, useAddEntry, useHistory, useLedger, useReverse, useSaveThreshold, type ViewPatch } from './prepayments-api.ts';

export const LEDGER_TABS = ['ledger', 'threshold', 'history'] as const;
export type LedgerTab = (typeof LEDGER_TABS)[number];
const RESOURCE = '/v1/prepayments';

/** Field errors of the API (or of core's schema) onto an antd form; answers whether there were any. */
function showFieldErrors(form: FormInstance<EntryForm>, errors: Record<string, string> | null | undefined): boolean {
  if (!errors || Object.keys(errors).length === 0) return false;
  form.setFields(Object.entries(errors).map(([name, key]) => ({ name: name.split('.')[0] as keyof EntryForm, errors: [i18n.t(key)] })));
  return true;
}

// ------------------------------------------------------------------------------------ add entry

interface EntryForm {
  kind?: string;
  direction?: string | null;
  amount?: string;
  entry_date?: string | null;
  reference?: string;
  comment?: string;
}

function AddEntryModal({ account, open, onClose }: { account: PrepaymentAccount; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [form] = Form.useForm<EntryForm>();
  const kind = Form.useWatch('kind', form);
  const add = useAddEntry(account.id);
  // One key per submission of what is typed: a retry after a lost answer is the same click.
  const key = useRef(newIdempotencyKey());
  useEffect(() => {
    if (open) {
      form.resetFields();
      key.current = newIdempotencyKey();
    }
  }, [open, form]);

  const submit = async () => {
    const values = form.getFieldsValue();
    const input = {
      kind: values.kind,
      direction: values.kind === 'adjustment' ? (values.direction ?? null) : null,
      amount: (values.amount ?? '').trim(),
      ...(values.entry_date ? { entry_date: values.entry_date } : {}),
      reference: values.reference ?? '',
      comment: values.comment ?? '',
    };
    form.setFields((['kind', 'direction', 'amount', 'entry_date', 'reference', 'comment'] as const).map((name) => ({ name, errors: [] })));
    const parsed = entryInputSchema.safeParse(input);
    if (!parsed.success) {
      showFieldErrors(form, issuesToErrors(parsed.error.issues));
      return;
    }
    try {
      const out = await add.mutateAsync({ ...input, idempotency_key: key.current });
      void notice.success(t(out.already ? 'prepayments.entry_already' : 'prepayments.entry_added'));
      onClose();
    } catch (error) {
      if (isSessionError(error)) return;
      if (error instanceof FetchError && showFieldErrors(form, error.details.errors)) return;
      void notice.error(errorText(error));
    }
  };

  return (
    <Modal
      open={open}
      title={t('prepayments.add_entry_title', { name: account.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('prepayments.save_entry')}
      cancelText={t('prepayments.cancel')}
      confirmLoading={add.isPending}
      okButtonProps={{ 'data-testid': 'entry-save' } as never}
      destroyOnHidden
      rootClassName="bo-pp-modal"
      data-testid="entry-modal"
    >
      <Form form={form} layout="vertical" initialValues={{ kind: 'top_up' }} data-testid="entry-form" onFinish={() => void submit()}>
        <Form.Item name="kind" label={t('prepayments.field.kind')} required>
          <Select id="entry-kind" options={MANUAL_KINDS.map((k) => ({ value: k, label: t(`prepayments.kind.${k}`) }))} />
        </Form.Item>
        {kind === 'adjustment' ? (
          <Form.Item name="direction" label={t('prepayments.field.direction')} required>
            <Select id="entry-direction" options={ADJUSTMENT_DIRECTIONS.map((d) => ({ value: d, label: t(`prepayments.direction.${d}`) }))} />
          </Form.Item>
        ) : null}
        <Form.Item name="amount" label={t('prepayments.field.amount')} extra={t('prepayments.field.amount_help')} required>
          <Input id="entry-amount" inputMode="decimal" autoComplete="off" maxLength={14} />
        </Form.Item>
        <Form.Item name="entry_date" label={t('prepayments.field.entry_date')}>
          <DateInput id="entry-date" />
        </Form.Item>
        <Form.Item name="reference" label={t('prepayments.field.reference')} extra={t('prepayments.field.reference_help')} required={kind !== 'adjustment'}>
          <Input id="entry-reference" maxLength={100} />
        </Form.Item>
        <Form.Item name="comment" label={t('prepayments.field.comment')} required={kind === 'adjustment'}>
          <Input.TextArea id="entry-comment" maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// ------------------------------------------------------------------------------------ reverse

function ReverseModal({ account, entry, onClose }: { account: PrepaymentAccount; entry: LedgerEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const reverse = useReverse(account.id);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  useEffect(() => {
    setReason('');
    setError(null);
    key.current = newIdempotencyKey();
  }, [entry]);
  if (!entry) return null;
  const submit = async () => {
    if (reason.trim() === '') return setError(t('prepayments.reason_required'));
    try {
      const out = await reverse.mutateAsync({ entry: entry.id, reason: reason.trim(), idempotency_key: key.current });
      void notice.success(t(out.already ? 'prepayments.entry_already' : 'prepayments.entry_reversed'));
      onClose();
    } catch (e) {
      if (isSessionError(e)) return;
      if (e instanceof FetchError && e.details.errors?.reason) return setError(t(e.details.errors.reason));
      void notice.error(errorText(e));
      if (e instanceof FetchError && e.httpStatus === 409) onClose();
    }
  };
  return (
    <Modal
      open
      title={t('prepayments.reverse_title', { id: `#${entry.id}` })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('prepayments.reverse')}
      okButtonProps={{ danger: true, 'data-testid': 'reverse-confirm' } as never}
      cancelText={t('prepayments.cancel')}
      confirmLoading={reverse.isPending}
      rootClassName="bo-pp-modal"
      data-testid="reverse-modal"
    >
      <Typography.Paragraph>{t('prepayments.reverse_body', { amount: formatMoney(entry.amount.startsWith('-') ? entry.amount.slice(1) : `-${entry.amount}`, entry.currency, locale) })}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('prepayments.reason')} required validateStatus={error ? 'error' : undefined} help={error ?? undefined} htmlFor="reverse-reason">
          <Input.TextArea id="reverse-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// ------------------------------------------------------------------------------------ ledger

function LedgerTab({ account, page, kind, onView }: { account: PrepaymentAccount; page: number; kind: EntryKind | null; onView: (patch: ViewPatch) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const canWrite = usePermission(RESOURCE, 'write');
  const ledger = useLedger(account.id, page, kind);
  const [adding, setAdding] = useState(false);
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    try {
      await exportLedger(account.id, kind, 'csv');
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setExporting(false);
    }
  };
  const dash = <span className="bo-res-empty">—</span>;
  const columns: TableColumnsType<LedgerEntry> = [
    { key: 'id', title: t('prepayments.entry.id'), render: (_, e) => <span className="bo-pp-nowrap">#{e.id}</span> },
    { key: 'date', title: t('prepayments.entry.date'), render: (_, e) => <span className="bo-pp-nowrap">{e.entry_date}</span> },
    {
      key: 'kind',
      title: t('prepayments.entry.kind'),
      render: (_, e) => (
        <Space size={4} wrap>
          <StatusTag tone={e.kind === 'top_up' ? 'ok' : e.kind === 'reversal' ? 'bad' : e.kind === 'spend' ? 'off' : 'info'}>{t(`prepayments.kind.${e.kind}`)}</StatusTag>
          {e.reverses_id ? <Typography.Text type="secondary">{t('prepayments.reverses', { id: `#${e.reverses_id}` })}</Typography.Text> : null}
          {e.reversed_by ? <Typography.Text type="secondary">{t('prepayments.reversed_by', { id: `#${e.reversed_by}` })}</Typography.Text> : null}
        </Space>
      ),
    },
    { key: 'amount', title: t('prepayments.entry.amount'), align: 'right', render: (_, e) => <MoneyCell amount={e.amount} currency={e.currency} highlightNegative /> },
    { key: 'running', title: t('prepayments.entry.running_balance'), align: 'right', render: (_, e) => <MoneyCell amount={e.running_balance} currency={e.currency} highlightNegative /> },
    { key: 'reference', title: t('prepayments.entry.reference'), render: (_, e) => e.reference || dash },
    { key: 'comment', title: t('prepayments.entry.comment'), render: (_, e) => <span className="bo-pp-comment">{e.comment || dash}</span> },
    { key: 'by', title: t('prepayments.entry.created_by'), render: (_, e) => (e.source === 'warehouse' ? t('prepayments.source.warehouse') : (e.created_by.name ?? dash)) },
    {
      key: 'actions',
      title: <span className="bo-pp-sr">{t('prepayments.entry.actions')}</span>,
      render: (_, e) =>
        canWrite && canReverse(e) ? (
          <Button size="small" icon={<RollbackOutlined />} onClick={() => setReversing(e)} aria-label={t('prepayments.reverse_label', { id: `#${e.id}` })} data-testid={`entry-reverse-${e.id}`}>
            {t('prepayments.reverse')}
          </Button>
        ) : null,
    },
  ];
  return (
    <div data-testid="ledger">
      <div className="bo-pp-figures">
        <dl>
          <div className={account.low ? 'bo-pp-figure bo-pp-figure--alert' : 'bo-pp-figure'}>
            <dt>{t('prepayments.balance')}</dt>
            <dd data-testid="ledger-balance">{formatMoney(account.balance, account.currency, locale)}</dd>
          </div>
          <div className="bo-pp-figure">
            <dt>{t('prepayments.threshold')}</dt>
            <dd>{formatMoney(account.threshold, account.currency, locale)}</dd>
          </div>
          <div className="bo-pp-figure">
            <dt>{t('prepayments.posted_through')}</dt>
            <dd>{account.spend_posted_through ?? t('prepayments.never')}</dd>
          </div>
        </dl>
      </div>
      {!canWrite ? <Alert type="info" showIcon className="bo-pp-gap" title={t('prepayments.read_only')} /> : null}
      <div className="bo-pp-toolbar">
        <Space wrap>
          {canWrite ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="entry-add">
              {t('prepayments.add_entry')}
            </Button>
          ) : null}
          <Select
            allowClear
            className="bo-pp-kind"
            aria-label={t('prepayments.entry.kind')}
            placeholder={t('prepayments.all_kinds')}
            value={kind ?? undefined}
            options={ENTRY_KINDS.map((k) => ({ value: k, label: t(`prepayments.kind.${k}`) }))}
            onChange={(v?: string) => onView({ kind: v ?? null, lpage: null })}
            data-testid="ledger-kind"
          />
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="ledger-export">
            {t('prepayments.export_ledger')}
          </Button>
        </Space>
      </div>
      <Typography.Paragraph type="secondary" className="bo-pp-note">
        {t('prepayments.ledger_rule')}
      </Typography.Paragraph>
      {ledger.isError ? <Alert type="error" showIcon title={errorText(ledger.error)} /> : null}
      <div className="bo-pp-scroll" role="region" aria-label={t('prepayments.ledger')} tabIndex={0}>
        <Table<LedgerEntry>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={ledger.data?.items ?? []}
          loading={ledger.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('prepayments.ledger_empty')} /> }}
          onRow={(e) => ({ 'data-testid': `ledger-row-${e.id}` }) as never}
          pagination={{
            current: page,
            pageSize: LEDGER_PAGE_SIZE,
            total: ledger.data?.total ?? 0,
            showSizeChanger: false,
            size: 'small',
            onChange: (p) => onView({ lpage: p > 1 ? String(p) : null }),
          }}
          data-testid="ledger-table"
        />
      </div>
      <AddEntryModal account={account} open={adding} onClose={() => setAdding(false)} />
      <ReverseModal account={account} entry={reversing} onClose={() => setReversing(null)} />
    </div>
  );
}

// ------------------------------------------------------------------------------------ threshold

function ThresholdTab({ account }: { account: PrepaymentAccount }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const canWrite = usePermission(RESOURCE, 'write');
  const save = useSaveThreshold(account.id);
  const [value, setValue] = useState(account.threshold);
  const [version, setVersion] = useState(account.version);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<PrepaymentAccount | null>(null);
  const submit = async () => {
    setError(null);
    const parsed = thresholdFieldSchema.safeParse(value);
    if (!parsed.success) return setError(t('prepayments.threshold_invalid'));
    try {
      const saved = await save.mutateAsync({ threshold: parsed.data, version });
      setVersion(saved.version);
      setValue(saved.threshold);
      setConflict(null);
      void notice.success(t('prepayments.threshold_saved'));
    } catch (e) {
      if (isSessionError(e)) return;
      if (e instanceof FetchError && e.httpStatus === 409) {
        const current = (e.details.body as { data?: { current?: PrepaymentAccount } } | undefined)?.data?.current ?? null;
        setConflict(current);
        if (current) setVersion(current.version);
        return;
      }
      if (e instanceof FetchError && e.details.errors?.threshold) return setError(t(e.details.errors.threshold));
      void notice.error(errorText(e));
    }
  };
  return (
    <div data-testid="threshold">
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          className="bo-pp-gap"
          data-testid="threshold-conflict"
          title={t('resource.conflict_title')}
          description={t('prepayments.conflict', { name: conflict.updated_by.name ?? '?', threshold: formatMoney(conflict.threshold, conflict.currency, locale) })}
        />
      ) : null}
      <Form layout="vertical" onFinish={() => void submit()} className="bo-pp-threshold">
        <Form.Item label={t('prepayments.threshold')} extra={t('prepayments.threshold_help')} validateStatus={error ? 'error' : undefined} help={error ?? undefined} htmlFor="threshold-input">
          <Input id="threshold-input" inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} disabled={!canWrite} maxLength={14} suffix={account.currency} />
        </Form.Item>
        {canWrite ? (
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="threshold-save">
            {t('prepayments.threshold_save')}
          </Button>
        ) : (
          <Alert type="info" showIcon title={t('prepayments.read_only')} />
        )}
      </Form>
    </div>
  );
}

// ------------------------------------------------------------------------------------ history

function HistoryTab({ id }: { id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const history = useHistory(id, true);
  if (history.isPending) return <Skeleton active />;
  if (history.isError) return <Alert type="error" showIcon title={errorText(history.error)} />;
  if (history.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('prepayments.history_empty')} />;
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
  return (
    <List
      className="bo-res-history"
      dataSource={history.data}
      data-testid="prepayment-history"
      renderItem={(e) => (
        <List.Item key={e.id}>
          <div>
            <Typography.Text strong>{t('prepayments.history.by', { action: t(`prepayments.action.${e.action}`, { defaultValue: e.action }), name: e.actor.name ?? t('resource.nobody') })}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              {formatDateTime(e.at, locale)}
              {e.ip ? ` · ${t('resource.history.from_ip', { ip: e.ip })}` : ''}
            </Typography.Text>
            <ul className="bo-res-history__changes">
              {Object.entries(e.changes)
                .filter(([field]) => field !== 'idempotency_key')
                .map(([field, [before, after]]) => (
                  <li key={field}>
                    <Typography.Text type="secondary">{field}:</Typography.Text> {before === null || before === undefined ? null : <del>{text(before)}</del>} → <ins>{text(after)}</ins>
                  </li>
                ))}
            </ul>
          </div>
        </List.Item>
      )}
    />
  );
}

// ------------------------------------------------------------------------------------ drawer

export function LedgerDrawer({ id, tab, page, kind, onView, onClose }: { id: number | null; tab: LedgerTab; page: number; kind: EntryKind | null; onView: (patch: ViewPatch) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  App.useApp();
  const account = useAccount(id);
  const data = account.data;
  let body: ReactNode;
  if (account.isError) body = <Result status={account.error.httpStatus === 404 ? '404' : 'error'} title={errorText(account.error)} />;
  else if (!data || data.id !== id) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else
    body = (
      <div className="bo-res-detail" data-testid="prepayment-detail" data-advertiser={data.id}>
        {data.company ? <Typography.Paragraph type="secondary">{data.company}</Typography.Paragraph> : null}
        {data.low ? (
          <StatusTag tone="bad" testId="prepayment-low">
            {t('prepayments.badge.low')}
          </StatusTag>
        ) : null}
        <Tabs
          activeKey={tab}
          onChange={(k) => onView({ tab: k === 'ledger' ? null : k })}
          items={[
            { key: 'ledger', label: t('prepayments.tab.ledger'), children: <LedgerTab account={data} page={page} kind={kind} onView={onView} /> },
            { key: 'threshold', label: t('prepayments.tab.threshold'), children: <ThresholdTab key={data.id} account={data} /> },
            { key: 'history', label: t('prepayments.tab.history'), children: <HistoryTab id={data.id} /> },
          ]}
        />
      </div>
    );
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={isMobile ? '100%' : 1000}
      title={<span data-testid="prepayment-title">{data && data.id === id ? data.name : '\u00a0'}</span>}
      closable={{ 'aria-label': t('prepayments.close') }}
      destroyOnHidden
      data-testid="prepayment-drawer"
    >
      {body}
    </Drawer>
  );
}
