/**
 * Billing rows (issue 21; screens `/billing_ssp/advertiser-billing`, `/billing_performance/
 * advertiser-billing`, `/billing_performance/supply-billing`, `/billing_performance/performance`).
 * The contract is core's (packages/core/src/billing-api.ts); the rules are core's billing.ts.
 * ACL `/v1/billing/{side}`: read to see, write for every change, approve to approve. Exchange rates
 * live under `/v1/billing/rates` (both sides' EUR totals use them).
 */
import { fromMicros, isEditable, monthlyRate, parseEcbCsv, toMicros, type BillingState } from '@backoffice/core/billing';
import {
  BILLING_SIDES,
  billingActionSchema,
  billingBankImportSchema,
  billingExportName,
  billingListQuerySchema,
  billingNettingSchema,
  billingPaymentSchema,
  billingRateSchema,
  billingRatesImportSchema,
  billingResource,
  billingRowPatchSchema,
  isBillingMonth,
  monthOf,
  type BillingKind,
} from '@backoffice/core/billing-api';
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { auditRows, readRun, startRun, whoOf } from './actions.ts';
import { computeMonth } from './compute.ts';
import { createNetting, listNettings, nettingCandidates, undoNetting } from './nettings.ts';
import { importBankCsv, recordPayment } from './payments.ts';
import { performanceOverview, reconcile } from './reconciliation.ts';
import { listRows, listWhere, orderBy, readRow, ROW_FROM, ROW_SELECT, rowIsLowMargin, toDto, todayUtc, type RawRow } from './rows.ts';

const TAGS = ['billing'];
const RATES_RESOURCE = '/v1/billing/rates';
const idParams = idParamsSchema;
const monthQuery = z.strictObject({ month: z.string({ error: 'billing.month_required' }).refine(isBillingMonth, 'billing.month_invalid') });
const kindMonthQuery = monthQuery.extend({ kind: z.enum(['advertiser', 'supply']).default('advertiser') });

/** The export's columns: title key and the cell of a row. */
const EXPORT_COLUMNS: { key: string; cell: (r: ReturnType<typeof toDto>) => TableCell; numeric?: boolean }[] = [
  { key: 'billing.col.counterparty', cell: (r) => r.counterparty.name },
  { key: 'billing.col.company', cell: (r) => r.counterparty.company_name },
  { key: 'billing.col.product', cell: (r) => r.product },
  { key: 'billing.col.currency', cell: (r) => r.currency },
  { key: 'billing.col.revenue_ours', cell: (r) => r.revenue_ours, numeric: true },
  { key: 'billing.col.revenue_network', cell: (r) => r.revenue_network, numeric: true },
  { key: 'billing.col.carried_in', cell: (r) => r.carried_in, numeric: true },
  { key: 'billing.col.revenue_gross', cell: (r) => r.revenue_gross, numeric: true },
  { key: 'billing.col.paid_revenue', cell: (r) => r.paid_revenue, numeric: true },
  { key: 'billing.col.pending', cell: (r) => r.pending, numeric: true },
  { key: 'billing.col.badge', cell: (r) => r.badge },
  { key: 'billing.col.received_payment_date', cell: (r) => r.received_payment_date },
  { key: 'billing.col.document_id', cell: (r) => r.document_id },
  { key: 'billing.col.min_amount', cell: (r) => r.min_amount, numeric: true },
  { key: 'billing.col.payment_terms', cell: (r) => r.payment_terms },
  { key: 'billing.col.due_date', cell: (r) => r.due_date },
  { key: 'billing.col.margin_pct', cell: (r) => r.margin_pct, numeric: true },
  { key: 'billing.col.state', cell: (r) => r.state },
  { key: 'billing.col.demand_partners', cell: (r) => r.demand_partners },
  { key: 'billing.col.description', cell: (r) => r.description },
];

export async function billingRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const database = ctx.database;

  for (const side of BILLING_SIDES) {
    const resource = billingResource(side);
    const READ = { auth: { permission: { resource, action: 'read' } } } as const;
    const WRITE = { auth: { permission: { resource, action: 'write' } } } as const;
    const base = `/v1/billing/${side}`;

    app.get(
      `${base}/rows`,
      { config: READ, schema: { tags: TAGS, summary: `A month's ${side} billing rows: filters, sort, page, totals per currency and in EUR`, querystring: billingListQuerySchema } },
      async (request) => ok(await listRows(database, side, request.query, request.caller?.acl ?? null)),
    );

    app.get(
      `${base}/rows/export`,
      { config: READ, schema: { tags: TAGS, summary: `The filtered ${side} billing rows as CSV or XLSX`, querystring: billingListQuerySchema } },
      async (request, reply) => {
        const q = request.query;
        const locale = localeFromAcceptLanguage(request.headers['accept-language']);
        const where = listWhere(q);
        const rows = await query<RawRow>(
          database,
          `SELECT ${ROW_SELECT} FROM ${ROW_FROM} WHERE ${where.sql} ORDER BY ${orderBy(q.sort)}`,
          [side, q.kind, q.month, ...where.params],
        );
        if (rows.length === 0) throw badRequest('report.export_empty');
        const today = todayUtc();
        const acl = request.caller?.acl ?? null;
        const dtos = rows.map((r) => toDto(r, acl, today));
        return sendTableFile(request, reply, {
          name: billingExportName(side, q.kind),
          format: q.format ?? 'csv',
          titles: EXPORT_COLUMNS.map((c) => translate(locale, c.key)),
          numeric: EXPORT_COLUMNS.map((c) => Boolean(c.numeric)),
          batches: (async function* () {
            yield dtos.map((d) => EXPORT_COLUMNS.map((c) => c.cell(d)));
          })(),
        });
      },
    );

    app.get(
      `${base}/rows/:id`,
      { config: READ, schema: { tags: TAGS, summary: 'One billing row: its payments, its history and its netting', params: idParams } },
      async (request) => {
        const id = Number(request.params.id);
        const row = await readRow(database, side, id);
        if (!row) throw notFound();
        const [payments, history] = await Promise.all([
          query(
            database,
            `SELECT p.id, p.amount::text, p.paid_on::text, p.document_id, p.reference, p.source, p.settles, p.created_at, u.name AS created_by
             FROM billing_payments p LEFT JOIN users u ON u.id = p.created_by WHERE p.row_id = $1 ORDER BY p.paid_on, p.id`,
            [id],
          ),
          query(
            database,
            `SELECT a.id, a.action, a.before, a.after, a.at AS created_at, u.name AS actor, s.name AS simulated_by
             FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id LEFT JOIN users s ON s.id = a.simulated_by_id
             WHERE a.entity = 'billing_rows' AND a.entity_id = $1 ORDER BY a.id DESC LIMIT 200`,
            [String(id)],
          ),
        ]);
        return ok({ row: toDto(row, request.caller?.acl ?? null, todayUtc()), payments, history });
      },
    );

    app.patch(
      `${base}/rows/:id`,
      {
        config: WRITE,
        schema: { tags: TAGS, summary: "Edit a row: the revenue network (an open row's), the document id, the description", params: idParams, body: billingRowPatchSchema },
      },
      async (request) => {
        const id = Number(request.params.id);
        const body = request.body;
        const who = whoOf(request);
        const updated = await transaction(database, async (q) => {
          const row = await readRow(q, side, id, true);
          if (!row) throw notFound();
          if (Number(row.version) !== body.version)
            throw new AppError(409, 'billing.row_changed', { data: toDto(row, request.caller?.acl ?? null, todayUtc()) });
          const sets: string[] = [];
          const params: unknown[] = [id];
          const before: Record<string, unknown> = {};
          const after: Record<string, unknown> = {};
          const set = (col: string, value: unknown, cast = '') => {
            params.push(value);
            sets.push(`${col} = $${params.length}${cast}`);
            before[col] = row[col] ?? null;
            after[col] = value;
          };
          if (body.revenue_network !== undefined) {
            if (!isEditable(row.state as BillingState)) throw badRequest('billing.not_editable', { revenue_network: 'billing.not_editable' });
            const value = body.revenue_network === null ? null : fromMicros(toMicros(body.revenue_network), 6);
            set('revenue_network', value, '::numeric');
          }
          if (body.document_id !== undefined) set('document_id', body.document_id || null);
          if (body.description !== undefined) set('description', body.description);
          if (sets.length === 0) throw badRequest('billing.nothing_changed');
          params.push(who.userId);
          await q(`UPDATE billing_rows SET ${sets.join(', ')}, version = version + 1, updated_by = $${params.length}, updated_at = now() WHERE id = $1`, params);
          await auditRows(q, who, 'billing_rows.edit', [{ id, before, after }]);
          return (await readRow(q, side, id))!;
        });
        const dto = toDto(updated, request.caller?.acl ?? null, todayUtc());
        return ok(dto, rowIsLowMargin(updated) ? 'billing.saved_low_margin' : 'billing.saved');
      },
    );

    app.post(
      `${base}/actions`,
      { config: WRITE, schema: { tags: TAGS, summary: 'A bulk action over rows (a run with per-row results; idempotent by key)', body: billingActionSchema } },
      async (request, reply) => {
        const run = await startRun(database, request, side, request.body, request.log);
        if (run.status === 'running') reply.code(202);
        return ok(run, run.status === 'done' ? 'billing.action_done' : 'billing.action_running');
      },
    );

    app.get(
      `${base}/actions/:id`,
      { config: READ, schema: { tags: TAGS, summary: "A bulk action's progress and per-row results", params: idParams } },
      async (request) => {
        const run = await readRun(database, side, Number(request.params.id));
        if (!run) throw notFound();
        return ok(run);
      },
    );

    app.post(
      `${base}/compute`,
      { config: WRITE, schema: { tags: TAGS, summary: "Recompute a month's open rows from the warehouse", body: monthQuery } },
      async (request) => {
        const { month } = request.body;
        if (month > monthOf(Date.now())) throw badRequest('billing.month_future', { month: 'billing.month_future' });
        const who = whoOf(request);
        const result = await computeMonth(database, side, month, who.userId);
        await query(
          database,
          `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, after)
           VALUES ($1, $2, $3, $4, 'billing_rows.compute', 'billing_months', $5, $6::jsonb)`,
          [who.userId, who.simulatedById, who.simulatedRoleId, who.ip, `${side}:${month}`, JSON.stringify(result)],
        );
        return ok(result, 'billing.computed');
      },
    );

    app.post(
      `${base}/rows/:id/payments`,
      { config: WRITE, schema: { tags: TAGS, summary: 'Record a payment on a row', params: idParams, body: billingPaymentSchema } },
      async (request, reply) => {
        const id = Number(request.params.id);
        const { version, ...payment } = request.body;
        await recordPayment(database, side, id, version, payment, whoOf(request), request.caller?.acl ?? null);
        reply.code(201);
        return ok(toDto((await readRow(database, side, id))!, request.caller?.acl ?? null, todayUtc()), 'billing.payment_recorded');
      },
    );

    app.post(
      `${base}/payments/import`,
      {
        config: WRITE,
        schema: { tags: TAGS, summary: 'A bank statement CSV matched to rows by document id: preview (dry_run) or apply', body: billingBankImportSchema },
        bodyLimit: 6 * 1024 * 1024,
      },
      async (request) => {
        const answer = await importBankCsv(database, side, request.body.csv, request.body.dry_run, whoOf(request));
        return ok(answer, answer.applied ? 'billing.bank.applied' : 'ok');
      },
    );

    app.get(
      `${base}/reconciliation`,
      { config: READ, schema: { tags: TAGS, summary: "A month's billing against the warehouse, per counterparty, the differences explained", querystring: kindMonthQuery } },
      async (request) => ok(await reconcile(database, side, request.query.kind as BillingKind, request.query.month)),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Netting (SSP)

  const SSP_READ = { auth: { permission: { resource: billingResource('ssp'), action: 'read' } } } as const;
  const SSP_WRITE = { auth: { permission: { resource: billingResource('ssp'), action: 'write' } } } as const;

  app.get(
    '/v1/billing/ssp/nettings',
    { config: SSP_READ, schema: { tags: TAGS, summary: "A month's nettings and the companies that can be netted", querystring: monthQuery } },
    async (request) => {
      const { month } = request.query;
      const [nettings, candidates] = await Promise.all([listNettings(database, month), nettingCandidates(database, month)]);
      return ok({ nettings, candidates });
    },
  );
  app.post(
    '/v1/billing/ssp/nettings',
    { config: SSP_WRITE, schema: { tags: TAGS, summary: "Net a company's receivable and payable rows of a month", body: billingNettingSchema } },
    async (request, reply) => {
      reply.code(201);
      return ok(await createNetting(database, request.body.month, request.body.company_id, whoOf(request)), 'billing.netting.created');
    },
  );
  app.post(
    '/v1/billing/ssp/nettings/:id/undo',
    { config: SSP_WRITE, schema: { tags: TAGS, summary: 'Undo a netting (while none of its rows is approved)', params: idParams } },
    async (request) => ok(await undoNetting(database, Number(request.params.id), whoOf(request)), 'billing.netting.undone'),
  );

  // ---------------------------------------------------------------------------------------------
  // Performance overview

  app.get(
    '/v1/billing/performance/overview',
    {
      config: { auth: { permission: { resource: billingResource('performance'), action: 'read' } } },
      schema: { tags: TAGS, summary: "The month's performance side: revenue, cost and margin by product, rows per state", querystring: monthQuery },
    },
    async (request) => ok(await performanceOverview(database, request.query.month)),
  );

  // ---------------------------------------------------------------------------------------------
  // Exchange rates

  app.get(
    '/v1/billing/rates',
    {
      config: { auth: { permission: { resource: RATES_RESOURCE, action: 'read' } } },
      schema: { tags: TAGS, summary: "A month's exchange rates (units for 1 EUR) and the currencies its rows need", querystring: monthQuery },
    },
    async (request) => {
      const { month } = request.query;
      const [rates, needed] = await Promise.all([
        query(database, `SELECT r.currency, r.rate::text, r.source, r.updated_at, u.name AS updated_by FROM billing_rates r LEFT JOIN users u ON u.id = r.updated_by WHERE r.month = $1 ORDER BY r.currency`, [month]),
        query<{ currency: string }>(database, `SELECT DISTINCT currency FROM billing_rows WHERE month = $1 AND currency <> 'EUR' ORDER BY currency`, [month]),
      ]);
      return ok({ month, rates, needed: needed.map((n) => n.currency) });
    },
  );
  app.put(
    '/v1/billing/rates',
    { config: { auth: { permission: { resource: RATES_RESOURCE, action: 'write' } } }, schema: { tags: TAGS, summary: "Set a month's rate for a currency", body: billingRateSchema } },
    async (request) => {
      const { month, currency, rate } = request.body;
      if (currency === 'EUR') throw badRequest('billing.rate_eur', { currency: 'billing.rate_eur' });
      const who = whoOf(request);
      await transaction(database, async (q) => {
        const [before] = await q<{ rate: string }>('SELECT rate::text FROM billing_rates WHERE month = $1 AND currency = $2', [month, currency]);
        await q(
          `INSERT INTO billing_rates (month, currency, rate, source, updated_by) VALUES ($1, $2, $3::numeric, 'manual', $4)
           ON CONFLICT (month, currency) DO UPDATE SET rate = excluded.rate, source = 'manual', updated_by = excluded.updated_by, updated_at = now()`,
          [month, currency, rate, who.userId],
        );
        await q(
          `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
           VALUES ($1, $2, $3, $4, 'billing_rates.set', 'billing_rates', $5, $6::jsonb, $7::jsonb)`,
          [who.userId, who.simulatedById, who.simulatedRoleId, who.ip, `${month}:${currency}`, JSON.stringify(before ?? null), JSON.stringify({ rate })],
        );
      });
      return ok({ month, currency, rate: fromMicros(toMicros(rate), 6) }, 'billing.rate_saved');
    },
  );
  app.post(
    '/v1/billing/rates/import',
    {
      config: { auth: { permission: { resource: RATES_RESOURCE, action: 'write' } } },
      schema: { tags: TAGS, summary: "An ECB reference-rate CSV: every month it covers gets the month's average rate", body: billingRatesImportSchema },
      bodyLimit: 21 * 1024 * 1024,
    },
    async (request) => {
      const parsed = parseEcbCsv(request.body.csv);
      if (parsed.days.size === 0) throw badRequest(parsed.errors[0]?.key ?? 'billing.rates.empty', { csv: parsed.errors[0]?.key ?? 'billing.rates.empty' });
      const used = await query<{ currency: string }>(database, `SELECT DISTINCT currency FROM billing_rows WHERE currency <> 'EUR'`);
      const currencies = request.body.currencies ?? [...new Set(['USD', 'GBP', ...used.map((u) => u.currency)])];
      const months = [...new Set([...parsed.days.keys()].map((d) => d.slice(0, 7)))].sort();
      const rows: { month: string; currency: string; rate: string }[] = [];
      for (const month of months)
        for (const currency of currencies) {
          const rate = monthlyRate(parsed.days, month, currency);
          if (rate !== null && currency !== 'EUR') rows.push({ month, currency, rate });
        }
      const who = whoOf(request);
      await transaction(database, async (q) => {
        if (rows.length > 0)
          await q(
            `INSERT INTO billing_rates (month, currency, rate, source, updated_by)
             SELECT r.month, r.currency, r.rate::numeric, 'ecb', $2::int4 FROM jsonb_to_recordset($1::jsonb) AS r(month text, currency text, rate text)
             ON CONFLICT (month, currency) DO UPDATE SET rate = excluded.rate, source = 'ecb', updated_by = excluded.updated_by, updated_at = now()`,
            [JSON.stringify(rows), who.userId],
          );
        await q(
          `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, after)
           VALUES ($1, $2, $3, $4, 'billing_rates.import', 'billing_rates', $5, $6::jsonb)`,
          [who.userId, who.simulatedById, who.simulatedRoleId, who.ip, months.length ? `${months[0]}..${months[months.length - 1]}` : '', JSON.stringify({ rates: rows.length })],
        );
      });
      return ok({ months, rates: rows, errors: parsed.errors }, 'billing.rates.imported');
    },
  );
}

