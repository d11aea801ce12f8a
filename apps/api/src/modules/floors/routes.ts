/**
 * Price floors (screen `/partners/floors`, issue 20). ACL resource `/v1/floors`: reading needs
 * 'read', every change 'write'. Every change is a version of the rule set (store.ts).
 *   GET    /v1/floors/rules                 a page of the rules (current, or ?version=N)
 *   POST   /v1/floors/rules                 add a rule (a new version)
 *   PUT    /v1/floors/rules/:id             change a rule's keys, CPM, currency or type
 *   POST   /v1/floors/rules/delete          remove rules by id
 *   POST   /v1/floors/test                  which rule applies to a request, the runners-up, why
 *   GET    /v1/floors/versions              the versions, newest first
 *   GET    /v1/floors/versions/compare      what changed between two versions
 *   POST   /v1/floors/versions/:id/restore  bring a version back (a new version)
 *   GET    /v1/floors/export                the rules as CSV (current or ?version=N)
 *   POST   /v1/floors/import/preview        a CSV read and checked against the current set
 *   POST   /v1/floors/import/apply          the same file applied, if the set did not move on
 * Resolution is core's (packages/core/src/floors.ts, docs/decisions/017).
 */
import { ok } from '@backoffice/core/envelope';
import {
  diffRuleSets,
  explainRule,
  ruleKeyString,
  ruleSpecificity,
  type FloorKey,
  type FloorMatch,
  type FloorRule,
} from '@backoffice/core/floors';
import {
  FLOOR_CSV_COLUMNS,
  checkFloorRule,
  floorRuleBodySchema,
  floorTestSchema,
} from '@backoffice/core/floors-input';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query } from '../../reports-data/sql.ts';
import { parseImport, type ParsedImport } from './csv.ts';
import { prebidFloorRoutes } from './prebid-route.ts';
import {
  RULE_COLUMNS,
  RuleSetConflict,
  currentFloorIndex,
  currentVersion,
  diffVersions,
  loadRules,
  toRule,
  trimAmount,
  writeVersion,
  type RuleSetChange,
  type StoredRule,
} from './store.ts';

export const FLOORS_RESOURCE = '/v1/floors';
const READ = { permission: { resource: FLOORS_RESOURCE, action: 'read' } } as const;
const WRITE = { permission: { resource: FLOORS_RESOURCE, action: 'write' } } as const;
const TAGS = ['floors'];
/** The most rules of each kind a comparison or a preview lists (the counts are whole). */
const LISTED = 500;
/** A 100,000-rule CSV is about 6 MB. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

const SORTS = {
  id: 'r.id',
  specificity: 'r.specificity',
  cpm: 'r.cpm',
  publisher: 'lower(coalesce(p.name, r.publisher))',
  updated: 'r.from_version',
} as const;
type SortKey = keyof typeof SORTS;
const sortParam = z
  .string()
  .regex(new RegExp(`^-?(${Object.keys(SORTS).join('|')})$`), 'resource.sort_unknown')
  .optional();
const positive = z.string().regex(/^[1-9]\d{0,8}$/, 'error.invalid_value');

const listQuery = z.strictObject({
  page: positive.optional(),
  page_size: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
    .optional(),
  sort: sortParam,
  q: z.string().max(200).optional(),
  publisher: z.string().max(200).optional(),
  demand_partner: z.string().max(200).optional(),
  type: z.enum(['hard', 'soft']).optional(),
  currency: z.string().max(3).optional(),
  version: positive.optional(),
});

/** A rule as answers carry it: keys, the names of its publisher and partner, CPM, currency, type. */
interface RuleOut extends FloorRule {
  id: number;
  specificity: number;
  publisher_name: string | null;
  demand_partner_name: string | null;
}

/** Names of the publishers and partners some rules key on. */
async function names(
  database: Database,
  rules: readonly FloorRule[],
): Promise<{ pub: Map<string, string>; dp: Map<string, string> }> {
  const ids = (k: 'publisher' | 'demand_partner') =>
    [...new Set(rules.map((r) => r.keys[k]).filter((v) => /^\d+$/.test(v)))].map(Number);
  const [pubs, dps] = await Promise.all([
    query<{ id: number; name: string }>(
      database,
      'SELECT id, name FROM publishers WHERE id = ANY($1::int4[])',
      [ids('publisher')],
    ),
    query<{ id: number; name: string }>(
      database,
      'SELECT id, name FROM demand_partners WHERE id = ANY($1::int4[])',
      [ids('demand_partner')],
    ),
  ]);
  return {
    pub: new Map(pubs.map((p) => [String(p.id), p.name])),
    dp: new Map(dps.map((p) => [String(p.id), p.name])),
  };
}

async function withNames(database: Database, rules: readonly FloorRule[]): Promise<RuleOut[]> {
  const n = await names(database, rules);
  return rules.map((r) => ({
    ...r,
    id: r.id ?? 0,
    specificity: ruleSpecificity(r.keys),
    publisher_name: n.pub.get(r.keys.publisher) ?? null,
    demand_partner_name: n.dp.get(r.keys.demand_partner) ?? null,
  }));
}

function who(request: FastifyRequest) {
  return {
    userId: request.caller?.id ?? null,
    simulatedById: request.caller?.simulatedBy ?? null,
    simulatedRoleId: request.caller?.simulatedRole?.id ?? null,
    ip: request.ip ?? null,
  };
}

/** Writes a version; a lost race or a rule changed meanwhile answers 409 with what to do. */
async function save(ctx: AppContext, request: FastifyRequest, change: RuleSetChange) {
  try {
    return await writeVersion(ctx.database, change, who(request));
  } catch (err) {
    if (err instanceof RuleSetConflict) {
      if (err.reason === 'duplicate')
        throw badRequest('floors.error.duplicate_keys', { keys: 'floors.error.duplicate_keys' });
      throw new AppError(
        409,
        err.reason === 'version' ? 'floors.error.set_changed' : 'floors.error.rule_changed',
      );
    }
    throw err;
  }
}

/** Checks a rule from the form: its fields (core), then that its publisher and partner exist. */
async function checkBody(database: Database, body: z.output<typeof floorRuleBodySchema>): Promise<FloorRule> {
  const { rule, errors } = checkFloorRule({
    keys: body.keys,
    cpm: body.cpm,
    currency: body.currency,
    type: body.type,
  });
  if (!rule)
    throw badRequest(
      errors[0]!.key,
      Object.fromEntries(
        errors.map((e) => [
          e.field === 'cpm' || e.field === 'currency' || e.field === 'type' ? e.field : `keys.${e.field}`,
          e.key,
        ]),
      ),
    );
  const n = await names(database, [rule]);
  const missing: Record<string, string> = {};
  if (rule.keys.publisher !== '*' && !n.pub.has(rule.keys.publisher))
    missing['keys.publisher'] = 'floors.error.unknown_publisher';
  if (rule.keys.demand_partner !== '*' && !n.dp.has(rule.keys.demand_partner))
    missing['keys.demand_partner'] = 'floors.error.unknown_partner';
  if (Object.keys(missing).length > 0) throw badRequest(Object.values(missing)[0], missing);
  return rule;
}

/** The current rule with these keys (another than `exceptId`), if any. */
async function sameKeys(database: Database, rule: FloorRule, exceptId?: number): Promise<number | null> {
  const [row] = await query<{ id: number }>(
    database,
    'SELECT id FROM floor_rules WHERE to_version IS NULL AND key_string = $1 AND id <> $2',
    [ruleKeyString(rule.keys), exceptId ?? 0],
  );
  return row ? Number(row.id) : null;
}

function diffOut(diff: ReturnType<typeof diffRuleSets>) {
  return {
    added: diff.added.length,
    changed: diff.changed.length,
    removed: diff.removed.length,
    unchanged: diff.unchanged,
  };
}

/** A diff's lists (the first LISTED of each) with names. */
async function diffLists(database: Database, diff: ReturnType<typeof diffRuleSets>) {
  const added = diff.added.slice(0, LISTED);
  const removed = diff.removed.slice(0, LISTED);
  const changed = diff.changed.slice(0, LISTED);
  const all = await withNames(database, [...added, ...removed, ...changed.map((c) => c.after)]);
  return {
    added: all.slice(0, added.length),
    removed: all.slice(added.length, added.length + removed.length),
    changed: changed.map((c, i) => ({
      before: { cpm: c.before.cpm, currency: c.before.currency, type: c.before.type },
      after: all[added.length + removed.length + i]!,
      fields: c.fields,
    })),
  };
}

/** The import's answer: what the file holds, its bad rows, and what applying it changes. */
async function preview(ctx: AppContext, parsed: ParsedImport) {
  // The current set as the tester's index holds it (cached per version): the preview compares the
  // file with exactly the version it names.
  const current = await currentFloorIndex(ctx.database);
  const common = {
    base_version: current.version,
    delimiter: parsed.delimiter,
    rows: parsed.rows,
    errors: parsed.errors,
    error_count: parsed.error_count,
    file_error: parsed.file_error,
  };
  if (parsed.file_error || parsed.error_count > 0)
    return { ...common, diff: null, lists: null, diffRaw: null };
  const diff = diffRuleSets(current.rules, parsed.rules);
  return { ...common, diff: diffOut(diff), lists: await diffLists(ctx.database, diff), diffRaw: diff };
}

function changeOf(
  diff: ReturnType<typeof diffRuleSets>,
): Pick<RuleSetChange, 'added' | 'changed' | 'removed'> {
  return {
    added: diff.added,
    changed: diff.changed.map((c) => ({ id: (c.before as StoredRule).id, after: c.after })),
    removed: diff.removed.map((r) => (r as StoredRule).id),
  };
}

export async function floorRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  await prebidFloorRoutes(root, ctx);

  // The form's and the tester's pickers: publishers and partners by name, under the floors' own
  // permission (a yield manager may not read the publisher screens). Same contract as the resource
  // layer's autocomplete: name=text (2 characters at least) or ids=1,2; limit.
  for (const [segment, table] of [
    ['publishers', 'publishers'],
    ['demand-partners', 'demand_partners'],
  ] as const) {
    app.get(
      `/v1/floors/autocomplete/${segment}`,
      {
        config: { auth: READ },
        schema: {
          tags: TAGS,
          summary: `The ${table.replace('_', ' ')} a rule can key on, by name (the form's picker)`,
          querystring: z.strictObject({
            name: z.string().max(200).optional(),
            ids: z
              .string()
              .regex(/^(\d{1,9}(,\d{1,9}){0,199})?$/, 'error.invalid_id')
              .optional(),
            limit: z
              .string()
              .regex(/^[1-9]\d?$/, 'error.invalid_value')
              .optional(),
          }),
        },
      },
      async (request) => {
        const { name, ids, limit } = request.query;
        const n = Math.min(Number(limit ?? 10), 50);
        if (ids !== undefined) {
          const list = ids.split(',').filter(Boolean).map(Number);
          return ok(
            await query<{ id: number; value: string }>(
              ctx.database,
              `SELECT id, name AS value FROM ${table} WHERE id = ANY($1::int4[]) ORDER BY name, id`,
              [list],
            ),
          );
        }
        const term = (name ?? '').trim();
        if (term.length < 2) return ok([]);
        const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return ok(
          await query<{ id: number; value: string }>(
            ctx.database,
            `SELECT id, name AS value FROM ${table} WHERE lower(name) LIKE $1 OR id::text = $2 ORDER BY lower(name), id LIMIT ${n}`,
            [like, term],
          ),
        );
      },
    );
  }

  app.get(
    '/v1/floors/rules',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary: 'A page of the floor rules (the current set, or a past version with version=N)',
        description: `page, page_size (at most 200), sort (${Object.keys(SORTS).join(', ')}; -field descending; default -specificity), q (any key contains), publisher, demand_partner (ids or *), type, currency.`,
        querystring: listQuery,
      },
    },
    async (request) => {
      const qs = request.query;
      const page = Number(qs.page ?? 1);
      const pageSize = Math.min(Number(qs.page_size ?? 50), 200);
      const version = qs.version ? Number(qs.version) : null;
      const current = await currentVersion((text, params) => query(ctx.database, text, params));
      if (version !== null && version > current) throw notFound('floors.error.version_unknown');
      const params: unknown[] = [];
      const add = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where: string[] = [
        version === null
          ? 'r.to_version IS NULL'
          : `r.from_version <= ${add(version)}::int4 AND (r.to_version IS NULL OR r.to_version > $${params.length}::int4)`,
      ];
      if (qs.q?.trim()) {
        const like = add(
          `%${qs.q
            .trim()
            .toLowerCase()
            .replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
        );
        where.push(
          `(lower(r.site) LIKE ${like} OR lower(r.ad_unit) LIKE ${like} OR lower(r.deal) LIKE ${like} OR lower(r.country) LIKE ${like} OR lower(r.size) LIKE ${like} OR lower(coalesce(p.name, '')) LIKE ${like} OR lower(coalesce(dp.name, '')) LIKE ${like})`,
        );
      }
      if (qs.publisher) where.push(`r.publisher = ${add(qs.publisher.trim())}`);
      if (qs.demand_partner) where.push(`r.demand_partner = ${add(qs.demand_partner.trim())}`);
      if (qs.type) where.push(`r.type = ${add(qs.type)}`);
      if (qs.currency) where.push(`r.currency = ${add(qs.currency.toUpperCase())}`);
      const sort = qs.sort ?? '-specificity';
      const desc = sort.startsWith('-');
      const col = SORTS[sort.replace(/^-/, '') as SortKey];
      const from = `floor_rules r LEFT JOIN publishers p ON r.publisher = p.id::text LEFT JOIN demand_partners dp ON r.demand_partner = dp.id::text WHERE ${where.join(' AND ')}`;
      const [rows, total] = await Promise.all([
        query<Record<string, unknown>>(
          ctx.database,
          `SELECT ${RULE_COLUMNS.split(', ')
            .map((c) => `r.${c}`)
            .join(
              ', ',
            )}, r.specificity, r.from_version, p.name AS publisher_name, dp.name AS demand_partner_name
             FROM ${from} ORDER BY ${col} ${desc ? 'DESC' : 'ASC'}, r.id ${desc ? 'DESC' : 'ASC'} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
          params,
        ),
        query<{ n: number }>(ctx.database, `SELECT count(*)::int AS n FROM ${from}`, params),
      ]);
      return ok({
        items: rows.map((r) => ({
          ...toRule(r as never),
          specificity: Number(r.specificity),
          since_version: Number(r.from_version),
          publisher_name: r.publisher_name ?? null,
          demand_partner_name: r.demand_partner_name ?? null,
        })),
        total: Number(total[0]?.n ?? 0),
        page,
        page_size: pageSize,
        version: version ?? current,
        current_version: current,
      });
    },
  );

  app.post(
    '/v1/floors/rules',
    {
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Add a floor rule (a new version of the set)',
        body: floorRuleBodySchema,
      },
    },
    async (request, reply) => {
      const rule = await checkBody(ctx.database, request.body);
      if ((await sameKeys(ctx.database, rule)) !== null)
        throw badRequest('floors.error.duplicate_keys', { keys: 'floors.error.duplicate_keys' });
      const written = await save(ctx, request, {
        source: 'edit',
        comment: request.body.comment ?? '',
        added: [rule],
        changed: [],
        removed: [],
      });
      reply.code(201);
      return ok(written, 'floors.saved');
    },
  );

  app.put(
    '/v1/floors/rules/:id',
    {
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Change a rule (a new version): keys, CPM, currency or type',
        params: z.strictObject({ id: positive }),
        body: floorRuleBodySchema,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const [row] = await query<Record<string, unknown>>(
        ctx.database,
        `SELECT ${RULE_COLUMNS}, to_version FROM floor_rules WHERE id = $1`,
        [id],
      );
      if (!row) throw notFound();
      if (row.to_version !== null) throw new AppError(409, 'floors.error.rule_changed');
      const rule = await checkBody(ctx.database, request.body);
      if ((await sameKeys(ctx.database, rule, id)) !== null)
        throw badRequest('floors.error.duplicate_keys', { keys: 'floors.error.duplicate_keys' });
      const before = toRule(row as never);
      const diff = diffRuleSets([before], [rule]);
      if (diff.unchanged === 1) throw badRequest('floors.error.nothing_changed');
      // Same keys: a change of the rule; other keys: the old one removed and the new one added.
      const change =
        diff.changed.length === 1
          ? { added: [], changed: [{ id, after: rule }], removed: [] }
          : { added: [rule], changed: [], removed: [id] };
      return ok(
        await save(ctx, request, { source: 'edit', comment: request.body.comment ?? '', ...change }),
        'floors.saved',
      );
    },
  );

  app.post(
    '/v1/floors/rules/delete',
    {
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Remove rules (a new version)',
        body: z.strictObject({
          ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1, 'floors.error.none_selected').max(10_000),
          comment: z.string().trim().max(500, 'error.too_long').default(''),
        }),
      },
    },
    async (request) =>
      ok(
        await save(ctx, request, {
          source: 'delete',
          comment: request.body.comment,
          added: [],
          changed: [],
          removed: [...new Set(request.body.ids)],
        }),
        'floors.deleted',
      ),
  );

  app.post(
    '/v1/floors/test',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary:
          'Which rule applies to a request: the winner, the runners-up and how each key met the request',
        description:
          "A value per key (publisher and demand_partner by id); a key left out is unknown and only `*` matches it. No rule: the demand partner's default floor.",
        body: floorTestSchema,
      },
    },
    async (request) => {
      const req = request.body;
      const { index, version } = await currentFloorIndex(ctx.database);
      let fallback: { cpm: string; currency: string } | null = null;
      if (req.demand_partner && /^\d+$/.test(req.demand_partner.trim())) {
        const [dp] = await query<{ cpm: string; currency: string }>(
          ctx.database,
          'SELECT default_floor::text AS cpm, floor_currency AS currency FROM demand_partners WHERE id = $1',
          [Number(req.demand_partner.trim())],
        );
        if (dp)
          fallback = {
            cpm: trimAmount(dp.cpm),
            currency: dp.currency,
          };
      }
      const res = index.resolve(req, fallback, 10);
      const matches = [res.winner, ...res.runnersUp].filter((m): m is FloorMatch => m !== null);
      const named = await withNames(
        ctx.database,
        matches.map((m) => m.rule),
      );
      return ok({
        version,
        rules: index.size,
        winner: res.winner
          ? { rule: named[0]!, keys: res.winner.keys, specificity: res.winner.specificity }
          : null,
        runners_up: res.runnersUp.map((m, i) => ({
          rule: named[i + 1]!,
          keys: explainRule(m.rule, req),
          specificity: m.specificity,
        })),
        fallback: res.fallback,
      });
    },
  );

  app.get(
    '/v1/floors/versions',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary: 'The versions of the rule set, newest first: author, time, comment, what changed',
        querystring: z.strictObject({
          page: positive.optional(),
          page_size: z
            .string()
            .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
            .optional(),
        }),
      },
    },
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Math.min(Number(request.query.page_size ?? 20), 100);
      const [rows, total] = await Promise.all([
        query<Record<string, unknown>>(
          ctx.database,
          `SELECT v.id, v.comment, v.source, v.restored_from, v.added, v.changed, v.removed, v.rule_count, v.created_at, v.created_by, u.name AS created_by_name
             FROM floor_versions v LEFT JOIN users u ON u.id = v.created_by ORDER BY v.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
        ),
        query<{ n: number }>(ctx.database, 'SELECT count(*)::int AS n FROM floor_versions'),
      ]);
      return ok({
        items: rows.map((r) => ({
          version: Number(r.id),
          comment: r.comment,
          source: r.source,
          restored_from: r.restored_from === null ? null : Number(r.restored_from),
          added: Number(r.added),
          changed: Number(r.changed),
          removed: Number(r.removed),
          rule_count: Number(r.rule_count),
          created_at: new Date(r.created_at as string).toISOString(),
          created_by: {
            id: r.created_by === null ? null : Number(r.created_by),
            name: (r.created_by_name as string | null) ?? null,
          },
        })),
        total: Number(total[0]?.n ?? 0),
        page,
        page_size: pageSize,
      });
    },
  );

  const versionNumber = async (v: number) => {
    const current = await currentVersion((text, params) => query(ctx.database, text, params));
    if (v > current) throw notFound('floors.error.version_unknown');
    return current;
  };

  app.get(
    '/v1/floors/versions/compare',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary:
          'What changed from one version to another: rules added, removed and changed (matched by their keys)',
        description: `from, to: version numbers (0 is the empty set before the first). Counts are whole; each list holds at most ${LISTED} rules.`,
        querystring: z.strictObject({
          from: z.string().regex(/^\d{1,9}$/, 'error.invalid_value'),
          to: z.string().regex(/^\d{1,9}$/, 'error.invalid_value'),
        }),
      },
    },
    async (request) => {
      const from = Number(request.query.from);
      const to = Number(request.query.to);
      await versionNumber(Math.max(from, to));
      const diff = await diffVersions(ctx.database, from, to);
      return ok({ from, to, ...diffOut(diff), lists: await diffLists(ctx.database, diff) });
    },
  );

  app.post(
    '/v1/floors/versions/:id/restore',
    {
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Restore a version: the set becomes what it was then, as a new version',
        params: z.strictObject({ id: positive }),
        body: z.strictObject({
          comment: z.string().trim().max(500, 'error.too_long').default(''),
          base_version: z.number().int().min(0).optional(),
        }),
      },
    },
    async (request) => {
      const target = Number(request.params.id);
      const current = await versionNumber(target);
      const diff = await diffVersions(ctx.database, current, target);
      if (diff.added.length + diff.changed.length + diff.removed.length === 0)
        throw badRequest('floors.error.restore_same');
      const written = await save(ctx, request, {
        source: 'restore',
        comment: request.body.comment,
        restoredFrom: target,
        // The diff was computed against `current`: a save landing meanwhile makes it stale.
        baseVersion: request.body.base_version ?? current,
        ...changeOf(diff),
      });
      return ok(written, 'floors.restored');
    },
  );

  app.get(
    '/v1/floors/export',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary:
          'The rules as CSV (floor_rules_YYYY-MM-DD_HHmmss.csv): edit in a spreadsheet and import back',
        description: `Columns: ${FLOOR_CSV_COLUMNS.join(', ')} (the two name columns are for reading; the import ignores them). version=N for a past version.`,
        querystring: z.strictObject({ version: positive.optional() }),
      },
    },
    async (request, reply) => {
      const version = request.query.version ? Number(request.query.version) : undefined;
      if (version !== undefined) await versionNumber(version);
      const rules = await withNames(ctx.database, await loadRules(ctx.database, version));
      rules.sort((a, b) => a.specificity - b.specificity || (a.id ?? 0) - (b.id ?? 0));
      const cells = (r: RuleOut): TableCell[] =>
        FLOOR_CSV_COLUMNS.map((c) =>
          c === 'publisher_name'
            ? r.publisher_name
            : c === 'demand_partner_name'
              ? r.demand_partner_name
              : c === 'cpm'
                ? r.cpm
                : c === 'currency'
                  ? r.currency
                  : c === 'type'
                    ? r.type
                    : r.keys[c as FloorKey],
        );
      async function* batches() {
        for (let i = 0; i < rules.length; i += 5000) yield rules.slice(i, i + 5000).map(cells);
        if (rules.length === 0) yield [];
      }
      return sendTableFile(request, reply, {
        name: 'floor_rules',
        format: 'csv',
        titles: [...FLOOR_CSV_COLUMNS],
        batches: batches(),
      });
    },
  );

  const importBody = z.strictObject({ csv: z.string().max(IMPORT_BODY_LIMIT, 'floors.import.too_large') });

  app.post(
    '/v1/floors/import/preview',
    {
      bodyLimit: IMPORT_BODY_LIMIT + 1024,
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary:
          'Read a rules CSV and say what applying it would do: adds, changes, removals, and each bad row with its line and reason',
        description:
          'The file is the whole rule set (a rule not in it is removed). Nothing changes here. Comma or semicolon, detected.',
        body: importBody,
      },
    },
    async (request) => {
      const { diffRaw: _raw, ...answer } = await preview(
        ctx,
        await parseImport(ctx.database, request.body.csv),
      );
      return ok(answer);
    },
  );

  app.post(
    '/v1/floors/import/apply',
    {
      bodyLimit: IMPORT_BODY_LIMIT + 1024,
      config: { auth: WRITE },
      schema: {
        tags: TAGS,
        summary:
          'Apply a previewed rules CSV as a new version (refused when it has a bad row, or when the set changed since the preview)',
        body: importBody.extend({
          base_version: z.number().int().min(0),
          comment: z.string().trim().max(500, 'error.too_long').default(''),
        }),
      },
    },
    async (request) => {
      const parsed = await parseImport(ctx.database, request.body.csv);
      const p = await preview(ctx, parsed);
      if (p.file_error) throw new AppError(400, p.file_error.key, { params: p.file_error.params });
      if (p.error_count > 0 || !p.diffRaw)
        throw new AppError(400, 'floors.import.has_errors', { params: { count: p.error_count } });
      if (p.base_version !== request.body.base_version) throw new AppError(409, 'floors.error.set_changed');
      const change = changeOf(p.diffRaw);
      if (change.added.length + change.changed.length + change.removed.length === 0)
        throw badRequest('floors.import.nothing');
      const written = await save(ctx, request, {
        source: 'import',
        comment: request.body.comment,
        baseVersion: request.body.base_version,
        ...change,
      });
      return ok(written, 'floors.imported');
    },
  );
}
