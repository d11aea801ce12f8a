/**
 * Prepayments (screen `/billing_performance/prepayments`; contract in packages/core/src/prepayments.ts,
 * docs/decisions/029-prepayments-finances.md):
 *   GET  /v1/prepayments                                the prepaid advertisers: balance, threshold, low flag, last top-up
 *   GET  /v1/prepayments/export                         the filtered list as CSV or XLSX
 *   POST /v1/prepayments/post-spend                     post the daily spend up to a day (idempotent)
 *   GET  /v1/prepayments/:id                            one advertiser's account
 *   PUT  /v1/prepayments/:id/threshold                  its low-balance threshold (version; 409 when stale)
 *   GET  /v1/prepayments/:id/entries                    its ledger, newest first, with the running balance, paged
 *   GET  /v1/prepayments/:id/entries/export             the ledger as CSV or XLSX (oldest first)
 *   POST /v1/prepayments/:id/entries                    a top-up, adjustment or refund (idempotency key)
 *   POST /v1/prepayments/:id/entries/:entry/reverse     reverse an entry (reason; once only; idempotency key)
 *   GET  /v1/prepayments/:id/history                    the account's changes (audit log)
 * ACL `/v1/prepayments`: read to see, write to change.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import {
  PREPAYMENTS_EXPORT_NAME,
  entryBodySchema,
  entryParamsSchema,
  ledgerExportName,
  ledgerExportQuerySchema,
  ledgerQuerySchema,
  postSpendBodySchema,
  prepaymentExportQuerySchema,
  prepaymentListQuerySchema,
  reverseBodySchema,
  thresholdBodySchema,
  type LedgerAnswer,
  type PrepaymentsAnswer,
} from '@backoffice/core/prepayments';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { historyOf } from '../../resources/routes.ts';
import { ledgerPage, listAccounts } from './repo.ts';
import { accountOr404, addEntry, postSpend, reverseEntry, updateThreshold, wholeLedger } from './service.ts';

export const PREPAYMENTS_RESOURCE = '/v1/prepayments';
const EXPORT_MAX = 100_000;

export async function prepaymentRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['prepayments'];
  const READ = { auth: { permission: { resource: PREPAYMENTS_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: PREPAYMENTS_RESOURCE, action: 'write' } } } as const;
  const base = PREPAYMENTS_RESOURCE;

  app.get(
    base,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The prepaid advertisers (performance demand partners): balance, low-balance threshold and flag, last top-up; paged',
        description:
          'search (advertiser or company), under=true|false (balance under the threshold), sort (name, balance, threshold, last_top_up; -field descending), page, page_size (at most 100). ' +
          'low_count counts every advertiser under its threshold; total_balance sums the filtered balances. Amounts are decimal text in EUR.',
        querystring: prepaymentListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { page, page_size, ...q } = request.query;
      const out = await listAccounts(database, q, { limit: page_size, offset: (page - 1) * page_size });
      return ok({ ...out, page, page_size } satisfies PrepaymentsAnswer);
    },
  );

  app.get(
    `${base}/export`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The filtered prepaid advertisers as CSV or XLSX',
        description: `The list's filters and sort, and format=csv|xlsx. File ${PREPAYMENTS_EXPORT_NAME}_YYYY-MM-DD_HHmmss.<ext>; titles in the request's language.`,
        querystring: prepaymentExportQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const { items } = await listAccounts(database, q, { limit: EXPORT_MAX, offset: 0 });
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const t = (key: string) => translate(locale, key);
      const titles = [
        t('prepayments.column.id'),
        t('prepayments.column.advertiser'),
        t('prepayments.column.company'),
        t('prepayments.column.currency'),
        t('prepayments.column.balance'),
        t('prepayments.column.threshold'),
        t('prepayments.column.low'),
        t('prepayments.column.last_top_up'),
        t('prepayments.column.last_top_up_amount'),
        t('prepayments.column.spend_posted_through'),
      ];
      async function* batches() {
        yield items.map((a): TableCell[] => [
          a.id,
          a.name,
          a.company ?? '',
          a.currency,
          a.balance,
          a.threshold,
          a.low ? t('prepayments.low.yes') : t('prepayments.low.no'),
          a.last_top_up?.date ?? '',
          a.last_top_up?.amount ?? null,
          a.spend_posted_through ?? '',
        ]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, {
        name: PREPAYMENTS_EXPORT_NAME,
        format,
        titles,
        numeric: [true, false, false, false, true, true, false, false, true, false],
        batches: batches(),
      });
    },
  );

  app.post(
    `${base}/post-spend`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Post the daily spend of the prepaid advertisers up to a day (idempotent)',
        description:
          'through (YYYY-MM-DD): the last day to post; the server stops at yesterday (UTC) and at the warehouse’s last loaded day. ' +
          'One spend entry per advertiser and day from performance_daily.revenue_micros, from the day after the last posted (or the ledger’s first day); ' +
          'a day already posted is never posted again, even by concurrent runs. The daily job prepayments-post-spend does the same up to yesterday.',
        body: postSpendBodySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await postSpend(database, request, request.body.through), 'prepayments.spend_posted'),
  );

  app.get(
    `${base}/:id`,
    {
      config: READ,
      schema: { tags, summary: "One prepaid advertiser's account: balance, threshold, version", params: idParamsSchema, response: { 404: errorEnvelopeSchema } },
    },
    async (request) => ok(await accountOr404(database, request.params.id)),
  );

  app.put(
    `${base}/:id/threshold`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Set an advertiser's low-balance threshold (optimistic concurrency)",
        description: 'threshold (decimal text, 0 or more, to the cent) and the account’s version (0 when it had no account yet). A stale version answers 409 resource.conflict with data {current}.',
        params: idParamsSchema,
        body: thresholdBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await updateThreshold(database, request, request.params.id, request.body), 'prepayments.threshold_saved'),
  );

  app.get(
    `${base}/:id/entries`,
    {
      config: READ,
      schema: {
        tags,
        summary: "An advertiser's ledger, newest first, each entry with the balance after it",
        description: 'kind (top_up, spend, adjustment, refund, reversal), page, page_size (at most 100). The running balance is over the whole ledger in ledger order (day, then id), whatever the filter.',
        params: idParamsSchema,
        querystring: ledgerQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const id = request.params.id;
      await accountOr404(database, id);
      const { page, page_size, kind } = request.query;
      const out = await ledgerPage(database, id, { kind, limit: page_size, offset: (page - 1) * page_size });
      return ok({ ...out, page, page_size } satisfies LedgerAnswer);
    },
  );

  app.get(
    `${base}/:id/entries/export`,
    {
      config: READ,
      schema: {
        tags,
        summary: "An advertiser's ledger as CSV or XLSX, oldest first, with the running balance",
        params: idParamsSchema,
        querystring: ledgerExportQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      await accountOr404(database, id);
      const rows = await wholeLedger(database, id, request.query.kind ?? null);
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const t = (key: string) => translate(locale, key);
      const titles = ['id', 'date', 'kind', 'amount', 'currency', 'running_balance', 'reference', 'comment', 'reverses', 'source', 'created_by'].map((k) => t(`prepayments.entry.${k}`));
      async function* batches() {
        for (let i = 0; i < rows.length; i += 1000)
          yield rows.slice(i, i + 1000).map((r): TableCell[] => [
            Number(r.id),
            String(r.entry_date),
            t(`prepayments.kind.${String(r.kind)}`),
            String(r.amount),
            String(r.currency),
            String(r.running),
            String(r.reference ?? ''),
            String(r.comment ?? ''),
            r.reverses_id === null ? null : Number(r.reverses_id),
            t(`prepayments.source.${String(r.source)}`),
            r.created_by === null ? '' : String(r.created_by),
          ]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, {
        name: ledgerExportName(id),
        format: request.query.format,
        titles,
        numeric: [true, false, false, true, false, true, false, false, true, false, false],
        batches: batches(),
      });
    },
  );

  app.post(
    `${base}/:id/entries`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Add a top-up, an adjustment or a refund to an advertiser’s ledger (idempotent by key)',
        description:
          'kind (top_up | adjustment | refund), amount (> 0, at most 2 decimals; the kind gives the sign), direction (credit | debit, adjustments only), ' +
          'entry_date (default today, not in the future), reference (required for top-ups and refunds), comment (required for adjustments), ' +
          'idempotency_key (one per click: the same key answers the entry it made, `already: true`). A refund cannot take the balance under 0 (422).',
        params: idParamsSchema,
        body: entryBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 422: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await addEntry(database, request, request.params.id, request.body);
      return ok(out, out.already ? 'prepayments.entry_already' : 'prepayments.entry_added');
    },
  );

  app.post(
    `${base}/:id/entries/:entry/reverse`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Reverse a ledger entry with another of the opposite amount (once only; idempotent by key)',
        description: 'reason, idempotency_key. An entry already reversed, or a reversal, answers 409. The reversal is dated today.',
        params: entryParamsSchema,
        body: reverseBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await reverseEntry(database, request, request.params.id, request.params.entry, request.body);
      return ok(out, out.already ? 'prepayments.entry_already' : 'prepayments.entry_reversed');
    },
  );

  app.get(
    `${base}/:id/history`,
    {
      config: READ,
      schema: {
        tags,
        summary: "An advertiser's prepayment account changes (entries added and reversed, threshold), newest first; at most 200",
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const id = request.params.id;
      await accountOr404(database, id);
      return ok(await historyOf(database.db, 'prepayment_account', id));
    },
  );
}
