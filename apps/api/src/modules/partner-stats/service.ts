/**
 * Partner-reported daily figures: the store's rules (docs/decisions/034-partner-reported-figures.md).
 * Every write runs in one transaction holding each touched partner's advisory lock, so two requests
 * for the same days (a double click, two people) run one after the other: the second finds the
 * first one's figures, which are equal (nothing to do) or differ (409 before replacing). A day whose
 * figures equal what is sent is left as it is, so entering or importing the same thing twice changes
 * nothing. Each write also brings the affected months' open billing rows up to date.
 */
import { utcToday } from '@backoffice/core/billing-accounts';
import {
  duplicateEntries,
  revenueText,
  sameFigures,
  type EnterStatsBody,
  type EnterStatsResult,
  type ManualPartner,
  type PartnerStat,
  type ReplacedDay,
  type StatSource,
  type StatsListQuery,
} from '@backoffice/core/partner-stats';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { applyReportedFigures, monthsOf } from './billing.ts';

/** Advisory lock class of a partner's reported figures (object id: the partner). */
export const STATS_LOCK = 24034;

export interface DayFigures {
  partner: number;
  day: string;
  impressions: number;
  revenue: string;
  currency: string;
}

interface StoredDay {
  id: number;
  partner: number;
  partner_name: string;
  day: string;
  impressions: string;
  revenue: string;
  currency: string;
  source: StatSource;
  import_id: number | null;
}

export async function lockPartners(q: QueryFn, partners: Iterable<number>): Promise<void> {
  for (const id of [...new Set(partners)].sort((a, b) => a - b)) await q('SELECT pg_advisory_xact_lock($1::int4, $2::int4)', [STATS_LOCK, id]);
}

/** What is stored now for these partners' days. */
export async function storedDays(q: QueryFn, days: readonly DayFigures[]): Promise<StoredDay[]> {
  if (days.length === 0) return [];
  return q<StoredDay>(
    `SELECT s.id, s.demand_partner_id AS partner, p.name AS partner_name, s.day::text AS day, s.impressions::text AS impressions,
            s.revenue::text AS revenue, s.currency, s.source, s.import_id
     FROM partner_stats s JOIN demand_partners p ON p.id = s.demand_partner_id
     JOIN unnest($1::int4[], $2::date[]) AS k(partner, day) ON k.partner = s.demand_partner_id AND k.day = s.day`,
    [days.map((d) => d.partner), days.map((d) => d.day)],
  );
}

export interface Comparison {
  fresh: DayFigures[];
  changed: { next: DayFigures; current: StoredDay }[];
  unchanged: number;
}

export function compareDays(days: readonly DayFigures[], stored: readonly StoredDay[]): Comparison {
  const byKey = new Map(stored.map((s) => [`${s.partner}|${s.day}`, s]));
  const out: Comparison = { fresh: [], changed: [], unchanged: 0 };
  for (const d of days) {
    const current = byKey.get(`${d.partner}|${d.day}`);
    if (!current) out.fresh.push(d);
    else if (sameFigures(d, current)) out.unchanged += 1;
    else out.changed.push({ next: d, current });
  }
  return out;
}

export function replacedDays(changed: Comparison['changed'], names: Map<number, string>): ReplacedDay[] {
  return changed.map(({ next, current }) => ({
    day: next.day,
    demand_partner_id: next.partner,
    partner: current.partner_name ?? names.get(next.partner) ?? `#${next.partner}`,
    current: { impressions: Number(current.impressions), revenue: revenueText(current.revenue), currency: current.currency, source: current.source },
    next: { impressions: next.impressions, revenue: revenueText(next.revenue), currency: next.currency },
  }));
}

/** Writes new and changed days (the caller checked the replace confirmation). */
export async function writeDays(
  q: QueryFn,
  days: readonly DayFigures[],
  source: StatSource,
  importId: number | null,
  userId: number,
): Promise<void> {
  if (days.length === 0) return;
  await q(
    `INSERT INTO partner_stats AS s (day, demand_partner_id, impressions, revenue, currency, source, import_id, created_by, updated_by)
     SELECT k.day, k.partner, k.impressions, k.revenue, k.currency, $6, $7::int4, $8::int4, $8::int4
     FROM unnest($1::date[], $2::int4[], $3::int8[], $4::numeric[], $5::text[]) AS k(day, partner, impressions, revenue, currency)
     ON CONFLICT (demand_partner_id, day) DO UPDATE SET
       impressions = excluded.impressions, revenue = excluded.revenue, currency = excluded.currency, source = excluded.source,
       import_id = excluded.import_id, updated_by = excluded.updated_by, updated_at = now(), version = s.version + 1`,
    [days.map((d) => d.day), days.map((d) => d.partner), days.map((d) => d.impressions), days.map((d) => d.revenue), days.map((d) => d.currency), source, importId, userId],
  );
}

/** The open billing rows of the months these days fall in take the new figures. */
export async function refreshBilling(q: QueryFn, days: readonly string[], userId: number): Promise<void> {
  for (const month of monthsOf(days)) await applyReportedFigures(q, month, userId);
}

/** The partners figures may be entered for: SSP partners that report by hand, and Amazon. */
export async function manualPartners(database: Database): Promise<ManualPartner[]> {
  const rows = await query<{ id: number; name: string; type: string; reporting: string; last_day: string | null }>(
    database,
    `SELECT p.id, p.name, p.type, p.reporting, (SELECT max(s.day)::text FROM partner_stats s WHERE s.demand_partner_id = p.id) AS last_day
     FROM demand_partners p WHERE p.side = 'ssp' AND p.reporting = 'manual' ORDER BY lower(p.name), p.id`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, type: r.type, reporting: r.reporting === 'manual' ? 'manual' : 'api', last_day: r.last_day }));
}

/** Checks the partners of a request: they exist, are SSP partners and report by hand. */
async function manualPartnerNames(q: QueryFn, ids: readonly number[]): Promise<Map<number, { name: string; type: string }>> {
  const rows = await q<{ id: number; name: string; type: string }>(
    `SELECT id, name, type FROM demand_partners WHERE id = ANY($1::int4[]) AND side = 'ssp' AND reporting = 'manual'`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [Number(r.id), { name: r.name, type: r.type }]));
}

/**
 * Enters days (the form, or a manual upload). Every entry is checked (400 with `entries.{i}.{field}`
 * keys); days that have other figures answer 409 `stats.replace_confirm` listing them unless
 * `replace`; equal days are left alone.
 */
export async function enterStats(database: Database, request: FastifyRequest, body: EnterStatsBody, today = utcToday()): Promise<EnterStatsResult> {
  const caller = callerOf(request);
  const errors: Record<string, string> = {};
  body.entries.forEach((e, i) => {
    if (e.day > today) errors[`entries.${i}.day`] = 'stats.date_future';
    else if (e.day < '2000-01-01') errors[`entries.${i}.day`] = 'stats.date_invalid';
  });
  for (const i of duplicateEntries(body.entries)) errors[`entries.${i}.day`] = 'stats.duplicate_day';
  return transaction(database, async (q) => {
    const partners = await manualPartnerNames(q, body.entries.map((e) => e.demand_partner_id));
    body.entries.forEach((e, i) => {
      if (!partners.has(e.demand_partner_id)) errors[`entries.${i}.demand_partner_id`] = 'stats.partner_not_manual';
    });
    if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
    const days: DayFigures[] = body.entries.map((e) => ({ partner: e.demand_partner_id, day: e.day, impressions: e.impressions, revenue: e.revenue, currency: e.currency }));
    await lockPartners(q, days.map((d) => d.partner));
    const cmp = compareDays(days, await storedDays(q, days));
    if (cmp.changed.length > 0 && !body.replace) {
      const names = new Map([...partners].map(([id, p]) => [id, p.name]));
      throw new AppError(409, 'stats.replace_confirm', { params: { count: cmp.changed.length }, data: { days: replacedDays(cmp.changed, names) } });
    }
    const write = [...cmp.fresh, ...cmp.changed.map((c) => c.next)];
    await writeDays(q, write, body.source, null, caller.id);
    if (write.length > 0) {
      for (const partner of new Set(write.map((d) => d.partner)))
        await auditIn(q, request, {
          action: 'partner_stats.enter',
          entity: 'demand_partner_stats',
          entityId: partner,
          before: cmp.changed.filter((c) => c.next.partner === partner).map((c) => ({ day: c.current.day, impressions: Number(c.current.impressions), revenue: revenueText(c.current.revenue), source: c.current.source })),
          after: { source: body.source, days: write.filter((d) => d.partner === partner).map((d) => ({ day: d.day, impressions: d.impressions, revenue: d.revenue, currency: d.currency })) },
        });
      await refreshBilling(q, write.map((d) => d.day), caller.id);
    }
    return { inserted: cmp.fresh.length, replaced: cmp.changed.length, unchanged: cmp.unchanged };
  });
}

const SORT_SQL: Record<string, string> = {
  day: 's.day',
  partner: 'lower(p.name)',
  impressions: 's.impressions',
  revenue: 's.revenue',
  source: 's.source',
  updated_at: 's.updated_at',
};

function listWhere(q: Omit<StatsListQuery, 'page' | 'page_size' | 'sort'>): { where: string; params: unknown[] } {
  const parts = ["p.side = 'ssp'"];
  const params: unknown[] = [];
  if (q.search) {
    params.push(`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    parts.push(`p.name ILIKE $${params.length}`);
  }
  if (q.partner.length > 0) {
    params.push(q.partner);
    parts.push(`s.demand_partner_id = ANY($${params.length}::int4[])`);
  }
  if (q.from) {
    params.push(q.from);
    parts.push(`s.day >= $${params.length}::date`);
  }
  if (q.to) {
    params.push(q.to);
    parts.push(`s.day <= $${params.length}::date`);
  }
  if (q.source) {
    params.push(q.source);
    parts.push(`s.source = $${params.length}`);
  }
  return { where: parts.join(' AND '), params };
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

export async function listStats(
  database: Database,
  q: Omit<StatsListQuery, 'page' | 'page_size'>,
  page: { limit: number; offset: number },
): Promise<{ items: PartnerStat[]; total: number; totals: { impressions: number; revenue: string; currency: string; days: number } }> {
  const { where, params } = listWhere(q);
  const desc = q.sort.startsWith('-');
  const col = SORT_SQL[q.sort.replace(/^-/, '')] ?? 's.day';
  const dir = desc ? 'DESC' : 'ASC';
  const from = 'partner_stats s JOIN demand_partners p ON p.id = s.demand_partner_id LEFT JOIN users u ON u.id = s.updated_by';
  const rows = await query<Record<string, unknown>>(
    database,
    `SELECT s.id, s.day::text AS day, s.demand_partner_id, p.name AS partner, s.impressions::text AS impressions, s.revenue::text AS revenue,
            s.currency, s.source, s.import_id, u.name AS updated_by, s.updated_at, s.version
     FROM ${from} WHERE ${where}
     ORDER BY ${col} ${dir}, s.id ${dir} LIMIT ${Number(page.limit)} OFFSET ${Number(page.offset)}`,
    params,
  );
  const [agg] = await query<{ n: string; impressions: string | null; revenue: string | null }>(
    database,
    `SELECT count(*)::text AS n, sum(s.impressions)::text AS impressions, sum(s.revenue)::text AS revenue FROM ${from} WHERE ${where}`,
    params,
  );
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      day: String(r.day),
      demand_partner_id: Number(r.demand_partner_id),
      partner: String(r.partner),
      impressions: Number(r.impressions),
      revenue: revenueText(String(r.revenue)),
      currency: String(r.currency),
      source: r.source as StatSource,
      import_id: r.import_id === null ? null : Number(r.import_id),
      updated_by: (r.updated_by as string | null) ?? null,
      updated_at: iso(r.updated_at),
      version: Number(r.version),
    })),
    total: Number(agg?.n ?? 0),
    totals: { impressions: Number(agg?.impressions ?? 0), revenue: revenueText(agg?.revenue ?? '0'), currency: 'USD', days: Number(agg?.n ?? 0) },
  };
}
