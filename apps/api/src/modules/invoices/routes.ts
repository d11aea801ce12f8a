/**
 * Invoices and credit notes (issue 22; screens `/billing_ssp/invoice-precreation` "Create invoice /
 * Credit note" and `/billing/{team}` "Invoices preview"). The contract and the rules are core's
 * (packages/core/src/invoices.ts); the work is service.ts. ACL `/v1/invoices`: read to see, write
 * to precreate, edit drafts, record payments and send, approve to issue and credit (final).
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import {
  creditNoteSchema,
  invoiceCandidatesQuerySchema,
  INVOICES_RESOURCE,
  invoiceBlockedSchema,
  invoiceIssueSchema,
  invoiceListQuerySchema,
  invoicePatchSchema,
  invoicePaymentSchema,
  invoicePrecreateSchema,
  invoiceSendSchema,
  invoicesExportName,
  type InvoiceListItem,
} from '@backoffice/core/invoices';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { createMailer } from '../../lib/mailer.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query } from '../../reports-data/sql.ts';
import { whoOf } from '../billing/actions.ts';
import { submitRecords, verifyStoredChain } from './chain.ts';
import { invoiceToFacturae } from './einvoice/facturae.ts';
import { invoiceToUbl } from './einvoice/ubl.ts';
import { renderInvoicePdf } from './pdf/render.ts';
import {
  backToPending,
  candidates,
  createCreditNote,
  discardDraft,
  documentOf,
  invoiceDetail,
  issueMany,
  LIST_FROM,
  LIST_SELECT,
  listInvoices,
  listWhere,
  markPaid,
  markSent,
  orderOf,
  patchDraft,
  precreate,
  readInvoice,
  recordPayment,
  setBlocked,
  todayMadrid,
  toItem,
  type RawInvoice,
} from './service.ts';

const TAGS = ['invoices'];
const READ = { auth: { permission: { resource: INVOICES_RESOURCE, action: 'read' } } } as const;
const WRITE = { auth: { permission: { resource: INVOICES_RESOURCE, action: 'write' } } } as const;
const APPROVE = { auth: { permission: { resource: INVOICES_RESOURCE, action: 'approve' } } } as const;
const idParams = idParamsSchema;
const exportQuery = invoiceListQuerySchema
  .omit({ page: true, page_size: true })
  .extend({ format: z.enum(['csv', 'xlsx']).default('csv') });

const EXPORT_COLUMNS: { key: string; cell: (r: InvoiceListItem) => TableCell; numeric?: boolean }[] = [
  { key: 'invoice.col.number', cell: (r) => r.number },
  { key: 'invoice.col.id_user', cell: (r) => r.id_user },
  { key: 'invoice.col.name', cell: (r) => r.name },
  { key: 'invoice.col.company', cell: (r) => r.company_name },
  { key: 'invoice.col.account_type', cell: (r) => r.account_type },
  { key: 'invoice.col.payment_terms', cell: (r) => r.payment_terms },
  { key: 'invoice.col.blocked', cell: (r) => (r.blocked ? 'yes' : 'no') },
  { key: 'invoice.col.date_start', cell: (r) => r.date_start },
  { key: 'invoice.col.date_end', cell: (r) => r.date_end },
  { key: 'invoice.col.impressions', cell: (r) => r.impressions, numeric: true },
  { key: 'invoice.col.currency', cell: (r) => r.currency },
  { key: 'invoice.col.revenue', cell: (r) => r.revenue, numeric: true },
  { key: 'invoice.col.fraud_percentage', cell: (r) => r.fraud_percentage, numeric: true },
  { key: 'invoice.col.fraud_revenue', cell: (r) => r.fraud_revenue, numeric: true },
  { key: 'invoice.col.spoofing_percentage', cell: (r) => r.spoofing_percentage, numeric: true },
  { key: 'invoice.col.spoofing_revenue', cell: (r) => r.spoofing_revenue, numeric: true },
  { key: 'invoice.col.revenue_fraud', cell: (r) => r.revenue_fraud, numeric: true },
  { key: 'invoice.col.new_revenue_net', cell: (r) => r.new_revenue_net, numeric: true },
  { key: 'invoice.col.apply_deductions', cell: (r) => (r.apply_deductions ? 'yes' : 'no') },
  { key: 'invoice.col.comments', cell: (r) => r.comments },
  { key: 'invoice.col.vat_amount', cell: (r) => r.vat_amount, numeric: true },
  { key: 'invoice.col.total', cell: (r) => r.total, numeric: true },
  { key: 'invoice.col.paid', cell: (r) => r.paid, numeric: true },
  { key: 'invoice.col.outstanding', cell: (r) => r.outstanding, numeric: true },
  { key: 'invoice.col.issue_date', cell: (r) => r.issue_date },
  { key: 'invoice.col.due_date', cell: (r) => r.due_date },
  { key: 'invoice.col.state', cell: (r) => r.state },
];

export async function invoiceRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const database = ctx.database;
  const env = ctx.config.verifactuEnvironment;
  /** Sends new records to the tax agency when a sender is configured (off by default). */
  const submit = async (request: FastifyRequest, invoiceIds: number[]) => {
    if (ctx.verifactuSender)
      await submitRecords(database, ctx.verifactuSender, invoiceIds, (err) =>
        request.log.error({ err }, 'VERI*FACTU submission failed'),
      );
  };

  app.get(
    '/v1/invoices',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary:
          'The preview (drafts) and the issued invoices and credit notes: filters, sort, page, totals per currency',
        querystring: invoiceListQuerySchema,
      },
    },
    async (request) => ok(await listInvoices(database, request.query)),
  );

  app.get(
    '/v1/invoices/export',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'The filtered invoices as CSV or XLSX (the preview columns and the figures)',
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const q = { ...request.query, page: 1, page_size: 1 };
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const where = listWhere(q);
      const rows = await query<RawInvoice>(
        database,
        `SELECT ${LIST_SELECT} FROM ${LIST_FROM} WHERE ${where.sql} ORDER BY ${orderOf(q.sort)}`,
        where.params,
      );
      if (rows.length === 0) throw badRequest('report.export_empty');
      const today = todayMadrid();
      const items = rows.map((r) => toItem(r, today));
      return sendTableFile(request, reply, {
        name: invoicesExportName(q.team),
        format: request.query.format,
        titles: EXPORT_COLUMNS.map((c) => translate(locale, c.key)),
        numeric: EXPORT_COLUMNS.map((c) => Boolean(c.numeric)),
        batches: (async function* () {
          yield items.map((d) => EXPORT_COLUMNS.map((c) => c.cell(d)));
        })(),
      });
    },
  );

  app.get(
    '/v1/invoices/verifactu/verify',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'Recompute the VERI*FACTU record chains (one per issuer): the first broken link, if any',
      },
    },
    async () => ok(await verifyStoredChain(database)),
  );

  app.get(
    '/v1/invoices/candidates',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary:
          'What precreation would draft: the approved billing rows of the months on no invoice yet, per counterparty and currency',
        querystring: invoiceCandidatesQuerySchema,
      },
    },
    async (request) => ok(await candidates(database, request.query.team, request.query.months)),
  );

  app.post(
    '/v1/invoices/precreate',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary:
          "Drafts from the months' approved billing rows not yet invoiced: one per counterparty and currency",
        body: invoicePrecreateSchema,
      },
    },
    async (request) => {
      const result = await precreate(database, whoOf(request), request.body);
      return ok(result, result.created.length > 0 ? 'invoice.precreated' : 'invoice.nothing_to_precreate');
    },
  );

  app.get(
    '/v1/invoices/:id',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary:
          'One invoice or credit note: lines, billing rows, payments, credit notes, VERI*FACTU record, history',
        params: idParams,
      },
    },
    async (request) => ok(await invoiceDetail(database, Number(request.params.id), env)),
  );

  app.patch(
    '/v1/invoices/:id',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary:
          "A draft's fraud and spoofing deductions (a percentage or an amount), apply_deductions and comments",
        params: idParams,
        body: invoicePatchSchema,
      },
    },
    async (request) =>
      ok(
        toItem(
          await patchDraft(database, whoOf(request), Number(request.params.id), request.body),
          todayMadrid(),
        ),
        'invoice.saved',
      ),
  );

  app.delete(
    '/v1/invoices/:id',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Discard a draft (its billing rows can go on another)',
        params: idParams,
      },
    },
    async (request) => {
      await discardDraft(database, whoOf(request), Number(request.params.id));
      return ok(null, 'invoice.discarded');
    },
  );

  app.post(
    '/v1/invoices/issue',
    {
      config: APPROVE,
      schema: {
        tags: TAGS,
        summary:
          'Issue drafts: the next numbers of the series, the customer as it is now, a VERI*FACTU record each (final)',
        body: invoiceIssueSchema,
      },
    },
    async (request) => {
      const results = await issueMany(
        database,
        whoOf(request),
        request.body.ids,
        request.body.issue_date,
        env,
      );
      await submit(
        request,
        results.filter((r) => r.status === 'issued').map((r) => r.id),
      );
      return ok(
        results,
        results.some((r) => r.status === 'issued') ? 'invoice.issued' : 'invoice.nothing_issued',
      );
    },
  );

  app.post(
    '/v1/invoices/:id/credit-note',
    {
      config: APPROVE,
      schema: {
        tags: TAGS,
        summary:
          'Issue a credit note correcting an issued invoice (its own series, negative amounts, the reason)',
        params: idParams,
        body: creditNoteSchema,
      },
    },
    async (request) => {
      const note = await createCreditNote(
        database,
        whoOf(request),
        Number(request.params.id),
        request.body,
        env,
      );
      await submit(request, [note.id]);
      return ok(note, 'invoice.credit.issued');
    },
  );

  app.post(
    '/v1/invoices/:id/payments',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Record a payment of an issued invoice',
        params: idParams,
        body: invoicePaymentSchema,
      },
    },
    async (request) =>
      ok(
        toItem(
          await recordPayment(database, whoOf(request), Number(request.params.id), request.body),
          todayMadrid(),
        ),
        'invoice.payment.recorded',
      ),
  );

  app.post(
    '/v1/invoices/:id/mark-paid',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Mark as paid: what is outstanding, paid today (idempotent)',
        params: idParams,
      },
    },
    async (request) =>
      ok(
        toItem(await markPaid(database, whoOf(request), Number(request.params.id)), todayMadrid()),
        'invoice.marked_paid',
      ),
  );

  app.post(
    '/v1/invoices/:id/back-to-pending',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Back to pending: the payments reversed, the invoice owed again',
        params: idParams,
      },
    },
    async (request) =>
      ok(
        toItem(await backToPending(database, whoOf(request), Number(request.params.id)), todayMadrid()),
        'invoice.back_to_pending',
      ),
  );

  app.post(
    '/v1/invoices/blocked/:id',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: "Block or unblock a counterparty's invoicing (the preview's blocked column)",
        params: idParams,
        body: invoiceBlockedSchema,
      },
    },
    async (request) => {
      await setBlocked(
        database,
        whoOf(request),
        Number(request.params.id),
        request.body.blocked,
        request.body.reason,
      );
      return ok(null, request.body.blocked ? 'invoice.blocked_on' : 'invoice.blocked_off');
    },
  );

  const issuedDocument = async (id: number) => {
    const r = await readInvoice(database, id);
    if (!r) throw notFound();
    if (r.state === 'draft') throw badRequest('invoice.not_issued');
    return documentOf(database, id, env);
  };

  app.get(
    '/v1/invoices/:id/pdf',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'The PDF of an issued invoice or credit note (rendered on the server, fonts embedded)',
        params: idParams,
      },
    },
    async (request, reply) => {
      const doc = await issuedDocument(Number(request.params.id));
      const pdf = await renderInvoicePdf(doc);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${doc.number}.pdf"`)
        .send(pdf);
    },
  );

  app.post(
    '/v1/invoices/:id/pdf',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Regenerate the PDF: renders it again and says whether it equals the one rendered before',
        params: idParams,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const doc = await issuedDocument(id);
      const sha = crypto
        .createHash('sha256')
        .update(await renderInvoicePdf(doc))
        .digest('hex');
      const [before] = await query<{ pdf_sha256: string | null }>(
        database,
        `SELECT pdf_sha256 FROM invoices WHERE id = $1`,
        [id],
      );
      const previous = before?.pdf_sha256 ?? null;
      if (!previous)
        await query(database, `UPDATE invoices SET pdf_sha256 = $2 WHERE id = $1 AND pdf_sha256 IS NULL`, [
          id,
          sha,
        ]);
      const same = previous === null || previous === sha;
      return ok({ sha256: sha, previous, same }, same ? 'invoice.pdf_same' : 'invoice.pdf_changed');
    },
  );

  app.get(
    '/v1/invoices/:id/ubl',
    {
      config: READ,
      schema: { tags: TAGS, summary: 'The invoice as UBL 2.1 (EN 16931) XML', params: idParams },
    },
    async (request, reply) => {
      const doc = await issuedDocument(Number(request.params.id));
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${doc.number}.ubl.xml"`)
        .send(invoiceToUbl(doc));
    },
  );

  app.get(
    '/v1/invoices/:id/facturae',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'The invoice as Facturae 3.2.2 XML (Spanish public sector; unsigned)',
        params: idParams,
      },
    },
    async (request, reply) => {
      const doc = await issuedDocument(Number(request.params.id));
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${doc.number}.xsig.xml"`)
        .send(invoiceToFacturae(doc));
    },
  );

  app.post(
    '/v1/invoices/:id/send',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: "E-mail the PDF to the counterparty's billing address and contacts (the mail transport)",
        params: idParams,
        body: invoiceSendSchema,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const doc = await issuedDocument(id);
      const [partner] = await query<{ contacts: { email: string }[]; billing_email: string | null }>(
        database,
        `SELECT p.billing_contacts AS contacts, coalesce(p.billing_email, co.billing_email) AS billing_email
         FROM invoices i JOIN demand_partners p ON p.id = i.counterparty_id LEFT JOIN companies co ON co.id = p.company_id WHERE i.id = $1`,
        [id],
      );
      const to = [
        ...new Set([
          ...(partner?.billing_email ? [partner.billing_email] : []),
          ...(partner?.contacts ?? []).map((c) => c.email),
          ...(request.body.to ?? []),
        ]),
      ];
      if (to.length === 0) throw badRequest('invoice.send.no_recipient');
      const pdf = await renderInvoicePdf(doc);
      const locale = doc.language;
      const key = doc.kind === 'credit_note' ? 'invoice.mail.credit_subject' : 'invoice.mail.subject';
      try {
        await createMailer(ctx.config).send({
          to,
          subject: translate(locale, key, { number: doc.number, company: doc.issuer.legal_name }),
          text: translate(locale, 'invoice.mail.body', {
            number: doc.number,
            total: `${doc.total} ${doc.currency}`,
            due: doc.due_date,
            iban: doc.issuer.iban,
          }),
          attachments: [{ filename: `${doc.number}.pdf`, contentType: 'application/pdf', content: pdf }],
        });
      } catch (err) {
        request.log.error({ err }, 'invoice mail failed');
        throw new AppError(502, 'invoice.send.failed');
      }
      await markSent(database, whoOf(request), id, to);
      return ok({ to }, 'invoice.sent');
    },
  );
}
