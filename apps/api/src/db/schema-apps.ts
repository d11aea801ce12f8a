/**
 * What the product knows of a mobile app beyond its `sites` row (issue 25, SDK builder and app
 * tracking manager; docs/decisions/041-sdk-and-app-tracking.md). An app is a site whose environment
 * is app (sites.name is its bundle); `app_profiles` adds, one row per such site:
 * - its platform (ios | android): the SDK configuration and the tracking output depend on it;
 * - its store id (iOS: the App Store's `id1234567890`; Android: the package name, so '' = the bundle);
 * - its developer domain: the developer website of the store listing, where the IAB's
 *   app-ads.txt lives (`https://<developer domain>/app-ads.txt`). The ads.txt check
 *   (modules/publishers/ads-txt-check.ts) reads it there, and falls back to the publisher's
 *   seller domain when it is not known.
 * Versioned (optimistic concurrency, 409 when stale) and audited like every editable row.
 */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sites } from './schema-reports.ts';
import { users } from './schema.ts';

export const appProfiles = pgTable(
  'app_profiles',
  {
    siteId: integer('site_id')
      .primaryKey()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** ios | android */
    platform: text('platform').notNull(),
    storeId: text('store_id').notNull().default(''),
    developerDomain: text('developer_domain'),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('app_profiles_platform_check', sql`${t.platform} IN ('ios', 'android')`)],
);
