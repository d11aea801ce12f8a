/**
 * The resource layer's route factory (docs/decisions/012-resource-layer.md). One declaration in core
 * (`ResourceDef`) and its table give an entity:
 *   GET    {path}                 list: page, page_size (capped), sort, typed filters (list-query.ts)
 *   GET    {path}/autocomplete    {titleField}=text&limit=10 (spec section 7), or ids=1,2 -> [{id, value}]
 *   GET    {path}/export          format=csv|xlsx and the list's filters: the whole filtered list, streamed
 *   GET    {path}/:id             one row, with who created and last changed it
 *   GET    {path}/:id/history     its audit entries: who, when, IP, simulating whom, a field diff
 *   GET    {path}/:id/used-by     the places that use it
 *   POST   {path}                 create (201)
 *   PUT    {path}/:id             update with `version`: a stale version answers 409 with the current row
 *   DELETE {path}/:id             delete, refused with 409 and the places that use it
 * Reads need 'read' on the ACL resource, changes 'write' (by method). Every change is audited as
 * `<entity>.create|update|delete` with before and after, in the same transaction.
 */
import { offers, type ChangedBy, type HistoryEntry, type Page, type ResourceDef, type UsedBy } from '@backoffice/core/resources/define';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema, isIdText } from '@backoffice/core/ids';
import { ok } from '@backoffice/core/envelope';
import { parseListQuery, type Filter, type ListQuery } from '@backoffice/core/resources/list-query';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { auditLog, roles, users } from '../db/schema.ts';
import { AppError, badRequest, notFound } from '../lib/errors.ts';
import { sendTableFile, type TableCell } from '../lib/table-file.ts';
import { audit } from '../plugins/audit.ts';
import { callerOf, type Caller } from '../plugins/auth.ts';
import { ValidationError, type ZodTypeProvider } from '../plugins/validation.ts';

type Row = Record<string, unknown>;

export interface ResourceOptions {
  table: PgTable;
  /** Unique indexes and the field error their violation gives (a form error, 400). */
  unique?: { constraint: string; field: string; key: string }[];
  /** Extra routes of the entity (actions, queries), registered in the same scope. */
  extraRoutes?: (app: FastifyInstance) => void;
  /**
   * The rows a caller may see (undefined: all). Lists, exports, rows, history, "used by" and the
   * autocomplete apply it; a row outside it answers 404, as if it did not exist.
   */
  scope?: (caller: Caller) => SQL | undefined;
  /**
   * Values a create adds that the form does not send (a token's hash), by column name, and what
   * the 201 answer shows once besides the row (the token itself); never audited.
   */
  beforeCreate?: (data: Row) => { values?: Row; reveal?: Row };
  /**
   * Values computed from what a create or an update sends (by column name), written with them and
   * audited as part of the row: a scheduled job's next run from its cron expression and, on create
   * (`before` null), its owner.
   */
  derived?: (data: Row, caller: Caller, before: Row | null) => Row;
  /** Refuses a generic update of a row in a state that no longer takes one (throw an AppError). */
  beforeUpdate?: (before: Row) => void;
  /**
   * Rules of the entity's own that need the database (a reference that must be of some kind), run
   * in the create's or update's transaction after the references are checked, with the row as it
   * was (null on create): field errors by field (message keys, a 400 like the schema's), or none.
   */
  validate?: (d: Db, data: Row, before: Row | null) => Promise<Record<string, string> | undefined>;
  /**
   * Fields of the entity's own added to the rows that the list and the one-row answer give (names
   * from a many-to-many, what the caller may do with each row): called once per page with all its
   * rows (a query per page, not per row); `one` is true for GET {path}/:id, which may add more (a
   * definition too big for a list). Exports, history and the autocomplete keep the declared fields.
   */
  decorate?: (rows: Row[], request: FastifyRequest, one: boolean) => Promise<Row[]>;
  /**
   * Warnings about a row that do not stop a save (a payout above the revenue), by field (message
   * keys): the list's rows, the one-row answer and the create's and update's answers carry them as
   * `warnings` ({} when none), so a save that went through still says what to look at.
   */
  warnings?: (row: Row) => Record<string, string>;
}

interface Registered {
  def: Pick<ResourceDef, 'name' | 'titleField' | 'fields'>;
  table: PgTable;
  columns: Record<string, PgColumn>;
}

/** Every resource of the app, so "used by" finds the references to a row (fields with `ref`). */
const registry = new Map<string, Registered>();

/**
 * A table that resources refer to without being a resource of the layer (users: the owner of a
 * firewall entry): references to it show its title and are checked to exist.
 */
export function registerLookup(name: string, table: PgTable, titleField: string): void {
  const columns: Record<string, PgColumn> = {};
  for (const column of Object.values(getTableColumns(table)) as PgColumn[]) columns[column.name] = column;
  if (!columns.id || !columns[titleField]) throw new Error(`lookup ${name}: needs id and ${titleField}`);
  registry.set(name, { def: { name, titleField, fields: {} }, table, columns });
}

// The app's people: rows of several resources name one (an owner, who created a row).
registerLookup('users', users, 'name');

const EXPORT_BATCH = 2000;
const EXPORT_MAX_ROWS = 1_000_000;
const HISTORY_MAX = 200;
const AUTOCOMPLETE_MAX = 50;

function columnsOf(def: ResourceDef, table: PgTable): Record<string, PgColumn> {
  const byName: Record<string, PgColumn> = {};
  for (const column of Object.values(getTableColumns(table)) as PgColumn[]) byName[column.name] = column;
  // Who created and last changed a row, and its version, only where the layer changes rows.
  const needed = [...Object.keys(def.fields), ...(offers(def, 'create') || offers(def, 'update') ? ['created_by', 'updated_by'] : [])];
  if (offers(def, 'update')) needed.push('version');
  for (const field of needed) {
    if (!byName[field])
      throw new Error(`${def.name}: field ${field} has no column of that name in its table`);
  }
  return byName;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** A LIKE pattern that matches `text` anywhere, with LIKE's own characters taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** What a filter or a sort reads of a column: an inet address as its text, without a /32. */
function readable(column: PgColumn): PgColumn | SQL {
  return column.columnType === 'PgInet' ? sql`host(${column})` : column;
}

const INTEGER_COLUMNS = new Set(['PgInteger', 'PgSerial', 'PgSmallInt', 'PgSmallSerial', 'PgBigInt53', 'PgBigSerial53']);

/**
 * A number filter on a whole-number column, in whole numbers (PostgreSQL refuses 1.5 for an
 * integer): at least 1.5 is at least 2, at most 1.5 is at most 1; null when nothing can match
 * (equal to 1.5, one of only fractions).
 */
function wholeFilter(column: PgColumn, f: Filter): Filter | null {
  if (!INTEGER_COLUMNS.has(column.columnType)) return f;
  const fraction = (v: unknown) => typeof v === 'number' && !Number.isInteger(v);
  if (f.kind === 'range') {
    return { ...f, min: fraction(f.min) ? Math.ceil(f.min as number) : f.min, max: fraction(f.max) ? Math.floor(f.max as number) : f.max };
  }
  if (f.kind === 'eq') return fraction(f.value) ? null : f;
  if (f.kind === 'in') {
    const values = f.values.filter((v) => !fraction(v));
    return values.length === 0 && f.values.length > 0 ? null : { ...f, values };
  }
  return f;
}

function filterSql(def: ResourceDef, columns: Record<string, PgColumn>, asked: Filter): SQL | undefined {
  const f = wholeFilter(columns[asked.field]!, asked);
  if (f === null) return sql`false`;
  const column = readable(columns[f.field]!) as PgColumn;
  const meta = def.fields[f.field]!;
  const dateOnly = (v: unknown) => meta.type === 'datetime' && typeof v === 'string' && v.length === 10;
  // A timestamp column's values go through drizzle as Date objects (a text, e.g. 2026-01-01T10:00Z,
  // failed in toISOString): PostgreSQL reads the checked text itself.
  const value = <T,>(v: T) => (meta.type === 'datetime' && typeof v === 'string' ? sql`${v}::${sql.raw(dateOnly(v) ? 'date' : 'timestamptz')}` : v);
  switch (f.kind) {
    case 'contains':
      return ilike(column, containsPattern(f.value));
    case 'in':
      return f.values.length > 0 ? inArray(column, f.values.map(value)) : undefined;
    case 'eq':
      return eq(column, value(f.value));
    case 'range': {
      const parts: SQL[] = [];
      if (f.min !== null) parts.push(gte(column, value(f.min)));
      // A date-only upper bound of a timestamp includes that whole day.
      if (f.max !== null) parts.push(dateOnly(f.max) ? lt(column, sql`${f.max}::date + 1`) : lte(column, value(f.max)));
      return parts.length > 0 ? and(...parts) : undefined;
    }
  }
}

/** The list query of a request, or a 400 with its field errors. */
function listQueryOf(def: ResourceDef, raw: unknown, ignore: readonly string[] = []): ListQuery {
  const rest = Object.fromEntries(
    Object.entries((raw ?? {}) as Record<string, unknown>).filter(([k]) => !ignore.includes(k)),
  );
  const parsed = parseListQuery(def, rest);
  if (!parsed.ok) throw badRequest('error.validation', parsed.errors);
  return parsed.value;
}

export function resourceRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  def: ResourceDef,
  opts: ResourceOptions,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { table } = opts;
  const columns = columnsOf(def, table);
  registry.set(def.name, { def, table, columns });
  const createdBy = alias(users, 'created_by_user');
  const updatedBy = alias(users, 'updated_by_user');
  const fieldNames = Object.keys(def.fields);
  const writable = Object.keys(def.schema.shape);
  const input = def.input ?? def.schema;
  const tags = [def.name];
  const READ = { permission: { resource: def.acl, action: 'read' } } as const;
  const WRITE = { permission: { resource: def.acl } } as const;
  const db = () => ctx.database.db;
  const tracked = Boolean(columns.created_by && columns.updated_by);
  /** The caller's rows (opts.scope), or every row. */
  const scopeOf = (request: FastifyRequest): SQL | undefined => opts.scope?.(callerOf(request));
  /** A row with its warnings (opts.warnings), or as it is. */
  const warned = (row: Row): Row => (opts.warnings ? { ...row, warnings: opts.warnings(row) } : row);

  const refFields = fieldNames.filter((f) => def.fields[f]!.type === 'ref' && def.fields[f]!.ref);
  /** The referenced resource of a ref field (registered before this one, or by the time of a request). */
  const target = (field: string) => registry.get(def.fields[field]!.ref!);

  const selection = () => {
    const out: Record<string, PgColumn | SQL> = {};
    for (const f of fieldNames) out[f] = columns[f]!;
    // A reference's title, so lists and rows show names rather than ids.
    for (const f of refFields) {
      const other = target(f);
      if (other)
        out[`${f}_label`] = sql<
          string | null
        >`(select ${other.columns[other.def.titleField]!} from ${other.table} where ${other.columns.id!} = ${columns[f]!})`;
    }
    if (tracked) {
      out.created_by_id = columns.created_by!;
      out.created_by_name = createdBy.name;
      out.updated_by_id = columns.updated_by!;
      out.updated_by_name = updatedBy.name;
    }
    return out;
  };
  /** The selection with who created and changed the rows (where the table keeps it). */
  const selectRows = (d: Db) => {
    const q = d.select(selection()).from(table);
    return tracked
      ? q.leftJoin(createdBy, eq(createdBy.id, columns.created_by!)).leftJoin(updatedBy, eq(updatedBy.id, columns.updated_by!))
      : q;
  };
  function toRow(r: Row): Row {
    const out: Row = {};
    for (const f of fieldNames) out[f] = iso(r[f]);
    for (const f of refFields) out[`${f}_label`] = r[`${f}_label`] ?? null;
    const person = (id: unknown, name: unknown): ChangedBy => ({
      id: typeof id === 'number' ? id : null,
      name: typeof name === 'string' ? name : null,
    });
    if (tracked) {
      out.created_by = person(r.created_by_id, r.created_by_name);
      out.updated_by = person(r.updated_by_id, r.updated_by_name);
    }
    return out;
  }

  async function findRow(d: Db, id: number, scope?: SQL): Promise<Row | null> {
    const [r] = await selectRows(d)
      .where(and(eq(columns.id!, id), scope))
      .limit(1);
    return r ? toRow(r as Row) : null;
  }

  function whereOf(q: ListQuery, scope: SQL | undefined): SQL | undefined {
    const parts = q.filters.map((f) => filterSql(def, columns, f)).filter((p): p is SQL => p !== undefined);
    if (scope) parts.push(scope);
    return parts.length > 0 ? and(...parts) : undefined;
  }

  function orderOf(q: ListQuery) {
    const order = q.sort.map((s) => (s.desc ? desc(columns[s.field]!) : asc(columns[s.field]!)));
    // The tie-breaker follows the first sort's direction, so an index on (field, id) serves the
    // sort both ways (a mixed ORDER BY field DESC, id ASC cannot be read from it).
    if (!q.sort.some((s) => s.field === 'id')) order.push(q.sort[0]?.desc ? desc(columns.id!) : asc(columns.id!));
    return order;
  }

  /**
   * A page: the ids of the page (the filter, sort and offset on the table alone, as a hand-written
   * query would), joined to those rows with the names of who created and changed them and their
   * references' titles. Joining first made a deep page join every skipped row too (bench/README.md,
   * 2026-11-25: page 2,000 took 1.8 times the raw query); two queries cost a round trip more.
   */
  async function pageOf(q: ListQuery, scope: SQL | undefined, offset: number, limit: number): Promise<Row[]> {
    // One round trip: the page's ids as a subquery (filter, sort, offset on the table alone), joined
    // back to its rows with the names; the outer ORDER BY repeats the page's (ties end on id).
    const page = db().select({ pid: columns.id! }).from(table).where(whereOf(q, scope)).orderBy(...orderOf(q)).limit(limit).offset(offset).as('page');
    const rows = await selectRows(db())
      .innerJoin(page, eq(page.pid, columns.id!))
      .orderBy(...orderOf(q));
    return (rows as Row[]).map(toRow);
  }

  /** A field error from a unique index violation, or the error itself. */
  function uniqueError(err: unknown): unknown {
    const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const code = e.code ?? e.cause?.code;
    const constraint = e.constraint ?? e.cause?.constraint;
    // A row referred to meanwhile by another (a race with checkRefs or a delete): in use.
    if (code === '23503') return new AppError(409, 'resource.in_use');
    if (code !== '23505') return err;
    const known = opts.unique?.find((u) => u.constraint === constraint) ?? opts.unique?.[0];
    return known
      ? badRequest('error.validation', { [known.field]: known.key })
      : new AppError(409, 'resource.duplicate');
  }

  /** References must name existing rows: a field error, not a foreign-key failure. */
  async function checkRefs(d: Db, data: Row): Promise<void> {
    const errors: Record<string, string> = {};
    for (const f of refFields) {
      const other = target(f);
      const value = data[f];
      if (!other || value === null || value === undefined) continue;
      const [found] = await d
        .select({ id: other.columns.id! })
        .from(other.table)
        .where(eq(other.columns.id!, value as number))
        .limit(1);
      if (!found) errors[f] = 'resource.ref_unknown';
    }
    if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
  }

  /** The entity's own rules that need the database (opts.validate): a 400 with field errors. */
  async function checkOwn(d: Db, data: Row, before: Row | null): Promise<void> {
    const errors = await opts.validate?.(d, data, before);
    if (errors && Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
  }

  /** The create/update input checked with the resource's full schema (cross-field rules). */
  function checked(body: Row): Row {
    const fields = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'version'));
    const result = input.safeParse(fields, { reportInput: true });
    if (!result.success) throw new ValidationError('body', result.error.issues);
    return result.data as Row;
  }

  function values(data: Row): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [tsKey, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
      if (writable.includes(column.name) && column.name in data) out[tsKey] = data[column.name] ?? null;
    }
    return out;
  }
  const tsKeyOf = (name: string) =>
    (Object.entries(getTableColumns(table)) as [string, PgColumn][]).find(([, c]) => c.name === name)![0];

  /** 404 unless the row exists and the caller may see it. */
  async function assertVisible(request: FastifyRequest, id: number): Promise<void> {
    const [exists] = await db()
      .select({ id: columns.id! })
      .from(table)
      .where(and(eq(columns.id!, id), scopeOf(request)));
    if (!exists) throw notFound('resource.not_found');
  }

  async function usedBy(d: Db, id: number): Promise<UsedBy[]> {
    const out: UsedBy[] = [];
    for (const other of registry.values()) {
      for (const [field, meta] of Object.entries(other.def.fields)) {
        if (meta.type !== 'ref' || meta.ref !== def.name) continue;
        const [r] = await d.select({ n: count() }).from(other.table).where(eq(other.columns[field]!, id));
        const n = Number(r?.n ?? 0);
        if (n > 0) out.push({ resource: other.def.name, label: `menu.${other.def.name}`, count: n });
      }
    }
    return out;
  }

  // The list's parameters are read by parseListQuery (400 with a field error each, unknown ones
  // included), so any value and any other key passes here; they are named for the OpenAPI document
  // (and the tests generated from it): a bare record would be read there as parameters named
  // `type`, `propertyNames`, `additionalProperties`.
  const param = (description: string) => z.unknown().optional().describe(description);
  const filterParams: Record<string, z.ZodType> = {};
  for (const f of fieldNames) {
    const filter = def.fields[f]!.filter;
    if (filter === 'range') {
      filterParams[`f[${f}][min]`] = param(`${f} at least (inclusive)`);
      const wholeDay = def.fields[f]!.type === 'datetime' ? '; a date includes that whole day' : '';
      filterParams[`f[${f}][max]`] = param(`${f} at most (inclusive${wholeDay})`);
    } else if (filter) filterParams[`f[${f}]`] = param(`${f} ${filter === 'in' ? 'is one of (comma-separated)' : filter === 'contains' ? 'contains' : 'equals'}`);
  }
  const sortParam = param('field,-field');
  const listQuerySchema = z.looseObject({
    page: param('1, 2, …'),
    page_size: param('rows per page'),
    sort: sortParam,
    ...filterParams,
  });
  const exportQuerySchema = z.looseObject({ format: param('csv (default) or xlsx'), sort: sortParam, ...filterParams });
  const idParams = idParamsSchema;
  const rowSchema = z.record(z.string(), z.unknown());

  app.get(
    def.path,
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: `List ${def.name}: paginated, sorted, filtered`,
        description:
          `page, page_size (at most 200), sort=field,-field (sortable: ${fieldNames.filter((f) => def.fields[f]!.sort).join(', ')}), ` +
          `f[field]=… (filters: ${fieldNames
            .filter((f) => def.fields[f]!.filter)
            .map((f) => `${f} ${def.fields[f]!.filter}`)
            .join(', ')}). ` +
          'Unknown parameters, filters and sort fields answer 400.',
        querystring: listQuerySchema,
        response: { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const q = listQueryOf(def, request.query);
      const scope = scopeOf(request);
      const [items, [total]] = await Promise.all([
        pageOf(q, scope, (q.page - 1) * q.page_size, q.page_size).then((rows) => rows.map(warned)),
        db().select({ n: count() }).from(table).where(whereOf(q, scope)),
      ]);
      return ok({
        items: opts.decorate && items.length > 0 ? await opts.decorate(items, request, false) : items,
        total: Number(total?.n ?? 0),
        page: q.page,
        page_size: q.page_size,
      } satisfies Page<Row>);
    },
  );

  app.get(
    `${def.path}/autocomplete`,
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: `${def.name} by ${def.titleField} (autocomplete) or by ids`,
        description: `${def.titleField}=text (contains, at least 1 character) or ids=1,2; limit (default 10, at most ${AUTOCOMPLETE_MAX}). Answers [{id, value}].`,
        querystring: z.strictObject({
          [def.titleField]: z.string().max(200).optional(),
          ids: z.string().max(2000).optional(),
          limit: z
            .string()
            .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
            .optional(),
        }),
      },
    },
    async (request) => {
      const query = request.query;
      const limit = Math.min(Number(query.limit ?? 10), AUTOCOMPLETE_MAX);
      const title = columns[def.titleField]!;
      let where: SQL | undefined;
      if (query.ids !== undefined) {
        const ids = query.ids.split(',').filter(Boolean);
        if (!ids.every(isIdText)) throw badRequest('error.validation', { ids: 'error.invalid_id' });
        where = ids.length > 0 ? inArray(columns.id!, ids.map(Number)) : sql`false`;
      } else if (query[def.titleField]) where = ilike(readable(title), containsPattern(query[def.titleField]!));
      const rows = await db()
        .select({ id: columns.id!, value: readable(title) })
        .from(table)
        .where(and(where, scopeOf(request)))
        .orderBy(asc(title), asc(columns.id!))
        .limit(limit);
      return ok(rows);
    },
  );

  app.get(
    `${def.path}/export`,
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: `Export the filtered ${def.name} (CSV or XLSX)`,
        description: `format=csv|xlsx and the list's filters and sort. File name ${def.exportName}_YYYY-MM-DD_HHmmss.<ext>; column titles in the request's language.`,
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const raw = request.query;
      const format = raw.format ?? 'csv';
      if (format !== 'csv' && format !== 'xlsx')
        throw badRequest('error.validation', { format: 'error.invalid_value' });
      const q = listQueryOf(def, raw, ['format', 'page', 'page_size']);
      return sendExport(request, reply, q, format);
    },
  );

  async function sendExport(
    request: FastifyRequest,
    reply: FastifyReply,
    q: ListQuery,
    format: 'csv' | 'xlsx',
  ) {
    const locale = localeFromAcceptLanguage(request.headers['accept-language']);
    const exported = fieldNames.filter((f) => f !== 'version');
    const titles = exported.map((f) => translate(locale, def.fields[f]!.label));
    const cell = (v: unknown): TableCell =>
      v === null || v === undefined ? '' : typeof v === 'number' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const scope = scopeOf(request);
    async function* batches() {
      for (let offset = 0; offset < EXPORT_MAX_ROWS; offset += EXPORT_BATCH) {
        const rows = await pageOf(q, scope, offset, EXPORT_BATCH);
        yield rows.map((r) => exported.map((f) => cell(r[f])));
        if (rows.length < EXPORT_BATCH) break;
      }
    }
    return sendTableFile(request, reply, { name: def.exportName, format, titles, batches: batches() });
  }

  app.get(
    `${def.path}/:id`,
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: `One ${def.entity}`,
        params: idParams,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const found = await findRow(db(), request.params.id, scopeOf(request));
      if (!found) throw notFound('resource.not_found');
      const row = warned(found);
      return ok(opts.decorate ? (await opts.decorate([row], request, true))[0] : row);
    },
  );

  app.get(
    `${def.path}/:id/used-by`,
    { config: { auth: READ }, schema: { tags, summary: `Where a ${def.entity} is used`, params: idParams } },
    async (request) => {
      await assertVisible(request, request.params.id);
      return ok(await usedBy(db(), request.params.id));
    },
  );

  app.get(
    `${def.path}/:id/history`,
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: `A ${def.entity}'s history (audit log), newest first`,
        description: `At most ${HISTORY_MAX} entries.`,
        params: idParams,
      },
    },
    async (request) => {
      // A deleted row's history stays readable (who deleted it, and what it was); where rows are
      // scoped to their owners, only a row the caller can see has one.
      if (opts.scope) await assertVisible(request, request.params.id);
      return ok(await historyOf(db(), def.entity, request.params.id));
    },
  );

  if (offers(def, 'create')) app.post(
    def.path,
    {
      config: { auth: WRITE },
      schema: {
        tags,
        summary: `Create a ${def.entity}`,
        body: def.schema,
        response: {
          201: z.object({ status: z.string(), message: z.string(), data: rowSchema }),
          400: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const data = checked(request.body);
      const caller = callerOf(request);
      const extra = opts.beforeCreate?.(data) ?? {};
      const row = await ctx.database.db
        .transaction(async (tx) => {
          await checkRefs(tx as unknown as Db, data);
          await checkOwn(tx as unknown as Db, data, null);
          const [created] = await (tx as unknown as Db)
            .insert(table)
            .values({
              ...values(data),
              ...Object.fromEntries(Object.entries(extra.values ?? {}).map(([name, v]) => [tsKeyOf(name), v])),
              ...Object.fromEntries(Object.entries(opts.derived?.(data, caller, null) ?? {}).map(([name, v]) => [tsKeyOf(name), v])),
              [tsKeyOf('created_by')]: caller.id,
              [tsKeyOf('updated_by')]: caller.id,
            })
            .returning({ id: columns.id! });
          const fresh = (await findRow(tx as unknown as Db, Number(created!.id)))!;
          await audit(tx as unknown as Db, request, {
            action: `${def.entity}.create`,
            entity: def.entity,
            entityId: fresh.id as number,
            after: auditable(fresh),
          });
          return fresh;
        })
        .catch((err: unknown) => {
          throw uniqueError(err);
        });
      return reply.code(201).send(ok({ ...warned(row), ...extra.reveal }));
    },
  );

  if (offers(def, 'update')) app.put(
    `${def.path}/:id`,
    {
      config: { auth: WRITE },
      schema: {
        tags,
        summary: `Update a ${def.entity} (optimistic concurrency)`,
        description:
          "Send every field and the row's `version`. A stale version answers 409 resource.conflict with data {current} (the row as it is now, with who changed it).",
        params: idParams,
        body: def.schema.extend({ version: z.number().int().min(1).max(2_147_483_647) }),
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const data = checked(body);
      const id = request.params.id;
      const caller = callerOf(request);
      return ok(
        await ctx.database.db
          .transaction(async (tx) => {
            const t = tx as unknown as Db;
            const before = await findRow(t, id);
            if (!before) throw notFound('resource.not_found');
            opts.beforeUpdate?.(before);
            await checkRefs(t, data);
            await checkOwn(t, data, before);
            const updated = await t
              .update(table)
              .set({
                ...values(data),
                ...Object.fromEntries(Object.entries(opts.derived?.(data, caller, before) ?? {}).map(([name, v]) => [tsKeyOf(name), v])),
                [tsKeyOf('version')]: sql`${columns.version!} + 1`,
                [tsKeyOf('updated_at')]: sql`now()`,
                [tsKeyOf('updated_by')]: caller.id,
              })
              .where(and(eq(columns.id!, id), eq(columns.version!, body.version as number)))
              .returning({ id: columns.id! });
            if (updated.length === 0) {
              const by = before.updated_by as ChangedBy;
              throw new AppError(409, 'resource.conflict', {
                data: { current: before },
                params: { name: by.name ?? '?', at: String(before.updated_at) },
              });
            }
            const after = (await findRow(t, id))!;
            await audit(t, request, {
              action: `${def.entity}.update`,
              entity: def.entity,
              entityId: id,
              before: auditable(before),
              after: auditable(after),
            });
            return warned(after);
          })
          .catch((err: unknown) => {
            throw uniqueError(err);
          }),
      );
    },
  );

  if (offers(def, 'delete')) app.delete(
    `${def.path}/:id`,
    {
      config: { auth: WRITE },
      schema: {
        tags,
        summary: `Delete a ${def.entity}`,
        description:
          'Refused with 409 resource.in_use and data {used_by} while other rows refer to it. Deleting a deleted row answers 404.',
        params: idParams,
        response: { 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const id = request.params.id;
      await ctx.database.db
        .transaction(async (tx) => {
          const t = tx as unknown as Db;
          const before = await findRow(t, id);
          if (!before) throw notFound('resource.not_found');
          const used = await usedBy(t, id);
          if (used.length > 0) throw new AppError(409, 'resource.in_use', { data: { used_by: used } });
          const removed = await t.delete(table).where(eq(columns.id!, id)).returning({ id: columns.id! });
          if (removed.length === 0) throw notFound('resource.not_found');
          await audit(t, request, {
            action: `${def.entity}.delete`,
            entity: def.entity,
            entityId: id,
            before: auditable(before),
            after: null,
          });
        })
        .catch((err: unknown) => {
          throw uniqueError(err);
        });
      return ok(null);
    },
  );

  opts.extraRoutes?.(app);
}

/** What an audit entry keeps of a row: its fields, without who-changed-it (the entry says that). */
function auditable(row: Row): Row {
  const { created_by: _c, updated_by: _u, ...rest } = row;
  return rest;
}

/** A row's audit entries with names and a field diff, newest first. */
/** An entity's audit entries, newest first, each with what changed (the history tab; billing accounts). */
export async function historyOf(d: Db, entity: string, id: number): Promise<HistoryEntry[]> {
  const actor = alias(users, 'actor');
  const simulator = alias(users, 'simulator');
  const rows = await d
    .select({
      id: auditLog.id,
      at: auditLog.at,
      action: auditLog.action,
      ip: auditLog.ip,
      before: auditLog.before,
      after: auditLog.after,
      actorId: auditLog.actorId,
      actorName: actor.name,
      simId: auditLog.simulatedById,
      simName: simulator.name,
      roleName: roles.name,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(simulator, eq(simulator.id, auditLog.simulatedById))
    .leftJoin(roles, eq(roles.id, auditLog.simulatedRoleId))
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(id))))
    .orderBy(desc(auditLog.id))
    .limit(HISTORY_MAX);
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    action: r.action,
    actor: { id: r.actorId, name: r.actorName },
    simulated_by: r.simId !== null ? { id: r.simId, name: r.simName } : null,
    simulated_role: r.roleName ?? null,
    ip: r.ip,
    changes: diff((r.before ?? {}) as Row, (r.after ?? {}) as Row),
  }));
}

const NOT_DIFFED = new Set(['version', 'updated_at', 'created_at', 'id']);

function diff(before: Row, after: Row): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (NOT_DIFFED.has(key)) continue;
    const a = before[key] ?? null;
    const b = after[key] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[key] = [a, b];
  }
  return out;
}
