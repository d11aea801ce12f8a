/**
 * Budgets on the resource layer (`/v1/budgets`, screen `/partners/perf-budgets-companies`): one
 * budget per company and month (a second one is a field error on the month), for companies with a
 * performance-side demand partner. Every row the list and the one-row answer give carries its
 * pacing (BudgetPacing in core): what the company's performance-side demand partners earned in the
 * month, read from the warehouse's partner rollup by UTC day (stats_r_partner, level 1) for the
 * whole page in one query, against the budget (docs/decisions/015-budgets.md).
 *   GET /v1/budgets/companies   the companies a budget can be for (the form's picker)
 */
import { budgetPacing, monthBounds } from '@backoffice/core/budgets';
import { ok } from '@backoffice/core/envelope';
import { isIdText } from '@backoffice/core/ids';
import { budgets } from '@backoffice/core/resources/budgets';
import { and, asc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { budgets as budgetsTable, companies } from '../../db/schema.ts';
import { demandPartners } from '../../db/schema-reports.ts';
import { badRequest } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { HOUR_MS } from '../../reports-data/rollups.ts';
import { query } from '../../reports-data/sql.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { datasetRange } from '../reports/service.ts';

type Row = Record<string, unknown>;

const READ = { permission: { resource: budgets.acl, action: 'read' } } as const;
const COMPANIES_MAX = 200;

/** Companies with at least one demand partner on the performance side. */
const isPerformanceCompany = (d: Db) =>
  exists(
    d
      .select({ one: sql`1` })
      .from(demandPartners)
      .where(and(eq(demandPartners.companyId, companies.id), eq(demandPartners.side, 'performance'))),
  );

/**
 * The instant the pacing is computed at: the start of the current hour (the warehouse holds whole
 * hours), or the end of the loaded data when that is earlier (a demo loaded days ago), as the
 * dashboard does. Spend and expected spend then cover the same stretch of the month.
 */
async function pacingInstant(ctx: AppContext): Promise<number> {
  const nowHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const range = await datasetRange(ctx.database);
  return range ? Math.min(nowHour, range.endMs) : nowHour;
}

/** Each row with its month's spend and pacing: one query for the page. */
async function withPacing(ctx: AppContext, rows: Row[]): Promise<Row[]> {
  const asOfMs = await pacingInstant(ctx);
  const bounds = rows.map((r) => monthBounds(String(r.month)));
  const spent = await query<{ id: number; spent: string }>(
    ctx.database,
    `SELECT b.id, COALESCE(sum(s.revenue_micros), 0)::text AS spent
       FROM unnest($1::int4[], $2::int4[], $3::int8[], $4::int8[]) AS b(id, company_id, from_ms, to_ms)
       LEFT JOIN demand_partners dp ON dp.company_id = b.company_id AND dp.side = 'performance'
       LEFT JOIN stats_r_partner s ON s.lvl = 1 AND s.demand_partner_id = dp.id
        AND s.ts >= to_timestamp(b.from_ms / 1000.0) AND s.ts < to_timestamp(b.to_ms / 1000.0)
      GROUP BY b.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.company_id),
      bounds.map((b) => b.startMs),
      // Up to the pacing instant: a day's row holds the hours loaded so far.
      bounds.map((b) => Math.min(b.endMs, asOfMs)),
    ],
  );
  const byId = new Map(spent.map((s) => [Number(s.id), BigInt(s.spent)]));
  return rows.map((r) => ({
    ...r,
    ...budgetPacing({
      amount: String(r.amount),
      currency: String(r.currency),
      month: String(r.month),
      spentMicros: byId.get(r.id as number) ?? 0n,
      asOfMs,
    }),
  }));
}

export async function budgetRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  resourceRoutes(root, ctx, budgets, {
    table: budgetsTable,
    unique: [{ constraint: 'budgets_company_month_idx', field: 'month', key: 'budget.month_taken' }],
    // Only the performance side: the company needs a performance-side demand partner (checked when
    // it is chosen; a budget whose company later left the side keeps its other edits).
    validate: async (d, data, before) => {
      if (before && before.company_id === data.company_id) return undefined;
      const [found] = await d
        .select({ id: companies.id })
        .from(companies)
        .where(and(eq(companies.id, data.company_id as number), isPerformanceCompany(d)))
        .limit(1);
      return found ? undefined : { company_id: 'budget.company_not_performance' };
    },
    decorate: (rows) => withPacing(ctx, rows),
    extraRoutes: (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      app.get(
        `${budgets.path}/companies`,
        {
          config: { auth: READ },
          schema: {
            tags: [budgets.name],
            summary: 'Companies a budget can be for: those with a performance-side demand partner',
            description: `q=text (legal or trade name contains) or ids=1,2; limit (default 50, at most ${COMPANIES_MAX}). Answers [{id, value}] by legal name.`,
            querystring: z.strictObject({
              q: z.string().max(200).optional(),
              ids: z.string().max(2000).optional(),
              limit: z
                .string()
                .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
                .optional(),
            }),
          },
        },
        async (request) => {
          const { q, ids, limit } = request.query;
          const db = ctx.database.db;
          let match: SQL | undefined;
          if (ids !== undefined) {
            const list = ids.split(',').filter(Boolean);
            if (!list.every(isIdText)) throw badRequest('error.validation', { ids: 'error.invalid_id' });
            match = list.length > 0 ? inArray(companies.id, list.map(Number)) : sql`false`;
          } else if (q?.trim()) {
            const pattern = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
            match = or(ilike(companies.legalName, pattern), ilike(companies.tradeName, pattern));
          }
          const rows = await db
            .select({ id: companies.id, value: companies.legalName })
            .from(companies)
            .where(and(isPerformanceCompany(db), match))
            .orderBy(asc(companies.legalName), asc(companies.id))
            .limit(Math.min(Number(limit ?? 50), COMPANIES_MAX));
          return ok(rows);
        },
      );
    },
  });
}
