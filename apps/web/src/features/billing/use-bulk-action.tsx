/**
 * A bulk action on billing rows (confirm, disconfirm, approve, discard, accumulate) from a click
 * to its result, through POST …/actions:
 * - nothing selected: 'No billings selected' (spec 8);
 * - approve asks first: it is final (spec 4: no rollback); so do discard and accumulate, which no
 *   action undoes either;
 * - each click gets a fresh idempotency key, and a retry of that click (a dropped connection)
 *   sends the same key, so the API does the work once;
 * - confirm answered 422 billing.low_margin lists the rows under 20% margin and asks (spec 5);
 *   OK sends the same action again with confirm_low_margin and a new key;
 * - 409 billing.rows_changed: the message, and the list is read again;
 * - a run still working (202) shows a progress bar, polling GET …/actions/{run};
 * - the result: how many were done, how many skipped and why (billing.skip.*).
 * While a click is in flight the buttons are disabled.
 */
import type { BillingAction } from '@backoffice/core/billing';
import type { BillingActionRun, BillingRowDto, BillingSide } from '@backoffice/core/billing-api';
import { App, Modal, Progress, Table, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { actionsPath } from './billing-api.ts';

const POLL_MS = 700;
/** Actions whose result no action undoes: asked first. */
const FINAL: readonly BillingAction[] = ['approve', 'discard', 'accumulate'];
const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BulkAction {
  run: (action: BillingAction, rows: readonly BillingRowDto[]) => void;
  busy: BillingAction | null;
  /** The progress and result dialogs. */
  dialogs: ReactNode;
}

interface Outcome {
  run: BillingActionRun;
  labels: Map<number, string>;
}

const labelOf = (r: BillingRowDto) => `${r.counterparty.name} · ${r.product}`;

export function useBulkAction(
  side: BillingSide,
  onFinished: (outcome: 'done' | 'stale') => void,
): BulkAction {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const [busy, setBusy] = useState<BillingAction | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** POST with one key, retried with the same key when the connection drops. */
  const post = async (body: Record<string, unknown>): Promise<BillingActionRun> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.request<BillingActionRun>(actionsPath(side), { method: 'POST', body });
      } catch (e) {
        if (!(e instanceof FetchError) || e.httpStatus !== 0 || attempt >= ATTEMPTS) throw e;
        await sleep(1000);
      }
    }
  };

  const follow = async (started: BillingActionRun): Promise<BillingActionRun> => {
    let run = started;
    while (run.status === 'running' && alive.current) {
      setProgress({ done: run.done, total: run.total });
      await sleep(POLL_MS);
      run = await api.request<BillingActionRun>(`${actionsPath(side)}/${run.id}`);
    }
    return run;
  };

  const send = async (action: BillingAction, rows: readonly BillingRowDto[], confirmLowMargin: boolean) => {
    setBusy(action);
    try {
      const body = {
        action,
        rows: rows.map((r) => ({ id: r.id, version: r.version })),
        confirm_low_margin: confirmLowMargin,
        idempotency_key: newIdempotencyKey(),
      };
      const run = await follow(await post(body));
      setProgress(null);
      if (!alive.current) return;
      setOutcome({ run, labels: new Map(rows.map((r) => [r.id, labelOf(r)])) });
      onFinished('done');
    } catch (e) {
      setProgress(null);
      if (e instanceof FetchError && e.key === 'billing.low_margin') {
        askLowMargin(action, rows, e);
        return;
      }
      if (isSessionError(e)) return;
      void notice.error(errorText(e));
      if (e instanceof FetchError && e.key === 'billing.rows_changed') onFinished('stale');
    } finally {
      if (alive.current) setBusy(null);
    }
  };

  const askLowMargin = (action: BillingAction, rows: readonly BillingRowDto[], e: FetchError) => {
    const data = (
      e.details.body as { data?: { rows?: { id: number; margin_pct: string | null }[] } } | undefined
    )?.data;
    const low = data?.rows ?? [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    modal.confirm({
      title: t('billing.margin_warning'),
      width: 560,
      content: (
        <div data-testid="billing-low-margin">
          <p>{t('billing.low_margin', { count: low.length })}</p>
          <ul className="bo-bill-plain-list">
            {low.map((l) => (
              <li key={l.id}>
                {byId.get(l.id) ? labelOf(byId.get(l.id)!) : `#${l.id}`}:{' '}
                {l.margin_pct === null ? '—' : `${l.margin_pct}%`}
              </li>
            ))}
          </ul>
        </div>
      ),
      okText: t('billing.ui.confirm_anyway'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'billing-low-margin-ok' } as Record<string, string>,
      onOk: () => void send(action, rows, true),
    });
  };

  const run = (action: BillingAction, rows: readonly BillingRowDto[]) => {
    if (busy) return;
    if (rows.length === 0) {
      void notice.warning(t('billing.none_selected'));
      return;
    }
    if (!FINAL.includes(action)) {
      void send(action, rows, false);
      return;
    }
    modal.confirm({
      title: t(`billing.ui.${action}_title`, { count: rows.length }),
      content: t(`billing.ui.${action}_final`),
      okText: t(`billing.action.${action}`),
      cancelText: t('common.cancel'),
      okButtonProps: {
        danger: action === 'discard',
        ...({ 'data-testid': `billing-${action}-ok` } as Record<string, string>),
      },
      onOk: () => void send(action, rows, false),
    });
  };

  const skipped = outcome?.run.results.filter((r) => !r.ok) ?? [];
  const dialogs = (
    <>
      <Modal
        open={progress !== null}
        title={t('billing.action_running')}
        footer={null}
        closable={false}
        mask={{ closable: false }}
      >
        <Progress
          percent={progress && progress.total > 0 ? Math.floor((progress.done * 100) / progress.total) : 0}
          status="active"
          aria-label={t('billing.action_running')}
          data-testid="billing-action-progress"
        />
        <Typography.Text type="secondary">
          {t('billing.ui.progress', { done: progress?.done ?? 0, total: progress?.total ?? 0 })}
        </Typography.Text>
      </Modal>
      <Modal
        open={outcome !== null}
        title={outcome ? t(`billing.action.${outcome.run.action}`) : ''}
        onCancel={() => setOutcome(null)}
        onOk={() => setOutcome(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
        okButtonProps={{ 'data-testid': 'billing-action-result-close' } as Record<string, string>}
        okText={t('common.close')}
        width={620}
      >
        <div data-testid="billing-action-result">
          <p data-testid="billing-action-summary">
            {outcome?.run.status === 'failed'
              ? t('common.went_wrong')
              : t('billing.ui.result', {
                  applied: outcome?.run.applied ?? 0,
                  skipped: outcome?.run.skipped ?? 0,
                })}
          </p>
          {skipped.length > 0 ? (
            <Table
              size="small"
              rowKey="id"
              pagination={skipped.length > 10 ? { pageSize: 10 } : false}
              dataSource={skipped}
              columns={[
                {
                  key: 'row',
                  title: t('billing.col.counterparty'),
                  render: (_: unknown, r) => outcome?.labels.get(r.id) ?? `#${r.id}`,
                },
                {
                  key: 'reason',
                  title: t('billing.ui.reason'),
                  render: (_: unknown, r) => (r.reason ? t(r.reason) : ''),
                },
              ]}
            />
          ) : null}
        </div>
      </Modal>
    </>
  );
  return { run, busy, dialogs };
}
