/**
 * The generic form of a resource: antd Form driven by the core schema and field metadata. The
 * same schema checks the values before sending (same message keys as the API); the server's field
 * errors land next to their fields; nothing typed is lost. A 409 (someone saved meanwhile) opens a
 * dialog with the fields that differ, to load theirs or to save mine over theirs. Leaving with
 * unsaved changes asks first.
 */
import type { ChangedBy, FieldMeta, ResourceDef } from '@backoffice/core/resources/define';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Table } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { useLocale } from '../components/use-locale.ts';
import { errorText } from '../lib/api.ts';
import { FetchError } from '../lib/fetch-client.ts';
import { i18n } from '../lib/i18n.ts';
import type { ResourceRow } from './resource-api.ts';
import { formatDateTime, optionLabel, valueText } from './resource-cells.tsx';
import { ReferenceSelect } from './reference-select.tsx';

type Values = Record<string, unknown>;

export interface ResourceFormProps {
  def: ResourceDef;
  /** The row being edited; null for a new one. */
  row: ResourceRow | null;
  /** Sends the values (with `version` for an update); throws the API's FetchError. */
  onSubmit: (values: Values) => Promise<void>;
  disabled?: boolean;
  /** Buttons next to Save (Delete, …). */
  extra?: ReactNode;
  /** Inputs of the entity's own for some fields (a list editor, …); Form.Item gives each its value and onChange. */
  inputs?: Record<string, ReactNode>;
}

const writableFields = (def: ResourceDef) => Object.keys(def.schema.shape);

/** A field's default in the schema (`.default(true)`), for a new row's form. */
function schemaDefault(def: ResourceDef, field: string): unknown {
  const zdef = (def.schema.shape[field] as { def?: { type?: string; defaultValue?: unknown } } | undefined)?.def;
  return zdef?.type === 'default' ? zdef.defaultValue : undefined;
}

function initialValues(def: ResourceDef, row: ResourceRow | null): Values {
  const out: Values = {};
  for (const f of writableFields(def)) {
    const type = def.fields[f]!.type;
    const empty =
      type === 'json' ? [] : type === 'boolean' ? false : type === 'enum' || type === 'ref' || type === 'percent' || type === 'number' || type === 'money' ? undefined : '';
    out[f] = row?.[f] ?? schemaDefault(def, f) ?? empty;
  }
  return out;
}

/** Form values as the API takes them: empty optional texts as null. */
function cleaned(def: ResourceDef, values: Values): Values {
  const out: Values = {};
  for (const f of writableFields(def)) out[f] = values[f] === undefined ? null : values[f];
  return out;
}

const translated = (key: string) => (i18n.exists(key) ? i18n.t(key) : key);

/** The input of a field; Form.Item's id, value and onChange are passed on to it. */
function FieldInput({ meta, locale, ...control }: { meta: FieldMeta; locale: string; id?: string; value?: never; onChange?: never }) {
  if (meta.type === 'ref' && meta.ref) return <ReferenceSelect {...control} resource={meta.ref} />;
  if (meta.type === 'enum' && meta.options) {
    return (
      <Select {...control} showSearch={{ optionFilterProp: 'label' }} allowClear options={meta.options.map((o) => ({ value: o, label: optionLabel(meta, o, locale) }))} />
    );
  }
  if (meta.type === 'boolean') return <Switch {...control} />;
  if (meta.type === 'json' && meta.options) {
    return <Select {...control} mode="multiple" allowClear options={meta.options.map((o) => ({ value: o, label: optionLabel(meta, o, locale) }))} />;
  }
  if (meta.type === 'percent') return <InputNumber {...control} min={0} max={100} step={0.01} precision={2} stringMode style={{ width: '100%' }} />;
  if (meta.type === 'number' || meta.type === 'money') return <InputNumber {...control} style={{ width: '100%' }} />;
  return <Input {...control} type={meta.type === 'email' ? 'email' : meta.type === 'url' ? 'url' : 'text'} autoComplete="off" />;
}

export function ResourceForm({ def, row, onSubmit, disabled, extra, inputs }: ResourceFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState<number | null>(row?.version ?? null);
  const [conflict, setConflict] = useState<{ current: ResourceRow; mine: Values } | null>(null);

  // A fresh row from the server (after a save, or loaded in another way) resets the form.
  useEffect(() => {
    form.setFieldsValue(initialValues(def, row));
    setVersion(row?.version ?? null);
    setDirty(false);
  }, [row, def, form]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !saving && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    Modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true, id: 'resource-unsaved-leave' },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const showErrors = (errors: Record<string, string>) => {
    form.setFields(Object.entries(errors).map(([name, key]) => ({ name: name.split('.')[0]!, errors: [translated(key)] })));
  };

  const send = async (values: Values, withVersion: number | null) => {
    setSaving(true);
    try {
      await onSubmit(withVersion === null ? values : { ...values, version: withVersion });
      setDirty(false);
    } catch (error) {
      if (error instanceof FetchError && error.details.httpStatus === 409 && error.key === 'resource.conflict') {
        const current = (error.details.body as { data?: { current?: ResourceRow } } | undefined)?.data?.current;
        if (current) setConflict({ current, mine: values });
      } else if (error instanceof FetchError && error.details.errors) {
        showErrors(error.details.errors);
      } else {
        Modal.error({ title: errorText(error) });
      }
    } finally {
      setSaving(false);
    }
  };

  const submit = async () => {
    const values = cleaned(def, form.getFieldsValue(true));
    // The same schema as the API: the same message keys, before a round trip.
    const check = (def.input ?? def.schema).safeParse(values, { reportInput: true });
    if (!check.success) {
      showErrors(issuesToErrors(check.error.issues));
      return;
    }
    await send(values, version);
  };

  const differing = conflict
    ? writableFields(def).filter((f) => JSON.stringify(conflict.current[f] ?? null) !== JSON.stringify(conflict.mine[f] ?? null))
    : [];
  const by = (conflict?.current.updated_by ?? null) as ChangedBy | null;

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        disabled={disabled || saving}
        onValuesChange={() => setDirty(true)}
        onFinish={() => void submit()}
        className="bo-res-form"
        data-testid={`resource-form-${def.name}`}
      >
        <div className="bo-res-form__grid">
          {writableFields(def).map((field) => {
            const meta = def.fields[field]!;
            return (
              <Form.Item
                key={field}
                name={field}
                label={t(meta.label)}
                valuePropName={meta.type === 'boolean' ? 'checked' : undefined}
                className={(meta.type === 'text' && field.includes('address')) || meta.type === 'url' || (meta.type === 'json' && !meta.options) ? 'bo-res-form__wide' : undefined}
              >
                {inputs?.[field] ?? <FieldInput meta={meta} locale={locale} />}
              </Form.Item>
            );
          })}
        </div>
        <Space wrap className="bo-res-form__actions">
          <Button type="primary" htmlType="submit" loading={saving} disabled={disabled} data-testid="resource-save">
            {t('resource.save')}
          </Button>
          {extra}
        </Space>
      </Form>
      <Modal
        open={conflict !== null}
        title={t('resource.conflict_title')}
        onCancel={() => setConflict(null)}
        width={720}
        footer={[
          <Button
            key="reload"
            onClick={() => {
              form.setFieldsValue(initialValues(def, conflict!.current));
              setVersion(conflict!.current.version);
              setDirty(false);
              setConflict(null);
            }}
            data-testid="resource-conflict-reload"
          >
            {t('resource.conflict_reload')}
          </Button>,
          <Button
            key="overwrite"
            type="primary"
            danger
            onClick={() => {
              const { current, mine } = conflict!;
              setConflict(null);
              setVersion(current.version);
              void send(mine, current.version);
            }}
            data-testid="resource-conflict-overwrite"
          >
            {t('resource.conflict_overwrite')}
          </Button>,
        ]}
      >
        <div data-testid="resource-conflict">
          <p>{t('resource.conflict_body', { name: by?.name ?? t('resource.nobody'), at: formatDateTime(conflict?.current.updated_at, locale) })}</p>
          <Table
            size="small"
            pagination={false}
            rowKey="field"
            dataSource={differing.map((f) => ({
              field: t(def.fields[f]!.label),
              theirs: valueText(def.fields[f], conflict?.current[f], locale),
              mine: valueText(def.fields[f], conflict?.mine[f], locale),
            }))}
            columns={[
              { key: 'field', dataIndex: 'field', title: t('resource.conflict_field') },
              { key: 'theirs', dataIndex: 'theirs', title: t('resource.conflict_theirs') },
              { key: 'mine', dataIndex: 'mine', title: t('resource.conflict_mine') },
            ]}
          />
        </div>
      </Modal>
    </>
  );
}
