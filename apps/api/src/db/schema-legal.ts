/**
 * Legal tool (docs/decisions/046-legal-tool.md; core `packages/core/src/legal.ts`).
 *
 * `legal_templates`: a contract or terms template (resource layer: name, kind, who it is for, a
 * description), with the number of its current version. `legal_template_versions`: its texts
 * (title and body in English and Spanish), immutable and numbered 1, 2, 3… per template; a save
 * or a restore appends the next number, with its author, date and comment. `legal_documents`: the
 * PDFs generated from a version for a publisher or a demand partner, kept as they were made (the
 * bytes, their SHA-256, every value that filled a placeholder and which of them were typed by
 * hand), so a download gives the document that was sent whatever changed since.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { resourceColumns, users } from './schema.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const legalTemplates = pgTable(
  'legal_templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** publisher_agreement | demand_io | terms | nda | other (core TEMPLATE_KINDS). */
    kind: text('kind').notNull(),
    /** publisher | demand_partner | any (core TEMPLATE_PARTIES). */
    party: text('party').notNull(),
    description: text('description'),
    /** The number of the newest version (null: no text saved yet). */
    currentVersion: integer('current_version'),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('legal_templates_name_idx').on(sql`lower(${t.name})`),
    index('legal_templates_name_sort_idx').on(t.name, t.id),
  ],
);

export const legalTemplateVersions = pgTable(
  'legal_template_versions',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => legalTemplates.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    titleEn: text('title_en').notNull(),
    titleEs: text('title_es').notNull(),
    bodyEn: text('body_en').notNull(),
    bodyEs: text('body_es').notNull(),
    comment: text('comment').notNull(),
    restoredFrom: integer('restored_from'),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('legal_template_versions_number_key').on(t.templateId, t.number),
    check('legal_template_versions_number_check', sql`${t.number} > 0`),
  ],
);

export const legalDocuments = pgTable(
  'legal_documents',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => legalTemplates.id, { onDelete: 'restrict' }),
    templateVersion: integer('template_version').notNull(),
    language: text('language').notNull(),
    /** publisher | demand_partner */
    counterpartyType: text('counterparty_type').notNull(),
    counterpartyId: integer('counterparty_id').notNull(),
    /** The counterparty's name when the document was made. */
    counterpartyName: text('counterparty_name').notNull(),
    /** Every placeholder's printed value: {key: value}. */
    values: jsonb('values').$type<Record<string, string>>().notNull(),
    /** The values typed by hand for this document: {key: value}. */
    manualValues: jsonb('manual_values').$type<Record<string, string>>().notNull(),
    manualCount: integer('manual_count').notNull().default(0),
    fileName: text('file_name').notNull(),
    pdf: bytea('pdf').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    /** The client's id of the request (a retry answers the same document). */
    requestId: text('request_id').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('legal_documents_request_idx').on(t.authorId, t.requestId),
    index('legal_documents_created_idx').on(t.createdAt, t.id),
    index('legal_documents_counterparty_idx').on(t.counterpartyType, t.counterpartyId),
    index('legal_documents_template_idx').on(t.templateId, t.templateVersion),
    check('legal_documents_type_check', sql`${t.counterpartyType} in ('publisher', 'demand_partner')`),
  ],
);
