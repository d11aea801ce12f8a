/**
 * The generic form of a resource: antd Form driven by the core schema and field metadata. The
 * same schema checks the values before sending (same message keys as the API); the server's field
 * errors land next to their fields; nothing typed is lost. A 409 (someone saved meanwhile) opens a
 * dialog with the fields that differ, to load theirs or to save mine over theirs. Leaving with
 * unsaved changes asks first.
 */
import type { ChangedBy, FieldMeta, ResourceDef } from '@backoffice/core/resources/define';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { Badge, Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tabs } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { useLocale } from '../components/use-locale.ts';
import { errorText } from '../lib/api.ts';
import { FetchError } from '../lib/fetch-client.ts';
import { i18n } from '../lib/i18n.ts';
import { ConflictModal } from './conflict-modal.tsx';
import type { ResourceRow } from './resource-api.ts';
import { optionLabel, valueText } from './resource-cells.tsx';
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
  /**
   * Values this screen fixes (the side of a partner list): a new row takes them, and their inputs
   * are not shown.
   */
  fixed?: Values;
  /** Values a new row starts with (a clone of another row). */
  initial?: Values;
  /** Told whether the form has unsaved changes (a form in a drawer asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
}

const writableFields = (def: ResourceDef) => Object.keys(def.schema.shape);

/** A field's default in the schema (`.default(true)`), for a new row's form. */
function schemaDefault(def: ResourceDef, field: string): unknown {
  const zdef = (def.schema.shape[field] as { def?: { type?: string; defaultValue?: unknown } } | undefined)?.def;
  return zdef?.type === 'default' ? zdef.defaultValue : undefined;
}

export function initialValues(def: ResourceDef, row: ResourceRow | null, fixed: Values = {}, initial: Values = {}): Values {
  const out: Values = {};
  for (const f of writableFields(def)) {
    const type = def.fields[f]!.type;
    const empty =
      type === 'json' ? [] : type === 'boolean' ? false : type === 'enum' || type === 'ref' || type === 'percent' || type === 'number' || type === 'money' ? undefined : '';
    // A fixed value is the list filter's text: a reference or a number takes it as a number (a
    // campaign's id on its events' form).
    const fixedValue = fixed[f] !== undefined && (type === 'ref' || type === 'number') && typeof fixed[f] === 'string' ? Number(fixed[f]) : fixed[f];
    out[f] = row?.[f] ?? fixedValue ?? initial[f] ?? schemaDefault(def, f) ?? empty;
  }
  return out;
}

/** The groups of a resource's form fields, in declaration order (none: one plain form). */
export function fieldGroups(def: ResourceDef, fields: readonly string[]): { group: string; fields: string[] }[] {
  const groups: { group: string; fields: string[] }[] = [];
  for (const f of fields) {
    const group = def.fields[f]?.group;
    if (!group) continue;
    const found = groups.find((g) => g.group === group);
    if (found) found.fields.push(f);
    else groups.push({ group, fields: [f] });
  }
  return groups;
}

/** Form values as the API takes them: empty optional texts as null. */
export function cleaned(def: ResourceDef, values: Values): Values {
  const out: Values = {};
  for (const f of writableFields(def)) out[f] = values[f] === undefined ? null : values[f];
  return out;
}

/** A message key translated (with the answer's `params`, for a field error that names values); unknown keys as they are. */
export const translated = (key: string, params?: Record<string, string | number> | null) => (i18n.exists(key) ? i18n.t(key, params ?? undefined) : key);

/** The input of a field; Form.Item's id, value and onChange are passed on to it. */
function FieldInput({ meta, locale, ...control }: { meta: FieldMeta; locale: string; id?: string; value?: never; onChange?: never }) {
  if (meta.type === 'ref' && meta.ref) return <ReferenceSelect {...control} resource={meta.ref} path={meta.refPath} />;
  if (meta.type === 'enum' && meta.options) {
    return (
      <Select {...control} showSearch={{ optionFilterProp: 'label' }} allowClear options={meta.options.map((o) => ({ value: o, label: optionLabel(meta, o, locale) }))} />
    );
  }
  if (meta.type === 'boolean') return <Switch {...control} />;
  if (meta.type === 'json' && meta.options) {
    // Typing finds options by what they read (a translated label), not by their stored value.
    return (
      <Select
        {...control}
        mode="multiple"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        options={meta.options.map((o) => ({ value: o, label: optionLabel(meta, o, locale) }))}
      />
    );
  }
  if (meta.type === 'percent') return <InputNumber {...control} min={0} max={100} step={0.01} precision={2} stringMode style={{ width: '100%' }} />;
  if (meta.type === 'money') return <InputNumber {...control} min={0} stringMode style={{ width: '100%' }} />;
  if (meta.type === 'number') return <InputNumber {...control} style={{ width: '100%' }} />;
  return <Input {...control} type={meta.type === 'email' ? 'email' : meta.type === 'url' ? 'url' : 'text'} autoComplete="off" />;
}

/** Form items for some fields of a resource, in the form's grid. */
export function FieldGrid({ def, fields, inputs, locale }: { def: ResourceDef; fields: readonly string[]; inputs?: Record<string, ReactNode>; locale: string }) {
  const { t } = useTranslation();
  return (
    <div className="bo-res-form__grid">
      {fields.map((field) => {
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
  );
}

/** Asks before leaving (another route, a reload, closing the tab) while `active`. */
export function useUnsavedGuard(active: boolean): void {
  const { t } = useTranslation();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname);
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
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

export function ResourceForm({ def, row, onSubmit, disabled, extra, inputs, fixed, initial, onDirtyChange }: ResourceFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState<number | null>(row?.version ?? null);
  const [conflict, setConflict] = useState<{ current: ResourceRow; mine: Values } | null>(null);
  const shown = writableFields(def).filter((f) => !fixed || !(f in fixed));
  const groups = fieldGroups(def, shown);
  const [group, setGroup] = useState<string | undefined>(groups[0]?.group);
  const [errored, setErrored] = useState<string[]>([]);

  // A fresh row from the server (after a save, or loaded in another way) resets the form.
  useEffect(() => {
    form.setFieldsValue(initialValues(def, row, fixed, initial));
    setVersion(row?.version ?? null);
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `fixed` is a screen constant
  }, [row, def, form]);

  useUnsavedGuard(dirty && !saving);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const showErrors = (errors: Record<string, string>, params?: Record<string, string | number> | null) => {
    const names = Object.keys(errors).map((name) => name.split('.')[0]!);
    form.setFields(Object.entries(errors).map(([name, key]) => ({ name: name.split('.')[0]!, errors: [translated(key, params)] })));
    setErrored(names);
    // On a form in tabs, the first tab with an error comes to the front.
    const first = groups.find((g) => g.fields.some((f) => names.includes(f)));
    if (first) setGroup(first.group);
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
        showErrors(error.details.errors, error.details.params);
      } else {
        Modal.error({ title: errorText(error) });
      }
    } finally {
      setSaving(false);
    }
  };

  const submit = async () => {
    setErrored([]);
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
        {groups.length > 1 ? (
          <Tabs
            className="bo-res-form__groups"
            activeKey={group}
            onChange={setGroup}
            items={groups.map((g) => {
              const errors = g.fields.filter((f) => errored.includes(f)).length;
              return {
                key: g.group,
                forceRender: true,
                label: (
                  <span data-testid={`resource-group-${g.group}`}>
                    {t(`${def.entity}.group.${g.group}`)}
                    {errors > 0 ? <Badge count={errors} size="small" className="bo-res-form__group-errors" /> : null}
                  </span>
                ),
                children: <FieldGrid def={def} fields={g.fields} inputs={inputs} locale={locale} />,
              };
            })}
          />
        ) : (
          <FieldGrid def={def} fields={shown} inputs={inputs} locale={locale} />
        )}
        <Space wrap className="bo-res-form__actions">
          <Button type="primary" htmlType="submit" loading={saving} disabled={disabled} data-testid="resource-save">
            {t('resource.save')}
          </Button>
          {extra}
        </Space>
      </Form>
      <ConflictModal
        open={conflict !== null}
        by={by}
        at={conflict?.current.updated_at as string | undefined}
        onCancel={() => setConflict(null)}
        onReload={() => {
          form.setFieldsValue(initialValues(def, conflict!.current, fixed));
          setVersion(conflict!.current.version);
          setDirty(false);
          setConflict(null);
        }}
        onOverwrite={() => {
          const { current, mine } = conflict!;
          setConflict(null);
          setVersion(current.version);
          void send(mine, current.version);
        }}
        testId="resource"
        width={720}
      >
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
      </ConflictModal>
    </>
  );
}
