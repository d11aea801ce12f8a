/**
 * The request form (a dialog): date (month to date; not older than one month, not in the future),
 * networks (searched; each once), and the partner's figures from a CSV (previewed line by line with
 * core's rules before anything is sent) or typed. The API checks the same rules with the same keys;
 * its answer's field and line errors show where they belong. Closing with something typed asks
 * first.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  checkFigures,
  discrepancyDateError,
  discrepancyNetworksError,
  figuresFromTable,
  oneMonthBefore,
  requestDays,
  type DiscrepancyRequestDto,
  type FigureError,
  type FigureInput,
} from '@backoffice/core/discrepancy';
import { App, Alert, Button, Form, Input, Modal, Radio, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { newKey, useNetworks } from './discrepancy-api.ts';

const todayUtc = () => new Date().toISOString().slice(0, 10);
type Row = FigureInput & { key: number };

export function RequestForm({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (r: DiscrepancyRequestDto) => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const today = todayUtc();
  const [date, setDate] = useState<string | null>(null);
  const [networkIds, setNetworkIds] = useState<number[]>([]);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const networks = useNetworks(debounced, networkIds);
  const [source, setSource] = useState<'csv' | 'typed'>('csv');
  const [csvText, setCsvText] = useState('');
  const [csv, setCsv] = useState<{ name: string; inputs: (FigureInput & { line: number })[]; dropped: number } | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [typed, setTyped] = useState<Row[]>([{ key: 1, date: '', network: '', impressions: '', revenue: '' }]);
  const [serverErrors, setServerErrors] = useState<{ fields: Record<string, string>; lines: FigureError[] }>({ fields: {}, lines: [] });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newKey);

  const options = networks.data ?? [];
  const chosen = options.filter((n) => networkIds.includes(n.id));
  const dateError = submitted || date ? discrepancyDateError(date ?? '', today) : null;
  const networksError = submitted ? discrepancyNetworksError(networkIds) : null;
  const inputs: (FigureInput & { line?: number })[] = source === 'csv' ? (csv?.inputs ?? []) : typed.filter((r) => r.date || r.network || r.impressions || r.revenue);
  const preview = date && !discrepancyDateError(date, today) ? checkFigures(inputs, date, chosen) : null;
  const lineErrors = serverErrors.lines.length > 0 ? serverErrors.lines : (preview?.errors ?? []);
  const dirty = Boolean(date || networkIds.length || csv || typed.some((r) => r.date || r.network || r.impressions || r.revenue));

  const reset = () => {
    setDate(null);
    setNetworkIds([]);
    setCsv(null);
    setCsvText('');
    setCsvError(null);
    setTyped([{ key: 1, date: '', network: '', impressions: '', revenue: '' }]);
    setServerErrors({ fields: {}, lines: [] });
    setSubmitted(false);
    setKey(newKey());
  };
  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({
      title: t('discrepancy.discard_title'),
      content: t('discrepancy.discard_body'),
      okText: t('discrepancy.discard_ok'),
      cancelText: t('discrepancy.keep_editing'),
      okButtonProps: { danger: true, id: 'discrepancy-discard' },
      onOk: () => {
        reset();
        onClose();
      },
    });
  };

  const submit = async () => {
    setSubmitted(true);
    setServerErrors({ fields: {}, lines: [] });
    if (discrepancyDateError(date ?? '', today) || discrepancyNetworksError(networkIds)) return;
    if (inputs.length === 0) {
      setServerErrors({ fields: { figures: 'discrepancy.figures.required' }, lines: [] });
      return;
    }
    if (preview && preview.errors.length > 0) return;
    setBusy(true);
    try {
      const body =
        source === 'csv'
          ? { date, network_ids: networkIds, source, csv: { file_name: csv!.name, text: csvText }, idempotency_key: key }
          : { date, network_ids: networkIds, source, figures: inputs.map(({ date: d, network, impressions, revenue }) => ({ date: d, network, impressions, revenue })), idempotency_key: key };
      const created = await api.request<DiscrepancyRequestDto>('discrepancy/requests', { method: 'POST', body });
      void notice.success(t('common.discrepancy_added'));
      reset();
      onCreated(created);
    } catch (e) {
      if (e instanceof FetchError && e.httpStatus === 400) {
        const data = (e.details.body as { data?: { lines?: FigureError[] } } | undefined)?.data;
        setServerErrors({ fields: { ...(e.details.errors ?? {}) }, lines: data?.lines ?? [] });
      }
      if (!isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (name: string, local: string | null) => {
    const k = serverErrors.fields[name] ?? local;
    return k ? { validateStatus: 'error' as const, help: t(k, { name: '' }) } : {};
  };
  const days = date && !discrepancyDateError(date, today) ? requestDays(date) : [];
  const setTypedRow = (k: number, patch: Partial<FigureInput>) => setTyped((rows) => rows.map((r) => (r.key === k ? { ...r, ...patch } : r)));

  return (
    <Modal
      open={open}
      title={t('discrepancy.new_title')}
      onCancel={close}
      width={860}
      okText={t('discrepancy.submit')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      okButtonProps={{ loading: busy, id: 'discrepancy-submit' }}
      destroyOnHidden={false}
      maskClosable={false}
    >
      <Form layout="vertical" component="div" data-testid="discrepancy-form">
        <Form.Item label={t('discrepancy.date')} required extra={t('discrepancy.date.help')} {...fieldError('date', dateError)}>
          <DateInput value={date} onChange={setDate} min={oneMonthBefore(today)} max={today} id="discrepancy-date" aria-label={t('discrepancy.date')} style={{ minWidth: 220 }} status={(serverErrors.fields.date ?? dateError) ? 'error' : undefined} />
        </Form.Item>
        <Form.Item label={t('discrepancy.networks')} required {...fieldError('network_ids', networksError)}>
          <Select<number[]>
            mode="multiple"
            showSearch={{ filterOption: false, onSearch: setSearch }}
            value={networkIds}
            onChange={(v) => setNetworkIds([...new Set(v)])}
            placeholder={t('discrepancy.networks.placeholder')}
            aria-label={t('discrepancy.networks')}
            options={options.map((n) => ({ value: n.id, label: `${n.name} (${n.id} · ${n.currency})` }))}
            loading={networks.isFetching}
            data-testid="discrepancy-networks"
          />
        </Form.Item>
        <Form.Item label={t('discrepancy.source')} {...fieldError('figures', null)}>
          <Radio.Group value={source} onChange={(e) => setSource(e.target.value as 'csv' | 'typed')} optionType="button" data-testid="discrepancy-source">
            <Radio.Button value="csv">{t('discrepancy.source.csv')}</Radio.Button>
            <Radio.Button value="typed">{t('discrepancy.source.typed')}</Radio.Button>
          </Radio.Group>
        </Form.Item>
        {source === 'csv' ? (
          <Form.Item extra={t('discrepancy.csv.help')} {...fieldError('csv', csvError)}>
            <CsvUpload
              header={false}
              onFile={(file) => {
                void file.text().then(setCsvText);
              }}
              onParsed={(table) => {
                const read = figuresFromTable(table.rows.map((r) => r.map((c) => (c === null ? '' : String(c)))));
                setServerErrors({ fields: {}, lines: [] });
                if (!read) {
                  setCsv(null);
                  setCsvError('discrepancy.csv.columns');
                  return;
                }
                setCsvError(null);
                setCsv({ name: table.fileName, inputs: read.inputs, dropped: read.dropped });
              }}
            />
            {csv ? (
              <Typography.Text type="secondary" data-testid="discrepancy-csv-summary">
                {t('discrepancy.csv.file', { name: csv.name })} · {t('discrepancy.preview.ok', { count: preview?.figures.length ?? csv.inputs.length })}
                {csv.dropped > 0 ? ` · ${t('discrepancy.csv.dropped', { count: csv.dropped })}` : ''}
              </Typography.Text>
            ) : null}
          </Form.Item>
        ) : (
          <div className="bo-disc-typed" data-testid="discrepancy-typed">
            {typed.map((r, i) => (
              <div key={r.key} className="bo-disc-typed__row">
                <Select
                  className="bo-disc-typed__date"
                  aria-label={`${t('discrepancy.col.day')} ${i + 1}`}
                  placeholder={t('discrepancy.col.day')}
                  value={r.date || undefined}
                  onChange={(v: string) => setTypedRow(r.key, { date: v })}
                  options={days.map((d) => ({ value: d, label: d }))}
                />
                <Select
                  className="bo-disc-typed__network"
                  aria-label={`${t('discrepancy.col.network')} ${i + 1}`}
                  placeholder={t('discrepancy.col.network')}
                  value={r.network || undefined}
                  onChange={(v: string) => setTypedRow(r.key, { network: v })}
                  options={chosen.map((n) => ({ value: String(n.id), label: n.name }))}
                />
                <Input aria-label={`${t('discrepancy.col.theirs_impressions')} ${i + 1}`} placeholder={t('discrepancy.col.theirs_impressions')} inputMode="numeric" value={r.impressions} onChange={(e) => setTypedRow(r.key, { impressions: e.target.value })} />
                <Input aria-label={`${t('discrepancy.col.theirs_revenue')} ${i + 1}`} placeholder={t('discrepancy.col.theirs_revenue')} inputMode="decimal" value={r.revenue} onChange={(e) => setTypedRow(r.key, { revenue: e.target.value })} />
                <Button icon={<DeleteOutlined />} aria-label={t('discrepancy.remove_row', { line: i + 1 })} disabled={typed.length === 1} onClick={() => setTyped((rows) => rows.filter((x) => x.key !== r.key))} />
              </div>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => setTyped((rows) => [...rows, { key: Math.max(...rows.map((x) => x.key)) + 1, date: '', network: '', impressions: '', revenue: '' }])}>
              {t('discrepancy.add_row')}
            </Button>
          </div>
        )}
        {lineErrors.length > 0 ? (
          <>
            <Alert type="error" showIcon className="bo-disc-gap" title={t('discrepancy.preview.errors', { count: new Set(lineErrors.map((e) => e.line)).size })} />
            <Table<FigureError>
              size="small"
              className="bo-disc-gap"
              rowKey={(e) => `${e.line}-${e.field}`}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={lineErrors}
              data-testid="discrepancy-preview-errors"
              columns={[
                { key: 'line', title: t('discrepancy.line'), render: (_, e) => e.line },
                { key: 'field', title: t('discrepancy.field'), render: (_, e) => t(`discrepancy.col.${e.field === 'date' ? 'day' : e.field === 'network' ? 'network' : e.field === 'impressions' ? 'theirs_impressions' : 'theirs_revenue'}`) },
                { key: 'error', title: t('discrepancy.error'), render: (_, e) => t(e.key) },
              ]}
            />
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
