/**
 * The Amazon Publisher Services earnings CSV importer (docs/decisions/034-partner-reported-figures.md).
 * The file travels as text in a JSON body (a month of APS rows is a few hundred kB) and is read here
 * with papaparse, the delimiter (comma or semicolon) chosen by core's rule, rows with an empty value
 * dropped (spec 5); the mapping says which column is which of ours. Valid rows are summed per day
 * and written as the partner's figures (source `amazon_csv`).
 *
 * A file is identified by the sha256 of its text (BOM and line endings normalised) and the partner:
 * importing it again answers the earlier import (`already`), and the partial unique index
 * (partner, hash) WHERE state = 'imported' keeps it once even if two requests race. Days that hold
 * other figures answer 409 before anything is written unless `replace`; the import keeps what it
 * replaced, so undo puts it back (days a later write changed are left alone).
 */
import { createHash } from 'node:crypto';
import { utcToday } from '@backoffice/core/billing-accounts';
import { uploadError } from '@backoffice/core/files';
import {
  AmazonColumnMissing,
  MAX_FILE_ROWS,
  csvDelimiterOf,
  normaliseFileText,
  readAmazonRecords,
  revenueText,
  type AmazonImport,
  type AmazonImportBody,
  type AmazonImportResult,
  type AmazonMapping,
  type AmazonMappingBody,
  type AmazonPreview,
  type AmazonPreviewBody,
  type ReadAmazonFile,
} from '@backoffice/core/partner-stats';
import type { FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { compareDays, lockPartners, refreshBilling, replacedDays, storedDays, writeDays, type DayFigures } from './service.ts';

/** Rows of the preview that travel back to the screen (the counts cover them all). */
export const PREVIEW_ROWS = 500;

export interface ReadFile extends ReadAmazonFile {
  hash: string;
  text: string;
}

/** Reads the file with the mapping (400 with the spec's keys when it cannot be read). */
export function readAmazonFile(body: AmazonPreviewBody, today = utcToday()): ReadFile {
  const wrong = uploadError(body.file_name, 'csv');
  if (wrong) throw badRequest(wrong, { file_name: wrong });
  const text = normaliseFileText(body.content);
  if (text.trim() === '') throw badRequest('amazon.file_empty', { content: 'amazon.file_empty' });
  const delimiter = csvDelimiterOf(text);
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' });
  const [head, ...data] = parsed.data;
  const headers = (head ?? []).map((h, i) => (h.trim() === '' ? `column_${i + 1}` : h.trim()));
  if (data.length === 0) throw badRequest('amazon.file_empty', { content: 'amazon.file_empty' });
  if (data.length > MAX_FILE_ROWS) throw badRequest('amazon.file_too_large', { content: 'amazon.file_too_large' });
  const records = data.map((row) => Object.fromEntries(headers.map((h, i) => [h, (row[i] ?? '').trim()])));
  try {
    const read = readAmazonRecords(headers, records, body.columns, { delimiter, today });
    const hash = createHash('sha256').update(text).digest('hex');
    return { ...read, hash, text };
  } catch (err) {
    if (err instanceof AmazonColumnMissing)
      throw new AppError(400, 'amazon.column_missing', { params: { column: err.column }, errors: { [`columns.${err.field}`]: 'amazon.column_missing' }, data: { headers } });
    throw err;
  }
}

/** The partner of an import: an SSP partner of type amazon that reports by hand. */
async function amazonPartner(q: QueryFn, id: number): Promise<{ id: number; name: string }> {
  const [p] = await q<{ id: number; name: string }>(
    `SELECT id, name FROM demand_partners WHERE id = $1 AND side = 'ssp' AND type = 'amazon' AND reporting = 'manual'`,
    [id],
  );
  if (!p) throw badRequest('amazon.partner_invalid', { demand_partner_id: 'amazon.partner_invalid' });
  return { id: Number(p.id), name: p.name };
}

const daysOf = (read: ReadAmazonFile, partner: number): DayFigures[] =>
  read.days.map((d) => ({ partner, day: d.day, impressions: d.impressions, revenue: d.revenue, currency: d.currency }));

async function activeImportByHash(q: QueryFn, partner: number, hash: string) {
  const [row] = await q<{ id: number }>(`SELECT id FROM partner_stat_imports WHERE demand_partner_id = $1 AND file_hash = $2 AND state = 'imported'`, [partner, hash]);
  return row ? Number(row.id) : null;
}

export async function previewAmazon(database: Database, body: AmazonPreviewBody): Promise<AmazonPreview> {
  const read = readAmazonFile(body);
  return transaction(database, async (q) => {
    const partner = await amazonPartner(q, body.demand_partner_id);
    const earlier = await activeImportByHash(q, partner.id, read.hash);
    const days = daysOf(read, partner.id);
    const cmp = compareDays(days, await storedDays(q, days));
    const already = earlier === null ? null : await importById(q, earlier);
    const { text: _text, hash, rows, ...rest } = read;
    void _text;
    return {
      ...rest,
      rows: rows.slice(0, PREVIEW_ROWS),
      rows_total: rows.length,
      file_hash: hash,
      already_imported: already ? { id: already.id, created_at: already.created_at, created_by: already.created_by } : null,
      replaces: replacedDays(cmp.changed, new Map([[partner.id, partner.name]])),
      unchanged: cmp.unchanged,
    };
  });
}

const IMPORT_SELECT = `i.id, i.demand_partner_id, p.name AS partner, i.file_name, i.file_hash, i.mapping_name, i.rows, i.days,
  i.first_day::text AS first_day, i.last_day::text AS last_day, i.inserted, i.replaced_count, i.state,
  cu.name AS created_by, i.created_at, uu.name AS undone_by, i.undone_at`;
const IMPORT_FROM = `partner_stat_imports i JOIN demand_partners p ON p.id = i.demand_partner_id
  LEFT JOIN users cu ON cu.id = i.created_by LEFT JOIN users uu ON uu.id = i.undone_by`;
const isoOrNull = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function importDto(r: Record<string, unknown>): AmazonImport {
  return {
    id: Number(r.id),
    demand_partner_id: Number(r.demand_partner_id),
    partner: String(r.partner),
    file_name: String(r.file_name),
    file_hash: String(r.file_hash),
    mapping_name: (r.mapping_name as string | null) ?? null,
    rows: Number(r.rows),
    days: Number(r.days),
    first_day: String(r.first_day),
    last_day: String(r.last_day),
    inserted: Number(r.inserted),
    replaced: Number(r.replaced_count),
    state: r.state === 'undone' ? 'undone' : 'imported',
    created_by: (r.created_by as string | null) ?? null,
    created_at: isoOrNull(r.created_at)!,
    undone_by: (r.undone_by as string | null) ?? null,
    undone_at: isoOrNull(r.undone_at),
  };
}

async function importById(q: QueryFn, id: number): Promise<AmazonImport | null> {
  const [r] = await q<Record<string, unknown>>(`SELECT ${IMPORT_SELECT} FROM ${IMPORT_FROM} WHERE i.id = $1`, [id]);
  return r ? importDto(r) : null;
}

export async function listImports(database: Database, page: { limit: number; offset: number }): Promise<{ items: AmazonImport[]; total: number }> {
  const rows = await query<Record<string, unknown>>(
    database,
    `SELECT ${IMPORT_SELECT} FROM ${IMPORT_FROM} ORDER BY i.created_at DESC, i.id DESC LIMIT ${Number(page.limit)} OFFSET ${Number(page.offset)}`,
  );
  const [n] = await query<{ n: string }>(database, 'SELECT count(*)::text AS n FROM partner_stat_imports');
  return { items: rows.map(importDto), total: Number(n?.n ?? 0) };
}

/**
 * Imports a file: refused (422) while a row has an error; the same file again answers the earlier
 * import; days holding other figures answer 409 unless `replace`.
 */
export async function importAmazon(database: Database, request: FastifyRequest, body: AmazonImportBody): Promise<AmazonImportResult> {
  const caller = callerOf(request);
  const read = readAmazonFile(body);
  if (read.invalid > 0) throw new AppError(422, 'amazon.rows_invalid', { params: { count: read.invalid } });
  if (read.days.length === 0) throw new AppError(422, 'amazon.no_rows');
  return transaction(database, async (q) => {
    const partner = await amazonPartner(q, body.demand_partner_id);
    await lockPartners(q, [partner.id]);
    const earlier = await activeImportByHash(q, partner.id, read.hash);
    if (earlier !== null) return { import: (await importById(q, earlier))!, already: true };
    const days = daysOf(read, partner.id);
    const cmp = compareDays(days, await storedDays(q, days));
    if (cmp.changed.length > 0 && !body.replace)
      throw new AppError(409, 'amazon.replace_confirm', {
        params: { count: cmp.changed.length },
        data: { days: replacedDays(cmp.changed, new Map([[partner.id, partner.name]])) },
      });
    const replaced = cmp.changed.map(({ current }) => ({
      day: current.day,
      impressions: Number(current.impressions),
      revenue: revenueText(current.revenue),
      currency: current.currency,
      source: current.source,
      import_id: current.import_id === null ? null : Number(current.import_id),
    }));
    const [row] = await q<{ id: number }>(
      `INSERT INTO partner_stat_imports (demand_partner_id, file_name, file_hash, mapping_name, rows, days, first_day, last_day, inserted, replaced_count, replaced, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8::date, $9, $10, $11::jsonb, $12) RETURNING id`,
      [partner.id, body.file_name, read.hash, body.mapping_name, read.rows.length, read.days.length, read.days[0]!.day, read.days.at(-1)!.day, cmp.fresh.length, cmp.changed.length, JSON.stringify(replaced), caller.id],
    );
    const id = Number(row!.id);
    // Days equal to what is stored are taken over by the import too, so that undoing it is exact.
    await writeDays(q, days, 'amazon_csv', id, caller.id);
    await auditIn(q, request, {
      action: 'amazon.import',
      entity: 'demand_partner_stats',
      entityId: partner.id,
      before: replaced,
      after: { import_id: id, file_name: body.file_name, file_hash: read.hash, mapping_name: body.mapping_name, rows: read.rows.length, days: read.days.length, inserted: cmp.fresh.length, replaced: cmp.changed.length },
    });
    await refreshBilling(q, days.map((d) => d.day), caller.id);
    return { import: (await importById(q, id))!, already: false };
  });
}

/**
 * Undoes an import: its days that still hold its figures are removed, and what it replaced comes
 * back. Twice (or concurrently) undoes once: 409 `amazon.undo_already`.
 */
export async function undoImport(database: Database, request: FastifyRequest, id: number): Promise<AmazonImport> {
  const caller = callerOf(request);
  return transaction(database, async (q) => {
    const [imp] = await q<{ demand_partner_id: number; state: string; replaced: AmazonImport[] | unknown }>(
      'SELECT demand_partner_id, state, replaced FROM partner_stat_imports WHERE id = $1',
      [id],
    );
    if (!imp) throw notFound('resource.not_found');
    const partner = Number(imp.demand_partner_id);
    await lockPartners(q, [partner]);
    const [state] = await q<{ state: string }>('SELECT state FROM partner_stat_imports WHERE id = $1', [id]);
    if (state!.state !== 'imported') throw new AppError(409, 'amazon.undo_already');
    const removed = await q<{ day: string }>('DELETE FROM partner_stats WHERE import_id = $1 RETURNING day::text AS day', [id]);
    const removedDays = new Set(removed.map((r) => r.day));
    const replaced = (imp.replaced as { day: string; impressions: number; revenue: string; currency: string; source: string; import_id: number | null }[]) ?? [];
    const restore = replaced.filter((r) => removedDays.has(r.day));
    for (const r of restore)
      await q(
        `INSERT INTO partner_stats (day, demand_partner_id, impressions, revenue, currency, source, import_id, created_by, updated_by)
         VALUES ($1::date, $2, $3, $4::numeric, $5, $6, (SELECT id FROM partner_stat_imports WHERE id = $7::int4 AND state = 'imported'), $8, $8)`,
        [r.day, partner, r.impressions, r.revenue, r.currency, r.source, r.import_id, caller.id],
      );
    await q(`UPDATE partner_stat_imports SET state = 'undone', undone_by = $2, undone_at = now() WHERE id = $1`, [id, caller.id]);
    await auditIn(q, request, {
      action: 'amazon.import_undo',
      entity: 'demand_partner_stats',
      entityId: partner,
      after: { import_id: id, removed: removed.length, restored: restore.length },
    });
    await refreshBilling(q, [...removedDays], caller.id);
    return (await importById(q, id))!;
  });
}

// ---------------------------------------------------------------------------------------------
// Mappings, shared by the team by name

function mappingDto(r: Record<string, unknown>): AmazonMapping {
  return {
    id: Number(r.id),
    name: String(r.name),
    columns: r.columns as AmazonMapping['columns'],
    version: Number(r.version),
    updated_by: (r.updated_by as string | null) ?? null,
    updated_at: isoOrNull(r.updated_at)!,
  };
}
const MAPPING_SELECT = `SELECT m.id, m.name, m.columns, m.version, u.name AS updated_by, m.updated_at
  FROM amazon_csv_mappings m LEFT JOIN users u ON u.id = m.updated_by`;

export async function listMappings(database: Database): Promise<AmazonMapping[]> {
  return (await query<Record<string, unknown>>(database, `${MAPPING_SELECT} ORDER BY lower(m.name), m.id`)).map(mappingDto);
}

/**
 * Saves a mapping by name: a new name is created; an existing one is overwritten only with the
 * version shown (409 `amazon.mapping_exists` without one, `resource.conflict` with a stale one).
 */
export async function saveMapping(database: Database, request: FastifyRequest, body: AmazonMappingBody): Promise<AmazonMapping> {
  const caller = callerOf(request);
  return transaction(database, async (q) => {
    await q('SELECT pg_advisory_xact_lock($1::int4, 0)', [24035]);
    const [current] = await q<Record<string, unknown>>(`${MAPPING_SELECT} WHERE lower(m.name) = lower($1)`, [body.name]);
    let id: number;
    if (current) {
      const dto = mappingDto(current);
      if (body.version === undefined) throw new AppError(409, 'amazon.mapping_exists', { params: { name: dto.name }, data: { current: dto } });
      if (body.version !== dto.version) throw new AppError(409, 'resource.conflict', { params: { name: dto.updated_by ?? '', at: dto.updated_at }, data: { current: dto } });
      await q(`UPDATE amazon_csv_mappings SET columns = $2::jsonb, version = version + 1, updated_by = $3, updated_at = now() WHERE id = $1`, [dto.id, JSON.stringify(body.columns), caller.id]);
      id = dto.id;
      await auditIn(q, request, { action: 'amazon.mapping_update', entity: 'amazon_csv_mapping', entityId: id, before: dto.columns, after: body.columns });
    } else {
      const [row] = await q<{ id: number }>(
        `INSERT INTO amazon_csv_mappings (name, columns, created_by, updated_by) VALUES ($1, $2::jsonb, $3, $3) RETURNING id`,
        [body.name, JSON.stringify(body.columns), caller.id],
      );
      id = Number(row!.id);
      await auditIn(q, request, { action: 'amazon.mapping_create', entity: 'amazon_csv_mapping', entityId: id, after: { name: body.name, columns: body.columns } });
    }
    const [saved] = await q<Record<string, unknown>>(`${MAPPING_SELECT} WHERE m.id = $1`, [id]);
    return mappingDto(saved!);
  });
}

export async function deleteMapping(database: Database, request: FastifyRequest, id: number): Promise<void> {
  await transaction(database, async (q) => {
    const [row] = await q<Record<string, unknown>>('DELETE FROM amazon_csv_mappings WHERE id = $1 RETURNING name, columns', [id]);
    if (!row) throw notFound('resource.not_found');
    await auditIn(q, request, { action: 'amazon.mapping_delete', entity: 'amazon_csv_mapping', entityId: id, before: row });
  });
}
