/**
 * Netting (SSP, spec 4): a company that is both a demand partner that pays us and a publisher we
 * pay gets one net amount for a month: its receivable rows (what its partners owe) offset against
 * its payable rows (what we owe its publishers). The netting record keeps what was offset (rows,
 * both sums, the net); the rows point to it. Undo clears it while none of its rows is approved
 * (or invoiced): approval has no rollback. Rows already netted, approved or closed take no part.
 */
import { fromMicros, toMicros } from '@backoffice/core/billing';
import type { BillingNettingDto, NettingCandidate } from '@backoffice/core/billing-api';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditRows, type Who } from './actions.ts';

/** The SSP rows of a company in a month that can be netted (b: billing_rows). */
const COMPANY_ROWS = `SELECT b.id, b.kind, b.currency, b.revenue_gross::text AS gross, b.state, b.version
  FROM billing_rows b
  LEFT JOIN demand_partners dp ON b.counterparty_type = 'demand_partner' AND dp.id = b.counterparty_id
  LEFT JOIN publishers pb ON b.counterparty_type = 'publisher' AND pb.id = b.counterparty_id
  WHERE b.side = 'ssp' AND b.month = $1 AND coalesce(dp.company_id, pb.company_id) = $2
    AND b.state IN ('open', 'confirmed') AND b.netting_id IS NULL`;

export async function nettingCandidates(database: Database, month: string): Promise<NettingCandidate[]> {
  const rows = await query<{ company_id: number; company_name: string; currency: string; kind: string; ids: number[]; gross: string }>(
    database,
    `SELECT coalesce(dp.company_id, pb.company_id) AS company_id, c.legal_name AS company_name, b.currency, b.kind,
       array_agg(b.id ORDER BY b.id) AS ids, sum(b.revenue_gross)::text AS gross
     FROM billing_rows b
     LEFT JOIN demand_partners dp ON b.counterparty_type = 'demand_partner' AND dp.id = b.counterparty_id
     LEFT JOIN publishers pb ON b.counterparty_type = 'publisher' AND pb.id = b.counterparty_id
     JOIN companies c ON c.id = coalesce(dp.company_id, pb.company_id)
     WHERE b.side = 'ssp' AND b.month = $1 AND b.state IN ('open', 'confirmed') AND b.netting_id IS NULL
     GROUP BY 1, 2, 3, 4`,
    [month],
  );
  const byCompany = new Map<string, { company_id: number; company_name: string; currency: string; advertiser?: (typeof rows)[number]; supply?: (typeof rows)[number] }>();
  for (const r of rows) {
    const key = `${r.company_id}|${r.currency}`;
    const entry = byCompany.get(key) ?? { company_id: Number(r.company_id), company_name: r.company_name, currency: r.currency };
    entry[r.kind as 'advertiser' | 'supply'] = r;
    byCompany.set(key, entry);
  }
  return [...byCompany.values()]
    .filter((e) => e.advertiser && e.supply)
    .map((e) => {
      const receivable = toMicros(e.advertiser!.gross);
      const payable = toMicros(e.supply!.gross);
      return {
        company_id: e.company_id,
        company_name: e.company_name,
        currency: e.currency,
        receivable: fromMicros(receivable),
        payable: fromMicros(payable),
        net: fromMicros(receivable - payable),
        receivable_row_ids: e.advertiser!.ids.map(Number),
        payable_row_ids: e.supply!.ids.map(Number),
      };
    })
    .sort((a, b) => a.company_name.localeCompare(b.company_name));
}

const NETTING_SELECT = `SELECT n.id, n.month, n.company_id, c.legal_name AS company_name, n.currency, n.receivable_row_ids, n.payable_row_ids,
   n.receivable::text, n.payable::text, n.net::text, n.created_at, cu.name AS created_by, n.undone_at, uu.name AS undone_by,
   NOT EXISTS (SELECT 1 FROM billing_rows r WHERE r.netting_id = n.id AND r.state IN ('approved', 'invoiced')) AS can_undo
 FROM billing_nettings n JOIN companies c ON c.id = n.company_id
 LEFT JOIN users cu ON cu.id = n.created_by LEFT JOIN users uu ON uu.id = n.undone_by`;

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
function nettingDto(r: Record<string, unknown>): BillingNettingDto {
  return {
    id: Number(r.id),
    month: String(r.month),
    company_id: Number(r.company_id),
    company_name: String(r.company_name),
    currency: String(r.currency),
    receivable_row_ids: (r.receivable_row_ids as number[]).map(Number),
    payable_row_ids: (r.payable_row_ids as number[]).map(Number),
    receivable: String(r.receivable),
    payable: String(r.payable),
    net: String(r.net),
    created_at: iso(r.created_at)!,
    created_by: (r.created_by as string | null) ?? null,
    undone_at: iso(r.undone_at),
    undone_by: (r.undone_by as string | null) ?? null,
    can_undo: r.undone_at === null && Boolean(r.can_undo),
  };
}

export async function listNettings(database: Database, month: string): Promise<BillingNettingDto[]> {
  return (await query<Record<string, unknown>>(database, `${NETTING_SELECT} WHERE n.month = $1 ORDER BY n.id DESC`, [month])).map(nettingDto);
}

export async function readNetting(db: Database | QueryFn, id: number): Promise<BillingNettingDto | null> {
  const text = `${NETTING_SELECT} WHERE n.id = $1`;
  const rows = typeof db === 'function' ? await db<Record<string, unknown>>(text, [id]) : await query<Record<string, unknown>>(db, text, [id]);
  return rows[0] ? nettingDto(rows[0]) : null;
}

async function auditNetting(q: QueryFn, who: Who, action: string, id: number, before: unknown, after: unknown) {
  await q(
    `INSERT INTO audit_log (actor_id, simulated_by_id, simulated_role_id, ip, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, 'billing_nettings', $6, $7::jsonb, $8::jsonb)`,
    [who.userId, who.simulatedById, who.simulatedRoleId, who.ip, action, String(id), JSON.stringify(before), JSON.stringify(after)],
  );
}

export async function createNetting(database: Database, month: string, companyId: number, who: Who): Promise<BillingNettingDto> {
  return transaction(database, async (q) => {
    const rows = await q<{ id: number; kind: string; currency: string; gross: string; state: string; version: number }>(
      `${COMPANY_ROWS} ORDER BY b.id FOR UPDATE OF b`,
      [month, companyId],
    );
    const receivables = rows.filter((r) => r.kind === 'advertiser');
    const payables = rows.filter((r) => r.kind === 'supply');
    if (receivables.length === 0 || payables.length === 0) throw badRequest('billing.netting.nothing');
    const currencies = new Set(rows.map((r) => r.currency));
    if (currencies.size > 1) throw badRequest('billing.netting.currencies');
    const receivable = receivables.reduce((s, r) => s + toMicros(r.gross), 0n);
    const payable = payables.reduce((s, r) => s + toMicros(r.gross), 0n);
    const [n] = await q<{ id: number }>(
      `INSERT INTO billing_nettings (month, company_id, currency, receivable_row_ids, payable_row_ids, receivable, payable, net, created_by)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::numeric, $7::numeric, $8::numeric, $9) RETURNING id`,
      [
        month,
        companyId,
        [...currencies][0],
        JSON.stringify(receivables.map((r) => Number(r.id))),
        JSON.stringify(payables.map((r) => Number(r.id))),
        fromMicros(receivable),
        fromMicros(payable),
        fromMicros(receivable - payable),
        who.userId,
      ],
    );
    const id = Number(n!.id);
    const ids = rows.map((r) => Number(r.id));
    await q('UPDATE billing_rows SET netting_id = $2, version = version + 1, updated_by = $3, updated_at = now() WHERE id = ANY($1::int4[])', [ids, id, who.userId]);
    const dto = (await readNetting(q, id))!;
    await auditNetting(q, who, 'billing_nettings.create', id, null, { month, company_id: companyId, receivable: dto.receivable, payable: dto.payable, net: dto.net, rows: ids });
    await auditRows(q, who, 'billing_rows.netting', ids.map((rowId) => ({ id: rowId, before: { netting_id: null }, after: { netting_id: id } })));
    return dto;
  });
}

export async function undoNetting(database: Database, id: number, who: Who): Promise<BillingNettingDto> {
  return transaction(database, async (q) => {
    const [n] = await q<{ id: number; undone_at: string | null }>('SELECT id, undone_at FROM billing_nettings WHERE id = $1 FOR UPDATE', [id]);
    if (!n) throw notFound();
    if (n.undone_at !== null) throw new AppError(409, 'billing.netting.already_undone');
    const rows = await q<{ id: number; state: string }>('SELECT id, state FROM billing_rows WHERE netting_id = $1 ORDER BY id FOR UPDATE', [id]);
    if (rows.some((r) => r.state === 'approved' || r.state === 'invoiced')) throw badRequest('billing.netting.approved');
    const ids = rows.map((r) => Number(r.id));
    await q('UPDATE billing_rows SET netting_id = NULL, version = version + 1, updated_by = $2, updated_at = now() WHERE netting_id = $1', [id, who.userId]);
    await q('UPDATE billing_nettings SET undone_at = now(), undone_by = $2 WHERE id = $1', [id, who.userId]);
    await auditNetting(q, who, 'billing_nettings.undo', id, { undone: false }, { undone: true, rows: ids });
    await auditRows(q, who, 'billing_rows.undo_netting', ids.map((rowId) => ({ id: rowId, before: { netting_id: id }, after: { netting_id: null } })));
    return (await readNetting(q, id))!;
  });
}
