/**
 * Creatives resize results (issue 26, docs/decisions/042-creatives.md; migration 0027_creatives).
 *
 * `creative_resizes`: one resize someone ran — who, when, the uploaded file's name, type and
 * dimensions, the options, and the outputs (size, bytes, file name) whose files live in the storage
 * adapter under `creatives-resize/<id>/`. The row is what makes the files findable: downloads check
 * it (the creator only, before `expires_at`) and the cleanup job deletes expired rows and their
 * files. The id is 128 random bits in hex (it is in the download URLs).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

export const creativeResizes = pgTable(
  'creative_resizes',
  {
    id: text('id').primaryKey(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    fileName: text('file_name').notNull(),
    /** { file_name, type, width, height, bytes } of the upload. */
    input: jsonb('input').notNull(),
    /** The resize options (core ResizeOptions). */
    options: jsonb('options').notNull(),
    /** [{ size, width, height, format, bytes, file_name, limit_kb, over_limit, standard }] (no previews). */
    outputs: jsonb('outputs').notNull(),
  },
  (t) => [index('creative_resizes_expires_idx').on(t.expiresAt), check('creative_resizes_id_check', sql`${t.id} ~ '^[a-f0-9]{32}$'`)],
);
