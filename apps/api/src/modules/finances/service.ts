/**
 * Finance entries: create, edit (version, 409 when stale) and the e-mail to the counterparty
 * (docs/decisions/029-prepayments-finances.md). Each change is one transaction with its audit entry
 * (entity `finance_entry`). The spec's rules are core's schema (the route's body); what needs the
 * database is checked here with the same keys: the counterparty exists (a publisher for supply, a
 * demand partner for demand), the network exists (a demand partner), and an entry whose e-mail is
 * wanted has somewhere to send it.
 *
 * The e-mail goes after the entry is saved (a slow or failing mail server never loses the entry):
 * the entry is `pending`, then `sent` (with the message id) or `failed` (with the error), and a
 * failed one can be sent again. It goes to the counterparty's billing e-mail (else its company's),
 * in Spanish for a company in a Spanish-speaking country, else in English.
 */
import { formatMoney } from '@backoffice/core/format';
import { mailLocaleOfCountry, type FinanceEntry, type FinanceEntryBody, type FinanceTeam, type FinanceUpdateBody } from '@backoffice/core/finances';
import { translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { createMailer } from '../../lib/mailer.ts';
import { callerOf } from '../../plugins/auth.ts';
import { transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { counterpartyMail, findEntry, findEntryIn, partiesExist } from './repo.ts';

/** Advisory lock class of finance entry creation (the object id: the idempotency key's hash). */
const LOCK_CLASS = 23024;
/** A `pending` e-mail older than this is taken as lost (the process stopped while sending): it may be sent again. */
const PENDING_STALE_MS = 5 * 60_000;
const MAX_ERROR = 500;

/** The fields an audit record keeps (the API's names). */
function auditFields(e: FinanceEntry | (FinanceEntryBody & { email_status?: string })) {
  if ('counterparty' in e) {
    const { counterparty, network, amount, currency, item, comment, period_start, period_end, send_email, email_status, version } = e;
    return { counterparty_id: counterparty.id, network_id: network.id, amount, currency, item, comment, period_start, period_end, send_email, email_status, version };
  }
  const { idempotency_key: _key, ...rest } = e;
  return rest;
}

async function checkParties(q: QueryFn, team: FinanceTeam, body: { counterparty_id: number; network_id: number; send_email: boolean }): Promise<string | null> {
  const exists = await partiesExist(q, team, body.counterparty_id, body.network_id);
  const errors: Record<string, string> = {};
  if (!exists.counterparty) errors.counterparty_id = 'finances.user_invalid';
  if (!exists.network) errors.network_id = 'finances.network_invalid';
  if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
  const mail = await counterpartyMail(q, team, body.counterparty_id);
  if (body.send_email && !mail?.email) throw badRequest('error.validation', { send_email: 'finances.no_recipient' });
  return mail?.email ?? null;
}

/** Creates an entry (once per idempotency key and person), then sends its e-mail when chosen. */
export async function createEntry(database: Database, config: Config, request: FastifyRequest, team: FinanceTeam, body: FinanceEntryBody): Promise<{ entry: FinanceEntry; already: boolean }> {
  const caller = callerOf(request);
  const created = await transaction(database, async (q) => {
    const key = body.idempotency_key ?? null;
    if (key) {
      await q('SELECT pg_advisory_xact_lock($1::int4, hashtext($2::text))', [LOCK_CLASS, key]);
      const [earlier] = await q<{ id: string }>(
        `SELECT entity_id AS id FROM audit_log WHERE entity = 'finance_entry' AND action = 'finance_entry.create' AND actor_id = $1 AND after->>'idempotency_key' = $2 ORDER BY id DESC LIMIT 1`,
        [caller.id, key],
      );
      if (earlier) {
        const entry = await findEntryIn(q, team, Number(earlier.id));
        if (entry) return { entry, already: true };
      }
    }
    const to = await checkParties(q, team, body);
    const [row] = await q<{ id: number }>(
      `INSERT INTO finance_entries (team, counterparty_id, network_id, amount, currency, item, comment, period_start, period_end, send_email, email_status, email_to, created_by, updated_by)
       VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8::date, $9::date, $10, $11, $12, $13, $13) RETURNING id`,
      [team, body.counterparty_id, body.network_id, body.amount, body.currency, body.item, body.comment, body.period_start, body.period_end, body.send_email, body.send_email ? 'pending' : 'not_requested', body.send_email ? to : null, caller.id],
    );
    const entry = (await findEntryIn(q, team, Number(row!.id)))!;
    await auditIn(q, request, { action: 'finance_entry.create', entity: 'finance_entry', entityId: entry.id, after: { ...auditFields(entry), idempotency_key: key } });
    return { entry, already: false };
  });
  if (created.already || !created.entry.send_email) return created;
  return { entry: await deliver(database, config, request, team, created.entry.id), already: false };
}

/** 409 resource.conflict with the entry as it is now. */
function conflict(current: FinanceEntry): AppError {
  return new AppError(409, 'resource.conflict', { data: { current }, params: { name: current.updated_by.name ?? '?', at: current.updated_at } });
}

/** Edits an entry with the version its editor read; an e-mail chosen now (never asked before) is sent after saving. */
export async function updateEntry(database: Database, config: Config, request: FastifyRequest, team: FinanceTeam, id: number, body: FinanceUpdateBody): Promise<FinanceEntry> {
  const caller = callerOf(request);
  const { version, ...fields } = body;
  const outcome = await transaction(database, async (q) => {
    const before = await findEntryIn(q, team, id);
    if (!before) throw notFound('resource.not_found');
    if (before.version !== version) return { kind: 'conflict' as const };
    if (before.email_status === 'sent' && !fields.send_email) throw badRequest('error.validation', { send_email: 'finances.email_already_sent' });
    const to = await checkParties(q, team, fields);
    // Chosen now and never asked before: send after saving. Not wanted any more: not requested.
    const sendNow = fields.send_email && before.email_status === 'not_requested';
    const status = !fields.send_email ? 'not_requested' : sendNow ? 'pending' : before.email_status;
    const rows = await q(
      `UPDATE finance_entries SET counterparty_id = $3, network_id = $4, amount = $5::numeric, currency = $6, item = $7, comment = $8,
         period_start = $9::date, period_end = $10::date, send_email = $11, email_status = $12,
         email_to = CASE WHEN $13::boolean THEN $14 ELSE email_to END,
         email_error = CASE WHEN $12 = 'not_requested' THEN NULL ELSE email_error END,
         version = version + 1, updated_by = $15, updated_at = now()
       WHERE id = $1 AND team = $2 AND version = $16 RETURNING id`,
      [id, team, fields.counterparty_id, fields.network_id, fields.amount, fields.currency, fields.item, fields.comment, fields.period_start, fields.period_end, fields.send_email, status, sendNow, to, caller.id, version],
    );
    if (rows.length === 0) return { kind: 'conflict' as const };
    const after = (await findEntryIn(q, team, id))!;
    await auditIn(q, request, { action: 'finance_entry.update', entity: 'finance_entry', entityId: id, before: auditFields(before), after: auditFields(after) });
    return { kind: 'saved' as const, sendNow };
  });
  if (outcome.kind === 'conflict') {
    const current = await findEntry(database, team, id);
    if (!current) throw notFound('resource.not_found');
    throw conflict(current);
  }
  if (outcome.sendNow) return deliver(database, config, request, team, id);
  return (await findEntry(database, team, id))!;
}

/** Sends a failed (or lost pending) e-mail again; a concurrent second click finds it no longer failed. */
export async function resendEntry(database: Database, config: Config, request: FastifyRequest, team: FinanceTeam, id: number): Promise<{ entry: FinanceEntry; already: boolean }> {
  const claimed = await transaction(database, async (q) => {
    const entry = await findEntryIn(q, team, id);
    if (!entry) throw notFound('resource.not_found');
    const to = await counterpartyMail(q, team, entry.counterparty.id);
    const rows = await q(
      `UPDATE finance_entries SET email_status = 'pending', send_email = true, email_to = $3, updated_at = now()
       WHERE id = $1 AND team = $2 AND (email_status = 'failed' OR (email_status = 'pending' AND updated_at < now() - make_interval(secs => $4::int)))
       RETURNING id`,
      [id, team, to?.email ?? entry.email_to, PENDING_STALE_MS / 1000],
    );
    if (rows.length === 0) {
      if (entry.email_status === 'sent' || entry.email_status === 'pending') return { entry, claimed: false };
      throw new AppError(409, 'finances.resend_not_failed');
    }
    return { entry, claimed: true };
  });
  if (!claimed.claimed) return { entry: claimed.entry, already: true };
  return { entry: await deliver(database, config, request, team, id), already: false };
}

/** The message of an entry in the counterparty's language. */
function messageOf(entry: FinanceEntry, locale: 'en' | 'es', name: string): { subject: string; text: string } {
  const t = (key: string, params?: Record<string, string | number>) => translate(locale, key, params);
  const item = t(`finances.item.${entry.item}`);
  const period = `${entry.period_start} – ${entry.period_end}`;
  const params = { reference: `FE-${entry.id}`, item, period, name, amount: formatMoney(entry.amount, entry.currency, locale), network: entry.network.name };
  const lines = [
    t('finances.mail.greeting', params),
    '',
    t('finances.mail.intro', params),
    '',
    `${t('finances.field.item')}: ${item}`,
    `${t('finances.field.amount')}: ${params.amount}`,
    `${t('finances.field.period')}: ${period}`,
    `${t('finances.field.network')}: ${entry.network.name}`,
    `${t('finances.mail.reference')}: ${params.reference}`,
    ...(entry.comment ? [`${t('finances.field.comment')}: ${entry.comment}`] : []),
    '',
    t('finances.mail.outro', params),
  ];
  return { subject: t('finances.mail.subject', params), text: `${lines.join('\n')}\n` };
}

/** Sends the entry's e-mail through the configured transport and records the outcome. */
async function deliver(database: Database, config: Config, request: FastifyRequest | null, team: FinanceTeam, id: number): Promise<FinanceEntry> {
  const entry = (await findEntry(database, team, id))!;
  const mail = await transaction(database, (q) => counterpartyMail(q, team, entry.counterparty.id));
  const to = mail?.email ?? entry.email_to;
  let status: 'sent' | 'failed';
  let error: string | null = null;
  let messageId: string | null = null;
  try {
    if (!to) throw new Error(translate('en', 'finances.no_recipient'));
    const { subject, text } = messageOf(entry, mailLocaleOfCountry(mail?.country), mail?.name ?? entry.counterparty.name);
    messageId = (await createMailer(config).send({ to: [to], subject, text })).messageId;
    status = 'sent';
  } catch (err) {
    status = 'failed';
    error = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR);
    request?.log.warn({ err, entry: id }, 'finance entry e-mail failed');
  }
  return transaction(database, async (q) => {
    await q(
      `UPDATE finance_entries SET email_status = $2, email_to = $3, email_error = $4, email_message_id = $5,
         email_sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE email_sent_at END, updated_at = now()
       WHERE id = $1`,
      [id, status, to, error, messageId],
    );
    await auditIn(q, request, {
      action: status === 'sent' ? 'finance_entry.email_sent' : 'finance_entry.email_failed',
      entity: 'finance_entry',
      entityId: id,
      before: { email_status: 'pending' },
      after: { email_status: status, email_to: to, ...(error ? { email_error: error } : {}) },
    });
    return (await findEntryIn(q, team, id))!;
  });
}
