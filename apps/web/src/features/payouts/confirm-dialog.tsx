/**
 * Confirming payouts (spec 5, Payout): the selection and its total, the payouts that will be
 * skipped and why (minimum, billing info, terms, state), the alerts to acknowledge, a comment of
 * 10+ characters and the verification code, generated for this person and this selection when the
 * dialog opens (single use, expiring; "New code" asks for another). Every refusal shows next to its
 * field and changes nothing; the month rule (not before the 15th) shows on top.
 */
import {
  confirmFormErrors,
  type PayoutDto,
  type PayoutRun,
  type PayoutSide,
  type PayoutVerification,
} from '@backoffice/core/payouts';
import { Alert, Button, Checkbox, Form, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { sumAmounts } from './payouts-api.ts';

export interface ConfirmDialogProps {
  side: PayoutSide;
  rows: PayoutDto[];
  /** Why this month cannot be confirmed today (payout.too_early), or null. */
  monthError: string | null;
  onClose: () => void;
  onDone: (run: PayoutRun) => void;
}

const CODE_ERRORS = new Set(['payout.code_wrong', 'payout.code_used', 'payout.code_expired', 'payout.code_mismatch']);

export function ConfirmDialog({ side, rows, monthError, onClose, onDone }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [verification, setVerification] = useState<PayoutVerification | null>(null);
  const [comment, setComment] = useState('');
  const [code, setCode] = useState('');
  const [ack, setAck] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(monthError ? t(monthError, { day: 15 }) : null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => newIdempotencyKey('po-'));

  const blocked = rows.filter((r) => r.state !== 'pending' || r.blockers.length > 0);
  const alerted = rows.filter((r) => r.state === 'pending' && r.alerts.length > 0);
  const currencies = [...new Set(rows.map((r) => r.currency))];

  const askCode = async () => {
    setCode('');
    try {
      setVerification(await api.request<PayoutVerification>(`payouts/${side}/verification`, { method: 'POST', body: { ids: rows.map((r) => r.id) } }));
      setErrors((e) => ({ ...e, code: '' }));
    } catch (e) {
      if (!isSessionError(e)) setFailure(errorText(e));
    }
  };
  useEffect(() => {
    void askCode();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one code per opening
  }, []);

  const submit = async () => {
    const local = confirmFormErrors({ selected: rows.length, comment, code });
    if (alerted.length > 0 && !ack) local.ack = 'payout.alerts_unacknowledged';
    setErrors(local);
    if (Object.keys(local).length > 0 || !verification) return;
    setBusy(true);
    setFailure(null);
    try {
      const run = await api.request<PayoutRun>(`payouts/${side}/confirm`, {
        method: 'POST',
        body: {
          rows: rows.map((r) => ({ id: r.id, version: r.version })),
          comment: comment.trim(),
          verification_id: verification.id,
          code: code.trim(),
          acknowledge_alerts: ack,
          idempotency_key: key,
        },
      });
      onDone(run);
    } catch (e) {
      // A refused confirmation is a new click next time.
      setKey(newIdempotencyKey('po-'));
      if (isSessionError(e)) return;
      const k = e instanceof FetchError ? e.key : null;
      const fields = e instanceof FetchError ? (e.details.errors ?? {}) : {};
      if (k && CODE_ERRORS.has(k)) setErrors({ code: k });
      else if (fields.comment) setErrors({ comment: fields.comment });
      else if (k === 'payout.alerts_unacknowledged') setErrors({ ack: k });
      else setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const time = verification ? new Date(verification.expires_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '';
  return (
    <Modal
      open
      title={t('payout.ui.confirm_title', { count: rows.length })}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('payout.ui.cancel')}</Button>
          <Button type="primary" onClick={() => void submit()} loading={busy} disabled={!verification} data-testid="payout-confirm-ok">
            {t('payout.action.confirm')}
          </Button>
        </Space>
      }
    >
      <div data-testid="payout-confirm-dialog">
        {failure ? <Alert type="error" showIcon title={failure} className="bo-pay-gap" data-testid="payout-confirm-failure" /> : null}
        <Typography.Paragraph>
          {currencies.map((c) => (
            <span key={c} className="bo-pay-total" data-testid={`payout-confirm-total-${c}`}>
              {t('payout.ui.total')}:{' '}
              <MoneyCell amount={sumAmounts(rows.filter((r) => r.currency === c).map((r) => r.payout))} currency={c} />
            </span>
          ))}
        </Typography.Paragraph>
        {blocked.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            className="bo-pay-gap"
            data-testid="payout-confirm-blocked"
            title={t('payout.ui.blocked', { count: blocked.length })}
            description={
              <ul className="bo-pay-list">
                {blocked.slice(0, 8).map((r) => (
                  <li key={r.id}>
                    {r.name}: {(r.state !== 'pending' ? ['payout.skip.state'] : r.blockers).map((b) => t(b)).join(', ')}
                  </li>
                ))}
                {blocked.length > 8 ? <li>…</li> : null}
              </ul>
            }
          />
        ) : null}
        <Form layout="vertical" requiredMark={false} onFinish={() => void submit()}>
          <Form.Item
            label={t('payout.ui.comment')}
            htmlFor="payout-comment"
            help={errors.comment ? t(errors.comment) : t('payout.ui.comment_help')}
            validateStatus={errors.comment ? 'error' : undefined}
          >
            <Input.TextArea
              id="payout-comment"
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              maxLength={500}
              autoSize={{ minRows: 2, maxRows: 5 }}
              data-testid="payout-comment"
            />
          </Form.Item>
          {alerted.length > 0 ? (
            <Form.Item validateStatus={errors.ack ? 'error' : undefined} help={errors.ack ? t(errors.ack) : undefined}>
              <Checkbox checked={ack} onChange={(e) => setAck(e.target.checked)} data-testid="payout-alerts-ack">
                {t('payout.ui.alerts_ack', { count: alerted.length })}
              </Checkbox>
            </Form.Item>
          ) : null}
          <Form.Item
            label={t('payout.ui.code')}
            htmlFor="payout-code"
            validateStatus={errors.code ? 'error' : undefined}
            help={
              errors.code ? (
                <span data-testid="payout-code-error">{t(errors.code)}</span>
              ) : verification ? (
                <span>{t('payout.ui.code_help', { time })}</span>
              ) : undefined
            }
          >
            <div className="bo-pay-code">
              {verification ? (
                <strong className="bo-pay-code__value" aria-label={t('payout.ui.code')} data-testid="payout-code-value">
                  {verification.code}
                </strong>
              ) : null}
              <Input
                id="payout-code"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                inputMode="numeric"
                autoComplete="off"
                className="bo-pay-code__input"
                data-testid="payout-code"
              />
              <Button onClick={() => void askCode()} data-testid="payout-new-code">
                {t('payout.ui.new_code')}
              </Button>
            </div>
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
