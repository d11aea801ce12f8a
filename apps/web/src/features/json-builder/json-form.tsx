/**
 * The JSON builder's form (decision 039): the schema picker, and an editor for the document's
 * top-level fields generated from the chosen schema — a select for enumerations and booleans, a
 * number input for numbers, a text input for texts, a small JSON editor for objects and lists
 * (and for a value whose type differs from the schema's, so nothing typed is lost). The fields
 * shown are the required ones and the ones the document has; "Add a field" offers the others.
 * Each field shows the first schema issue at its JSON pointer or below (the API's Ajv check).
 */
import { DeleteOutlined } from '@ant-design/icons';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import {
  JSON_SCHEMA_NAMES,
  jsonSchemaDescriptionKey,
  jsonSchemaTitleKey,
  segmentsPointer,
  type JsonBuilderConfig,
  type JsonSchemaName,
  type JsonValue,
} from '@backoffice/core/builders/json';
import { Alert, Button, Form, Input, InputNumber, Select, Tag, Typography } from 'antd';
import { useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { JsonTextArea } from '../../components/json-text-area.tsx';
import { fieldDomId, issueText } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';
import { JsonSchemasContext } from './json-schemas-context.ts';

type PropertySchema = {
  type?: string | string[];
  enum?: unknown[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
};
type FieldKind = 'enum' | 'string' | 'integer' | 'number' | 'boolean' | 'json';
type JsonObject = { [key: string]: JsonValue };

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The input a property gets, from its schema and (when set) its current value. */
export function fieldKind(schema: PropertySchema, value: JsonValue | undefined): FieldKind {
  let kind: FieldKind = 'json';
  if (schema.$ref) kind = 'json';
  else if (
    Array.isArray(schema.enum) &&
    schema.enum.every((v) => typeof v === 'string' || typeof v === 'number')
  )
    kind = 'enum';
  else if (schema.type === 'string') kind = 'string';
  else if (schema.type === 'integer') kind = 'integer';
  else if (schema.type === 'number') kind = 'number';
  else if (schema.type === 'boolean') kind = 'boolean';
  if (value === undefined) return kind;
  const fits =
    kind === 'json' ||
    // An enumeration keeps its select for any text or number (one outside the list shows as it is, with the schema's error).
    (kind === 'enum' && (typeof value === 'string' || typeof value === 'number')) ||
    (kind === 'string' && typeof value === 'string') ||
    ((kind === 'integer' || kind === 'number') && typeof value === 'number') ||
    (kind === 'boolean' && typeof value === 'boolean');
  return fits ? kind : 'json';
}

/** The first issue at a JSON pointer or below, errors first. */
function issueAt(issues: readonly BuilderIssue[], pointer: string): BuilderIssue | undefined {
  const here = issues.filter((i) => i.path === pointer || i.path.startsWith(`${pointer}/`));
  return here.find((i) => i.severity === 'error') ?? here.find((i) => i.severity === 'warning');
}

interface FieldEditorProps {
  name: string;
  schema: PropertySchema;
  value: JsonValue | undefined;
  required: boolean;
  issue: BuilderIssue | undefined;
  onChange: (v: JsonValue | undefined) => void;
}

function FieldEditor({ name, schema, value, required, issue, onChange }: FieldEditorProps) {
  const { t } = useTranslation();
  const pointer = segmentsPointer([name]);
  const id = fieldDomId(`json${pointer}`);
  const kind = fieldKind(schema, value);
  let input;
  if (kind === 'enum')
    input = (
      <Select
        id={id}
        aria-label={name}
        allowClear
        placeholder={t('json_builder.field_unset')}
        value={value as string | number | undefined}
        onChange={(v: string | number | undefined) => onChange(v)}
        options={(schema.enum as (string | number)[]).map((v) => ({ value: v, label: String(v) }))}
        style={{ width: '100%' }}
      />
    );
  else if (kind === 'boolean')
    input = (
      <Select
        id={id}
        aria-label={name}
        allowClear
        placeholder={t('json_builder.field_unset')}
        value={value === undefined ? undefined : String(value)}
        onChange={(v: string | undefined) => onChange(v === undefined ? undefined : v === 'true')}
        options={[
          { value: 'true', label: t('json_builder.field_true') },
          { value: 'false', label: t('json_builder.field_false') },
        ]}
        style={{ width: '100%' }}
      />
    );
  else if (kind === 'integer' || kind === 'number')
    input = (
      <InputNumber
        id={id}
        aria-label={name}
        value={value as number | undefined}
        precision={kind === 'integer' ? 0 : undefined}
        placeholder={t('json_builder.field_unset')}
        onChange={(n) => onChange(typeof n === 'number' && Number.isFinite(n) ? n : undefined)}
        style={{ width: '100%' }}
      />
    );
  else if (kind === 'string')
    input = (
      <Input
        id={id}
        aria-label={name}
        value={(value as string | undefined) ?? ''}
        placeholder={t('json_builder.field_unset')}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    );
  else
    input = (
      <JsonTextArea<JsonValue>
        id={id}
        className="bo-json-value"
        value={value ?? null}
        onChange={onChange}
        label={t('json_builder.field_json_label', { field: name })}
        invalidText={t('json_builder.field_json_invalid')}
        maxRows={10}
      />
    );

  return (
    <div data-testid={`jsonbuilder-field-${name}`}>
      <Form.Item
        htmlFor={id}
        label={
          <span>
            <span className="bo-json-field__label">{name}</span>
            {required ? (
              <Tag className="bo-json-field__required">{t('json_builder.field_required')}</Tag>
            ) : null}
          </span>
        }
        validateStatus={issue?.severity}
        help={issue ? issueText(issue) : undefined}
      >
        <div className="bo-json-field__row">
          <div className="bo-json-field__input">{input}</div>
          {value !== undefined ? (
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('json_builder.field_remove', { field: name })}
              title={t('json_builder.field_remove', { field: name })}
              onClick={() => onChange(undefined)}
            />
          ) : null}
        </div>
      </Form.Item>
    </div>
  );
}

export function JsonForm({ value, onChange, issues }: BuilderFormProps<JsonBuilderConfig>) {
  const { t } = useTranslation();
  const { schemas, failed, schemaRef } = useContext(JsonSchemasContext);
  useEffect(() => {
    schemaRef.current = value.schema;
  }, [value.schema, schemaRef]);
  const entry = schemas?.find((s) => s.name === value.schema);
  const root = (entry?.schema ?? {}) as { properties?: Record<string, PropertySchema>; required?: string[] };
  const properties = root.properties ?? {};
  const required = root.required ?? [];
  const doc = value.document;
  const names = Object.keys(properties);
  const shown = names.filter((n) => required.includes(n) || (isObject(doc) && n in doc));
  const addable = names.filter((n) => !shown.includes(n));
  const extra = isObject(doc) ? Object.keys(doc).filter((k) => !(k in properties)) : [];

  const setField = (name: string, v: JsonValue | undefined) => {
    const next: JsonObject = isObject(doc) ? { ...doc } : {};
    if (v === undefined) delete next[name];
    else next[name] = v;
    onChange({ ...value, document: next });
  };

  return (
    <Form layout="vertical" component="div" className="bo-json-form" data-testid="jsonbuilder-form-fields">
      <Form.Item
        label={t('json_builder.schema_label')}
        htmlFor={fieldDomId('schema')}
        extra={t(jsonSchemaDescriptionKey(value.schema))}
      >
        <Select<JsonSchemaName>
          id={fieldDomId('schema')}
          value={value.schema}
          onChange={(schema) => onChange({ ...value, schema })}
          options={JSON_SCHEMA_NAMES.map((name) => ({ value: name, label: t(jsonSchemaTitleKey(name)) }))}
          data-testid="jsonbuilder-schema"
          aria-describedby={`${fieldDomId('schema')}-help`}
        />
      </Form.Item>
      <Typography.Paragraph type="secondary" id={`${fieldDomId('schema')}-help`}>
        {t('json_builder.schema_help')}
      </Typography.Paragraph>
      <section className="bo-json-fields" aria-labelledby="bo-json-fields-title">
        <h3 className="bo-json-fields__title" id="bo-json-fields-title">
          {t('json_builder.fields_title')}
        </h3>
        <Typography.Paragraph type="secondary">{t('json_builder.fields_help')}</Typography.Paragraph>
        {failed ? <Alert type="warning" showIcon title={t('json_builder.schemas_error')} /> : null}
        {!isObject(doc) ? (
          <Alert type="info" showIcon title={t('json_builder.not_object')} />
        ) : (
          <>
            {shown.map((name) => (
              <FieldEditor
                key={`${value.schema}:${name}`}
                name={name}
                schema={properties[name]!}
                value={doc[name]}
                required={required.includes(name)}
                issue={issueAt(issues, segmentsPointer([name]))}
                onChange={(v) => setField(name, v)}
              />
            ))}
            {addable.length > 0 ? (
              <Select<string>
                className="bo-json-add"
                value={null as unknown as string}
                placeholder={t('json_builder.add_field')}
                aria-label={t('json_builder.add_field')}
                showSearch
                options={addable.map((n) => ({ value: n, label: n }))}
                onChange={(name) => {
                  const kind = fieldKind(properties[name]!, undefined);
                  const initial: JsonValue =
                    kind === 'json'
                      ? properties[name]!.type === 'array'
                        ? []
                        : {}
                      : kind === 'string'
                        ? ''
                        : kind === 'boolean'
                          ? false
                          : kind === 'enum'
                            ? (properties[name]!.enum![0] as JsonValue)
                            : 0;
                  setField(name, initial);
                }}
                data-testid="jsonbuilder-add-field"
              />
            ) : null}
            {extra.length > 0 ? (
              <Alert
                className="bo-json-extra"
                type="info"
                showIcon
                title={t('json_builder.extra_fields')}
                description={t('json_builder.extra_fields_help', { fields: extra.join(', ') })}
              />
            ) : null}
          </>
        )}
      </section>
    </Form>
  );
}
