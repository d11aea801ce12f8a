/**
 * Legal tool rules (docs/decisions/046-legal-tool.md): template versions (numbered, immutable, a
 * save or a restore appends one), the values of a version's placeholders for a counterparty (from
 * the invoice issuer of its side, the publisher or demand partner and its company), the list of
 * what is missing, and the generation of a PDF, refused while a value is missing and not typed for
 * the document. Raw SQL in one transaction per change, audited with it.
 */
import {
  manualValuesErrors,
  parseBlocks,
  fillText,
  placeholderDef,
  templateIssues,
  issueErrors,
  usedPlaceholders,
  type CheckAnswer,
  type CounterpartyOption,
  type CounterpartyType,
  type GenerateBody,
  type LegalDocumentAnswer,
  type LegalLanguage,
  type ResolvedPlaceholder,
  type TemplateParty,
  type TemplateTexts,
  type TemplateVersionBody,
  type TemplateVersionDto,
  type TemplateVersionSummary,
  type ValueSource,
} from '@backoffice/core/legal';
import type { FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import {
  countryName,
  formatDocDate,
  formatDocMoney,
  formatPaymentTerms,
  formatPercent,
} from '../invoices/pdf/format.ts';
import { auditIn } from '../prepayments/service.ts';
import { renderLegalPdf, type LegalPdfInput } from './pdf.ts';

/** pg_advisory_xact_lock class of a template's version numbering. */
const VERSION_LOCK = 46046;

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

// ---- templates and versions ---------------------------------------------------------------------

interface TemplateRow {
  id: number;
  name: string;
  party: TemplateParty;
  current_version: number | null;
}

async function templateIn(q: QueryFn, id: number, lock = false): Promise<TemplateRow> {
  const [row] = await q<TemplateRow>(
    `SELECT id, name, party, current_version FROM legal_templates WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!row) throw notFound('legal.template_not_found');
  return row;
}

const VERSION_COLUMNS = `v.id, v.template_id, v.number, v.title_en, v.title_es, v.body_en, v.body_es, v.comment, v.restored_from,
  v.author_id, u.name AS author_name, v.created_at`;

function versionDto(r: Row): TemplateVersionDto {
  const texts: TemplateTexts = {
    title_en: String(r.title_en),
    title_es: String(r.title_es),
    body_en: String(r.body_en),
    body_es: String(r.body_es),
  };
  return {
    id: Number(r.id),
    template_id: Number(r.template_id),
    number: Number(r.number),
    ...texts,
    comment: String(r.comment),
    restored_from: r.restored_from === null ? null : Number(r.restored_from),
    author: {
      id: r.author_id === null ? null : Number(r.author_id),
      name: (r.author_name as string | null) ?? null,
    },
    created_at: iso(r.created_at),
    placeholders: usedPlaceholders(texts),
  };
}

async function versionIn(q: QueryFn, templateId: number, number: number): Promise<TemplateVersionDto | null> {
  const [row] = await q<Row>(
    `SELECT ${VERSION_COLUMNS} FROM legal_template_versions v LEFT JOIN users u ON u.id = v.author_id
      WHERE v.template_id = $1 AND v.number = $2`,
    [templateId, number],
  );
  return row ? versionDto(row) : null;
}

export async function listVersions(
  database: Database,
  templateId: number,
): Promise<TemplateVersionSummary[]> {
  await transaction(database, (q) => templateIn(q, templateId));
  const rows = await query<Row>(
    database,
    `SELECT v.id, v.template_id, v.number, v.comment, v.restored_from, v.author_id, u.name AS author_name, v.created_at
       FROM legal_template_versions v LEFT JOIN users u ON u.id = v.author_id
      WHERE v.template_id = $1 ORDER BY v.number DESC`,
    [templateId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    template_id: Number(r.template_id),
    number: Number(r.number),
    comment: String(r.comment),
    restored_from: r.restored_from === null ? null : Number(r.restored_from),
    author: {
      id: r.author_id === null ? null : Number(r.author_id),
      name: (r.author_name as string | null) ?? null,
    },
    created_at: iso(r.created_at),
  }));
}

export async function getVersion(
  database: Database,
  templateId: number,
  number: number,
): Promise<TemplateVersionDto> {
  return transaction(database, async (q) => {
    await templateIn(q, templateId);
    const version = await versionIn(q, templateId, number);
    if (!version) throw notFound('legal.version_not_found');
    return version;
  });
}

/** The texts' problems as the 400 the editor shows (field errors and every issue with its line). */
function checkTexts(texts: TemplateTexts): void {
  const issues = templateIssues(texts);
  if (issues.length > 0)
    throw new AppError(400, 'legal.template_invalid', { errors: issueErrors(issues), data: { issues } });
}

/**
 * Appends a version (a save, or a restore of `restoredFrom`). `base` is the version the editor
 * started from: when another one was saved meanwhile the answer is 409 with the current version,
 * never a silent overwrite. Texts equal to the current version's are refused (nothing changed).
 */
async function appendVersion(
  database: Database,
  request: FastifyRequest,
  templateId: number,
  texts: TemplateTexts,
  comment: string,
  base: number | null,
  restoredFrom: number | null,
): Promise<TemplateVersionDto> {
  checkTexts(texts);
  const caller = callerOf(request);
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1::int4, $2::int4)', [VERSION_LOCK, templateId]);
    const template = await templateIn(q, templateId, true);
    if (template.current_version !== base) {
      const current =
        template.current_version === null ? null : await versionIn(q, templateId, template.current_version);
      throw new AppError(409, 'legal.version_conflict', { data: { current } });
    }
    if (template.current_version !== null) {
      const current = (await versionIn(q, templateId, template.current_version))!;
      if (
        current.title_en === texts.title_en &&
        current.title_es === texts.title_es &&
        current.body_en === texts.body_en &&
        current.body_es === texts.body_es
      )
        throw badRequest('legal.version_unchanged');
    }
    const number = (template.current_version ?? 0) + 1;
    const [row] = await q<{ id: number }>(
      `INSERT INTO legal_template_versions (template_id, number, title_en, title_es, body_en, body_es, comment, restored_from, author_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        templateId,
        number,
        texts.title_en,
        texts.title_es,
        texts.body_en,
        texts.body_es,
        comment,
        restoredFrom,
        caller.id,
      ],
    );
    await q(
      `UPDATE legal_templates SET current_version = $2, updated_at = now(), updated_by = $3 WHERE id = $1`,
      [templateId, number, caller.id],
    );
    await auditIn(q, request, {
      action: restoredFrom === null ? 'legal_template.version_create' : 'legal_template.version_restore',
      entity: 'legal_template',
      entityId: templateId,
      before: { current_version: template.current_version },
      after: {
        current_version: number,
        version_id: Number(row!.id),
        comment,
        ...(restoredFrom === null ? {} : { restored_from: restoredFrom }),
      },
    });
    return (await versionIn(q, templateId, number))!;
  });
}

export function saveVersion(
  database: Database,
  request: FastifyRequest,
  templateId: number,
  body: TemplateVersionBody,
): Promise<TemplateVersionDto> {
  const { title_en, title_es, body_en, body_es } = body;
  return appendVersion(
    database,
    request,
    templateId,
    { title_en, title_es, body_en, body_es },
    body.comment,
    body.base_version,
    null,
  );
}

export async function restoreVersion(
  database: Database,
  request: FastifyRequest,
  templateId: number,
  number: number,
  body: { comment?: string; base_version: number },
): Promise<TemplateVersionDto> {
  const old = await getVersion(database, templateId, number);
  const comment = body.comment?.trim() || `Restored version ${number}`;
  return appendVersion(database, request, templateId, old, comment, body.base_version, number);
}

// ---- counterparties --------------------------------------------------------------------------

const PICKER_MAX = 50;

export async function findCounterparties(
  database: Database,
  opts: { type: CounterpartyType; q?: string; ids?: number[]; limit: number },
): Promise<CounterpartyOption[]> {
  const table = opts.type === 'publisher' ? 'publishers' : 'demand_partners';
  const params: unknown[] = [];
  let where = 'true';
  if (opts.ids) {
    params.push(opts.ids);
    where = `p.id = ANY($1::int[])`;
  } else if (opts.q?.trim()) {
    params.push(`%${opts.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where = `(p.name ILIKE $1 OR c.legal_name ILIKE $1)`;
  }
  params.push(Math.min(opts.limit, PICKER_MAX));
  const rows = await query<Row>(
    database,
    `SELECT p.id, p.name, p.side, c.legal_name AS company FROM ${table} p LEFT JOIN companies c ON c.id = p.company_id
      WHERE ${where} ORDER BY lower(p.name), p.id LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    type: opts.type,
    id: Number(r.id),
    name: String(r.name),
    side: String(r.side),
    company: (r.company as string | null) ?? null,
  }));
}

interface Counterparty {
  type: CounterpartyType;
  id: number;
  name: string;
  side: string;
  revenueSharePct: string;
  paymentTerms: string;
  currency: string;
  minimum: string;
  billingEmail: string | null;
  vatId: string | null;
  legalContact: { name: string; email: string } | null;
  company: {
    id: number;
    legal_name: string;
    tax_id: string;
    address: string;
    city: string;
    postal_code: string;
    country: string;
    billing_email: string;
  } | null;
}

async function counterpartyIn(q: QueryFn, type: CounterpartyType, id: number): Promise<Counterparty> {
  const publisher = type === 'publisher';
  const [r] = await q<Row>(
    publisher
      ? `SELECT p.id, p.name, p.side, p.revenue_share_pct::text AS share, p.payment_terms, p.currency, p.min_payout::text AS minimum,
                p.billing_email, NULL AS vat_id, '[]'::jsonb AS contacts, c.id AS company_id, c.legal_name, c.tax_id, c.address, c.city,
                c.postal_code, c.country, c.billing_email AS company_email
           FROM publishers p LEFT JOIN companies c ON c.id = p.company_id WHERE p.id = $1`
      : `SELECT p.id, p.name, p.side, p.revenue_share_pct::text AS share, p.payment_terms, p.invoice_currency AS currency,
                p.min_amount::text AS minimum, p.billing_email, p.vat_id, p.billing_contacts AS contacts, c.id AS company_id, c.legal_name,
                c.tax_id, c.address, c.city, c.postal_code, c.country, c.billing_email AS company_email
           FROM demand_partners p LEFT JOIN companies c ON c.id = p.company_id WHERE p.id = $1`,
    [id],
  );
  if (!r) throw badRequest('error.validation', { counterparty_id: 'legal.counterparty_not_found' });
  const contacts = (Array.isArray(r.contacts) ? r.contacts : []) as {
    name?: string;
    email?: string;
    role?: string;
  }[];
  const legal = contacts.find((c) => c.role === 'legal' && c.name?.trim());
  return {
    type,
    id: Number(r.id),
    name: String(r.name),
    side: String(r.side),
    revenueSharePct: String(r.share),
    paymentTerms: String(r.payment_terms ?? ''),
    currency: String(r.currency ?? ''),
    minimum: String(r.minimum ?? '0'),
    billingEmail: (r.billing_email as string | null) ?? null,
    vatId: (r.vat_id as string | null) ?? null,
    legalContact: legal ? { name: legal.name!.trim(), email: legal.email ?? '' } : null,
    company:
      r.company_id === null
        ? null
        : {
            id: Number(r.company_id),
            legal_name: String(r.legal_name ?? ''),
            tax_id: String(r.tax_id ?? ''),
            address: String(r.address ?? ''),
            city: String(r.city ?? ''),
            postal_code: String(r.postal_code ?? ''),
            country: String(r.country ?? ''),
            billing_email: String(r.company_email ?? ''),
          },
  };
}

interface Issuer {
  id: number;
  legal_name: string;
  tax_id: string;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  email: string;
  registry: string | null;
}

async function issuerIn(q: QueryFn, side: string): Promise<Issuer | null> {
  const [r] = await q<Issuer>(
    `SELECT id, legal_name, tax_id, address, city, postal_code, country, email, registry FROM invoice_issuers WHERE team = $1`,
    [side],
  );
  return r ?? null;
}

/** The screen that edits a counterparty, under /{lang}. */
function counterpartyLink(c: Pick<Counterparty, 'type' | 'side' | 'id'>): string {
  if (c.type === 'publisher')
    return `/partners/${c.side === 'performance' ? 'publishers_performance' : 'publishers_ssp'}/${c.id}`;
  return `/partners/${c.side === 'performance' ? 'demandpartners_performance' : 'demandpartners_ssp'}/${c.id}`;
}

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
const isZero = (v: string) => /^0*(\.0*)?$/.test(v.trim());

/** One line of an address: street, postal code and city, country (in the document's language). */
function addressLine(
  a: { address: string; postal_code: string; city: string; country: string },
  language: LegalLanguage,
): string | null {
  if (blank(a.address) || blank(a.city) || blank(a.postal_code) || blank(a.country)) return null;
  return `${a.address.trim()}, ${a.postal_code.trim()} ${a.city.trim()}, ${countryName(a.country, language)}`;
}

interface Resolved {
  value: string | null;
  reason?: string;
  source: ValueSource;
}

/**
 * Every placeholder's value for a counterparty, formatted in the document's language (null and a
 * reason when no record holds it), and where it comes from.
 */
function resolveAll(
  keys: readonly string[],
  c: Counterparty,
  issuer: Issuer | null,
  language: LegalLanguage,
  today: string,
): Map<string, Resolved> {
  const own: ValueSource = { type: c.type, id: c.id, name: c.name, field: null, link: counterpartyLink(c) };
  const company = (field: string): ValueSource =>
    c.company
      ? {
          type: 'company',
          id: c.company.id,
          name: c.company.legal_name,
          field,
          link: `/utils/list_companies/${c.company.id}`,
        }
      : { ...own, field: 'company_id' };
  const ours = (field: string): ValueSource => ({
    type: 'issuer',
    id: issuer?.id ?? null,
    name: issuer?.legal_name ?? null,
    field,
    link: null,
  });
  const document: ValueSource = { type: 'document', id: null, name: null, field: null, link: null };
  const fromIssuer = (field: string, value: (i: Issuer) => string | null): Resolved =>
    issuer
      ? { value: value(issuer), reason: 'legal.missing.empty', source: ours(field) }
      : { value: null, reason: 'legal.missing.no_issuer', source: ours(field) };
  const fromCompany = (
    field: string,
    value: (co: NonNullable<Counterparty['company']>) => string | null,
  ): Resolved =>
    c.company
      ? { value: value(c.company), reason: 'legal.missing.empty', source: company(field) }
      : { value: null, reason: 'legal.missing.no_company', source: company(field) };
  const text = (v: string | null | undefined) => (blank(v) ? null : v!.trim());

  const one = (key: string): Resolved => {
    switch (key) {
      case 'our.legal_name':
        return fromIssuer('legal_name', (i) => text(i.legal_name));
      case 'our.tax_id':
        return fromIssuer('tax_id', (i) => text(i.tax_id));
      case 'our.address':
        return fromIssuer('address', (i) => addressLine(i, language));
      case 'our.registry':
        return fromIssuer('registry', (i) => text(i.registry));
      case 'our.email':
        return fromIssuer('email', (i) => text(i.email));
      case 'counterparty.name':
        return { value: c.name, source: { ...own, field: 'name' } };
      case 'counterparty.legal_name':
        return fromCompany('legal_name', (co) => text(co.legal_name));
      case 'counterparty.tax_id': {
        const r = fromCompany('tax_id', (co) => text(co.tax_id));
        if (r.value === null && text(c.vatId))
          return { value: text(c.vatId), source: { ...own, field: 'vat_id' } };
        return r;
      }
      case 'counterparty.address':
        return fromCompany('address', (co) => addressLine(co, language));
      case 'counterparty.country':
        return fromCompany('country', (co) => (text(co.country) ? countryName(co.country, language) : null));
      case 'counterparty.email': {
        if (text(c.billingEmail))
          return { value: text(c.billingEmail), source: { ...own, field: 'billing_email' } };
        if (c.company && text(c.company.billing_email))
          return { value: text(c.company.billing_email), source: company('billing_email') };
        return { value: null, reason: 'legal.missing.empty', source: { ...own, field: 'billing_email' } };
      }
      case 'counterparty.signatory_name':
        if (c.type === 'demand_partner')
          return c.legalContact
            ? { value: c.legalContact.name, source: { ...own, field: 'billing_contacts' } }
            : {
                value: null,
                reason: 'legal.missing.no_legal_contact',
                source: { ...own, field: 'billing_contacts' },
              };
        return { value: null, reason: 'legal.missing.document', source: document };
      case 'deal.revenue_share':
        return isZero(c.revenueSharePct)
          ? { value: null, reason: 'legal.missing.not_set', source: { ...own, field: 'revenue_share_pct' } }
          : {
              value: formatPercent(c.revenueSharePct, language),
              source: { ...own, field: 'revenue_share_pct' },
            };
      case 'deal.payment_terms':
        return {
          value: text(c.paymentTerms) ? formatPaymentTerms(c.paymentTerms, language) : null,
          reason: 'legal.missing.empty',
          source: { ...own, field: 'payment_terms' },
        };
      case 'deal.currency':
        return {
          value: text(c.currency),
          reason: 'legal.missing.empty',
          source: { ...own, field: c.type === 'publisher' ? 'currency' : 'invoice_currency' },
        };
      case 'deal.minimum':
        return {
          value: text(c.currency) ? formatDocMoney(c.minimum, c.currency, language) : null,
          reason: 'legal.missing.empty',
          source: { ...own, field: c.type === 'publisher' ? 'min_payout' : 'min_amount' },
        };
      case 'contract.date':
        return {
          value: formatDocDate(today, language),
          source: { type: 'system', id: null, name: null, field: null, link: null },
        };
      default:
        // our.signatory_*, counterparty.signatory_title, contract.start_date / end_date.
        return { value: null, reason: 'legal.missing.document', source: document };
    }
  };
  return new Map(keys.map((k) => [k, one(k)]));
}

/** A value typed by hand, formatted as the records' values are. */
function formatManual(key: string, raw: string, language: LegalLanguage): string {
  const value = raw.trim();
  const type = placeholderDef(key)?.type;
  if (type === 'date') return formatDocDate(value, language);
  if (type === 'percent') return formatPercent(value, language);
  return value;
}

const partyAllows = (party: TemplateParty, type: CounterpartyType) => party === 'any' || party === type;

interface Prepared {
  template: TemplateRow;
  version: TemplateVersionDto;
  counterparty: Counterparty;
  issuer: Issuer | null;
  placeholders: ResolvedPlaceholder[];
}

async function prepare(
  q: QueryFn,
  templateId: number,
  body: {
    version: number;
    language: LegalLanguage;
    counterparty_type: CounterpartyType;
    counterparty_id: number;
  },
  today: string,
): Promise<Prepared> {
  const template = await templateIn(q, templateId);
  const version = await versionIn(q, templateId, body.version);
  if (!version) throw badRequest('error.validation', { version: 'legal.version_not_found' });
  if (!partyAllows(template.party, body.counterparty_type))
    throw badRequest('error.validation', { counterparty_type: 'legal.counterparty_type_not_allowed' });
  const counterparty = await counterpartyIn(q, body.counterparty_type, body.counterparty_id);
  const issuer = await issuerIn(q, counterparty.side);
  const resolved = resolveAll(version.placeholders, counterparty, issuer, body.language, today);
  const placeholders = version.placeholders.map((key): ResolvedPlaceholder => {
    const r = resolved.get(key)!;
    return {
      key,
      type: placeholderDef(key)!.type,
      value: r.value,
      missing: r.value === null,
      reason: r.value === null ? (r.reason ?? 'legal.missing.empty') : null,
      source: r.source,
    };
  });
  return { template, version, counterparty, issuer, placeholders };
}

/** Today (UTC) as YYYY-MM-DD. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function checkData(
  database: Database,
  templateId: number,
  body: {
    version: number;
    language: LegalLanguage;
    counterparty_type: CounterpartyType;
    counterparty_id: number;
  },
  now: number,
): Promise<CheckAnswer> {
  const p = await transaction(database, (q) => prepare(q, templateId, body, dayOf(now)));
  return {
    template_id: templateId,
    version: p.version.number,
    language: body.language,
    counterparty: { type: p.counterparty.type, id: p.counterparty.id, name: p.counterparty.name },
    placeholders: p.placeholders,
    missing: p.placeholders.filter((x) => x.missing),
  };
}

/** A file name of plain characters: `nda-iberia-media-group-v3-es.pdf`. */
function fileNameOf(templateName: string, counterparty: string, version: number, language: string): string {
  const slug = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'document';
  return `${slug(templateName)}-${slug(counterparty)}-v${version}-${language}.pdf`;
}

/**
 * Generates a document: refused (400 legal.data_missing, with the list) while a placeholder has no
 * value and none was typed; typed values are accepted only for the placeholders that miss one. The
 * PDF is stored with every value; the same request_id from the same person answers the document it
 * made (a double click or a retry generates once).
 */
export async function generateDocument(
  database: Database,
  request: FastifyRequest | null,
  body: GenerateBody & { values: Record<string, string> },
  now: number,
  /** Who generates when there is no request (the demo seed). */
  actorId: number | null = null,
): Promise<LegalDocumentAnswer> {
  const caller = { id: request ? callerOf(request).id : actorId };
  const existing = async (q: QueryFn) => {
    const [row] = await q<Row>(
      `SELECT id, file_name, sha256, size FROM legal_documents WHERE author_id = $1 AND request_id = $2`,
      [caller.id, body.request_id],
    );
    return row
      ? {
          id: Number(row.id),
          file_name: String(row.file_name),
          sha256: String(row.sha256),
          size: Number(row.size),
          already: true,
        }
      : null;
  };
  const before = await transaction(database, existing);
  if (before) return before;

  const today = dayOf(now);
  const p = await transaction(database, (q) => prepare(q, body.template_id, body, today));
  const errors: Record<string, string> = {};
  const typed: Record<string, string> = {};
  for (const [key, raw] of Object.entries(body.values)) {
    if (raw.trim() === '') continue;
    const placeholder = p.placeholders.find((x) => x.key === key);
    if (!placeholderDef(key)) errors[`values.${key}`] = 'legal.placeholder_unknown';
    else if (!placeholder) errors[`values.${key}`] = 'legal.value_not_used';
    else if (!placeholder.missing) errors[`values.${key}`] = 'legal.value_not_missing';
    else typed[key] = raw.trim();
  }
  for (const [k, v] of Object.entries(manualValuesErrors(typed))) errors[k] ??= v;
  if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
  const missing = p.placeholders.filter((x) => x.missing && typed[x.key] === undefined);
  if (missing.length > 0)
    throw new AppError(400, 'legal.data_missing', { data: { missing }, params: { count: missing.length } });

  const values: Record<string, string> = {};
  for (const x of p.placeholders)
    values[x.key] = x.value ?? formatManual(x.key, typed[x.key]!, body.language);
  const pdfInput = pdfInputOf(p, body.language, values, today);
  const pdf = await renderLegalPdf(pdfInput);
  const sha256 = crypto.createHash('sha256').update(pdf).digest('hex');
  const fileName = fileNameOf(p.template.name, p.counterparty.name, p.version.number, body.language);

  return transaction(database, async (q) => {
    // Two identical requests at once: the second waits for the first and answers its document.
    await q('SELECT pg_advisory_xact_lock($1::int4, hashtext($2))', [
      VERSION_LOCK + 1,
      `${caller.id}|${body.request_id}`,
    ]);
    const again = await existing(q);
    if (again) return again;
    const [row] = await q<{ id: number }>(
      `INSERT INTO legal_documents (template_id, template_version, language, counterparty_type, counterparty_id, counterparty_name,
         values, manual_values, manual_count, file_name, pdf, sha256, size, request_id, author_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [
        p.template.id,
        p.version.number,
        body.language,
        p.counterparty.type,
        p.counterparty.id,
        p.counterparty.name,
        JSON.stringify(values),
        JSON.stringify(typed),
        Object.keys(typed).length,
        fileName,
        pdf,
        sha256,
        pdf.length,
        body.request_id,
        caller.id,
      ],
    );
    const id = Number(row!.id);
    const entry = {
      action: 'legal_document.create',
      entity: 'legal_document',
      entityId: id,
      after: {
        template_id: p.template.id,
        template_version: p.version.number,
        language: body.language,
        counterparty_type: p.counterparty.type,
        counterparty_id: p.counterparty.id,
        counterparty_name: p.counterparty.name,
        manual_values: typed,
        sha256,
      },
    };
    if (request) await auditIn(q, request, entry);
    else
      await q(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, after) VALUES ($1, $2, $3, $4, $5::jsonb)`,
        [actorId, entry.action, entry.entity, String(id), JSON.stringify(entry.after)],
      );
    return { id, file_name: fileName, sha256, size: pdf.length, already: false };
  });
}

function pdfInputOf(
  p: Prepared,
  language: LegalLanguage,
  values: Record<string, string>,
  today: string,
): LegalPdfInput {
  const title = fillText(language === 'es' ? p.version.title_es : p.version.title_en, values);
  const body = language === 'es' ? p.version.body_es : p.version.body_en;
  const blocks = parseBlocks(body).map((b) => ({ ...b, text: fillText(b.text, values) }));
  const counterpartyLegal =
    values['counterparty.legal_name'] ?? p.counterparty.company?.legal_name ?? p.counterparty.name;
  return {
    language,
    title,
    date: today,
    reference: `${p.template.name} · v${p.version.number}`,
    blocks,
    parties: [
      {
        name: values['our.legal_name'] ?? p.issuer?.legal_name ?? '',
        signatory: values['our.signatory_name'] ?? null,
        signatoryTitle: values['our.signatory_title'] ?? null,
      },
      {
        name: counterpartyLegal || p.counterparty.name,
        signatory: values['counterparty.signatory_name'] ?? null,
        signatoryTitle: values['counterparty.signatory_title'] ?? null,
      },
    ],
  };
}

export async function documentPdf(
  database: Database,
  id: number,
): Promise<{ pdf: Buffer; fileName: string }> {
  const [row] = await query<{ pdf: Buffer | Uint8Array; file_name: string }>(
    database,
    `SELECT pdf, file_name FROM legal_documents WHERE id = $1`,
    [id],
  );
  if (!row) throw notFound('legal.document_not_found');
  return { pdf: Buffer.isBuffer(row.pdf) ? row.pdf : Buffer.from(row.pdf), fileName: row.file_name };
}
