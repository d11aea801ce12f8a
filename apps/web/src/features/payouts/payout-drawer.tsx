/**
 * One payout (GET …/{id}: the payout and its history): the spec's columns and every figure (revenue,
 * share and the month's effective share, earnings, carried months, adjustment, payout), the alerts
 * with their explanation, why it cannot be confirmed, the billing information, the state with who
 * and when; the adjustment and comments form (pending or held, 409 keeps what was typed); the
 * statement PDF; the history.
 */
import { PAYOUTS_RESOURCE, type PayoutDto, type PayoutSettings, type PayoutSide } from '@backoffice/core/payouts';
import { Alert, Button, Descriptions, Drawer, Form, Input, Space, Tabs, Timeline, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { formatDateTime, StatusTag } from '../../resources/resource-cells.tsx';
import { payoutPath, type PayoutDetail } from './payouts-api.ts';
import { AlertTags, StateTag } from './payout-cells.tsx';

export interface PayoutDrawerProps {
  side: PayoutSide;
  id: number;
  listed: PayoutDto | null;
  settings: PayoutSettings;
  onClose: () => void;
  onChanged: () => void;
}

function EditForm({ side, payout, onSaved }: { side: PayoutSide; payout: PayoutDto; onSaved: (p: PayoutDto) => void }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [adjustment, setAdjustment] = useState(payout.adjustment);
  const [comments, setComments] = useState(payout.comments);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const next = await api.request<PayoutDto>(payoutPath(side, payout.id), { method: 'PATCH', body: { version: payout.version, adjustment: adjustment.trim(), comments } });
      void notice.success(t('payout.ui.saved'));
      onSaved(next);
    } catch (e) {
      if (isSessionError(e)) return;
      const fields = e instanceof FetchError ? (e.details.errors ?? {}) : {};
      setError(fields.adjustment ? t(fields.adjustment) : errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form layout="vertical" requiredMark={false} onFinish={() => void save()} data-testid="payout-edit">
      {error ? <Alert type="error" showIcon title={error} className="bo-pay-gap" data-testid="payout-edit-error" /> : null}
      <Form.Item label={t('payout.col.adjustment')} htmlFor="payout-adjustment">
        <Input id="payout-adjustment" value={adjustment} inputMode="decimal" onChange={(e) => setAdjustment(e.target.value)} addonAfter={payout.currency} data-testid="payout-adjustment" />
      </Form.Item>
      <Form.Item label={t('payout.col.comments')} htmlFor="payout-comments">
        <Input.TextArea id="payout-comments" value={comments} onChange={(e) => setComments(e.target.value)} maxLength={500} autoSize={{ minRows: 2 }} data-testid="payout-comments" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="payout-edit-save">
        {t('payout.ui.save')}
      </Button>
    </Form>
  );
}

export function PayoutDrawer({ side, id, listed, settings, onClose, onChanged }: PayoutDrawerProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { isMobile } = useViewport();
  const canWrite = usePermission(PAYOUTS_RESOURCE, 'write');
  const detail = useApiQuery<PayoutDetail>(payoutPath(side, id));
  const [saved, setSaved] = useState<PayoutDto | null>(null);
  useEffect(() => setSaved(null), [id]);
  const candidates = [listed, detail.data?.payout, saved].filter((p): p is PayoutDto => Boolean(p) && p!.id === id);
  const p = candidates.reduce<PayoutDto | null>((best, x) => (!best || x.version > best.version ? x : best), null);
  const money = (v: string) => <MoneyCell amount={v} currency={p!.currency} />;
  const who = (name: string | null, at: string | null) => (at ? `${name ?? '—'} · ${formatDateTime(at, locale)}` : '—');
  const statement = async () => {
    try {
      await downloadApiFile(`/v1/payouts/${side}/${id}/statement.pdf`, {}, `payout_${id}.pdf`);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(errorText(e));
    }
  };

  return (
    <Drawer open onClose={onClose} width={isMobile ? '100%' : 720} title={p ? `${p.name} · ${p.month}` : t('payout.ui.details')} destroyOnHidden data-testid="payout-drawer">
      {detail.error ? <Alert type="error" showIcon title={errorText(detail.error)} /> : null}
      {p ? (
        <>
          <Space wrap className="bo-pay-gap">
            <StateTag state={p.state} />
            <AlertTags payout={p} />
            <Button onClick={() => void statement()} data-testid="payout-statement">
              {t('payout.ui.statement')}
            </Button>
          </Space>
          {p.state === 'held' && p.held_reason ? <Alert type="warning" showIcon className="bo-pay-gap" title={p.held_reason} /> : null}
          {p.state === 'carried' && p.carried_into ? <Alert type="info" showIcon className="bo-pay-gap" title={t('payout.ui.carried_into', { id: p.carried_into })} /> : null}
          {p.blockers.length > 0 ? (
            <Alert type="warning" showIcon className="bo-pay-gap" data-testid="payout-blockers" title={p.blockers.map((b) => t(b)).join(' · ')} />
          ) : null}
          {p.alerts.map((a) => (
            <Alert
              key={a}
              type="warning"
              showIcon
              className="bo-pay-gap"
              title={t(`payout.alert.${a}.help`, { pct: settings.over_revenue_pct, effective: p.effective_pct ?? '—', share: p.share_pct, points: settings.over_share_points })}
            />
          ))}
          <Tabs
            items={[
              {
                key: 'figures',
                label: t('payout.ui.details'),
                children: (
                  <Descriptions size="small" bordered column={isMobile ? 1 : 2} data-testid="payout-figures">
                    <Descriptions.Item label={t('payout.col.id_user')}>{p.id_user}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.company')}>{p.publisher.company_name ?? '—'}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.from_date')}>{p.from_date}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.to_date')}>{p.to_date}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.impressions')}>{p.impressions.toLocaleString(locale)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.revenue_gross')}>{money(p.revenue_gross)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.share_pct')}>{p.share_pct}%</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.effective_pct')}>{p.effective_pct === null ? '—' : `${p.effective_pct}%`}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.new_revenue')}>{money(p.new_revenue)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.carried_in')}>
                      {money(p.carried_in)}
                      {p.carried_from.length > 0 ? (
                        <Typography.Text type="secondary" className="bo-pay-block">
                          {t('payout.ui.carried_from')}: {p.carried_from.map((c) => `${c.month} (${c.amount})`).join(', ')}
                        </Typography.Text>
                      ) : null}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.adjustment')}>{money(p.adjustment)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.payout')}>
                      <strong data-testid="payout-detail-amount">{money(p.payout)}</strong>
                    </Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.min_payout')}>{money(p.min_payout)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.payment_terms')}>
                      {p.payment_terms}
                      {p.due_date ? ` · ${t('payout.col.due_date')} ${p.due_date}` : ''}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.billing_info')} span={isMobile ? 1 : 2}>
                      {p.billing_info.problems.length === 0 ? (
                        <StatusTag tone="ok">{t('payout.ui.billing_ok')}</StatusTag>
                      ) : (
                        p.billing_info.problems.map((x) => (
                          <StatusTag key={x} tone="bad">
                            {t(x)}
                          </StatusTag>
                        ))
                      )}
                      {p.billing_info.iban ? <span className="bo-pay-mono">{p.billing_info.iban}</span> : null}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('payout.col.comments')} span={isMobile ? 1 : 2}>
                      {p.comments || '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('payout.state.confirmed')}>{who(p.confirmed_by, p.confirmed_at)}</Descriptions.Item>
                    <Descriptions.Item label={t('payout.state.approved')}>{who(p.approved_by, p.approved_at)}</Descriptions.Item>
                    {p.paid_on ? (
                      <Descriptions.Item label={t('payout.col.paid_on')} span={isMobile ? 1 : 2}>
                        {p.paid_on} · {p.bank_reference}
                      </Descriptions.Item>
                    ) : null}
                  </Descriptions>
                ),
              },
              ...(canWrite && (p.state === 'pending' || p.state === 'held')
                ? [
                    {
                      key: 'edit',
                      label: t('payout.ui.edit'),
                      children: (
                        <EditForm
                          key={p.version}
                          side={side}
                          payout={p}
                          onSaved={(next) => {
                            setSaved(next);
                            onChanged();
                          }}
                        />
                      ),
                    },
                  ]
                : []),
              {
                key: 'history',
                label: t('payout.ui.history'),
                children: (
                  <Timeline
                    data-testid="payout-history"
                    items={(detail.data?.history ?? []).map((h) => ({
                      children: (
                        <div>
                          <strong>{t(`payout.action.${h.action.replace('payout.', '')}`)}</strong>
                          <Typography.Text type="secondary" className="bo-pay-block">
                            {h.actor ?? '—'} · {formatDateTime(h.at, locale)}
                          </Typography.Text>
                          {h.after && typeof h.after === 'object' && ('comment' in h.after || 'reason' in h.after) ? (
                            <span className="bo-pay-block">{String((h.after as Record<string, unknown>).comment ?? (h.after as Record<string, unknown>).reason)}</span>
                          ) : null}
                        </div>
                      ),
                    }))}
                  />
                ),
              },
            ]}
          />
        </>
      ) : null}
    </Drawer>
  );
}
