/**
 * Issuing drafts (POST /v1/invoices/issue) from a click to its result:
 * - nothing selected: 'No invoices selected' (invoice.none_selected);
 * - a confirmation first, since issuing is final (numbers of a gap-free series, no rollback): how
 *   many, their totals per currency, and the issue date (today in Madrid by default, never later);
 * - one request per click: the button is disabled and a second click is ignored while it runs; a
 *   dropped connection retries the same request, which the API answers once (an issued draft is
 *   skipped as already issued, with its number);
 * - the result per draft: issued with its number, or skipped and why (invoice.skip.*).
 */
import type { IssueResult, InvoiceListItem } from '@backoffice/core/invoices';
import { todayIn, type IsoDate } from '@backoffice/core/dates';
import { Alert, Form, Modal, Table, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import { totalsByCurrency } from './invoices-api.ts';

/** The issuer's calendar: the API dates documents in Madrid. */
export const ISSUER_ZONE = 'Europe/Madrid';
const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface IssueAction {
  start: (drafts: readonly InvoiceListItem[]) => void;
  busy: boolean;
  dialogs: ReactNode;
}

export function useIssue(onFinished: (results: IssueResult[]) => void): IssueAction {
  const { t } = useTranslation();
  const notice = useNotice();
  const [pending, setPending] = useState<readonly InvoiceListItem[] | null>(null);
  const [date, setDate] = useState<IsoDate>(() => todayIn(new Date(), ISSUER_ZONE));
  const [dateTouched, setDateTouched] = useState(false);
  const [dateError, setDateError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ results: IssueResult[]; names: Map<number, string> } | null>(null);
  const inFlight = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const start = (drafts: readonly InvoiceListItem[]) => {
    if (inFlight.current) return;
    if (drafts.length === 0) {
      void notice.warning(t('invoice.none_selected'));
      return;
    }
    setDate(todayIn(new Date(), ISSUER_ZONE));
    setDateTouched(false);
    setDateError(null);
    setPending(drafts);
  };

  const post = async (body: { ids: number[]; issue_date?: string }) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.requestFull<IssueResult[]>('invoices/issue', { method: 'POST', body });
      } catch (e) {
        if (!(e instanceof FetchError) || e.httpStatus !== 0 || attempt >= ATTEMPTS) throw e;
        await sleep(1000);
      }
    }
  };

  const issue = async () => {
    if (!pending || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      // Only a date someone chose goes with the request: the API's today is Madrid's.
      const answer = await post({
        ids: pending.map((d) => d.id),
        ...(dateTouched ? { issue_date: date } : {}),
      });
      if (!alive.current) return;
      setOutcome({ results: answer.data, names: new Map(pending.map((d) => [d.id, d.name])) });
      setPending(null);
      onFinished(answer.data);
    } catch (e) {
      if (isSessionError(e)) return;
      if (
        e instanceof FetchError &&
        (e.details.errors?.issue_date || e.key?.startsWith('invoice.issue_date'))
      ) {
        setDateError(errorText(e));
      } else void notice.error(errorText(e));
    } finally {
      inFlight.current = false;
      if (alive.current) setBusy(false);
    }
  };

  const issued = outcome?.results.filter((r) => r.status === 'issued').length ?? 0;
  const totals = pending ? totalsByCurrency(pending) : [];
  const dialogs = (
    <>
      <Modal
        open={pending !== null}
        title={t('invoice.ui.issue_title', { count: pending?.length ?? 0 })}
        onCancel={() => !busy && setPending(null)}
        onOk={() => void issue()}
        okText={t('invoice.ui.issue')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{
          disabled: busy,
          ...({ 'data-testid': 'invoice-issue-ok' } as Record<string, string>),
        }}
        cancelButtonProps={{ disabled: busy }}
        mask={{ closable: !busy }}
        destroyOnHidden
      >
        <div data-testid="invoice-issue-confirm">
          <Alert type="warning" showIcon className="bo-inv-gap-bottom" title={t('invoice.ui.issue_final')} />
          <Typography.Paragraph>
            {t('invoice.ui.issue_count', { count: pending?.length ?? 0 })}
          </Typography.Paragraph>
          <ul
            className="bo-inv-plain-list"
            aria-label={t('invoice.ui.totals')}
            data-testid="invoice-issue-totals"
          >
            {totals.map((c) => (
              <li key={c.currency}>
                {t('invoice.ui.documents', { count: c.count })} · {c.currency}:{' '}
                <strong>
                  <MoneyCell amount={c.total} currency={c.currency} />
                </strong>
              </li>
            ))}
          </ul>
          <Form layout="vertical" component="div" className="bo-inv-form">
            <Form.Item
              label={t('invoice.col.issue_date')}
              htmlFor="invoice-issue-date"
              extra={dateError ? undefined : t('invoice.ui.issue_date_help')}
              validateStatus={dateError ? 'error' : undefined}
              help={dateError ?? undefined}
            >
              <DateInput
                id="invoice-issue-date"
                value={date}
                allowClear={false}
                timeZone={ISSUER_ZONE}
                onChange={(d) => {
                  if (!d) return;
                  setDate(d);
                  setDateTouched(true);
                  setDateError(null);
                }}
              />
            </Form.Item>
          </Form>
        </div>
      </Modal>
      <Modal
        open={outcome !== null}
        title={t('invoice.ui.issue_result_title')}
        onCancel={() => setOutcome(null)}
        onOk={() => setOutcome(null)}
        okText={t('common.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
        okButtonProps={{ 'data-testid': 'invoice-issue-result-close' } as Record<string, string>}
        width={640}
      >
        <div data-testid="invoice-issue-result">
          <p data-testid="invoice-issue-summary">
            {t('invoice.ui.issue_summary', { issued, skipped: (outcome?.results.length ?? 0) - issued })}
          </p>
          <Table<IssueResult>
            size="small"
            rowKey="id"
            pagination={(outcome?.results.length ?? 0) > 10 ? { pageSize: 10 } : false}
            dataSource={outcome?.results ?? []}
            columns={[
              {
                key: 'name',
                title: t('invoice.col.name'),
                render: (_: unknown, r) => outcome?.names.get(r.id) ?? `#${r.id}`,
              },
              {
                key: 'status',
                title: t('invoice.col.state'),
                render: (_: unknown, r) => (
                  <StatusTag
                    tone={r.status === 'issued' ? 'ok' : 'bad'}
                    testId={`invoice-issue-status-${r.id}`}
                  >
                    {t(`invoice.ui.issue_status.${r.status}`)}
                  </StatusTag>
                ),
              },
              {
                key: 'detail',
                title: t('invoice.ui.issue_detail'),
                render: (_: unknown, r) => (
                  <span data-testid={`invoice-issue-detail-${r.id}`}>
                    {r.status === 'issued' ? r.number : r.reason ? t(r.reason) : ''}
                    {r.status === 'skipped' && r.number ? ` (${r.number})` : ''}
                  </span>
                ),
              },
            ]}
          />
        </div>
      </Modal>
    </>
  );
  return { start, busy, dialogs };
}
