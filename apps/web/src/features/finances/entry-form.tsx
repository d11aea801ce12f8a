/**
 * The finance entry form (create and edit): the spec's fields and rules (core's schema, the same
 * messages as the API: a valid user, network, amount and item/type; a comment of at most 100
 * characters; a period with start and end; the send-e-mail choice made, no default). Errors show
 * next to their fields and what was typed stays; the server's field errors land there too; an edit
 * sends the version it read, and a concurrent change is explained (409), never overwritten.
 */
import { FINANCE_COMMENT_MAX, FINANCE_ITEMS, financeEntrySchema, type FinanceEntry, type FinanceOption, type FinanceTeam } from '@backoffice/core/finances';
import type { DateRangeValue } from '@backoffice/core/dates';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { Alert, Button, Form, Input, Radio, Select, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeInput } from '../../components/date-range-input.tsx';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { i18n } from '../../lib/i18n.ts';
import { useOptions } from './finances-api.ts';

interface Values {
  counterparty_id?: number;
  network_id?: number;
  amount?: string;
  currency?: string;
  item?: string;
  comment?: string;
  period?: DateRangeValue | null;
  send_email?: boolean;
}

/** Where a field error of the API or the schema shows in the form (the period is one input). */
const FIELD_OF: Record<string, keyof Values> = { period_start: 'period', period_end: 'period' };

function PartySelect({ team, kind, id, value, onChange, onPicked, label }: { team: FinanceTeam; kind: 'counterparty' | 'network'; id: string; value?: number; onChange?: (v: number | undefined) => void; onPicked?: (o: FinanceOption) => void; label: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const applied = useDebouncedValue(search.trim(), 300);
  const { options, loading } = useOptions(team, kind, applied, value ? [value] : []);
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      aria-label={label}
      placeholder={t('finances.search_hint')}
      value={value}
      loading={loading}
      options={options.map((o) => ({ value: o.id, label: o.name }))}
      onChange={(v?: number) => {
        onChange?.(v);
        const picked = options.find((o) => o.id === v);
        if (picked) onPicked?.(picked);
      }}
      data-testid={`finance-${kind}`}
    />
  );
}

export interface EntryFormProps {
  team: FinanceTeam;
  entry?: FinanceEntry;
  disabled?: boolean;
  /** Saves the checked body; throws the API's error. */
  onSave: (body: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}

export function EntryForm({ team, entry, disabled, onSave, onCancel, onDirtyChange }: EntryFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const notice = useNotice();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<FinanceEntry | null>(null);
  const [version, setVersion] = useState(entry?.version ?? 0);
  const comment = Form.useWatch('comment', form) ?? '';
  // One key per form: a retried submission after a lost answer creates the entry once.
  const idempotencyKey = useRef(Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(''));
  const initial: Values = entry
    ? {
        counterparty_id: entry.counterparty.id,
        network_id: entry.network.id,
        amount: entry.amount,
        currency: entry.currency,
        item: entry.item,
        comment: entry.comment,
        period: { start: entry.period_start, end: entry.period_end },
        send_email: entry.send_email,
      }
    : { currency: 'EUR', comment: '' };

  const showErrors = (errors: Record<string, string>) => {
    const byField = new Map<string, string>();
    for (const [name, key] of Object.entries(errors)) {
      const field = FIELD_OF[name] ?? name.split('.')[0]!;
      if (!byField.has(field)) byField.set(field, key);
    }
    form.setFields([...byField.entries()].map(([name, key]) => ({ name: name as keyof Values, errors: [i18n.t(key)] })));
  };

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    const body: Record<string, unknown> = {
      counterparty_id: v.counterparty_id,
      network_id: v.network_id,
      amount: (v.amount ?? '').trim(),
      currency: v.currency,
      item: v.item,
      comment: v.comment ?? '',
      period_start: v.period?.start ?? '',
      period_end: v.period?.end ?? '',
      send_email: v.send_email,
    };
    form.setFields((['counterparty_id', 'network_id', 'amount', 'currency', 'item', 'comment', 'period', 'send_email'] as const).map((name) => ({ name, errors: [] })));
    const parsed = financeEntrySchema(team).safeParse(body, { reportInput: true } as never);
    if (!parsed.success) return showErrors(issuesToErrors(parsed.error.issues));
    setSaving(true);
    try {
      await onSave(entry ? { ...parsed.data, version } : { ...parsed.data, idempotency_key: idempotencyKey.current });
      setConflict(null);
      onDirtyChange?.(false);
    } catch (error) {
      if (error instanceof FetchError && error.httpStatus === 409) {
        const current = (error.details.body as { data?: { current?: FinanceEntry } } | undefined)?.data?.current ?? null;
        setConflict(current);
        if (current) setVersion(current.version);
      } else if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) {
        showErrors(error.details.errors);
      } else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const counterpartyLabel = t(`finances.field.counterparty.${team}`);
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={disabled}
      onValuesChange={() => onDirtyChange?.(true)}
      onFinish={() => void submit()}
      className="bo-fin-form"
      data-testid="finance-form"
    >
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          className="bo-fin-gap"
          data-testid="finance-conflict"
          title={t('resource.conflict_title')}
          description={t('resource.conflict', { name: conflict.updated_by.name ?? '?', at: conflict.updated_at })}
        />
      ) : null}
      <div className="bo-fin-grid">
        <Form.Item name="counterparty_id" label={counterpartyLabel} required>
          <PartySelect team={team} kind="counterparty" id="counterparty_id" label={counterpartyLabel} onPicked={(o) => (entry ? undefined : o.currency && form.setFieldValue('currency', o.currency))} />
        </Form.Item>
        <Form.Item name="network_id" label={t('finances.field.network')} required>
          <PartySelect team={team} kind="network" id="network_id" label={t('finances.field.network')} />
        </Form.Item>
        <Form.Item name="item" label={t('finances.field.item')} required>
          <Select id="item" options={FINANCE_ITEMS[team].map((i) => ({ value: i, label: t(`finances.item.${i}`) }))} data-testid="finance-item" />
        </Form.Item>
        <Form.Item label={t('finances.field.amount')} required extra={t('finances.field.amount_help')} className="bo-fin-amount">
          <Space.Compact block>
            <Form.Item name="amount" noStyle>
              <Input id="amount" inputMode="decimal" autoComplete="off" maxLength={14} aria-label={t('finances.field.amount')} data-testid="finance-amount" />
            </Form.Item>
            <Form.Item name="currency" noStyle>
              <Select id="currency" aria-label={t('finances.field.currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} className="bo-fin-currency" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="period" label={t('finances.field.period')} required>
          <DateRangeInput id="period" allowFuture aria-label={t('finances.field.period')} />
        </Form.Item>
      </div>
      <Form.Item name="comment" label={t('finances.field.comment')} extra={`${comment.length} / ${FINANCE_COMMENT_MAX}`}>
        <Input.TextArea id="comment" autoSize={{ minRows: 2, maxRows: 4 }} status={comment.length > FINANCE_COMMENT_MAX ? 'error' : undefined} data-testid="finance-comment" />
      </Form.Item>
      <Form.Item name="send_email" label={t('finances.field.send_email')} required>
        <Radio.Group
          id="send_email"
          options={[
            { value: true, label: t('finances.send_email.yes') },
            { value: false, label: t('finances.send_email.no') },
          ]}
          data-testid="finance-send-email"
        />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="finance-save">
          {t('finances.save')}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t('finances.cancel')}</Button> : null}
      </Space>
    </Form>
  );
}
