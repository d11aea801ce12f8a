/**
 * The floor rule set in the database (schema-floors.ts): reading a version's rules, the current
 * index for resolution, and writing a new version from a list of changes in one transaction.
 * A version is written under a table lock, so two saves never interleave and version numbers
 * follow the order the saves happened in (docs/decisions/018-floor-versions.md).
 */
import {
  FLOOR_KEYS,
  FloorIndex,
  diffRuleSets,
  ruleKeyString,
  ruleSpecificity,
  type FloorKey,
  type FloorRule,
  type FloorType,
} from '@backoffice/core/floors';
import type { Database } from '../../db/client.ts';
import { query, queryArrays, transaction, type QueryFn } from '../../reports-data/sql.ts';

/** A stored rule: the core rule with its row id. */
export type StoredRule = FloorRule & { id: number };

export const RULE_COLUMNS = `id, ${FLOOR_KEYS.join(', ')}, cpm::text AS cpm, currency, type`;

interface RuleRow {
  id: number;
  cpm: string;
  currency: string;
  type: string;
  [key: string]: unknown;
}

export function toRule(row: RuleRow): StoredRule {
  const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, String(row[k] ?? '*')])) as Record<
    FloorKey,
    string
  >;
  return {
    id: Number(row.id),
    keys,
    cpm: trimAmount(String(row.cpm)),
    currency: String(row.currency),
    type: row.type as FloorType,
  };
}

/** numeric(12,4) text without trailing zeros: "1.2500" → "1.25", "3.0000" → "3". */
export function trimAmount(v: string): string {
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

const ARRAY_COLUMNS = `r.id, ${FLOOR_KEYS.map((k) => `r.${k}`).join(', ')}, r.cpm::text, r.currency, r.type`;

/** A rule from a row read as an array (ARRAY_COLUMNS after `skip` leading columns): no object per row. */
function arrayRule(row: unknown[], skip = 0): StoredRule {
  const keys = {} as Record<FloorKey, string>;
  FLOOR_KEYS.forEach((k, i) => {
    keys[k] = String(row[skip + 1 + i]);
  });
  const n = skip + 1 + FLOOR_KEYS.length;
  return { id: Number(row[skip]), keys, cpm: trimAmount(String(row[n])), currency: String(row[n + 1]), type: row[n + 2] as FloorType };
}

/** The rules alive at a version (`r` is floor_rules), as SQL. */
const aliveAt = (param: string) => `r.from_version <= ${param} AND (r.to_version IS NULL OR r.to_version > ${param})`;

/** The rules of a version (the current ones when `version` is absent). */
export async function loadRules(database: Database | QueryFn, version?: number): Promise<StoredRule[]> {
  if (typeof database === 'function') {
    const rows =
      version === undefined
        ? await database<RuleRow>(`SELECT ${RULE_COLUMNS} FROM floor_rules WHERE to_version IS NULL ORDER BY id`)
        : await database<RuleRow>(`SELECT ${RULE_COLUMNS} FROM floor_rules r WHERE ${aliveAt('$1')} ORDER BY id`, [version]);
    return rows.map(toRule);
  }
  const rows =
    version === undefined
      ? await queryArrays(database, `SELECT ${ARRAY_COLUMNS} FROM floor_rules r WHERE r.to_version IS NULL ORDER BY r.id`)
      : await queryArrays(database, `SELECT ${ARRAY_COLUMNS} FROM floor_rules r WHERE ${aliveAt('$1')} ORDER BY r.id`, [version]);
  return rows.map((r) => arrayRule(r));
}

/**
 * What changed from version `from` to version `to` (either order), read from the rows that version
 * ranges make differ: a rule alive at one and not the other began or ended between the two. Core's
 * diffRuleSets then pairs them by keys; every rule alive at both is unchanged. With 100,000 rules
 * and a small edit, this reads the edit, not the two sets.
 */
export async function diffVersions(database: Database, from: number, to: number): Promise<ReturnType<typeof diffRuleSets>> {
  const [onlyFrom, onlyTo, both] = await Promise.all([
    queryArrays(database, `SELECT ${ARRAY_COLUMNS} FROM floor_rules r WHERE ${aliveAt('$1::int4')} AND NOT (${aliveAt('$2::int4')}) ORDER BY r.id`, [from, to]),
    queryArrays(database, `SELECT ${ARRAY_COLUMNS} FROM floor_rules r WHERE ${aliveAt('$2::int4')} AND NOT (${aliveAt('$1::int4')}) ORDER BY r.id`, [from, to]),
    query<{ n: number }>(database, `SELECT count(*)::int AS n FROM floor_rules r WHERE ${aliveAt('$1::int4')} AND ${aliveAt('$2::int4')}`, [from, to]),
  ]);
  const diff = diffRuleSets(
    onlyFrom.map((r) => arrayRule(r)),
    onlyTo.map((r) => arrayRule(r)),
  );
  return { ...diff, unchanged: diff.unchanged + Number(both[0]?.n ?? 0) };
}

/** The current version number (0 before the first save). */
export async function currentVersion(run: QueryFn): Promise<number> {
  const [row] = await run<{ v: number | null }>('SELECT max(id) AS v FROM floor_versions');
  return Number(row?.v ?? 0);
}

/**
 * The current rules and their version, read in one statement (one snapshot), indexed for
 * resolution and cached per version: resolving (the tester, a deal's floor check) and an import's
 * preview do not re-read 100,000 rules while nothing changed.
 */
const cache = new WeakMap<Database, { version: number; index: FloorIndex; rules: StoredRule[] }>();

export async function currentFloorIndex(database: Database): Promise<{ version: number; index: FloorIndex; rules: StoredRule[] }> {
  const version = await currentVersion((text, params) => query(database, text, params));
  const hit = cache.get(database);
  if (hit && hit.version === version) return hit;
  const rows = await queryArrays(
    database,
    `WITH v AS (SELECT coalesce(max(id), 0) AS v FROM floor_versions)
     SELECT v.v, ${ARRAY_COLUMNS} FROM v LEFT JOIN floor_rules r ON r.to_version IS NULL ORDER BY r.id`,
  );
  const read = Number(rows[0]?.[0] ?? 0);
  const rules = rows.filter((r) => r[1] !== null).map((r) => arrayRule(r, 1));
  const entry = { version: read, index: new FloorIndex(rules), rules };
  cache.set(database, entry);
  return entry;
}

export { ruleKeyString, ruleSpecificity };

/** A change of the rule set, as one version. */
export interface RuleSetChange {
  source: 'edit' | 'delete' | 'import' | 'restore';
  comment: string;
  restoredFrom?: number | null;
  /** Rules to add. */
  added: readonly FloorRule[];
  /** Current rules replaced by a new one with the same keys (a CPM, currency or type change). */
  changed: readonly { id: number; after: FloorRule }[];
  /** Current rules removed, by id. */
  removed: readonly number[];
  /** The version the change was computed against: refused when the set moved on since. */
  baseVersion?: number;
}

export interface VersionWritten {
  version: number;
  added: number;
  changed: number;
  removed: number;
  rule_count: number;
}

/** A save that lost a race or touched rules changed meanwhile: the caller reloads and tries again. */
export class RuleSetConflict extends Error {
  constructor(readonly reason: 'version' | 'rule' | 'duplicate') {
    super(reason);
  }
}

const INSERT_CHUNK = 10_000;

/** Inserts rules as of `version` (unnest of one array per column, in chunks). */
async function insertRules(q: QueryFn, rules: readonly FloorRule[], version: number): Promise<void> {
  for (let start = 0; start < rules.length; start += INSERT_CHUNK) {
    const chunk = rules.slice(start, start + INSERT_CHUNK);
    const cols = FLOOR_KEYS.map((k) => chunk.map((r) => r.keys[k]));
    await q(
      `INSERT INTO floor_rules (${FLOOR_KEYS.join(', ')}, key_string, specificity, cpm, currency, type, from_version)
       SELECT *, $${FLOOR_KEYS.length + 6}::int4 FROM unnest(${FLOOR_KEYS.map((_, i) => `$${i + 1}::text[]`).join(', ')},
         $${FLOOR_KEYS.length + 1}::text[], $${FLOOR_KEYS.length + 2}::int4[], $${FLOOR_KEYS.length + 3}::numeric[],
         $${FLOOR_KEYS.length + 4}::text[], $${FLOOR_KEYS.length + 5}::text[])`,
      [
        ...cols,
        chunk.map((r) => ruleKeyString(r.keys)),
        chunk.map((r) => ruleSpecificity(r.keys)),
        chunk.map((r) => r.cpm),
        chunk.map((r) => r.currency),
        chunk.map((r) => r.type),
        version,
      ],
    );
  }
}

/**
 * Writes a change as the next version, in one transaction under a lock of the versions table (two
 * saves queue; numbers follow commit order). The audit record goes in the same transaction.
 */
export async function writeVersion(
  database: Database,
  change: RuleSetChange,
  who: {
    userId: number | null;
    simulatedById: number | null;
    simulatedRoleId: number | null;
    ip: string | null;
  },
): Promise<VersionWritten> {
  try {
    return await transaction(database, async (q) => {
      await q('LOCK TABLE floor_versions IN EXCLUSIVE MODE');
      const current = await currentVersion(q);
      if (change.baseVersion !== undefined && change.baseVersion !== current)
        throw new RuleSetConflict('version');
      const [row] = await q<{ id: number }>(
        `INSERT INTO floor_versions (comment, source, restored_from, added, changed, removed, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          change.comment,
          change.source,
          change.restoredFrom ?? null,
          change.added.length,
          change.changed.length,
          change.removed.length,
          who.userId,
        ],
      );
      const version = Number(row!.id);
      const closing = [...change.changed.map((c) => c.id), ...change.removed];
      if (closing.length > 0) {
        const closed = await q<{ n: number }>(
          `WITH c AS (UPDATE floor_rules SET to_version = $1 WHERE id = ANY($2::int4[]) AND to_version IS NULL RETURNING 1)
           SELECT count(*)::int AS n FROM c`,
          [version, closing],
        );
        if (Number(closed[0]?.n ?? 0) !== new Set(closing).size) throw new RuleSetConflict('rule');
      }
      await insertRules(q, [...change.added, ...change.changed.map((c) => c.after)], version);
      const [count] = await q<{ n: number }>(
        'SELECT count(*)::int AS n FROM floor_rules WHERE to_version IS NULL',
      );
      const ruleCount = Number(count?.n ?? 0);
      await q('UPDATE floor_versions SET rule_count = $1 WHERE id = $2', [ruleCount, version]);
      const summary = {
        version,
        source: change.source,
        comment: change.comment,
        added: change.added.length,
        changed: change.changed.length,
        removed: change.removed.length,
        rule_count: ruleCount,
      };
      await q(
        `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
         VALUES ($1, $2, $3, $4, $5, 'floor_rules', $6, $7::jsonb, $8::jsonb)`,
        [
          who.userId,
          who.simulatedById,
          who.simulatedRoleId,
          who.ip,
          `floor_rules.${change.source}`,
          String(version),
          JSON.stringify({ version: current }),
          JSON.stringify(summary),
        ],
      );
      return {
        version,
        added: change.added.length,
        changed: change.changed.length,
        removed: change.removed.length,
        rule_count: ruleCount,
      };
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new RuleSetConflict('duplicate');
    throw err;
  }
}
