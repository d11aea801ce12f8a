/**
 * Precreation drafts on the resource layer (`/v1/precreation`) and their workflow commands:
 *   POST /v1/precreation/:id/actions/submit    {version}          draft -> in_review
 *   POST /v1/precreation/:id/actions/approve   {version}          in_review -> created: the publisher
 *                                                                 or demand partner is created in the
 *                                                                 same transaction
 *   POST /v1/precreation/:id/actions/reject    {version, reason}  draft | in_review -> rejected
 * Approval locks the draft's row (SELECT … FOR UPDATE), so concurrent approvals run one after the
 * other: the first creates the entity, the others find the draft created and answer the same
 * result (idempotent; `already: true`). A draft that is created or rejected takes no more edits.
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { approvalProblems, EDITABLE_STATES, precreation, type PrecreationState } from '@backoffice/core/resources/precreation';
import { normaliseEndpointUrl } from '@backoffice/core/resources/demand-partners';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { demandPartners, precreation as precreationTable, publishers } from '../../db/schema-reports.ts';
import { users } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';

const versionBody = z.strictObject({ version: z.number().int().min(1).max(2_147_483_647) });
const rejectBody = versionBody.extend({ reason: z.string().trim().min(1, 'error.required').max(500, 'error.too_long') });

type Draft = typeof precreationTable.$inferSelect;

interface Outcome {
  id: number;
  state: PrecreationState;
  version: number;
  created_entity_id: number | null;
  already?: boolean;
}

const outcome = (d: Draft, already = false): Outcome => ({ id: d.id, state: d.state as PrecreationState, version: d.version, created_entity_id: d.createdEntityId, ...(already ? { already } : {}) });

/** The draft, locked for this transaction; 404 when there is none. */
async function lockDraft(t: Db, id: number): Promise<Draft> {
  const [d] = await t.select().from(precreationTable).where(eq(precreationTable.id, id)).for('update');
  if (!d) throw notFound('resource.not_found');
  return d;
}

/** 409 with the draft as it is now when the caller's version is not the current one. */
async function checkVersion(t: Db, d: Draft, version: number): Promise<void> {
  if (d.version === version) return;
  const [by] = d.updatedBy === null ? [] : await t.select({ name: users.name }).from(users).where(eq(users.id, d.updatedBy));
  throw new AppError(409, 'resource.conflict', {
    data: { current: { id: d.id, version: d.version, state: d.state, updated_at: d.updatedAt.toISOString() } },
    params: { name: by?.name ?? '?', at: d.updatedAt.toISOString() },
  });
}

/** A unique index the new entity violates, as a field error on the draft's field. */
function creationError(err: unknown): unknown {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  if ((e.code ?? e.cause?.code) !== '23505') return err;
  const constraint = e.constraint ?? e.cause?.constraint;
  if (constraint === 'publishers_seller_id_idx') return badRequest('error.validation', { seller_id: 'publisher.seller_id_taken' });
  if (constraint === 'demand_partners_endpoint_url_idx') return badRequest('error.validation', { endpoint_url: 'demand_partner.url_taken' });
  if (constraint === 'demand_partners_name_idx') return badRequest('error.validation', { name: 'demand_partner.name_taken' });
  return err;
}

export async function precreationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);

  /** Moves a draft from one of `from` to `to` (version checked), audited as precreation.<verb>. */
  async function transition(request: FastifyRequest, id: number, version: number, from: PrecreationState[], to: PrecreationState, verb: string, extra: Partial<Draft> = {}) {
    const caller = callerOf(request);
    return ctx.database.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const d = await lockDraft(t, id);
      if (d.state === to) return outcome(d, true);
      if (!from.includes(d.state as PrecreationState)) throw new AppError(409, 'precreation.wrong_state', { params: { state: d.state } });
      await checkVersion(t, d, version);
      const [after] = await t
        .update(precreationTable)
        .set({ ...extra, state: to, version: sql`${precreationTable.version} + 1`, updatedAt: sql`now()`, updatedBy: caller.id })
        .where(eq(precreationTable.id, id))
        .returning();
      await audit(t, request, { action: `precreation.${verb}`, entity: 'precreation', entityId: id, before: { state: d.state }, after: { state: to, ...(extra.rejectReason ? { reject_reason: extra.rejectReason } : {}) } });
      return outcome(after!);
    });
  }

  resourceRoutes(app, ctx, precreation, {
    table: precreationTable,
    beforeUpdate: (before) => {
      if (!EDITABLE_STATES.includes(before.state as PrecreationState)) throw new AppError(409, 'precreation.locked', { params: { state: String(before.state) } });
    },
    beforeCreate: () => ({ values: { state: 'draft' } }),
    extraRoutes: (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      const WRITE = { auth: { permission: { resource: precreation.acl, action: 'write' as const } } };
      const common = { tags: [precreation.name], params: idParamsSchema, response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema } };

      r.post(`${precreation.path}/:id/actions/submit`, { config: WRITE, bodyLimit: 1024, schema: { ...common, summary: 'Send a draft for review', body: versionBody } }, async (request) =>
        ok(await transition(request, request.params.id, request.body.version, ['draft'], 'in_review', 'submit')),
      );

      r.post(
        `${precreation.path}/:id/actions/reject`,
        { config: WRITE, bodyLimit: 4096, schema: { ...common, summary: 'Reject a draft, with the reason', body: rejectBody } },
        async (request) => ok(await transition(request, request.params.id, request.body.version, ['draft', 'in_review'], 'rejected', 'reject', { rejectReason: request.body.reason })),
      );

      r.post(
        `${precreation.path}/:id/actions/approve`,
        {
          config: WRITE,
          bodyLimit: 1024,
          schema: {
            ...common,
            summary: 'Approve a draft in review: creates its publisher or demand partner (once, whoever approves and however often)',
            description:
              'Needs every checklist item and what the entity requires (a publisher: seller id and domain; a partner: endpoint URL), else 400 with field errors. ' +
              'A draft already created answers 200 with `already: true` and the same entity.',
            body: versionBody,
          },
        },
        async (request) => {
          const caller = callerOf(request);
          const id = request.params.id;
          const result = await ctx.database.db
            .transaction(async (tx) => {
              const t = tx as unknown as Db;
              const d = await lockDraft(t, id);
              if (d.state === 'created') return outcome(d, true);
              if (d.state !== 'in_review') throw new AppError(409, 'precreation.wrong_state', { params: { state: d.state } });
              await checkVersion(t, d, request.body.version);
              const problems = approvalProblems({
                target: d.target as 'publisher' | 'demand_partner',
                seller_id: d.sellerId,
                seller_domain: d.sellerDomain,
                endpoint_url: d.endpointUrl,
                contract_signed: d.contractSigned,
                billing_info: d.billingInfo,
                ads_txt_verified: d.adsTxtVerified,
                test_traffic: d.testTraffic,
              });
              if (Object.keys(problems).length > 0) throw badRequest('error.validation', problems);
              const who = { createdBy: caller.id, updatedBy: caller.id };
              let entityId: number;
              if (d.target === 'publisher') {
                const [pub] = await t
                  .insert(publishers)
                  .values({ name: d.name, side: d.side, companyId: d.companyId, status: 'live', revenueSharePct: d.revenueSharePct, sellerId: d.sellerId, sellerDomain: d.sellerDomain, billingEmail: d.contactEmail, ...who })
                  .returning();
                entityId = pub!.id;
                await audit(t, request, { action: 'publisher.create', entity: 'publisher', entityId, after: { name: pub!.name, side: pub!.side, seller_id: pub!.sellerId, seller_domain: pub!.sellerDomain, from_precreation: id } });
              } else {
                const [dp] = await t
                  .insert(demandPartners)
                  .values({ name: d.name, side: d.side, companyId: d.companyId, type: d.partnerType, status: 'testing', endpointUrl: normaliseEndpointUrl(d.endpointUrl!), qpsCap: d.qpsCap, billingEmail: d.contactEmail, ...who })
                  .returning();
                entityId = dp!.id;
                await audit(t, request, { action: 'demand_partner.create', entity: 'demand_partner', entityId, after: { name: dp!.name, side: dp!.side, qps_cap: dp!.qpsCap, endpoint_url: dp!.endpointUrl, from_precreation: id } });
              }
              const [after] = await t
                .update(precreationTable)
                .set({ state: 'created', createdEntityId: entityId, version: sql`${precreationTable.version} + 1`, updatedAt: sql`now()`, updatedBy: caller.id })
                .where(and(eq(precreationTable.id, id), eq(precreationTable.state, 'in_review')))
                .returning();
              await audit(t, request, { action: 'precreation.approve', entity: 'precreation', entityId: id, before: { state: d.state }, after: { state: 'created', created_entity_id: entityId } });
              return outcome(after!);
            })
            .catch((err: unknown) => {
              throw creationError(err);
            });
          return ok(result);
        },
      );
    },
  });
}
