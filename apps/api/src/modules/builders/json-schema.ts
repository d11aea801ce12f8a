/**
 * The JSON builder's standard check (decision 039): the document against the chosen JSON Schema
 * with Ajv (v6, draft-07; the OpenRTB 2.6 files are read as draft-07, see
 * packages/core/src/builders/json-schemas.ts), every error (`allErrors`) as an issue at its JSON
 * pointer and at that pointer's line and column in the code, so the code view marks the right
 * line. Server-side only: the web app's CSP forbids the code generation Ajv compiles schemas into.
 *
 * OpenRTB's schemas are open, so a field they do not define (outside `ext`) is a warning here,
 * not an error: OpenRTB 2.6 section 2.6 asks receivers to tolerate it, but it is usually a typo.
 */
import type { BuilderIssue, BuilderOutput } from '@backoffice/core/builders/common';
import { JSON_SCHEMA_NAMES, locatePointer, pointerSegments, readJson, segmentsPointer, type JsonBuilderConfig, type JsonSchemaName } from '@backoffice/core/builders/json';
import {
  AD_UNIT_CONFIG_SCHEMA,
  JSON_SCHEMA_ROOTS,
  OPEN_SCHEMAS,
  OPENRTB_REQUEST_SCHEMAS,
  PARTNER_CONFIG_SCHEMA,
  type JsonSchemaObject,
} from '@backoffice/core/builders/json-schemas';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/** Ajv's error keywords we translate (json_builder.error.*); others keep Ajv's English text only. */
const KEYED = new Set([
  'required',
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'uniqueItems',
  'additionalProperties',
  'minProperties',
]);

/**
 * Ajv errors as issues: the path is the JSON pointer of the value (for a missing or unexpected
 * property, the property's own pointer), the line and column where that path is in `code` (a
 * missing property: its parent object) as `locate` finds it.
 */
export function ajvIssues(errors: readonly ErrorObject[], locate: (pointer: string) => { line: number; column: number } | undefined): BuilderIssue[] {
  const seen = new Set<string>();
  const out: BuilderIssue[] = [];
  // A combinator's own error ("should match exactly one schema in oneOf") says less than the
  // errors found inside it at the same place or below: keep it only when it is alone.
  const combinators = new Set(['oneOf', 'anyOf', 'if']);
  const inner = errors.filter((e) => !combinators.has(e.keyword));
  for (const e of errors) {
    if (combinators.has(e.keyword) && inner.some((o) => o.dataPath === e.dataPath || o.dataPath.startsWith(`${e.dataPath}/`))) continue;
    const p = e.params as Record<string, unknown>;
    let path = e.dataPath;
    const params: Record<string, string | number> = {};
    if (e.keyword === 'required') {
      path = `${path}${segmentsPointer([String(p.missingProperty)])}`;
      params.field = String(p.missingProperty);
    } else if (e.keyword === 'additionalProperties') {
      path = `${path}${segmentsPointer([String(p.additionalProperty)])}`;
      params.field = String(p.additionalProperty);
    } else if (e.keyword === 'type') params.type = String(p.type);
    else if (e.keyword === 'enum') params.values = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    else if (e.keyword === 'const') params.values = JSON.stringify(p.allowedValue);
    else if ('limit' in p) params.limit = Number(p.limit);
    else if (e.keyword === 'format') params.format = String(p.format);
    const segments = pointerSegments(path);
    params.path = path || '/';
    params.field ??= segments.length > 0 ? String(segments[segments.length - 1]) : '/';
    const id = `${e.keyword}|${path}|${e.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const at = locate(path);
    out.push({
      severity: 'error',
      path,
      ...(KEYED.has(e.keyword) ? { key: `json_builder.error.${e.keyword}`, params } : { params }),
      text: `${path || '/'} ${e.message ?? e.keyword}`,
      ...(at ? { line: at.line, column: at.column } : {}),
      source: 'schema',
    });
  }
  return out;
}

const ajv = new Ajv({ allErrors: true, jsonPointers: true });
for (const s of OPENRTB_REQUEST_SCHEMAS) ajv.addSchema(s);
ajv.addSchema(PARTNER_CONFIG_SCHEMA);
ajv.addSchema(AD_UNIT_CONFIG_SCHEMA);
const byId = new Map<string, JsonSchemaObject>(
  [...OPENRTB_REQUEST_SCHEMAS, PARTNER_CONFIG_SCHEMA, AD_UNIT_CONFIG_SCHEMA].map((s) => [String(s.$id), s]),
);

const compiled = new Map<JsonSchemaName, ValidateFunction>();
function validatorOf(name: JsonSchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = ajv.getSchema(String(JSON_SCHEMA_ROOTS[name].$id));
    if (!v) throw new Error(`JSON Schema ${name} is not registered`);
    compiled.set(name, v);
  }
  return v;
}

type Walkable = { $ref?: string; type?: string; properties?: Record<string, Walkable>; items?: Walkable; additionalProperties?: unknown };

/** Fields an open schema does not define (outside `ext`), as JSON pointers. */
function undefinedFields(value: unknown, schema: Walkable | undefined, at: (string | number)[], out: (string | number)[][]): void {
  const s = schema?.$ref ? byId.get(`https://iabtechlab.com/openrtb/2.6/${schema.$ref}`) as Walkable | undefined : schema;
  if (!s || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (s.items) value.forEach((v, i) => undefinedFields(v, s.items, [...at, i], out));
    return;
  }
  if (s.additionalProperties === true || !s.properties) return;
  for (const [k, v] of Object.entries(value)) {
    const field = s.properties[k];
    if (!field) out.push([...at, k]);
    else if (k !== 'ext') undefinedFields(v, field, [...at, k], out);
  }
}

/** Every problem the chosen schema finds in a document; positions are in `code` (the document's text). */
export function jsonSchemaIssues(schema: JsonSchemaName, document: unknown, code: string): BuilderIssue[] {
  const validate = validatorOf(schema);
  const read = readJson(code);
  const tree = read.tree;
  const locate = (pointer: string) => (tree ? locatePointer(code, pointer, tree) : undefined);
  const issues = validate(document) ? [] : ajvIssues(validate.errors ?? [], locate);
  if (OPEN_SCHEMAS.has(schema)) {
    const unknown: (string | number)[][] = [];
    undefinedFields(document, JSON_SCHEMA_ROOTS[schema] as Walkable, [], unknown);
    for (const segments of unknown) {
      const path = segmentsPointer(segments);
      const at = locate(path);
      issues.push({
        severity: 'warning',
        path,
        key: 'json_builder.error.undefined_field',
        params: { field: String(segments[segments.length - 1]), path },
        text: `${path} is not an OpenRTB 2.6 field (use ext for extensions)`,
        ...(at ? { line: at.line, column: at.column } : {}),
        source: 'schema',
      });
    }
  }
  return issues;
}

/**
 * The registry's `validate` for the JSON builder: the configuration's document against its
 * schema, placed in the output's code (the code the request sent, when it sent code).
 */
export async function validateJsonOutput(output: BuilderOutput, config: unknown): Promise<BuilderIssue[]> {
  const c = config as JsonBuilderConfig | undefined;
  if (!c || !(JSON_SCHEMA_NAMES as readonly string[]).includes(c.schema)) return [];
  return jsonSchemaIssues(c.schema, c.document, output.code);
}
