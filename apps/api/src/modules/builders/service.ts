/**
 * The builders' shared rules (docs/decisions/037-builders.md): render a configuration or code with
 * a builder's pure definition and the standard's validator; saved versions (numbered per kind and
 * subject, immutable, a double click saves once, audited); the subjects they belong to; compare.
 */
import { ENVIRONMENTS } from '@backoffice/core/reports';
import {
  BUILDER_SAVE_REPLAY_MS,
  BUILDER_SUBJECT_MATCHES,
  isBuilderKind,
  type BuilderCompareAnswer,
  type BuilderIssue,
  type BuilderKind,
  type BuilderRenderAnswer,
  type BuilderRenderBody,
  type BuilderSubject,
  type BuilderSubjectOption,
  type BuilderSubjectQuery,
  type BuilderVersionBody,
  type BuilderVersionDto,
  type BuilderVersionListQuery,
  type BuilderVersionPage,
} from '@backoffice/core/builders/common';
import { configChangedPaths } from '@backoffice/core/builders/config-diff';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { SERVER_BUILDERS, type ServerBuilder } from './registry.ts';

/** The audit entity of a saved version. */
export const VERSION_ENTITY = 'builder_version';
/** pg_advisory_xact_lock class of a (kind, subject) numbering. */
const NUMBER_LOCK = 7263625;
const APP_ENVIRONMENT_ID = ENVIRONMENTS.indexOf('app') + 1;

// ---------------------------------------------------------------------------------------------
// The builders an app serves

/**
 * Builders one app serves besides the registry's, by app context. Only tests put anything here
 * (a tiny definition, to test the shared layer on its own); production serves SERVER_BUILDERS.
 */
const extraBuilders = new WeakMap<AppContext, Partial<Record<BuilderKind, ServerBuilder>>>();

/** Test seam: `builders` are served by the app of `ctx` (over the registry's, for that app only); null: the registry's again. */
export function serveBuildersFor(ctx: AppContext, builders: Partial<Record<BuilderKind, ServerBuilder>> | null): void {
  if (builders === null) extraBuilders.delete(ctx);
  else extraBuilders.set(ctx, { ...extraBuilders.get(ctx), ...builders });
}

/** The builder of a kind, or 404 builders.unknown_kind (not a kind, or none registered yet). */
export function serverBuilderOr404(ctx: AppContext, kind: string): ServerBuilder & { kind: BuilderKind } {
  if (!isBuilderKind(kind)) throw notFound('builders.unknown_kind');
  const builder = extraBuilders.get(ctx)?.[kind] ?? SERVER_BUILDERS[kind];
  if (!builder) throw notFound('builders.unknown_kind');
  return { ...builder, kind };
}

// ---------------------------------------------------------------------------------------------
// Render

/** A configuration's schema problems as builder issues (at their paths in the configuration). */
function schemaIssues(issues: readonly z.core.$ZodIssue[]): BuilderIssue[] {
  return Object.entries(issuesToErrors(issues)).map(([path, key]) => ({ severity: 'error', path: path === '_' ? '' : path, key, source: 'rules' }));
}

/** A configuration checked with the builder's schema: the parsed value, or 400 with `config.<path>` errors. */
export function checkedConfig(builder: ServerBuilder, config: unknown): unknown {
  const parsed = builder.definition.configSchema.safeParse(config, { reportInput: true });
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const [path, key] of Object.entries(issuesToErrors(parsed.error.issues))) errors[path === '_' ? 'config' : `config.${path}`] = key;
  throw badRequest('error.validation', errors);
}

const hasError = (issues: readonly BuilderIssue[]) => issues.some((i) => i.severity === 'error');

/**
 * POST render. A configuration: checked (400 at its paths), rendered, and the output checked by the
 * standard's validator. Code: parsed (unreadable: the syntax issues, no output); the configuration
 * it holds is rendered, and the validator checks the code as sent, so its lines are the editor's.
 */
export async function renderBody(builder: ServerBuilder, body: BuilderRenderBody): Promise<BuilderRenderAnswer> {
  const def = builder.definition;
  if (!('code' in body)) {
    const config = checkedConfig(builder, body.config);
    const output = def.render(config);
    const issues = [...output.issues, ...((await builder.validate?.(output, config)) ?? [])];
    return { config, output, issues, valid: !hasError(issues) };
  }
  const current = body.config === undefined ? undefined : def.configSchema.safeParse(body.config).data;
  const parsed = def.parse(body.code, current);
  if (parsed.config === undefined) return { config: null, output: null, issues: parsed.issues, valid: false };
  const checked = def.configSchema.safeParse(parsed.config, { reportInput: true });
  if (!checked.success) {
    const issues = [...parsed.issues, ...schemaIssues(checked.error.issues)];
    return { config: parsed.config, output: null, issues, valid: false };
  }
  const output = def.render(checked.data);
  const known = new Set(parsed.issues.map((i) => `${i.path}\u0000${i.key ?? i.text ?? ''}`));
  const ruleIssues = output.issues.filter((i) => !known.has(`${i.path}\u0000${i.key ?? i.text ?? ''}`));
  const standard = (await builder.validate?.({ ...output, code: body.code }, checked.data)) ?? [];
  const issues = [...parsed.issues, ...ruleIssues, ...standard];
  return { config: checked.data, output, issues, valid: !hasError(issues) };
}

// ---------------------------------------------------------------------------------------------
// Subjects

/** The subject's display name, or null when it does not exist. */
async function subjectNameIn(q: QueryFn, type: BuilderSubject, id: number): Promise<string | null> {
  const sqlOf: Record<Exclude<BuilderSubject, 'none'>, string> = {
    publisher: 'SELECT name FROM publishers WHERE id = $1',
    ad_unit: `SELECT s.name || ' / ' || u.name AS name FROM ad_units u JOIN sites s ON s.id = u.site_id WHERE u.id = $1`,
    partner: 'SELECT name FROM demand_partners WHERE id = $1',
    app: `SELECT name FROM sites WHERE id = $1 AND environment_id = ${APP_ENVIRONMENT_ID}`,
  };
  if (type === 'none') return null;
  const [row] = await q<{ name: string }>(sqlOf[type], [id]);
  return row ? String(row.name) : null;
}

/** The picker's matches: at most BUILDER_SUBJECT_MATCHES by name (or the one with `id`). */
export async function findSubjects(database: Database, builder: ServerBuilder, q: BuilderSubjectQuery): Promise<BuilderSubjectOption[]> {
  if (!builder.definition.subjects.includes(q.type)) throw badRequest('error.validation', { type: 'builders.subject_not_allowed' });
  const params: unknown[] = [];
  const where: string[] = [];
  const text = q.q?.trim() ?? '';
  let select: string;
  let nameExpr: string;
  switch (q.type) {
    case 'publisher':
      select = 'SELECT x.id, x.name FROM publishers x';
      nameExpr = 'x.name';
      break;
    case 'partner':
      select = 'SELECT x.id, x.name FROM demand_partners x';
      nameExpr = 'x.name';
      break;
    case 'app':
      select = 'SELECT x.id, x.name FROM sites x';
      nameExpr = 'x.name';
      where.push(`x.environment_id = ${APP_ENVIRONMENT_ID}`);
      break;
    case 'ad_unit':
      select = `SELECT x.id, s.name || ' / ' || x.name AS name FROM ad_units x JOIN sites s ON s.id = x.site_id`;
      nameExpr = `(s.name || ' / ' || x.name)`;
      break;
  }
  if (q.id !== undefined) {
    params.push(q.id);
    where.push(`x.id = $${params.length}`);
  }
  if (text !== '') {
    // A literal search: LIKE's wildcards in the text are matched as characters.
    params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`${nameExpr} ILIKE $${params.length}`);
  }
  const rows = await query<{ id: number; name: string }>(
    database,
    `${select} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY lower(${nameExpr}), x.id LIMIT ${BUILDER_SUBJECT_MATCHES}`,
    params,
  );
  return rows.map((r) => ({ type: q.type, id: Number(r.id), name: String(r.name) }));
}

// ---------------------------------------------------------------------------------------------
// Versions

const VERSION_COLUMNS = `v.id, v.kind, v.subject_type, v.subject_id, v.name, v.number, v.created_at, v.author_id, u.name AS author_name,
  CASE v.subject_type
    WHEN 'publisher' THEN p.name
    WHEN 'ad_unit' THEN aus.name || ' / ' || au.name
    WHEN 'partner' THEN dp.name
    WHEN 'app' THEN app.name
  END AS subject_name`;
const VERSION_JOINS = `LEFT JOIN users u ON u.id = v.author_id
  LEFT JOIN publishers p ON v.subject_type = 'publisher' AND p.id = v.subject_id
  LEFT JOIN ad_units au ON v.subject_type = 'ad_unit' AND au.id = v.subject_id
  LEFT JOIN sites aus ON aus.id = au.site_id
  LEFT JOIN demand_partners dp ON v.subject_type = 'partner' AND dp.id = v.subject_id
  LEFT JOIN sites app ON v.subject_type = 'app' AND app.id = v.subject_id AND app.environment_id = ${APP_ENVIRONMENT_ID}`;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toDto(r: SqlRow, detail: boolean): BuilderVersionDto {
  const dto: BuilderVersionDto = {
    id: Number(r.id),
    kind: r.kind as BuilderKind,
    subject_type: r.subject_type as BuilderSubject,
    subject_id: r.subject_id === null ? null : Number(r.subject_id),
    subject_name: r.subject_name === null || r.subject_name === undefined ? null : String(r.subject_name),
    name: String(r.name),
    number: Number(r.number),
    author: r.author_id === null ? null : { id: Number(r.author_id), name: String(r.author_name ?? '') },
    created_at: iso(r.created_at),
  };
  if (detail) {
    dto.code = String(r.code);
    dto.config = r.config;
  }
  return dto;
}

export async function listVersions(database: Database, kind: BuilderKind, q: BuilderVersionListQuery): Promise<BuilderVersionPage> {
  const params: unknown[] = [kind];
  const where = ['v.kind = $1', 'v.deleted_at IS NULL'];
  if (q.subject_type !== undefined) {
    params.push(q.subject_type);
    where.push(`v.subject_type = $${params.length}`);
  }
  if (q.subject_id !== undefined) {
    params.push(q.subject_id);
    where.push(`v.subject_id = $${params.length}`);
  }
  const w = where.join(' AND ');
  const rows = await query(
    database,
    `SELECT ${VERSION_COLUMNS} FROM builder_versions v ${VERSION_JOINS} WHERE ${w} ORDER BY v.created_at DESC, v.id DESC LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
    params,
  );
  const [count] = await query<{ n: string }>(database, `SELECT count(*)::text AS n FROM builder_versions v WHERE ${w}`, params);
  return { items: rows.map((r) => toDto(r, false)), total: Number(count?.n ?? 0), page: q.page, page_size: q.page_size };
}

async function versionIn(q: QueryFn, kind: BuilderKind, id: number): Promise<BuilderVersionDto | null> {
  const [row] = await q(`SELECT ${VERSION_COLUMNS}, v.code, v.config FROM builder_versions v ${VERSION_JOINS} WHERE v.id = $1 AND v.kind = $2 AND v.deleted_at IS NULL`, [id, kind]);
  return row ? toDto(row, true) : null;
}

/** One version with its configuration and code (404 builders.version_not_found, also for another kind's). */
export async function versionOr404(database: Database, kind: BuilderKind, id: number): Promise<BuilderVersionDto> {
  const v = await versionIn((t, p) => query(database, t, p), kind, id);
  if (!v) throw notFound('builders.version_not_found');
  return v;
}

/** What the audit keeps of a version. */
const audited = (v: BuilderVersionDto) => ({ kind: v.kind, subject_type: v.subject_type, subject_id: v.subject_id, name: v.name, number: v.number, config: v.config });

/**
 * Saves a configuration as the subject's next version. The subject must be one the builder allows
 * and exist; the configuration must pass the builder's schema, and its output the builder's rules
 * and the standard's validator (400 with the issues at `config.<path>`); the stored code is the
 * API's own render. The same configuration, name and subject saved by the same person within
 * BUILDER_SAVE_REPLAY_MS answers the version the first request made (`already`).
 */
export async function saveVersion(
  database: Database,
  request: FastifyRequest,
  builder: ServerBuilder & { kind: BuilderKind },
  body: BuilderVersionBody,
): Promise<{ version: BuilderVersionDto; already: boolean }> {
  const caller = callerOf(request);
  const def = builder.definition;
  if (!def.subjects.includes(body.subject_type)) throw badRequest('error.validation', { subject_type: 'builders.subject_not_allowed' });
  if (body.subject_type === 'none' && body.subject_id !== null) throw badRequest('error.validation', { subject_id: 'builders.subject_id_without_type' });
  if (body.subject_type !== 'none' && body.subject_id === null) throw badRequest('error.validation', { subject_id: 'builders.subject_required' });
  const config = checkedConfig(builder, body.config);
  const output = def.render(config);
  const issues = [...output.issues, ...((await builder.validate?.(output, config)) ?? [])];
  if (hasError(issues)) {
    const errors: Record<string, string> = {};
    for (const i of issues) {
      if (i.severity !== 'error') continue;
      const at = i.path === '' ? 'config' : `config.${i.path}`;
      errors[at] ??= i.key ?? 'builders.output_invalid';
    }
    throw badRequest('builders.output_invalid', errors);
  }
  const name = body.name.trim();
  return transaction(database, async (q) => {
    const subjectKey = `${builder.kind}|${body.subject_type}|${body.subject_id ?? ''}`;
    await q('SELECT pg_advisory_xact_lock($1::int4, hashtext($2))', [NUMBER_LOCK, subjectKey]);
    if (body.subject_id !== null && (await subjectNameIn(q, body.subject_type, body.subject_id)) === null)
      throw badRequest('error.validation', { subject_id: 'builders.subject_not_found' });
    const subjectWhere = 'kind = $1 AND subject_type = $2 AND subject_id IS NOT DISTINCT FROM $3::int';
    const subjectParams = [builder.kind, body.subject_type, body.subject_id];
    const [recent] = await q<{ id: number }>(
      `SELECT id FROM builder_versions
        WHERE ${subjectWhere} AND deleted_at IS NULL AND author_id = $4 AND name = $5 AND config = $6::jsonb
          AND created_at > now() - ($7::int * interval '1 millisecond')
        ORDER BY id DESC LIMIT 1`,
      [...subjectParams, caller.id, name, JSON.stringify(config), BUILDER_SAVE_REPLAY_MS],
    );
    if (recent) return { version: (await versionIn(q, builder.kind, Number(recent.id)))!, already: true };
    const [next] = await q<{ n: number }>(`SELECT coalesce(max(number), 0) + 1 AS n FROM builder_versions WHERE ${subjectWhere}`, subjectParams);
    const [row] = await q<{ id: number }>(
      `INSERT INTO builder_versions (kind, subject_type, subject_id, name, number, config, code, author_id)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8) RETURNING id`,
      [...subjectParams, name, Number(next!.n), JSON.stringify(config), output.code, caller.id],
    );
    const version = (await versionIn(q, builder.kind, Number(row!.id)))!;
    await auditIn(q, request, { action: 'builders.version_create', entity: VERSION_ENTITY, entityId: version.id, after: audited(version) });
    return { version, already: false };
  });
}

/** Deletes (marks) a version; its number is never given again. Audited with what it held. */
export async function deleteVersion(database: Database, request: FastifyRequest, kind: BuilderKind, id: number): Promise<BuilderVersionDto> {
  const caller = callerOf(request);
  return transaction(database, async (q) => {
    const [locked] = await q('SELECT id FROM builder_versions WHERE id = $1 AND kind = $2 AND deleted_at IS NULL FOR UPDATE', [id, kind]);
    if (!locked) throw notFound('builders.version_not_found');
    const before = (await versionIn(q, kind, id))!;
    await q('UPDATE builder_versions SET deleted_at = now(), deleted_by = $2 WHERE id = $1', [id, caller.id]);
    await auditIn(q, request, { action: 'builders.version_delete', entity: VERSION_ENTITY, entityId: id, before: audited(before) });
    return before;
  });
}

/** Two versions of the kind side by side, with the configuration paths that differ. */
export async function compareVersions(database: Database, kind: BuilderKind, a: number, b: number): Promise<BuilderCompareAnswer> {
  const [va, vb] = await Promise.all([versionOr404(database, kind, a), versionOr404(database, kind, b)]);
  return { a: va, b: vb, changed_paths: configChangedPaths(va.config, vb.config) };
}
