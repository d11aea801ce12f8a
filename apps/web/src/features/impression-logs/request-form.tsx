/**
 * The request form of an impression log (a dialog): the day (no future), the network, the columns
 * (a checklist with all / none) and the filters (a builder: a field and its values per row, each
 * field once). The core rules run as one types; the API runs the same ones and its field errors
 * land next to the same fields; nothing typed is lost on an error. Closing with changes asks first.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { IsoDate } from '@backoffice/core/dates';
import {
  DEAL_FILTER_VALUES,
  DEFAULT_IMPRESSION_LOG_COLUMNS,
  FILTER_FIELDS,
  IMPRESSION_LOG_COLUMNS,
  impressionLogRequestSchema,
  utcDay,
  type FilterField,
  type ImpressionLogColumn,
  type ImpressionLogRequest,
} from '@backoffice/core/impression-logs';
import { COUNTRIES, DEVICES, ENVIRONMENTS, FORMATS, SIZES } from '@backoffice/core/reports';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input.tsx';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import type { ImpressionLogOptions } from './impression-logs-api.ts';

interface FilterRow {
  /** Stable row key. */
  key: number;
  field: FilterField | null;
  values: string[];
  value: string;
}

interface Draft {
  date: IsoDate | null;
  network: number | null;
  columns: ImpressionLogColumn[];
  filters: FilterRow[];
}

const LIST_VALUES: Record<string, readonly string[]> = { country: COUNTRIES, device: DEVICES, format: FORMATS, size: SIZES, environment: ENVIRONMENTS };

let rowSeq = 0;
const emptyRow = (): FilterRow => ({ key: ++rowSeq, field: null, values: [], value: '' });
const initial = (): Draft => ({ date: null, network: null, columns: [...DEFAULT_IMPRESSION_LOG_COLUMNS], filters: [emptyRow()] });

/** The body the API takes, from the draft. */
function bodyOf(d: Draft) {
  return {
    date: d.date,
    network_id: d.network,
    columns: d.columns,
    filters: d.filters
      .filter((f) => f.field !== null)
      .map((f) =>
        f.field === 'min_win_price' || f.field === 'deal'
          ? { field: f.field, value: f.value }
          : { field: f.field, values: f.field === 'publisher' ? f.values.map(Number) : f.values },
      ),
  };
}

export interface RequestFormProps {
  options: ImpressionLogOptions | undefined;
  onClose: () => void;
  onCreated: (item: ImpressionLogRequest) => void;
}

export function RequestForm({ options, onClose, onCreated }: RequestFormProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [clickKey] = useState(() => newIdempotencyKey('il-'));
  const [serverError, setServerError] = useState<string | null>(null);
  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTouched(true);
  };
  const setRow = (key: number, patch: Partial<FilterRow>) => change({ filters: draft.filters.map((f) => (f.key === key ? { ...f, ...patch } : f)) });
  const used = new Set(draft.filters.map((f) => f.field).filter(Boolean));
  const publisherOptions = useMemo(() => (options?.publishers ?? []).map((p) => ({ value: String(p.id), label: p.name })), [options]);

  const err = (path: string) => (errors[path] ? t(errors[path]!) : undefined);
  /** The first error of a filter row (its values or its value). */
  const rowErr = (i: number) => err(`filters.${i}.values`) ?? err(`filters.${i}.value`) ?? err(`filters.${i}`) ?? err(`filters.${i}.field`);

  const submit = async () => {
    setServerError(null);
    const body = bodyOf(draft);
    const parsed = impressionLogRequestSchema(utcDay()).safeParse(body);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const item = await api.request<ImpressionLogRequest>('impressions-log', { method: 'POST', body: { ...body, idempotency_key: clickKey } });
      onCreated(item);
    } catch (e) {
      if (e instanceof FetchError && e.details.errors) setErrors(e.details.errors);
      else if (!isSessionError(e)) setServerError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (!touched) return onClose();
    modal.confirm({
      title: t('impressions_log.ui.discard_title'),
      content: t('impressions_log.ui.discard_body'),
      okText: t('impressions_log.ui.discard'),
      cancelText: t('impressions_log.ui.keep_editing'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'implog-discard' } as Record<string, string>) },
      onOk: onClose,
    });
  };

  const valuesInput = (f: FilterRow, i: number) => {
    const label = `${t('impressions_log.ui.filter_values')} ${i + 1}`;
    if (f.field === 'min_win_price')
      return (
        <Input
          aria-label={label}
          inputMode="decimal"
          placeholder={t('impressions_log.ui.min_price_placeholder')}
          value={f.value}
          onChange={(e) => setRow(f.key, { value: e.target.value })}
          data-testid={`implog-filter-value-${i}`}
        />
      );
    if (f.field === 'deal')
      return (
        <Select
          aria-label={label}
          value={f.value || undefined}
          onChange={(v: string) => setRow(f.key, { value: v })}
          options={DEAL_FILTER_VALUES.map((v) => ({ value: v, label: t(`impressions_log.deal.${v}`) }))}
          data-testid={`implog-filter-value-${i}`}
        />
      );
    const opts = f.field === 'publisher' ? publisherOptions : (LIST_VALUES[f.field ?? ''] ?? []).map((v) => ({ value: v, label: v }));
    return (
      <Select
        mode="multiple"
        aria-label={label}
        disabled={!f.field}
        showSearch={{ optionFilterProp: 'label' }}
        maxTagCount="responsive"
        value={f.values}
        onChange={(v: string[]) => setRow(f.key, { values: v })}
        options={opts}
        placeholder={t('impressions_log.ui.filter_values')}
        data-testid={`implog-filter-values-${i}`}
      />
    );
  };

  return (
    <Modal
      open
      title={t('impressions_log.ui.new_title')}
      okText={t('impressions_log.ui.submit')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={close}
      confirmLoading={busy}
      okButtonProps={{ disabled: busy, ...({ 'data-testid': 'implog-submit' } as Record<string, string>) }}
      width={640}
      className="bo-implog-form"
      maskClosable={false}
    >
      <Form layout="vertical" component="div">
        <div className="bo-implog-form__pair">
          <Form.Item label={t('impressions_log.ui.date')} htmlFor="implog-date" required validateStatus={err('date') ? 'error' : undefined} help={err('date')}>
            <DateInput id="implog-date" value={draft.date} onChange={(date) => change({ date })} timeZone="UTC" status={err('date') ? 'error' : undefined} />
          </Form.Item>
          <Form.Item label={t('impressions_log.ui.network')} htmlFor="implog-network" required validateStatus={err('network_id') ? 'error' : undefined} help={err('network_id')}>
            <Select
              id="implog-network"
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('impressions_log.ui.network_placeholder')}
              value={draft.network ?? undefined}
              onChange={(v: number) => change({ network: v })}
              options={(options?.networks ?? []).map((n) => ({ value: n.id, label: n.name }))}
              loading={!options}
              data-testid="implog-network"
            />
          </Form.Item>
        </div>
        <Form.Item
          label={
            <Space size={8}>
              <span id="implog-columns-label">{t('impressions_log.ui.columns')}</span>
              <Button size="small" type="link" onClick={() => change({ columns: [...IMPRESSION_LOG_COLUMNS] })} data-testid="implog-columns-all">
                {t('impressions_log.ui.columns_all')}
              </Button>
              <Button size="small" type="link" onClick={() => change({ columns: [] })} data-testid="implog-columns-none">
                {t('impressions_log.ui.columns_none')}
              </Button>
            </Space>
          }
          required
          validateStatus={err('columns') ? 'error' : undefined}
          help={err('columns')}
        >
          <Checkbox.Group
            className="bo-implog-form__columns"
            aria-labelledby="implog-columns-label"
            value={draft.columns}
            onChange={(v) => change({ columns: IMPRESSION_LOG_COLUMNS.filter((c) => (v as string[]).includes(c)) })}
            options={IMPRESSION_LOG_COLUMNS.map((c) => ({ value: c, label: t(`impressions_log.column.${c}`) }))}
            data-testid="implog-columns"
          />
        </Form.Item>
        <Form.Item label={<span id="implog-filters-label">{t('impressions_log.ui.filters')}</span>} required extra={t('impressions_log.ui.filters_help')} validateStatus={err('filters') ? 'error' : undefined} help={err('filters')}>
          <div className="bo-implog-form__filters" role="group" aria-labelledby="implog-filters-label" data-testid="implog-filters">
            {draft.filters.map((f, i) => (
              <div key={f.key} className="bo-implog-form__filter">
                <div className="bo-implog-form__filter-row">
                  <Select
                    className="bo-implog-form__field"
                    aria-label={`${t('impressions_log.ui.filter_field')} ${i + 1}`}
                    placeholder={t('impressions_log.ui.filter_field')}
                    value={f.field ?? undefined}
                    onChange={(field: FilterField) => setRow(f.key, { field, values: [], value: field === 'deal' ? 'deal' : '' })}
                    options={FILTER_FIELDS.map((x) => ({ value: x, label: t(`impressions_log.filter.${x}`), disabled: used.has(x) && x !== f.field }))}
                    data-testid={`implog-filter-field-${i}`}
                  />
                  <div className="bo-implog-form__values">{valuesInput(f, i)}</div>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={`${t('impressions_log.ui.remove_filter')} ${i + 1}`}
                    onClick={() => change({ filters: draft.filters.filter((x) => x.key !== f.key) })}
                    data-testid={`implog-filter-remove-${i}`}
                  />
                </div>
                {rowErr(i) ? (
                  <Typography.Text type="danger" className="bo-implog-form__row-error" data-testid={`implog-filter-error-${i}`}>
                    {rowErr(i)}
                  </Typography.Text>
                ) : null}
              </div>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => change({ filters: [...draft.filters, emptyRow()] })} disabled={draft.filters.length >= FILTER_FIELDS.length} data-testid="implog-filter-add">
              {t('impressions_log.ui.add_filter')}
            </Button>
          </div>
        </Form.Item>
        {serverError ? (
          <Typography.Text type="danger" role="alert" data-testid="implog-form-error">
            {serverError}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
