/**
 * Billing accounts of each side (screens `/billing_ssp/advertiser`, `/billing_performance/advertiser`;
 * contract in packages/core/src/billing-accounts.ts, docs/decisions/023-billing-accounts.md):
 *   GET /v1/billing/{side}/accounts                list: search, filters, sort, page; totals per currency
 *   GET /v1/billing/{side}/accounts/export         the filtered list as CSV or XLSX
 *   GET /v1/billing/{side}/accounts/:id            one account: company, terms, statement, lines, payments
 *   PUT /v1/billing/{side}/accounts/:id            its billing terms, with version (409 when stale)
 *   GET /v1/billing/{side}/accounts/:id/history    changes of its billing terms
 * One set of routes per side, each guarded by the side's billing resource (`/v1/billing/ssp` or
 * `/v1/billing/performance`): read to see, write to change.
 */
import {
  accountExportQuerySchema,
  accountListQuerySchema,
  accountsExportName,
  billingTermsBodySchema,
  utcToday,
  type AccountFigures,
  type BillingAccount,
  type BillingAccountsAnswer,
} from '@backoffice/core/billing-accounts';
import { BILLING_SIDES, billingResource } from '@backoffice/core/billing-api';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { accountHistory, findAccount, listAccounts } from './repo.ts';
import { accountDetail, updateTerms } from './service.ts';

/** The most accounts an export writes (a side has hundreds). */
const EXPORT_MAX = 100_000;

interface ExportColumn {
  title: string;
  numeric?: boolean;
  value: (a: BillingAccount, f: AccountFigures | null) => TableCell;
}

/** The export's columns: a line per account and statement currency (an account without figures: one line). */
function exportColumns(locale: Locale): ExportColumn[] {
  const t = (key: string) => translate(locale, key);
  const money = (pick: (f: AccountFigures) => string) => (_: BillingAccount, f: AccountFigures | null) =>
    f ? pick(f) : null;
  return [
    { title: t('billing_account.column.id'), numeric: true, value: (a) => a.id },
    { title: t('billing_account.column.name'), value: (a) => a.name },
    { title: t('billing_account.column.status'), value: (a) => t(`demand_partner.status.${a.status}`) },
    { title: t('billing_account.column.company'), value: (a) => a.company?.legal_name ?? '' },
    { title: t('company.tax_id'), value: (a) => a.company?.tax_id ?? '' },
    { title: t('company.country'), value: (a) => a.company?.country ?? '' },
    { title: t('company.address'), value: (a) => a.company?.address ?? '' },
    { title: t('company.city'), value: (a) => a.company?.city ?? '' },
    { title: t('company.postal_code'), value: (a) => a.company?.postal_code ?? '' },
    { title: t('company.iban'), value: (a) => a.company?.iban ?? '' },
    { title: t('billing_account.column.billing_info'), value: (a) => (a.missing.length > 0 ? t('common.no_billinginfo') : '') },
    { title: t('billing_account.billing_mode'), value: (a) => t(`billing_account.billing_mode.${a.billing_mode}`) },
    { title: t('demand_partner.payment_terms'), value: (a) => t(`demand_partner.payment_terms.${a.payment_terms}`) },
    { title: t('demand_partner.invoice_currency'), value: (a) => a.invoice_currency },
    { title: t('demand_partner.min_amount'), numeric: true, value: (a) => a.min_amount },
    { title: t('billing_account.credit_limit'), numeric: true, value: (a) => a.credit_limit },
    { title: t('demand_partner.vat_id'), value: (a) => a.vat_id ?? '' },
    { title: t('demand_partner.billing_email'), value: (a) => a.billing_email ?? a.company?.billing_email ?? '' },
    {
      title: t('billing_account.contacts'),
      value: (a) => a.billing_contacts.map((c) => `${c.name} <${c.email}> (${t(`billing_account.contact_role.${c.role}`)})`).join('; '),
    },
    { title: t('billing_account.column.currency'), value: (_a, f) => f?.currency ?? '' },
    { title: t('billing_account.figure.billed'), numeric: true, value: money((f) => f.billed) },
    { title: t('billing_account.figure.paid'), numeric: true, value: money((f) => f.paid) },
    { title: t('billing_account.figure.outstanding'), numeric: true, value: money((f) => f.outstanding) },
    { title: t('billing_account.figure.overdue'), numeric: true, value: money((f) => f.overdue) },
    { title: t('billing_account.figure.charged'), numeric: true, value: money((f) => f.charged) },
  ];
}

export async function billingAccountRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['billing'];

  for (const side of BILLING_SIDES) {
    const base = `/v1/billing/${side}/accounts`;
    const resource = billingResource(side);
    const READ = { permission: { resource, action: 'read' } } as const;
    const WRITE = { permission: { resource, action: 'write' } } as const;
    const sideName = side === 'ssp' ? 'SSP' : 'performance';

    app.get(
      base,
      {
        config: { auth: READ },
        schema: {
          tags,
          summary: `The ${sideName} side's billing accounts (its demand partners): company, terms and statement, paged`,
          description:
            'search (partner, company legal or trade name), billing_mode, payment_terms, currency (invoice currency; comma lists), ' +
            'missing=true|false (billing information missing: no company, tax id or address), overdue=true|false, ' +
            'sort (name, company, payment_terms, billing_mode, invoice_currency, billed, paid, outstanding, overdue; -field descending; ' +
            'amounts sort by their number across currencies), page, page_size (at most 100). ' +
            'The statement counts the approved and invoiced advertiser billing rows, per currency, in decimal text; totals cover every filtered account.',
          querystring: accountListQuerySchema,
          response: { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const { page, page_size, ...q } = request.query;
        const today = utcToday();
        const out = await listAccounts(database, side, q, today, { limit: page_size, offset: (page - 1) * page_size });
        return ok({ ...out, page, page_size, today } satisfies BillingAccountsAnswer);
      },
    );

    app.get(
      `${base}/export`,
      {
        config: { auth: READ },
        schema: {
          tags,
          summary: `The ${sideName} side's filtered billing accounts as CSV or XLSX`,
          description: `The list's filters and sort, and format=csv|xlsx. File ${accountsExportName(side)}_YYYY-MM-DD_HHmmss.<ext>; a line per account and statement currency; titles in the request's language.`,
          querystring: accountExportQuerySchema,
          response: { 400: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const { format, ...q } = request.query;
        const { items } = await listAccounts(database, side, q, utcToday(), { limit: EXPORT_MAX, offset: 0 });
        const columns = exportColumns(localeFromAcceptLanguage(request.headers['accept-language']));
        const lines = items.flatMap((a): { a: BillingAccount; f: AccountFigures | null }[] =>
          a.statement.length > 0 ? a.statement.map((f) => ({ a, f })) : [{ a, f: null }],
        );
        async function* batches() {
          for (let i = 0; i < lines.length; i += 1000) yield lines.slice(i, i + 1000).map(({ a, f }) => columns.map((c) => c.value(a, f)));
        }
        reply.header('cache-control', 'no-store');
        return sendTableFile(request, reply, {
          name: accountsExportName(side),
          format,
          titles: columns.map((c) => c.title),
          numeric: columns.map((c) => c.numeric === true),
          batches: batches(),
        });
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { auth: READ },
        schema: {
          tags,
          summary: `One ${sideName} billing account: company, terms, statement, its lines and payments`,
          description: 'A partner of the other side answers 404. Lines: the approved and invoiced rows, newest month first (at most 1000); payments: newest first (at most 500).',
          params: idParamsSchema,
          response: { 404: errorEnvelopeSchema },
        },
      },
      async (request) => ok(await accountDetail(database, side, request.params.id, utcToday())),
    );

    app.put(
      `${base}/:id`,
      {
        config: { auth: WRITE },
        schema: {
          tags,
          summary: `Change a ${sideName} billing account's terms (optimistic concurrency)`,
          description:
            "payment_terms, invoice_currency, min_amount, billing_mode (credit|prepayment), credit_limit (null: none; none for prepayment), billing_email, vat_id, billing_contacts [{name, email, role}] and the account's `version`. " +
            'A stale version answers 409 resource.conflict with data {current}. Audited as demand_partner.billing_update.',
          params: idParamsSchema,
          body: billingTermsBodySchema,
          response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
        },
      },
      async (request) => ok(await updateTerms(database, request, side, request.params.id, request.body, utcToday())),
    );

    app.get(
      `${base}/:id/history`,
      {
        config: { auth: READ },
        schema: {
          tags,
          summary: `A ${sideName} billing account's changes of its billing terms (audit log), newest first`,
          description: 'Entries of this screen and of the partner screens that changed a billing term, with those fields before and after; at most 200.',
          params: idParamsSchema,
          response: { 404: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const id = request.params.id;
        if (!(await findAccount(database, side, id, utcToday()))) throw notFound('resource.not_found');
        return ok(await accountHistory(database, id));
      },
    );
  }
}
