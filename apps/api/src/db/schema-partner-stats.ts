/**
 * Partner-reported daily figures (issue 24, docs/decisions/034-partner-reported-figures.md).
 *
 * `partner_stats`: one row per demand partner and day of what the partner says it bought
 * (impressions, revenue in USD micro-precision), entered by hand (`manual`), uploaded as CSV/XLSX
 * (`upload`) or imported from an Amazon Publisher Services earnings CSV (`amazon_csv`, with the
 * import's id). Billing bills these instead of the warehouse's revenue for those days.
 *
 * `partner_stat_imports`: one row per imported file (who, when, rows, days, which days it replaced
 * and what they held, so that undo puts them back). The file's hash is unique per partner among
 * imports still in force: the same file twice imports once, whoever clicks.
 *
 * `amazon_csv_mappings`: saved column mappings (file column per field), shared by the team, by name.
 */
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';
import { demandPartners } from './schema-reports.ts';

export const partnerStatImports = pgTable(
  'partner_stat_imports',
  {
    id: serial('id').primaryKey(),
    demandPartnerId: integer('demand_partner_id')
      .notNull()
      .references(() => demandPartners.id, { onDelete: 'restrict' }),
    /** amazon_csv */
    source: text('source').notNull().default('amazon_csv'),
    fileName: text('file_name').notNull(),
    /** sha256 (hex) of the file's text, BOM and line endings normalised. */
    fileHash: text('file_hash').notNull(),
    mappingName: text('mapping_name'),
    rows: integer('rows').notNull(),
    days: integer('days').notNull(),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
    inserted: integer('inserted').notNull().default(0),
    replacedCount: integer('replaced_count').notNull().default(0),
    /** The figures the import replaced: [{ day, impressions, revenue, currency, source, import_id }]. */
    replaced: jsonb('replaced').$type<{ day: string; impressions: number; revenue: string; currency: string; source: string; import_id: number | null }[]>().notNull().default([]),
    /** imported | undone */
    state: text('state').notNull().default('imported'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    undoneBy: integer('undone_by').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('partner_stat_imports_hash_idx').on(t.demandPartnerId, t.fileHash).where(sql`state = 'imported'`),
    index('partner_stat_imports_list_idx').on(t.createdAt, t.id),
  ],
);

export const partnerStats = pgTable(
  'partner_stats',
  {
    id: serial('id').primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    demandPartnerId: integer('demand_partner_id')
      .notNull()
      .references(() => demandPartners.id, { onDelete: 'restrict' }),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    revenue: numeric('revenue', { precision: 18, scale: 6 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    /** manual | upload | amazon_csv */
    source: text('source').notNull(),
    importId: integer('import_id').references(() => partnerStatImports.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('partner_stats_key_idx').on(t.demandPartnerId, t.day),
    index('partner_stats_day_idx').on(t.day, t.demandPartnerId),
    index('partner_stats_import_idx').on(t.importId),
  ],
);

export const amazonCsvMappings = pgTable(
  'amazon_csv_mappings',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    columns: jsonb('columns').$type<{ date: string; impressions: string; revenue: string; currency: string | null; ad_unit: string | null }>().notNull(),
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('amazon_csv_mappings_name_idx').on(sql`lower(${t.name})`)],
);
