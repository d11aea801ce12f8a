/**
 * Scheduled e-mailing of saved DataViewers (module src/modules/dataviewer-schedules). A schedule
 * belongs to one DataViewer (deleted with it); the job claims due rows (claimed_until) so that a
 * run happens once across instances, and records the last run on the row.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';
import { dataviewers } from './schema-reports.ts';

export const dataviewerSchedules = pgTable(
  'dataviewer_schedules',
  {
    id: serial('id').primaryKey(),
    dataviewerId: integer('dataviewer_id')
      .notNull()
      .references(() => dataviewers.id, { onDelete: 'cascade' }),
    createdById: integer('created_by_id')
      .notNull()
      .references(() => users.id),
    /** daily | weekly | monthly */
    frequency: text('frequency').notNull(),
    /** ISO weekday 1-7 (weekly). */
    weekday: smallint('weekday'),
    /** 1-31 (monthly; clamped to short months). */
    monthDay: smallint('month_day'),
    /** Local `HH:mm` in `timezone`. */
    timeOfDay: text('time_of_day').notNull(),
    timezone: text('timezone').notNull(),
    rangePreset: text('range_preset').notNull(),
    /** csv | xlsx */
    format: text('format').notNull(),
    /** Lowercased company mail addresses. */
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    /** Language of the mail and of the file's column titles (en | es). */
    locale: text('locale').notNull().default('en'),
    enabled: boolean('enabled').notNull().default(true),
    /** Next occurrence; null while paused. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** Set while one instance sends it; a crashed run's claim lapses at this time. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    claimedBy: text('claimed_by'),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** ok | empty | error */
    lastStatus: text('last_status'),
    lastRows: integer('last_rows'),
    lastError: text('last_error'),
    lastRange: jsonb('last_range').$type<{ start: string; end: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('dataviewer_schedules_dataviewer_idx').on(t.dataviewerId),
    index('dataviewer_schedules_due_idx').on(t.nextRunAt).where(sql`${t.enabled}`),
  ],
);
