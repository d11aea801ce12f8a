/**
 * Billing accounts: an account's page (the account, its statement lines, its payments) and the
 * change of its billing terms, with optimistic concurrency on the partner's `version` (the same
 * version the partner screens use, so a change from either screen is never silently overwritten)
 * and an audit entry `demand_partner.billing_update` in the same transaction.
 */
import { type BillingAccount, type BillingAccountDetail, type BillingTermsBody } from '@backoffice/core/billing-accounts';
import type { BillingSide } from '@backoffice/core/billing-api';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Db } from '../../db/client.ts';
import { demandPartners } from '../../db/schema-reports.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';
import { accountLines, accountPayments, findAccount } from './repo.ts';

export async function accountDetail(database: Database, side: BillingSide, id: number, today: string): Promise<BillingAccountDetail> {
  const account = await findAccount(database, side, id, today);
  if (!account) throw notFound('resource.not_found');
  const [{ lines, truncated }, payments] = await Promise.all([accountLines(database, side, id, today), accountPayments(database, side, id)]);
  return { ...account, lines, lines_truncated: truncated, payments, today };
}

/** The billing terms of a partner row as the audit entry keeps them (the API's field names). */
const termsColumns = {
  payment_terms: demandPartners.paymentTerms,
  invoice_currency: demandPartners.invoiceCurrency,
  min_amount: demandPartners.minAmount,
  billing_mode: demandPartners.billingMode,
  credit_limit: demandPartners.creditLimit,
  billing_email: demandPartners.billingEmail,
  vat_id: demandPartners.vatId,
  billing_contacts: demandPartners.billingContacts,
  version: demandPartners.version,
};

/** 409 resource.conflict with the account as it is now and who changed it (the resource layer's answer). */
function conflict(current: BillingAccount): AppError {
  return new AppError(409, 'resource.conflict', {
    data: { current },
    params: { name: current.updated_by.name ?? '?', at: current.updated_at },
  });
}

export async function updateTerms(
  database: Database,
  request: FastifyRequest,
  side: BillingSide,
  id: number,
  body: BillingTermsBody,
  today: string,
): Promise<BillingAccountDetail> {
  const caller = callerOf(request);
  const { version, ...terms } = body;
  const outcome = await database.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const where = and(eq(demandPartners.id, id), eq(demandPartners.side, side));
    const [before] = await t.select(termsColumns).from(demandPartners).where(where).limit(1);
    if (!before) throw notFound('resource.not_found');
    const [after] = await t
      .update(demandPartners)
      .set({
        paymentTerms: terms.payment_terms,
        invoiceCurrency: terms.invoice_currency,
        minAmount: terms.min_amount,
        billingMode: terms.billing_mode,
        creditLimit: terms.credit_limit,
        billingEmail: terms.billing_email,
        vatId: terms.vat_id,
        billingContacts: terms.billing_contacts,
        version: sql`${demandPartners.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: caller.id,
      })
      .where(and(where, eq(demandPartners.version, version)))
      .returning(termsColumns);
    if (!after) return 'conflict' as const;
    await audit(t, request, { action: 'demand_partner.billing_update', entity: 'demand_partner', entityId: id, before, after });
    return 'saved' as const;
  });
  if (outcome === 'conflict') {
    const current = await findAccount(database, side, id, today);
    if (!current) throw notFound('resource.not_found');
    throw conflict(current);
  }
  return accountDetail(database, side, id, today);
}
