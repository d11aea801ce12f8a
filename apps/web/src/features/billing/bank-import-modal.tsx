/**
 * "Import bank CSV": a bank statement (a file or pasted text) matched to rows by the document id
 * in each line's reference (POST …/payments/import). First a preview (dry_run: nothing recorded):
 * each line matched, unmatched, invalid or a duplicate, and why, with the row and counterparty it
 * matched; then "Record N payments" applies the matched lines and the list is read again.
 */
import type { BankImportAnswer, BankImportLine, BillingSide } from '@backoffice/core/billing-api';
import { Alert, Button, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { NumberCell } from '../../components/number-cell.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';

const TONE: Record<BankImportLine['status'], StatusTone> = {
  matched: 'ok',
  unmatched: 'off',
  invalid: 'bad',
  duplicate: 'info',
};

export interface BankImportModalProps {
  side: BillingSide;
  open: boolean;
  onClose: () => void;
  onApplied: () => void;
}

export function BankImportModal({ side, open, onClose, onApplied }: BankImportModalProps) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<BankImportAnswer | null>(null);
  const [busy, setBusy] = useState<'preview' | 'apply' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async (dryRun: boolean) => {
    setBusy(dryRun ? 'preview' : 'apply');
    setError(null);
    try {
      const answer = await api.request<BankImportAnswer>(`billing/${side}/payments/import`, {
        method: 'POST',
        body: { csv, dry_run: dryRun },
      });
      if (dryRun) setPreview(answer);
      else {
        void notice.success(t('billing.ui.bank_recorded', { count: answer.matched }));
        onApplied();
        reset();
        onClose();
      }
    } catch (e) {
      if (!isSessionError(e)) setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const reset = () => {
    setCsv('');
    setPreview(null);
    setError(null);
  };

  return (
    <Modal
      open={open}
      title={t('billing.ui.bank_import')}
      onCancel={onClose}
      width={900}
      destroyOnHidden
      afterClose={reset}
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            onClick={() => void send(true)}
            loading={busy === 'preview'}
            disabled={csv.trim() === '' || busy !== null}
            data-testid="billing-bank-preview"
          >
            {t('billing.ui.bank_preview')}
          </Button>
          <Button
            type="primary"
            onClick={() => void send(false)}
            loading={busy === 'apply'}
            disabled={!preview || preview.matched === 0 || busy !== null}
            data-testid="billing-bank-apply"
          >
            {t('billing.ui.bank_apply', { count: preview?.matched ?? 0 })}
          </Button>
        </Space>
      }
    >
      <div data-testid="billing-bank-import">
        <Typography.Paragraph type="secondary">{t('billing.ui.bank_help')}</Typography.Paragraph>
        <CsvUpload
          onFile={(file) =>
            void file.text().then((text) => {
              setCsv(text);
              setPreview(null);
            })
          }
        />
        <label htmlFor="billing-bank-csv" className="bo-bill-field__label bo-bill-gap">
          {t('billing.ui.bank_paste')}
        </label>
        <Input.TextArea
          id="billing-bank-csv"
          value={csv}
          onChange={(e) => {
            setCsv(e.target.value);
            setPreview(null);
          }}
          autoSize={{ minRows: 4, maxRows: 10 }}
          placeholder={'date,amount,reference\n2026-11-20,1200.00,Transfer INV-202610-0001'}
          className="bo-bill-mono"
          data-testid="billing-bank-csv"
        />
        {error ? (
          <Alert
            type="error"
            showIcon
            className="bo-bill-gap"
            title={error}
            data-testid="billing-bank-error"
          />
        ) : null}
        {preview ? (
          <div className="bo-bill-gap" data-testid="billing-bank-result">
            <p data-testid="billing-bank-summary">
              {t('billing.ui.bank_summary', {
                matched: preview.matched,
                unmatched: preview.unmatched,
                invalid: preview.invalid,
                duplicate: preview.duplicate,
              })}
            </p>
            <div
              className="bo-bill-scroll"
              tabIndex={0}
              role="region"
              aria-label={t('billing.ui.bank_lines')}
            >
              <Table<BankImportLine>
                size="small"
                rowKey="line"
                pagination={preview.lines.length > 20 ? { pageSize: 20 } : false}
                dataSource={preview.lines}
                columns={[
                  { key: 'line', title: t('billing.ui.line'), render: (_: unknown, l) => l.line },
                  {
                    key: 'date',
                    title: t('billing.ui.paid_on'),
                    render: (_: unknown, l) => <span className="bo-bill-num">{l.date ?? '—'}</span>,
                  },
                  {
                    key: 'amount',
                    title: t('billing.ui.amount'),
                    align: 'right',
                    render: (_: unknown, l) => <NumberCell value={l.amount} />,
                  },
                  {
                    key: 'reference',
                    title: t('billing.ui.reference'),
                    render: (_: unknown, l) => l.reference,
                  },
                  {
                    key: 'status',
                    title: t('billing.col.state'),
                    render: (_: unknown, l) => (
                      <>
                        <StatusTag tone={TONE[l.status]}>{t(`billing.ui.bank_status.${l.status}`)}</StatusTag>
                        {l.reason ? <div className="bo-bill-muted">{t(l.reason)}</div> : null}
                      </>
                    ),
                  },
                  {
                    key: 'row',
                    title: t('billing.col.counterparty'),
                    render: (_: unknown, l) =>
                      l.row_id ? `${l.counterparty ?? ''} · ${l.document_id ?? ''}` : '—',
                  },
                ]}
                summary={() => (
                  <Table.Summary.Row>
                    <Table.Summary.Cell index={0} colSpan={2}>
                      <strong>{t('billing.ui.bank_matched_total')}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={2} align="right">
                      <strong>
                        <NumberCell value={preview.matched_amount} />
                      </strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={3} colSpan={3} />
                  </Table.Summary.Row>
                )}
              />
            </div>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
