/**
 * Finance entries of the supply and demand teams (screens `/finances/supply`, `/finances/demand`;
 * contract in packages/core/src/finances.ts, docs/decisions/029-prepayments-finances.md):
 *   GET  /v1/finances/{team}/entries                 list: period, counterparty, network, item, e-mail status; totals per currency; paged
 *   GET  /v1/finances/{team}/entries/export          the filtered list as CSV or XLSX
 *   GET  /v1/finances/{team}/options                 counterparties or networks by name (the form's and the filters' choices)
 *   POST /v1/finances/{team}/entries                 create (and e-mail the counterparty when chosen)
 *   GET  /v1/finances/{team}/entries/:id             one entry
 *   PUT  /v1/finances/{team}/entries/:id             edit, with version (409 when stale)
 *   POST /v1/finances/{team}/entries/:id/resend      send a failed e-mail again
 *   GET  /v1/finances/{team}/entries/:id/history     its changes (audit log)
 * ACL `/v1/finances`: read to see, write to change.
 */
import {
  FINANCES_RESOURCE,
  FINANCE_TEAMS,
  financeEntrySchema,
  financeExportQuerySchema,
  financeListQuerySchema,
  financeOptionsQuerySchema,
  financeUpdateSchema,
  financesExportName,
  type FinanceEntriesAnswer,
  type FinanceHistoryEntry,
} from '@backoffice/core/finances';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { historyOf } from '../../resources/routes.ts';
import { findEntry, listEntries, options } from './repo.ts';
import { createEntry, resendEntry, updateEntry } from './service.ts';

const EXPORT_MAX = 100_000;

export async function financeRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database, config } = ctx;
  const tags = ['finances'];
  const READ = { auth: { permission: { resource: FINANCES_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: FINANCES_RESOURCE, action: 'write' } } } as const;

  for (const team of FINANCE_TEAMS) {
    const base = `/v1/finances/${team}/entries`;
    const who = team === 'supply' ? 'a publisher' : 'a demand partner (advertiser)';
    const entrySchema = financeEntrySchema(team);
    const updateSchema = financeUpdateSchema(team);
    const entryOr404 = async (id: number) => {
      const entry = await findEntry(database, team, id);
      if (!entry) throw notFound('resource.not_found');
      return entry;
    };

    app.get(
      base,
      {
        config: READ,
        schema: {
          tags,
          summary: `The ${team} team's finance entries, filtered and paged, with totals per currency`,
          description:
            'from, to (YYYY-MM-DD: entries whose period overlaps), counterparty_id, network_id (comma lists of ids), item (comma list), email_status, ' +
            'sort (id, period_start, amount, counterparty, network, item, created_at; -field descending; default -id), page, page_size (at most 100). Totals cover every filtered entry.',
          querystring: financeListQuerySchema,
          response: { 400: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const { page, page_size, ...q } = request.query;
        const out = await listEntries(database, team, q, { limit: page_size, offset: (page - 1) * page_size });
        return ok({ ...out, page, page_size } satisfies FinanceEntriesAnswer);
      },
    );

    app.get(
      `${base}/export`,
      {
        config: READ,
        schema: {
          tags,
          summary: `The ${team} team's filtered finance entries as CSV or XLSX`,
          description: `The list's filters and sort, and format=csv|xlsx. File ${financesExportName(team)}_YYYY-MM-DD_HHmmss.<ext>.`,
          querystring: financeExportQuerySchema,
          response: { 400: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        const { format, ...q } = request.query;
        const { items } = await listEntries(database, team, q, { limit: EXPORT_MAX, offset: 0 });
        const locale = localeFromAcceptLanguage(request.headers['accept-language']);
        const t = (key: string) => translate(locale, key);
        const titles = ['id', `counterparty.${team}`, 'network', 'item', 'amount', 'currency', 'period_start', 'period_end', 'comment', 'email', 'email_to', 'email_sent_at', 'created_by', 'created_at'].map((k) =>
          t(`finances.field.${k}`),
        );
        async function* batches() {
          for (let i = 0; i < items.length; i += 1000)
            yield items.slice(i, i + 1000).map((e): TableCell[] => [
              e.id,
              e.counterparty.name,
              e.network.name,
              t(`finances.item.${e.item}`),
              e.amount,
              e.currency,
              e.period_start,
              e.period_end,
              e.comment,
              t(`finances.email.${e.email_status}`),
              e.email_to ?? '',
              e.email_sent_at ?? '',
              e.created_by.name ?? '',
              e.created_at,
            ]);
        }
        reply.header('cache-control', 'no-store');
        return sendTableFile(request, reply, {
          name: financesExportName(team),
          format,
          titles,
          numeric: titles.map((_, i) => i === 0 || i === 4),
          batches: batches(),
        });
      },
    );

    app.get(
      `/v1/finances/${team}/options`,
      {
        config: READ,
        schema: {
          tags,
          summary: `Choices for the ${team} team's entries: kind=counterparty (${who}) or network (a demand partner), by name`,
          description: 'search (contains, any case), ids (name these, whatever the search), limit (at most 50). Each with its currency and whether it has a billing e-mail.',
          querystring: financeOptionsQuerySchema,
          response: { 400: errorEnvelopeSchema },
        },
      },
      async (request) => ok(await options(database, team, request.query)),
    );

    app.post(
      base,
      {
        config: WRITE,
        schema: {
          tags,
          summary: `Create a ${team} finance entry; e-mail the counterparty when chosen`,
          description:
            `counterparty_id (${who}), network_id (a demand partner), amount (signed decimal to the cent, not 0), currency, item (the team's list), ` +
            'comment (at most 100 characters), period_start and period_end (start not after end), send_email (true or false: required, no default), ' +
            'idempotency_key (optional, one per click). With send_email the message goes to the counterparty’s billing e-mail (else its company’s) after saving; ' +
            'the entry answers its e-mail status: sent, or failed with the error.',
          body: entrySchema,
          response: { 400: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const out = await createEntry(database, config, request, team, request.body);
          return ok(out.entry, out.already ? 'finances.already' : 'finances.created');
      },
    );

    app.get(
      `${base}/:id`,
      { config: READ, schema: { tags, summary: `One ${team} finance entry`, params: idParamsSchema, response: { 404: errorEnvelopeSchema } } },
      async (request) => ok(await entryOr404(request.params.id)),
    );

    app.put(
      `${base}/:id`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: `Edit a ${team} finance entry (optimistic concurrency)`,
          description:
            'The fields of the create and the entry’s version; a stale version answers 409 resource.conflict with data {current}. ' +
            'An e-mail chosen now (not asked before) is sent after saving; one already sent cannot be unchosen; one failed is sent again by resend.',
          params: idParamsSchema,
          body: updateSchema,
          response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
        },
      },
      async (request) => ok(await updateEntry(database, config, request, team, request.params.id, request.body), 'finances.saved'),
    );

    app.post(
      `${base}/:id/resend`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: `Send a ${team} finance entry's failed e-mail again`,
          description: 'Only a failed e-mail (or one lost while sending) is sent again; one sent or being sent answers as it is (`already`); one never requested answers 409.',
          params: idParamsSchema,
          response: { 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const out = await resendEntry(database, config, request, team, request.params.id);
        return ok(out.entry, out.entry.email_status === 'sent' ? 'finances.email_sent' : 'finances.email_failed');
      },
    );

    app.get(
      `${base}/:id/history`,
      {
        config: READ,
        schema: { tags, summary: `A ${team} finance entry's changes and e-mails (audit log), newest first; at most 200`, params: idParamsSchema, response: { 404: errorEnvelopeSchema } },
      },
      async (request) => {
        const id = request.params.id;
        await entryOr404(id);
        const entries = await historyOf(database.db, 'finance_entry', id);
        return ok(
          entries.map((e): FinanceHistoryEntry => {
            const { idempotency_key: _key, ...changes } = e.changes;
            return { id: e.id, at: e.at, action: e.action, actor: e.actor, simulated_by: e.simulated_by, ip: e.ip, changes };
          }),
        );
      },
    );
  }
}
