/**
 * E-mail signatures (docs/decisions/047-signature-manager.md).
 *
 * `signature_templates`: the company's templates (one per company or brand): logo, company name,
 * address, website, legal notice in English and Spanish, social links and two colours. Exactly one
 * is the default while any exist (a partial unique index; the service moves the flag). The logo is
 * kept here, as the PNG the API made of the upload (at most a few tens of kB: 2x a width of at most
 * 240 px), because mail recipients load it from the API's public logo route.
 *
 * `signatures`: one per user (the key), with the person's details and the template chosen (null:
 * the default). Both carry `version` for optimistic concurrency (409 on a stale save).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

export const signatureTemplates = pgTable(
  'signature_templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    companyName: text('company_name').notNull(),
    address: text('address').notNull().default(''),
    website: text('website').notNull().default(''),
    legalEn: text('legal_en').notNull().default(''),
    legalEs: text('legal_es').notNull().default(''),
    /** [{ network, url }] (core SOCIAL_NETWORKS). */
    social: jsonb('social').notNull().default([]),
    textColor: text('text_color').notNull(),
    accentColor: text('accent_color').notNull(),
    logoWidth: integer('logo_width').notNull(),
    /** The logo as PNG, base64; null: none. */
    logoPng: text('logo_png'),
    /** sha-256 of the PNG (hex, 16 characters): part of its public path, so a new logo is a new URL. */
    logoHash: text('logo_hash'),
    logoPixelWidth: integer('logo_pixel_width'),
    logoPixelHeight: integer('logo_pixel_height'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('signature_templates_name_idx').on(sql`lower(${t.name})`),
    uniqueIndex('signature_templates_default_idx').on(t.isDefault).where(sql`${t.isDefault}`),
    check('signature_templates_logo_check', sql`(${t.logoPng} IS NULL) = (${t.logoHash} IS NULL)`),
  ],
);

export const signatures = pgTable('signatures', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  templateId: integer('template_id').references(() => signatureTemplates.id, { onDelete: 'set null' }),
  language: text('language').notNull(),
  name: text('name').notNull(),
  title: text('title').notNull().default(''),
  department: text('department').notNull().default(''),
  /** [{ kind: office | mobile, number: E.164 }]. */
  phones: jsonb('phones').notNull().default([]),
  mail: text('mail').notNull(),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});
