/**
 * Builders' saved versions (issue 25, docs/decisions/037-builders.md).
 *
 * `builder_versions`: a named configuration of one builder (kind) for a subject (a publisher, an ad
 * unit, a demand partner, an app, or none), with the code the API rendered from it when it was
 * saved. Versions are immutable: a save appends the next number for its kind and subject (1, 2,
 * 3…, unique together; NULLS NOT DISTINCT so the subject-less ones are numbered too), and a
 * deletion only marks the row (`deleted_at`), so a number is never given twice. No foreign key on
 * the subject (it names one of four tables); the author is kept as null if the account goes.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

export const builderVersions = pgTable(
  'builder_versions',
  {
    id: serial('id').primaryKey(),
    /** json | jstag | playon | vast | adunit | sdk | app-tracking (core BUILDER_KINDS). */
    kind: text('kind').notNull(),
    /** publisher | ad_unit | partner | app | none (core BUILDER_SUBJECTS). */
    subjectType: text('subject_type').notNull(),
    subjectId: integer('subject_id'),
    name: text('name').notNull(),
    number: integer('number').notNull(),
    config: jsonb('config').notNull(),
    code: text('code').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('builder_versions_number_key').on(t.kind, t.subjectType, t.subjectId, t.number).nullsNotDistinct(),
    index('builder_versions_subject_idx').on(t.kind, t.subjectType, t.subjectId, t.createdAt.desc(), t.id.desc()),
    index('builder_versions_kind_idx').on(t.kind, t.createdAt.desc(), t.id.desc()),
    check('builder_versions_subject_check', sql`(${t.subjectType} = 'none') = (${t.subjectId} IS NULL)`),
    check('builder_versions_number_check', sql`${t.number} > 0`),
  ],
);
