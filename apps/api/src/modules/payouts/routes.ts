/**
 * Publisher payouts (issue 23; screens `/billing_performance/publishers_reports`,
 * `/billing_ssp/supply-billing`, `/billing_performance/performance-publisher-monthly-report`).
 * The contract and the rules are core's (packages/core/src/payouts.ts). ACL `/v1/payouts`: read to
 * see, write for every change, approve to approve (final) and to set the alert thresholds.
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { documentLanguage } from '@backoffice/core/invoices';
import {
  PAYOUT_SIDES,
  PAYOUTS_RESOURCE,
  payoutActionSchema,
  payoutComputeSchema,
  payoutConfirmSchema,
  payoutExportName,
  payoutImportSchema,
  payoutListQuerySchema,
  payoutPatchSchema,
  payoutSepaSchema,
  payoutSettingsSchema,
  payoutVerificationSchema,
  type PayoutDto,
} from '@backoffice/core/payouts';
import { can } from '@backoffice/core/acl';
import type { FastifyInstance } from 'fastify';
import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { auditRows, whoOf } from '../billing/actions.ts';
import { computePayouts } from './compute.ts';
import { importPayoutPayments } from './payments.ts';
import { sepaCreditTransfer, sepaRefusal } from './sepa.ts';
import {
  actOnPayouts,
  confirmPayouts,
  createVerification,
  listPayouts,
  patchPayout,
  payoutHistory,
  payoutOrder,
  payoutWhere,
  PAYOUT_FROM,
  PAYOUT_SELECT,
  readPayout,
  readSettings,
  toPayoutDto,
  writeSettings,
  type RawPayout,
} from './service.ts';
import { renderPayoutStatement } from './statement.ts';

const TAGS = ['payouts'];
const READ = { auth: { permission: { resource: PAYOUTS_RESOURCE, action: 'read' } } } as const;
const WRITE = { auth: { permission: { resource: PAYOUTS_RESOURCE, action: 'write' } } } as const;
const APPROVE = { auth: { permission: { resource: PAYOUTS_RESOURCE, action: 'approve' } } } as const;

const EXPORT_COLUMNS: { key: string; cell: (p: PayoutDto) => TableCell; numeric?: boolean }[] = [
  { key: 'payout.col.id_user', cell: (p) => p.id_user },
  { key: 'payout.col.name', cell: (p) => p.name },
  { key: 'payout.col.company', cell: (p) => p.publisher.company_name },
  { key: 'payout.col.from_date', cell: (p) => p.from_date },
  { key: 'payout.col.to_date', cell: (p) => p.to_date },
  { key: 'payout.col.payment_terms', cell: (p) => p.payment_terms },
  { key: 'payout.col.currency', cell: (p) => p.currency },
  { key: 'payout.col.revenue_gross', cell: (p) => p.revenue_gross, numeric: true },
  { key: 'payout.col.share_pct', cell: (p) => p.share_pct, numeric: true },
  { key: 'payout.col.new_revenue', cell: (p) => p.new_revenue, numeric: true },
  { key: 'payout.col.carried_in', cell: (p) => p.carried_in, numeric: true },
  { key: 'payout.col.adjustment', cell: (p) => p.adjustment, numeric: true },
  { key: 'payout.col.payout', cell: (p) => p.payout, numeric: true },
  { key: 'payout.col.state', cell: (p) => p.state },
  { key: 'payout.col.alerts', cell: (p) => p.alerts.join(' ') },
  { key: 'payout.col.comments', cell: (p) => p.comments },
  { key: 'payout.col.paid_on', cell: (p) => p.paid_on },
  { key: 'payout.col.bank_reference', cell: (p) => p.bank_reference },
];

export async function payoutRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const database = ctx.database;
  const nowMs = () => ctx.now?.() ?? Date.now();
  const today = () => new Date(nowMs()).toISOString().slice(0, 10);

  app.get('/v1/payouts/settings', { config: READ, schema: { tags: TAGS, summary: 'The payout alert thresholds' } }, async () => ok(await readSettings(database)));
  app.put(
    '/v1/payouts/settings',
    { config: APPROVE, schema: { tags: TAGS, summary: 'Set the payout alert thresholds (over-revenue %, over-share points)', body: payoutSettingsSchema } },
    async (request) => ok(await writeSettings(database, request.body, whoOf(request))),
  );

  for (const side of PAYOUT_SIDES) {
    const base = `/v1/payouts/${side}`;

    app.get(
      base,
      { config: READ, schema: { tags: TAGS, summary: `A month's ${side} payouts: filters, sort, page, totals`, querystring: payoutListQuerySchema } },
      async (request) => ok(await listPayouts(database, side, request.query, request.caller?.acl ?? null, today())),
    );

    app.get(
      `${base}/export`,
      { config: READ, schema: { tags: TAGS, summary: `The filtered ${side} payouts as CSV or XLSX`, querystring: payoutListQuerySchema } },
      async (request, reply) => {
        const q = request.query;
        const settings = await readSettings(database);
        const where = payoutWhere(q, settings);
        const rows = await query<RawPayout>(database, `SELECT ${PAYOUT_SELECT} FROM ${PAYOUT_FROM} WHERE ${where.sql} ORDER BY ${payoutOrder(q.sort)}`, [side, q.month, ...where.params]);
        if (rows.length === 0) throw badRequest('report.export_empty');
        const locale = localeFromAcceptLanguage(request.headers['accept-language']);
        const acl = request.caller?.acl ?? null;
        const dtos = rows.map((r) => toPayoutDto(r, acl, settings));
        return sendTableFile(request, reply, {
          name: payoutExportName(side),
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
      `${base}/:id`,
      { config: READ, schema: { tags: TAGS, summary: 'One payout with its history', params: idParamsSchema } },
      async (request) => {
        const row = await transaction(database, (q) => readPayout(q, side, request.params.id));
        if (!row) throw notFound();
        const settings = await readSettings(database);
        return ok({ payout: toPayoutDto(row, request.caller?.acl ?? null, settings), history: await payoutHistory(database, request.params.id) });
      },
    );

    app.patch(
      `${base}/:id`,
      { config: WRITE, schema: { tags: TAGS, summary: "A pending or held payout's adjustment and comments", params: idParamsSchema, body: payoutPatchSchema } },
      async (request) => ok(await patchPayout(database, side, request.params.id, request.body, whoOf(request), request.caller?.acl ?? null)),
    );

    app.get(
      `${base}/:id/statement.pdf`,
      { config: READ, schema: { tags: TAGS, summary: "The publisher's payout statement of the month (PDF)", params: idParamsSchema } },
      async (request, reply) => {
        const row = await transaction(database, (q) => readPayout(q, side, request.params.id));
        if (!row) throw notFound();
        const dto = toPayoutDto(row, null, await readSettings(database));
        const [issuer] = await query<{ legal_name: string; tax_id: string; address: string; city: string; postal_code: string; country: string; email: string }>(
          database,
          `SELECT legal_name, tax_id, address, city, postal_code, country, email FROM invoice_issuers WHERE team = $1`,
          [side],
        );
        if (!issuer) throw new AppError(422, 'invoice.no_issuer');
        const [company] = await query<{ tax_id: string | null; country: string | null; address: string | null; city: string | null }>(
          database,
          `SELECT c.tax_id, c.country, c.address, c.city FROM publishers pb LEFT JOIN companies c ON c.id = pb.company_id WHERE pb.id = $1`,
          [dto.id_user],
        );
        const pdf = await renderPayoutStatement(dto, issuer, company ?? { tax_id: null, country: null, address: null, city: null }, documentLanguage(company?.country ?? 'GB'));
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="payout_${dto.month}_${dto.id_user}.pdf"`)
          .send(pdf);
      },
    );

    app.post(
      `${base}/compute`,
      { config: WRITE, schema: { tags: TAGS, summary: "Compute a month's payouts from the warehouse (pending payouts take the new figures)", body: payoutComputeSchema } },
      async (request) => {
        if (request.body.month > today().slice(0, 7)) throw badRequest('payout.month_future', { month: 'payout.month_future' });
        return ok(await computePayouts(database, side, request.body.month, request.caller?.id ?? null));
      },
    );

    app.post(
      `${base}/verification`,
      { config: WRITE, schema: { tags: TAGS, summary: 'A single-use, expiring code to type for confirming exactly these payouts', body: payoutVerificationSchema } },
      async (request) => ok(await createVerification(database, side, request.body.ids, request.caller!.id, nowMs())),
    );

    app.post(
      `${base}/confirm`,
      { config: WRITE, schema: { tags: TAGS, summary: 'Confirm payouts: comment of 10+ characters, the typed code, alerts acknowledged', body: payoutConfirmSchema } },
      async (request) => ok(await confirmPayouts(database, side, request.body, whoOf(request), request.caller?.acl ?? null, nowMs())),
    );

    app.post(
      `${base}/actions`,
      { config: WRITE, schema: { tags: TAGS, summary: 'Unconfirm, hold, release, approve (final) or mark paid a selection', body: payoutActionSchema } },
      async (request) => ok(await actOnPayouts(database, side, request.body, whoOf(request), request.caller?.acl ?? null, nowMs())),
    );

    app.post(
      `${base}/payments/import`,
      { config: WRITE, schema: { tags: TAGS, summary: 'A payment CSV: preview (dry_run) or mark the matched payouts paid', body: payoutImportSchema } },
      async (request) => ok(await importPayoutPayments(database, side, request.body.csv, request.body.dry_run, whoOf(request), request.caller?.acl ?? null, today())),
    );

    app.post(
      `${base}/sepa`,
      { config: WRITE, schema: { tags: TAGS, summary: 'A SEPA credit transfer file (pain.001.001.03) for approved EUR payouts', body: payoutSepaSchema } },
      async (request, reply) => {
        if (!can(request.caller?.acl ?? null, PAYOUTS_RESOURCE, 'write')) throw forbidden();
        const { ids, execution_date } = request.body;
        if (execution_date < today()) throw new AppError(422, 'payout.sepa.date_past', { errors: { execution_date: 'payout.sepa.date_past' } });
        const rows = await query<{ id: number; state: string; currency: string; iban: string | null; payout: string; month: string; legal_name: string | null; name: string; country: string | null }>(
          database,
          `SELECT o.id, o.state, o.currency, c.iban, o.payout::text, o.month, c.legal_name, pb.name, c.country
           FROM payouts o JOIN publishers pb ON pb.id = o.publisher_id LEFT JOIN companies c ON c.id = pb.company_id
           WHERE o.side = $1 AND o.id = ANY($2::int4[]) ORDER BY o.id`,
          [side, [...new Set(ids)]],
        );
        if (rows.length !== new Set(ids).size) throw notFound();
        const refused = rows.map((r) => ({ id: Number(r.id), reason: sepaRefusal(r) })).filter((r) => r.reason);
        if (refused.length > 0) throw new AppError(422, 'payout.sepa.refused', { data: refused, params: { count: refused.length } });
        const [issuer] = await query<{ legal_name: string; country: string; address: string; city: string; postal_code: string; iban: string; bic: string | null }>(
          database,
          `SELECT legal_name, country, address, city, postal_code, iban, bic FROM invoice_issuers WHERE team = $1`,
          [side],
        );
        if (!issuer) throw new AppError(422, 'invoice.no_issuer');
        const created = new Date(nowMs());
        const messageId = `PO${side === 'ssp' ? 'S' : 'P'}${created.toISOString().replace(/\D/g, '').slice(0, 14)}${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
        const xml = sepaCreditTransfer({
          messageId,
          createdAt: created,
          executionDate: execution_date,
          debtor: { name: issuer.legal_name, country: issuer.country, address: issuer.address, city: issuer.city, postalCode: issuer.postal_code, iban: issuer.iban, bic: issuer.bic },
          transfers: rows.map((r) => ({ payoutId: Number(r.id), month: r.month, amount: r.payout, creditorName: r.legal_name ?? r.name, creditorCountry: r.country, iban: r.iban! })),
        });
        await transaction(database, async (q) => {
          await q(`UPDATE payouts SET sepa_message_id = $2 WHERE id = ANY($1::int4[])`, [rows.map((r) => Number(r.id)), messageId]);
          await auditRows(q, whoOf(request), 'payout.sepa', rows.map((r) => ({ id: Number(r.id), before: null, after: { sepa_message_id: messageId, execution_date } })), 'payouts');
        });
        return reply
          .header('content-type', 'application/xml; charset=utf-8')
          .header('content-disposition', `attachment; filename="${messageId}.xml"`)
          .send(xml);
      },
    );
  }
}
