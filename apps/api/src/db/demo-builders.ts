/**
 * Demo saved versions for every builder of the registry (docs/decisions/037-builders.md): each
 * builder's examples, rendered by the API as a save would (only those the builder's rules and the
 * standard's validator accept), saved as versions 1, 2… for two real demo subjects of the first
 * kind the builder allows (publishers, ad units, partners or apps; or no subject), authored by demo
 * people and dated over the last five weeks, with their audit entries. Per builder once: a builder
 * with versions is left alone, so one registered later is seeded on the next start.
 */
import { ENVIRONMENTS } from '@backoffice/core/reports';
import type { BuilderKind, BuilderSubject } from '@backoffice/core/builders/common';
import { SERVER_BUILDERS, type ServerBuilder } from '../modules/builders/registry.ts';
import { VERSION_ENTITY } from '../modules/builders/service.ts';
import { query, transaction } from '../reports-data/sql.ts';
import type { Database } from './client.ts';
import { DEMO_APPS } from './demo-apps.ts';

const DAY = 86_400_000;
const APP_ENVIRONMENT_ID = ENVIRONMENTS.indexOf('app') + 1;

const SUBJECT_SQL: Record<Exclude<BuilderSubject, 'none'>, string> = {
  publisher: `SELECT id FROM publishers WHERE status = 'live' ORDER BY id LIMIT 2`,
  ad_unit: 'SELECT u.id FROM ad_units u JOIN sites s ON s.id = u.site_id ORDER BY u.id LIMIT 2',
  partner: `SELECT id FROM demand_partners WHERE status = 'live' ORDER BY id LIMIT 2`,
  // The demo apps with real-looking bundles first (the SDK examples are theirs), in their order.
  app: `SELECT id FROM sites WHERE environment_id = ${APP_ENVIRONMENT_ID}
        ORDER BY array_position(ARRAY[${DEMO_APPS.map((a) => `'${a.bundle}'`).join(', ')}]::text[], name) NULLS LAST, id LIMIT 2`,
};

/** The examples a save would accept, with the code the API renders for them. */
async function acceptedExamples(builder: ServerBuilder): Promise<{ name: string; config: unknown; code: string }[]> {
  const out: { name: string; config: unknown; code: string }[] = [];
  for (const example of builder.definition.examples()) {
    const parsed = builder.definition.configSchema.safeParse(example.config);
    if (!parsed.success) continue;
    const output = builder.definition.render(parsed.data);
    const issues = [...output.issues, ...((await builder.validate?.(output, parsed.data)) ?? [])];
    if (issues.some((i) => i.severity === 'error')) continue;
    out.push({ name: example.name, config: parsed.data, code: output.code });
  }
  return out;
}

/** Seeds the builders that have no versions yet; answers how many versions it saved. */
export async function seedBuildersDemo(database: Database, now = Date.now(), builders: Partial<Record<BuilderKind, ServerBuilder>> = SERVER_BUILDERS): Promise<number> {
  const authors = await query<{ id: number }>(
    database,
    `SELECT id FROM users WHERE active AND (mail LIKE 'tech@%' OR mail LIKE 'admin@%' OR mail LIKE 'tech.supply@%') ORDER BY mail DESC`,
  );
  if (authors.length === 0) return 0;
  let saved = 0;
  let kindIndex = 0;
  for (const [kind, builder] of Object.entries(builders) as [BuilderKind, ServerBuilder][]) {
    kindIndex++;
    const [any] = await query(database, 'SELECT 1 FROM builder_versions WHERE kind = $1 LIMIT 1', [kind]);
    if (any) continue;
    const type = builder.definition.subjects[0] ?? 'none';
    const subjects: (number | null)[] = type === 'none' ? [null] : (await query<{ id: number }>(database, SUBJECT_SQL[type])).map((r) => Number(r.id));
    const examples = await acceptedExamples(builder);
    if (subjects.length === 0 || examples.length === 0) continue;
    saved += await transaction(database, async (q) => {
      let n = 0;
      for (const [s, subjectId] of subjects.entries()) {
        // The first subject gets every example; the second the first two, the other way round.
        const list = s === 0 ? examples : examples.slice(0, 2).reverse();
        for (const [i, example] of list.entries()) {
          // Oldest first, over about four weeks, the newest a day or two ago.
          const at = new Date(now - DAY * (1 + s + ((list.length - 1 - i) * 28) / list.length) - kindIndex * 3600_000 - ((i * 13) % 9) * 60_000);
          const author = authors[(i + s) % authors.length]!.id;
          const [row] = await q<{ id: number }>(
            `INSERT INTO builder_versions (kind, subject_type, subject_id, name, number, config, code, author_id, created_at)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::timestamptz) RETURNING id`,
            [kind, type, subjectId, example.name, i + 1, JSON.stringify(example.config), example.code, author, at.toISOString()],
          );
          await q(
            `INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, after, at) VALUES ($1, '10.20.0.21', 'builders.version_create', $2, $3, $4::jsonb, $5::timestamptz)`,
            [author, VERSION_ENTITY, String(row!.id), JSON.stringify({ kind, subject_type: type, subject_id: subjectId, name: example.name, number: i + 1, config: example.config }), at.toISOString()],
          );
          n++;
        }
      }
      return n;
    });
  }
  return saved;
}
