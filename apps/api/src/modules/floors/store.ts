/**
 * The floor rule set in the database (schema-floors.ts): reading a version's rules, the current
 * index for resolution, and writing a new version from a list of changes in one transaction.
 * A version is written under a table lock, so two saves never interleave and version numbers
 * follow the order the saves happened in (docs/decisions/018-floor-versions.md).
 */
import { FLOOR_KEYS, FloorIndex, ruleKeyString, ruleSpecificity, type FloorKey, type FloorRule, type FloorType } from '@backoffice/core/floors';
import type { Database } from '../../db/client.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';

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
  const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, String(row[k] ?? '*')])) as Record<FloorKey, string>;
  return { id: Number(row.id), keys, cpm: trimAmount(String(row.cpm)), currency: String(row.currency), type: row.type as FloorType };
}

/** numeric(12,4) text without trailing zeros: "1.2500" → "1.25", "3.0000" → "3". */
export function trimAmount(v: string): string {
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** The rules of a version (the current ones when `version` is absent). */
export async function loadRules(database: Database | QueryFn, version?: number): Promise<StoredRule[]> {
  const run: QueryFn = typeof database === 'function' ? database : (text, params) => query(database, text, params);
  const rows =
    version === undefined
      ? await run<RuleRow>(`SELECT ${RULE_COLUMNS} FROM floor_rules WHERE to_version IS NULL ORDER BY id`)
      : await run<RuleRow>(
          `SELECT ${RULE_COLUMNS} FROM floor_rules WHERE from_version <= $1 AND (to_version IS NULL OR to_version > $1) ORDER BY id`,
          [version],
        );
  return rows.map(toRule);
}

/** The current version number (0 before the first save). */
export async function currentVersion(run: QueryFn): Promise<number> {
  const [row] = await run<{ v: number | null }>('SELECT max(id) AS v FROM floor_versions');
  return Number(row?.v ?? 0);
}

/**
 * The current rules indexed for resolution, cached per version: resolving (the tester, a deal's
 * floor check) does not re-read 100,000 rules while nothing changed.
 */
const cache = new WeakMap<Database, { version: number; index: FloorIndex; rules: StoredRule[] }>();

export async function currentFloorIndex(database: Database): Promise<{ version: number; index: FloorIndex; rules: StoredRule[] }> {
  const run: QueryFn = (text, params) => query(database, text, params);
  const version = await currentVersion(run);
  const hit = cache.get(database);
  if (hit && hit.version === version) return hit;
  const rules = await loadRules(database);
  const entry = { version, index: new FloorIndex(rules), rules };
  cache.set(database, entry);
  return entry;
}

export { ruleKeyString, ruleSpecificity };
