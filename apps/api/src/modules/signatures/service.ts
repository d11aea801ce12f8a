/**
 * Signatures' rules (docs/decisions/047-signature-manager.md): a person's signature (stored, or
 * prefilled from the user record until first saved), the company templates (exactly one default
 * while any exist), optimistic concurrency on both (`version`, 409 resource.conflict with the row as
 * it is now), audit entries in the same transaction, and the rendered HTML (core's renderer: the API
 * is the authority for what is copied).
 */
import { isAllowed } from '@backoffice/core/acl';
import { translate } from '@backoffice/core/i18n/catalogues';
import {
  checkSignatureHtml,
  renderSignatureHtml,
  renderSignatureText,
  renderTemplateOf,
  SIGNATURE_RESOURCE,
  type ChangedBy,
  type PersonSignature,
  type SignatureFields,
  type SignaturePerson,
  type SignatureRender,
  type SignatureTemplate,
  type TemplateFields,
} from '@backoffice/core/signatures';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { callerOf, type Caller } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { processLogo, type ProcessedLogo } from './logo.ts';

export const TEMPLATE_ENTITY = 'signature_template';
export const SIGNATURE_ENTITY = 'signature';

/** Whether the caller edits templates and other people's signatures (write on /v1/signatures). */
export const canManage = (caller: Caller) => isAllowed(caller, { resource: SIGNATURE_RESOURCE, action: 'write' });

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const changedBy = (id: unknown, name: unknown): ChangedBy => ({ id: id === null || id === undefined ? null : Number(id), name: name === null || name === undefined ? null : String(name) });
const jsonOf = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

// ---------------------------------------------------------------------------------------------
// Templates

export const logoPath = (id: number, hash: string) => `/v1/signatures/logos/${id}/${hash}.png`;

const TEMPLATE_COLUMNS = `t.id, t.name, t.is_default, t.company_name, t.address, t.website, t.legal_en, t.legal_es, t.social,
  t.text_color, t.accent_color, t.logo_width, t.logo_hash, t.logo_pixel_width, t.logo_pixel_height, t.version, t.updated_at,
  t.updated_by, u.name AS updated_by_name`;
const TEMPLATE_FROM = 'signature_templates t LEFT JOIN users u ON u.id = t.updated_by';

function toTemplate(r: SqlRow): SignatureTemplate {
  const id = Number(r.id);
  const hash = r.logo_hash === null ? null : String(r.logo_hash);
  return {
    id,
    name: String(r.name),
    is_default: Boolean(r.is_default),
    company_name: String(r.company_name),
    address: String(r.address),
    website: String(r.website),
    legal_en: String(r.legal_en),
    legal_es: String(r.legal_es),
    // jsonb orders keys its own way: rebuilt in the API's order (replays compare JSON texts).
    social: jsonOf<SignatureTemplate['social']>(r.social).map((x) => ({ network: x.network, url: x.url })),
    text_color: String(r.text_color),
    accent_color: String(r.accent_color),
    logo_width: Number(r.logo_width),
    logo_path: hash === null ? null : logoPath(id, hash),
    logo_size: hash === null ? null : { width: Number(r.logo_pixel_width), height: Number(r.logo_pixel_height) },
    version: Number(r.version),
    updated_at: iso(r.updated_at),
    updated_by: changedBy(r.updated_by, r.updated_by_name),
  };
}

export async function listTemplates(q: QueryFn): Promise<SignatureTemplate[]> {
  const rows = await q(`SELECT ${TEMPLATE_COLUMNS} FROM ${TEMPLATE_FROM} ORDER BY t.is_default DESC, lower(t.name), t.id`);
  return rows.map(toTemplate);
}

async function templateIn(q: QueryFn, id: number): Promise<SignatureTemplate | null> {
  const [row] = await q(`SELECT ${TEMPLATE_COLUMNS} FROM ${TEMPLATE_FROM} WHERE t.id = $1`, [id]);
  return row ? toTemplate(row) : null;
}

export async function templateOr404(database: Database, id: number): Promise<SignatureTemplate> {
  const t = await templateIn((s, p) => query(database, s, p), id);
  if (!t) throw notFound('signatures.template_not_found');
  return t;
}

/**
 * A template's current logo for the public route, and whether `hash` names it. An older hash (a
 * signature pasted before the logo changed, in mails already sent) still gets the current logo:
 * sent mail never shows a broken image while the template exists.
 */
export async function logoPng(database: Database, id: number, hash: string): Promise<{ png: Buffer; current: boolean } | null> {
  const [row] = await query<{ logo_png: string; logo_hash: string }>(database, 'SELECT logo_png, logo_hash FROM signature_templates WHERE id = $1 AND logo_png IS NOT NULL', [id]);
  return row ? { png: Buffer.from(row.logo_png, 'base64'), current: row.logo_hash === hash } : null;
}

/** 409 resource.conflict with the row as it is now and who changed it (the resource layer's answer). */
function conflict(current: { updated_by: ChangedBy | null; updated_at: string | null }): AppError {
  return new AppError(409, 'resource.conflict', { data: { current }, params: { name: current.updated_by?.name ?? '?', at: current.updated_at ?? '' } });
}

/** What the audit keeps of a template (not the logo's bytes). */
const auditedTemplate = (t: SignatureTemplate) => ({
  name: t.name,
  is_default: t.is_default,
  company_name: t.company_name,
  address: t.address,
  website: t.website,
  legal_en: t.legal_en,
  legal_es: t.legal_es,
  social: t.social,
  text_color: t.text_color,
  accent_color: t.accent_color,
  logo_width: t.logo_width,
  logo_path: t.logo_path,
  version: t.version,
});

/** The stored fields equal to a body's (a replayed save: answered, not refused). */
function sameTemplate(t: SignatureTemplate, f: TemplateFields): boolean {
  return (
    f.logo === undefined &&
    t.name === f.name &&
    t.is_default === f.is_default &&
    t.company_name === f.company_name &&
    t.address === f.address &&
    t.website === f.website &&
    t.legal_en === f.legal_en &&
    t.legal_es === f.legal_es &&
    JSON.stringify(t.social) === JSON.stringify(f.social) &&
    t.text_color === f.text_color &&
    t.accent_color === f.accent_color &&
    t.logo_width === f.logo_width
  );
}

async function nameTaken(q: QueryFn, name: string, exceptId: number | null): Promise<boolean> {
  const rows = await q('SELECT id FROM signature_templates WHERE lower(name) = lower($1) AND ($2::int IS NULL OR id <> $2::int)', [name, exceptId]);
  return rows.length > 0;
}

/** The default flag leaves the template that has it (a change of that row: its version moves on). */
async function takeDefault(q: QueryFn, by: number): Promise<void> {
  await q('UPDATE signature_templates SET is_default = false, version = version + 1, updated_at = now(), updated_by = $1 WHERE is_default', [by]);
}

async function logoOf(fields: TemplateFields): Promise<ProcessedLogo | null | undefined> {
  if (fields.logo === undefined || fields.logo === null) return fields.logo;
  return processLogo(fields.logo);
}

/**
 * Creates (id null, version 0) or updates a template. The first template is the default whatever
 * the body says; making one the default takes the flag from the other; the default cannot give it
 * up (another one takes it instead).
 */
export async function saveTemplate(database: Database, request: FastifyRequest, id: number | null, body: TemplateFields & { version: number }): Promise<{ template: SignatureTemplate; created: boolean }> {
  const caller = callerOf(request);
  const { version, ...fields } = body;
  const logo = await logoOf(fields);
  return transaction(database, async (q) => {
    // One writer of templates at a time: the default flag and the names are checked across rows.
    await q('SELECT pg_advisory_xact_lock(7263626)');
    if (await nameTaken(q, fields.name, id)) throw badRequest('error.validation', { name: 'signatures.template_name_taken' });
    const [{ n }] = (await q<{ n: number }>('SELECT count(*)::int AS n FROM signature_templates')) as [{ n: number }];
    const logoColumns = logo === undefined ? null : logo === null ? [null, null, null, null] : [logo.png.toString('base64'), logo.hash, logo.width, logo.height];

    if (id === null) {
      const isDefault = fields.is_default || Number(n) === 0;
      if (isDefault) await takeDefault(q, caller.id);
      const [row] = await q<{ id: number }>(
        `INSERT INTO signature_templates (name, is_default, company_name, address, website, legal_en, legal_es, social, text_color, accent_color, logo_width,
           logo_png, logo_hash, logo_pixel_width, logo_pixel_height, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $16) RETURNING id`,
        [fields.name, isDefault, fields.company_name, fields.address, fields.website, fields.legal_en, fields.legal_es, JSON.stringify(fields.social), fields.text_color, fields.accent_color, fields.logo_width, ...(logoColumns ?? [null, null, null, null]), caller.id],
      );
      const template = (await templateIn(q, Number(row!.id)))!;
      await auditIn(q, request, { action: 'signature_template.create', entity: TEMPLATE_ENTITY, entityId: template.id, after: auditedTemplate(template) });
      return { template, created: true };
    }

    const before = await templateIn(q, id);
    if (!before) throw notFound('signatures.template_not_found');
    if (before.version !== version) {
      if (sameTemplate(before, fields)) return { template: before, created: false };
      throw conflict(before);
    }
    if (before.is_default && !fields.is_default) throw badRequest('error.validation', { is_default: 'signatures.template_default_required' });
    if (fields.is_default && !before.is_default) await takeDefault(q, caller.id);
    await q(
      `UPDATE signature_templates SET name = $2, is_default = $3, company_name = $4, address = $5, website = $6, legal_en = $7, legal_es = $8,
         social = $9::jsonb, text_color = $10, accent_color = $11, logo_width = $12, version = version + 1, updated_at = now(), updated_by = $13
         ${logoColumns ? ', logo_png = $14, logo_hash = $15, logo_pixel_width = $16, logo_pixel_height = $17' : ''}
       WHERE id = $1`,
      [id, fields.name, fields.is_default, fields.company_name, fields.address, fields.website, fields.legal_en, fields.legal_es, JSON.stringify(fields.social), fields.text_color, fields.accent_color, fields.logo_width, caller.id, ...(logoColumns ?? [])],
    );
    const template = (await templateIn(q, id))!;
    await auditIn(q, request, { action: 'signature_template.update', entity: TEMPLATE_ENTITY, entityId: id, before: auditedTemplate(before), after: auditedTemplate(template) });
    return { template, created: false };
  });
}

/** Deletes a template; the signatures on it go to the default. The default goes only when it is the last. */
export async function deleteTemplate(database: Database, request: FastifyRequest, id: number): Promise<SignatureTemplate> {
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock(7263626)');
    const before = await templateIn(q, id);
    if (!before) throw notFound('signatures.template_not_found');
    const [{ n }] = (await q<{ n: number }>('SELECT count(*)::int AS n FROM signature_templates')) as [{ n: number }];
    if (before.is_default && Number(n) > 1) throw badRequest('signatures.template_default_delete');
    await q('DELETE FROM signature_templates WHERE id = $1', [id]);
    await auditIn(q, request, { action: 'signature_template.delete', entity: TEMPLATE_ENTITY, entityId: id, before: auditedTemplate(before) });
    return before;
  });
}

// ---------------------------------------------------------------------------------------------
// People's signatures

const SIGNATURE_SELECT = `SELECT us.id AS user_id, us.name AS user_name, us.mail AS user_mail, s.user_id AS saved, s.template_id, s.language, s.name, s.title,
  s.department, s.phones, s.mail, s.version, s.updated_at, s.updated_by, ub.name AS updated_by_name
  FROM users us LEFT JOIN signatures s ON s.user_id = us.id LEFT JOIN users ub ON ub.id = s.updated_by`;

function toSignature(r: SqlRow): PersonSignature {
  if (r.saved === null) {
    // Never saved: prefilled from the user record.
    return {
      user_id: Number(r.user_id),
      template_id: null,
      language: 'en',
      name: String(r.user_name),
      title: '',
      department: '',
      phones: [],
      mail: String(r.user_mail).toLowerCase(),
      version: 0,
      updated_at: null,
      updated_by: null,
    };
  }
  return {
    user_id: Number(r.user_id),
    template_id: r.template_id === null ? null : Number(r.template_id),
    language: r.language === 'es' ? 'es' : 'en',
    name: String(r.name),
    title: String(r.title),
    department: String(r.department),
    phones: jsonOf<PersonSignature['phones']>(r.phones).map((p) => ({ kind: p.kind, number: p.number })),
    mail: String(r.mail),
    version: Number(r.version),
    updated_at: iso(r.updated_at),
    updated_by: changedBy(r.updated_by, r.updated_by_name),
  };
}

async function signatureIn(q: QueryFn, userId: number): Promise<PersonSignature | null> {
  const [row] = await q(`${SIGNATURE_SELECT} WHERE us.id = $1`, [userId]);
  return row ? toSignature(row) : null;
}

export async function signatureOr404(database: Database, userId: number): Promise<PersonSignature> {
  const s = await signatureIn((t, p) => query(database, t, p), userId);
  if (!s) throw notFound('signatures.person_not_found');
  return s;
}

/** The people a manager may pick (active users), by name; `q` matches name or mail. At most 50. */
export async function listPeople(database: Database, q: string | undefined): Promise<SignaturePerson[]> {
  const text = q?.trim() ?? '';
  const params: unknown[] = [];
  let where = 'us.active';
  if (text !== '') {
    params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ' AND (us.name ILIKE $1 OR us.mail ILIKE $1)';
  }
  const rows = await query(database, `SELECT us.id, us.name, us.mail, s.user_id IS NOT NULL AS has_signature FROM users us LEFT JOIN signatures s ON s.user_id = us.id WHERE ${where} ORDER BY lower(us.name), us.id LIMIT 50`, params);
  return rows.map((r) => ({ user_id: Number(r.id), name: String(r.name), mail: String(r.mail), has_signature: Boolean(r.has_signature) }));
}

const fieldsOf = (s: PersonSignature): SignatureFields => ({
  template_id: s.template_id,
  language: s.language,
  name: s.name,
  title: s.title,
  department: s.department,
  phones: s.phones,
  mail: s.mail,
});
const sameSignature = (s: PersonSignature, f: SignatureFields) => JSON.stringify(fieldsOf(s)) === JSON.stringify(fieldsOf({ ...s, ...f }));

/**
 * Saves a person's signature (version 0: the first save). The template must exist; the HTML it
 * makes must pass the rules (a signature over Gmail's 10,000 characters is refused).
 */
export async function saveSignature(ctx: AppContext, request: FastifyRequest, userId: number, body: SignatureFields & { version: number }): Promise<{ signature: PersonSignature; render: SignatureRender }> {
  const caller = callerOf(request);
  const { version, ...fields } = body;
  const origin = originOf(request);
  return transaction(ctx.database, async (q) => {
    await q('SELECT pg_advisory_xact_lock(7263627, $1::int)', [userId]);
    const before = await signatureIn(q, userId);
    if (!before) throw notFound('signatures.person_not_found');
    if (before.version !== version) {
      if (before.version > 0 && sameSignature(before, fields)) return { signature: before, render: await renderIn(ctx, q, fields, origin) };
      throw conflict(before);
    }
    const render = await renderIn(ctx, q, fields, origin);
    if (render.issues.length > 0) throw badRequest(render.issues[0]!);
    const values = [userId, fields.template_id, fields.language, fields.name, fields.title, fields.department, JSON.stringify(fields.phones), fields.mail, caller.id];
    if (version === 0) {
      await q(
        `INSERT INTO signatures (user_id, template_id, language, name, title, department, phones, mail, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
        values,
      );
    } else {
      await q(
        `UPDATE signatures SET template_id = $2, language = $3, name = $4, title = $5, department = $6, phones = $7::jsonb, mail = $8, updated_by = $9,
           version = version + 1, updated_at = now() WHERE user_id = $1`,
        values,
      );
    }
    const signature = (await signatureIn(q, userId))!;
    await auditIn(q, request, {
      action: version === 0 ? 'signature.create' : 'signature.update',
      entity: SIGNATURE_ENTITY,
      entityId: userId,
      before: version === 0 ? undefined : fieldsOf(before),
      after: fieldsOf(signature),
    });
    return { signature, render };
  });
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The origin the logo URLs use: the one the request came to (behind a proxy, its forwarded one). */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The template a signature uses: its own, else the default, else none (no template exists yet). */
async function templateFor(q: QueryFn, templateId: number | null): Promise<SignatureTemplate | null> {
  if (templateId !== null) {
    const t = await templateIn(q, templateId);
    if (!t) throw badRequest('error.validation', { template_id: 'signatures.template_not_found' });
    return t;
  }
  const [row] = await q(`SELECT ${TEMPLATE_COLUMNS} FROM ${TEMPLATE_FROM} WHERE t.is_default`);
  return row ? toTemplate(row) : null;
}

async function renderIn(ctx: AppContext, q: QueryFn, fields: SignatureFields, origin: string): Promise<SignatureRender> {
  const template = await templateFor(q, fields.template_id);
  const rt = template ? renderTemplateOf(template, origin) : null;
  const labels = { office: translate(fields.language, 'signatures.label.office'), mobile: translate(fields.language, 'signatures.label.mobile') };
  const html = renderSignatureHtml(fields, rt, { labels });
  return {
    html,
    text: renderSignatureText(fields, rt, labels),
    dark_html: renderSignatureHtml(fields, rt, { labels, scheme: 'dark' }),
    template_id: template?.id ?? null,
    // A development server's logo is served over http; production's must be https.
    issues: checkSignatureHtml(html, { allowHttpImages: ctx.config.env !== 'production' }),
  };
}

/** The HTML of a signature as typed or as saved (the API's rendering is what the screen copies). */
export async function renderSignature(ctx: AppContext, request: FastifyRequest, fields: SignatureFields): Promise<SignatureRender> {
  return renderIn(ctx, (t, p) => query(ctx.database, t, p), fields, originOf(request));
}

export async function signatureDetail(ctx: AppContext, request: FastifyRequest, userId: number) {
  const signature = await signatureOr404(ctx.database, userId);
  let render: SignatureRender;
  try {
    render = await renderSignature(ctx, request, fieldsOf(signature));
  } catch (err) {
    // Its template was deleted between the reads: the default's rendering.
    if (!(err instanceof AppError)) throw err;
    render = await renderSignature(ctx, request, { ...fieldsOf(signature), template_id: null });
  }
  return { signature, render };
}
