/**
 * The month's exchange rates (units of a currency for 1 EUR), which turn the totals into EUR:
 * each currency the month's rows use, its rate and where it came from; a rate typed by hand
 * (PUT /v1/billing/rates) or every month of an ECB reference-rate CSV at once (POST
 * /v1/billing/rates/import: each month gets its average).
 */
import { billingRateSchema } from '@backoffice/core/billing-api';
import { Alert, Button, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';
import type { BillingRatesAnswer } from './billing-api.ts';
import { EmptyText } from './row-cells.tsx';

export interface RatesModalProps {
  open: boolean;
  month: string;
  onClose: () => void;
  onChanged: () => void;
}

interface Line {
  currency: string;
  rate: string | null;
  source: string | null;
}

function RateEditor({ month, line, onSaved }: { month: string; line: Line; onSaved: () => void }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [value, setValue] = useState(line.rate ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const check = billingRateSchema.safeParse({ month, currency: line.currency, rate: value.trim() });
    if (!check.success) {
      setError(check.error.issues[0]?.message ?? 'billing.rate_invalid');
      return;
    }
    setBusy(true);
    try {
      await api.request('billing/rates', { method: 'PUT', body: check.data });
      setError(null);
      void notice.success(t('billing.rate_saved'));
      onSaved();
    } catch (e) {
      if (e instanceof FetchError && e.details.errors?.rate) setError(e.details.errors.rate);
      else if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const id = `billing-rate-${line.currency}`;
  return (
    <div>
      <Space.Compact>
        <Input
          id={id}
          aria-label={t('billing.ui.rate_for', { currency: line.currency })}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onPressEnter={() => void save()}
          status={error ? 'error' : undefined}
          inputMode="decimal"
          style={{ width: 130 }}
          data-testid={id}
        />
        <Button onClick={() => void save()} loading={busy} data-testid={`${id}-save`}>
          {t('common.save')}
        </Button>
      </Space.Compact>
      {error ? (
        <div className="bo-bill-field-error" role="alert">
          {t(error)}
        </div>
      ) : null}
    </div>
  );
}

export function RatesModal({ open, month, onClose, onChanged }: RatesModalProps) {
  const { t } = useTranslation();
  const notice = useNotice();
  const rates = useApiQuery<BillingRatesAnswer>(open ? 'billing/rates' : null, { query: { month } });
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState<string | null>(null);
  const changed = () => {
    void rates.refetch();
    onChanged();
  };
  const importFile = async (file: File) => {
    setImporting(true);
    setImportError(null);
    try {
      const answer = await api.request<{ months: string[]; rates: unknown[] }>('billing/rates/import', {
        method: 'POST',
        body: { csv: await file.text() },
      });
      void notice.success(
        t('billing.ui.rates_imported', { months: answer.months.length, rates: answer.rates.length }),
      );
      changed();
    } catch (e) {
      if (!isSessionError(e)) setImportError(errorText(e));
    } finally {
      setImporting(false);
    }
  };
  const data = rates.data;
  const lines: Line[] = data
    ? [...new Set([...data.needed, ...data.rates.map((r) => r.currency)])].sort().map((currency) => {
        const r = data.rates.find((x) => x.currency === currency);
        return { currency, rate: r?.rate ?? null, source: r ? r.source : null };
      })
    : [];
  return (
    <Modal
      open={open}
      title={t('billing.ui.rates_title', { month })}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      <div data-testid="billing-rates">
        <Typography.Paragraph type="secondary">{t('billing.ui.rates_help')}</Typography.Paragraph>
        {rates.isError ? <Alert type="error" showIcon title={errorText(rates.error)} /> : null}
        <Table<Line>
          size="small"
          rowKey="currency"
          loading={rates.isFetching && !data}
          pagination={false}
          dataSource={lines}
          locale={{ emptyText: <EmptyText>{t('billing.ui.rates_none_needed')}</EmptyText> }}
          columns={[
            {
              key: 'currency',
              title: t('billing.col.currency'),
              render: (_: unknown, l) => <strong>{l.currency}</strong>,
            },
            {
              key: 'rate',
              title: t('billing.ui.rate'),
              render: (_: unknown, l) => (
                <RateEditor key={`${l.currency}-${l.rate}`} month={month} line={l} onSaved={changed} />
              ),
            },
            {
              key: 'source',
              title: t('billing.ui.source'),
              render: (_: unknown, l) =>
                l.source ? (
                  t(`billing.ui.rate_source.${l.source}`)
                ) : (
                  <span className="bo-bill-missing">{t('billing.ui.rate_missing')}</span>
                ),
            },
          ]}
        />
        <div className="bo-bill-gap">
          <Typography.Text strong>{t('billing.ui.rates_import')}</Typography.Text>
          <Typography.Paragraph type="secondary">{t('billing.ui.rates_import_help')}</Typography.Paragraph>
          <CsvUpload
            onFile={(f) => void importFile(f)}
            disabled={importing}
            label={t('billing.ui.rates_import_button')}
          />
          {importError ? (
            <Alert
              className="bo-bill-gap"
              type="error"
              showIcon
              title={importError}
              data-testid="billing-rates-import-error"
            />
          ) : null}
        </div>
      </div>
    </Modal>
  );
}
