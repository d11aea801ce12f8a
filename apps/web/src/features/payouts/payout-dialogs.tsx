/**
 * The payout screens' other dialogs: hold (a reason), mark paid (date and bank reference), the SEPA
 * file (execution date; approved EUR payouts), the payment CSV (preview, then mark the matched
 * paid) and the alert thresholds. Each shows the API's refusal next to its field or on top, and
 * changes nothing until the API accepts.
 */
import {
  PAYOUT_COMMENT_MIN,
  type PayoutDto,
  type PayoutImportAnswer,
  type PayoutImportLine,
  type PayoutRun,
  type PayoutSettings,
  type PayoutSide,
} from '@backoffice/core/payouts';
import { Alert, Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { postApiFile } from '../../lib/api-file.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { sumAmounts } from './payouts-api.ts';

const todayIso = () => new Date().toISOString().slice(0, 10);

/** A dialog's submit: the API call, field errors from a 400/422, other errors on top. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    setErrors({});
    try {
      await work();
    } catch (e) {
      if (isSessionError(e)) return;
      const fields = e instanceof FetchError ? (e.details.errors ?? {}) : {};
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, setErrors, failure, submit };
}

function DialogShell({
  title,
  onClose,
  onOk,
  ok,
  busy,
  failure,
  testId,
  children,
  width,
  disabled,
}: {
  title: string;
  onClose: () => void;
  onOk: () => void;
  ok: string;
  busy: boolean;
  failure: string | null;
  testId: string;
  children: ReactNode;
  width?: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      width={width ?? 520}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('payout.ui.cancel')}</Button>
          <Button type="primary" onClick={onOk} loading={busy} disabled={disabled} data-testid={`${testId}-ok`}>
            {ok}
          </Button>
        </Space>
      }
    >
      <div data-testid={testId}>
        {failure ? <Alert type="error" showIcon title={failure} className="bo-pay-gap" data-testid={`${testId}-failure`} /> : null}
        {children}
      </div>
    </Modal>
  );
}

const refs = (rows: PayoutDto[]) => rows.map((r) => ({ id: r.id, version: r.version }));

export function HoldDialog({ side, rows, onClose, onDone }: { side: PayoutSide; rows: PayoutDto[]; onClose: () => void; onDone: (run: PayoutRun) => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [key] = useState(() => newIdempotencyKey('po-'));
  const s = useSubmit();
  const ok = () => {
    if (reason.trim().length < PAYOUT_COMMENT_MIN) return s.setErrors({ reason: 'payout.comment_short' });
    void s.submit(async () => onDone(await api.request<PayoutRun>(`payouts/${side}/actions`, { method: 'POST', body: { action: 'hold', rows: refs(rows), reason: reason.trim(), idempotency_key: key } })));
  };
  return (
    <DialogShell title={t('payout.ui.hold_title', { count: rows.length })} onClose={onClose} onOk={ok} ok={t('payout.action.hold')} busy={s.busy} failure={s.failure} testId="payout-hold">
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label={t('payout.ui.hold_reason')} htmlFor="payout-hold-reason" validateStatus={s.errors.reason ? 'error' : undefined} help={s.errors.reason ? t(s.errors.reason) : t('payout.ui.comment_help')}>
          <Input.TextArea id="payout-hold-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoSize={{ minRows: 2 }} data-testid="payout-hold-reason" />
        </Form.Item>
      </Form>
    </DialogShell>
  );
}

export function PayDialog({ side, rows, onClose, onDone }: { side: PayoutSide; rows: PayoutDto[]; onClose: () => void; onDone: (run: PayoutRun) => void }) {
  const { t } = useTranslation();
  const [paidOn, setPaidOn] = useState<string | null>(todayIso());
  const [reference, setReference] = useState('');
  const [key] = useState(() => newIdempotencyKey('po-'));
  const s = useSubmit();
  const ok = () => {
    const local: Record<string, string> = {};
    if (!paidOn) local.paid_on = 'payout.date_invalid';
    if (!reference.trim()) local.bank_reference = 'payout.bank_reference_required';
    if (Object.keys(local).length > 0) return s.setErrors(local);
    void s.submit(async () =>
      onDone(await api.request<PayoutRun>(`payouts/${side}/actions`, { method: 'POST', body: { action: 'pay', rows: refs(rows), paid_on: paidOn, bank_reference: reference.trim(), idempotency_key: key } })),
    );
  };
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return (
    <DialogShell title={t('payout.ui.pay_title', { count: rows.length })} onClose={onClose} onOk={ok} ok={t('payout.action.pay')} busy={s.busy} failure={s.failure} testId="payout-pay">
      <Typography.Paragraph>
        {currencies.map((c) => (
          <span key={c} className="bo-pay-total">
            {t('payout.ui.total')}: <MoneyCell amount={sumAmounts(rows.filter((r) => r.currency === c).map((r) => r.payout))} currency={c} />
          </span>
        ))}
      </Typography.Paragraph>
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label={t('payout.ui.paid_on')} htmlFor="payout-paid-on" validateStatus={s.errors.paid_on ? 'error' : undefined} help={s.errors.paid_on ? t(s.errors.paid_on) : undefined}>
          <DateInput id="payout-paid-on" value={paidOn} onChange={(v) => setPaidOn(v)} max={todayIso()} data-testid="payout-paid-on" />
        </Form.Item>
        <Form.Item label={t('payout.ui.bank_reference')} htmlFor="payout-bank-reference" validateStatus={s.errors.bank_reference ? 'error' : undefined} help={s.errors.bank_reference ? t(s.errors.bank_reference) : undefined}>
          <Input id="payout-bank-reference" value={reference} onChange={(e) => setReference(e.target.value)} maxLength={140} data-testid="payout-bank-reference" />
        </Form.Item>
      </Form>
    </DialogShell>
  );
}

export function SepaDialog({ side, rows, onClose, onDone }: { side: PayoutSide; rows: PayoutDto[]; onClose: () => void; onDone: (file: string) => void }) {
  const { t } = useTranslation();
  const [date, setDate] = useState<string | null>(todayIso());
  const s = useSubmit();
  const eligible = rows.filter((r) => r.state === 'approved' && r.currency === 'EUR' && r.billing_info.iban && !r.billing_info.problems.includes('payout.iban_invalid'));
  const ok = () => {
    if (!date) return s.setErrors({ execution_date: 'payout.date_invalid' });
    void s.submit(async () => onDone(await postApiFile(`/v1/payouts/${side}/sepa`, { ids: eligible.map((r) => r.id), execution_date: date }, `payouts_${side}_sepa.xml`)));
  };
  return (
    <DialogShell
      title={t('payout.ui.sepa_title', { count: eligible.length })}
      onClose={onClose}
      onOk={ok}
      ok={t('payout.ui.sepa')}
      busy={s.busy}
      failure={s.failure ?? (eligible.length === 0 ? t('payout.sepa.not_approved') : null)}
      disabled={eligible.length === 0}
      testId="payout-sepa"
    >
      <Typography.Paragraph>{t('payout.ui.sepa_body', { total: sumAmounts(eligible.map((r) => r.payout)) + ' EUR' })}</Typography.Paragraph>
      {eligible.length < rows.length ? (
        <Alert type="warning" showIcon className="bo-pay-gap" title={t('payout.sepa.refused', { count: rows.length - eligible.length })} data-testid="payout-sepa-left-out" />
      ) : null}
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label={t('payout.ui.execution_date')} htmlFor="payout-sepa-date" validateStatus={s.errors.execution_date ? 'error' : undefined} help={s.errors.execution_date ? t(s.errors.execution_date) : undefined}>
          <DateInput id="payout-sepa-date" value={date} onChange={(v) => setDate(v)} min={todayIso()} allowFuture data-testid="payout-sepa-date" />
        </Form.Item>
      </Form>
    </DialogShell>
  );
}

const TONE: Record<PayoutImportLine['status'], StatusTone> = { matched: 'ok', unmatched: 'off', invalid: 'bad', duplicate: 'info' };

export function ImportDialog({ side, onClose, onDone }: { side: PayoutSide; onClose: () => void; onDone: (answer: PayoutImportAnswer) => void }) {
  const { t } = useTranslation();
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<PayoutImportAnswer | null>(null);
  const s = useSubmit();
  const send = (dryRun: boolean) =>
    void s.submit(async () => {
      const answer = await api.request<PayoutImportAnswer>(`payouts/${side}/payments/import`, { method: 'POST', body: { csv, dry_run: dryRun } });
      if (dryRun) setPreview(answer);
      else onDone(answer);
    });
  return (
    <DialogShell
      title={t('payout.ui.import')}
      onClose={onClose}
      onOk={() => (preview ? send(false) : send(true))}
      ok={preview ? t('payout.ui.import_apply', { count: preview.matched }) : t('billing.ui.bank_preview')}
      busy={s.busy}
      failure={s.failure ?? (s.errors.csv ? t(s.errors.csv) : null)}
      disabled={csv.trim() === '' || (preview !== null && preview.matched === 0)}
      width={860}
      testId="payout-import"
    >
      <Typography.Paragraph type="secondary">{t('payout.ui.import_help')}</Typography.Paragraph>
      <CsvUpload onFile={(file) => void file.text().then((text) => (setCsv(text), setPreview(null)))} />
      <label htmlFor="payout-import-csv" className="bo-pay-label">
        {t('billing.ui.bank_paste')}
      </label>
      <Input.TextArea
        id="payout-import-csv"
        value={csv}
        onChange={(e) => (setCsv(e.target.value), setPreview(null))}
        autoSize={{ minRows: 4, maxRows: 10 }}
        placeholder={'date,amount,reference\n2026-11-20,1200.00,SEPA PO-123'}
        className="bo-pay-mono"
        data-testid="payout-import-csv"
      />
      {preview ? (
        <div className="bo-pay-gap" data-testid="payout-import-result">
          <p data-testid="payout-import-summary">{t('payout.ui.import_preview', { matched: preview.matched, unmatched: preview.unmatched, invalid: preview.invalid, duplicate: preview.duplicate })}</p>
          <div className="bo-pay-scroll" tabIndex={0} role="region" aria-label={t('payout.ui.import')}>
            <Table<PayoutImportLine>
              size="small"
              rowKey="line"
              pagination={preview.lines.length > 20 ? { pageSize: 20 } : false}
              dataSource={preview.lines}
              columns={[
                { key: 'line', title: t('payout.ui.line'), render: (_, l) => l.line },
                { key: 'status', title: t('payout.ui.status'), render: (_, l) => <StatusTag tone={TONE[l.status]}>{l.reason ? t(l.reason) : t(`payout.ui.line_${l.status}`)}</StatusTag> },
                { key: 'payout', title: t('payout.col.name'), render: (_, l) => (l.name ? `${l.name} (PO-${l.payout_id})` : '') },
                { key: 'date', title: t('payout.col.paid_on'), render: (_, l) => l.date ?? '' },
                { key: 'amount', title: t('payout.col.payout'), align: 'right', render: (_, l) => l.amount ?? '' },
                { key: 'ref', title: t('payout.col.bank_reference'), render: (_, l) => l.bank_reference },
              ]}
            />
          </div>
        </div>
      ) : null}
    </DialogShell>
  );
}

export function SettingsDialog({ settings, onClose, onDone }: { settings: PayoutSettings; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(settings);
  const s = useSubmit();
  const ok = () => void s.submit(async () => (await api.request('payouts/settings', { method: 'PUT', body: value }), onDone()));
  return (
    <DialogShell title={t('payout.ui.settings')} onClose={onClose} onOk={ok} ok={t('payout.ui.save')} busy={s.busy} failure={s.failure} testId="payout-settings">
      <Form layout="vertical" requiredMark={false}>
        {(['over_revenue_pct', 'over_share_points'] as const).map((k) => (
          <Form.Item key={k} label={t(`payout.ui.${k}`)} htmlFor={`payout-${k}`} validateStatus={s.errors[k] ? 'error' : undefined} help={s.errors[k] ? t(s.errors[k]!) : undefined}>
            <Input id={`payout-${k}`} value={value[k]} inputMode="decimal" onChange={(e) => setValue({ ...value, [k]: e.target.value.trim() })} data-testid={`payout-${k}`} />
          </Form.Item>
        ))}
      </Form>
    </DialogShell>
  );
}
