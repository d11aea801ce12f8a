/**
 * The resource layer's declaration (docs/decisions/012-resource-layer.md): a configuration entity is
 * declared once, here in core, as a zod schema (what a create or an update may send; the form and
 * the API validate with it and its message keys) plus small field metadata (what lists, sorts and
 * filters, how a cell shows). The API's route factory and the web's list, detail and form are
 * driven by it.
 */
import type { z } from 'zod';

/** How a field filters a list: equals, one of, text contains, a number or date range. */
export type FilterKind = 'eq' | 'in' | 'contains' | 'range';

/** `message`: the value is an i18n key (an error the server recorded), shown translated. */
export type FieldType = 'id' | 'text' | 'email' | 'url' | 'number' | 'percent' | 'money' | 'enum' | 'boolean' | 'date' | 'datetime' | 'ref' | 'json' | 'message';

export interface FieldMeta {
  /** i18n key of the label (column title, form label, filter). */
  label: string;
  type: FieldType;
  /** Shown as a column by default. */
  list?: boolean;
  /** The list can be sorted by it. */
  sort?: boolean;
  filter?: FilterKind;
  /** The values of an enum (their labels are `${label}.${value}`). */
  options?: readonly string[];
  /** The resource a `ref` field points to (by name). */
  ref?: string;
  /**
   * Where the form and the list's filter pick a `ref` field's rows (an endpoint with the
   * autocomplete's contract: `<titleField>=text&limit=` or `ids=`), when not the referenced
   * resource's own autocomplete: an entity whose users may not read that resource (a deal's
   * partner for the SSP supply lead) offers a picker under its own permission.
   */
  refPath?: string;
  /** Not sent by forms: set by the server (id, version, created_at…). */
  readOnly?: boolean;
  /**
   * The section it belongs to (`identity`, `pricing`…): an entity with many fields declares them
   * in groups, and the form shows one tab per group (label `${entity}.group.${group}`).
   */
  group?: string;
}

export interface ResourceDef<S extends z.ZodObject = z.ZodObject> {
  /** Plural, URL-safe: `companies`. Audit actions are `<entity>.<verb>`. */
  name: string;
  /** Singular, for audit entries and messages: `company`. */
  entity: string;
  /** The API path: `/v1/companies`. */
  path: string;
  /** The ACL resource; list, show, history and export need 'read', changes 'write'. */
  acl: string;
  /** The fields a create sends (an update sends them too, with `version`). */
  schema: S;
  /** The full check of those fields (cross-field rules, normalisation); `schema` when absent. */
  input?: z.ZodType;
  /** Every field a row has, in display order, with its metadata. */
  fields: Record<string, FieldMeta>;
  /** The field that names a row (titles, autocomplete, "used by"). */
  titleField: string;
  /** `name` or `-updated_at`. */
  defaultSort: string;
  /** Export file name prefix (`companies_YYYY-MM-DD_HHmmss.csv`). */
  exportName: string;
  /**
   * The generic changes it offers (all three when absent). An entity whose rows change through
   * command routes of its own (the firewall's allow, disable, enable) lists none: the factory
   * gives it the reads, and the web shows its rows read-only with the entity's own actions.
   */
  writes?: readonly ResourceWrite[];
}

export type ResourceWrite = 'create' | 'update' | 'delete';
export const ALL_WRITES: readonly ResourceWrite[] = ['create', 'update', 'delete'];

/** Whether a resource offers a generic change. */
export function offers(def: Pick<ResourceDef, 'writes'>, write: ResourceWrite): boolean {
  return (def.writes ?? ALL_WRITES).includes(write);
}

/** The fields every resource row carries, set by the server. */
export const COMMON_FIELDS = {
  id: { label: 'resource.field.id', type: 'id', list: false, sort: true, readOnly: true },
  version: { label: 'resource.field.version', type: 'number', readOnly: true },
  created_at: { label: 'resource.field.created_at', type: 'datetime', sort: true, filter: 'range', readOnly: true },
  updated_at: { label: 'resource.field.updated_at', type: 'datetime', list: true, sort: true, filter: 'range', readOnly: true },
} as const satisfies Record<string, FieldMeta>;

export function defineResource<S extends z.ZodObject>(def: ResourceDef<S>): ResourceDef<S> {
  for (const key of Object.keys(def.schema.shape)) {
    if (!def.fields[key]) throw new Error(`${def.name}: schema field ${key} has no field metadata`);
  }
  if (!def.fields[def.titleField]) throw new Error(`${def.name}: titleField ${def.titleField} is not a field`);
  return def;
}

/** A page of a list. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** Who changed a row and when (rows carry it; the 409 answer too). */
export interface ChangedBy {
  id: number | null;
  name: string | null;
}

/** The row answer's server-side fields. */
export interface RowMeta {
  id: number;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: ChangedBy;
  updated_by: ChangedBy;
}

/** One entry of a row's history (from the audit log). */
export interface HistoryEntry {
  id: number;
  at: string;
  action: string;
  actor: ChangedBy;
  simulated_by: ChangedBy | null;
  simulated_role: string | null;
  ip: string | null;
  /** field -> [before, after] */
  changes: Record<string, [unknown, unknown]>;
}

/** Where a row is used ("used by" tab; the 409 of a refused delete). */
export interface UsedBy {
  resource: string;
  label: string;
  count: number;
}
