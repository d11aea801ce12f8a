/**
 * Price floors and deals (issue 20).
 *
 * Floors: the rule set is versioned without copying it. A rule row lives from the version that
 * added it (`from_version`) until the version that changed or removed it (`to_version`, null while
 * it is current); the set at version v is every row with from_version <= v and (to_version is null
 * or to_version > v). A save writes only what changed, and any version can be read back, compared
 * and restored (docs/decisions/018-floor-versions.md). A rule's keys are text, each a value or `*`
 * (publisher and demand partner by id); `key_string` is their folded form (core ruleKeyString),
 * unique among the current rules.
 *
 * A publisher's Prebid wrapper feed (`floor_feed_tokens`, docs/decisions/020-prebid-floors-export.md):
 * one read-only URL token per publisher, kept as its SHA-256 (hex) and last four characters only,
 * as endpoint tokens are (decision 013). Revoking deletes the row; rotating replaces hash and hint.
 */
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { publishers } from './schema-reports.ts';
import { users } from './schema.ts';

export const floorVersions = pgTable('floor_versions', {
  /** The version number shown to people: 1, 2, 3… */
  id: serial('id').primaryKey(),
  comment: text('comment').notNull().default(''),
  /** edit | delete | import | restore */
  source: text('source').notNull(),
  /** The version a restore brought back. */
  restoredFrom: integer('restored_from'),
  added: integer('added').notNull().default(0),
  changed: integer('changed').notNull().default(0),
  removed: integer('removed').notNull().default(0),
  /** How many rules the set holds at this version. */
  ruleCount: integer('rule_count').notNull().default(0),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const key = (name: string) => text(name).notNull().default('*');

export const floorRules = pgTable(
  'floor_rules',
  {
    id: serial('id').primaryKey(),
    publisher: key('publisher'),
    site: key('site'),
    adUnit: key('ad_unit'),
    country: key('country'),
    device: key('device'),
    mediaType: key('media_type'),
    size: key('size'),
    demandPartner: key('demand_partner'),
    deal: key('deal'),
    keyString: text('key_string').notNull(),
    /** How many keys are not `*` (the list sorts by it). */
    specificity: integer('specificity').notNull(),
    cpm: numeric('cpm', { precision: 12, scale: 4 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    /** hard | soft */
    type: text('type').notNull().default('hard'),
    fromVersion: integer('from_version')
      .notNull()
      .references(() => floorVersions.id),
    toVersion: integer('to_version').references(() => floorVersions.id),
  },
  (t) => [
    uniqueIndex('floor_rules_current_key_idx').on(t.keyString).where(sql`${t.toVersion} IS NULL`),
    index('floor_rules_current_idx').on(t.id).where(sql`${t.toVersion} IS NULL`),
    index('floor_rules_current_publisher_idx').on(t.publisher, t.id).where(sql`${t.toVersion} IS NULL`),
    index('floor_rules_from_idx').on(t.fromVersion),
    index('floor_rules_to_idx').on(t.toVersion),
  ],
);

export const floorFeedTokens = pgTable(
  'floor_feed_tokens',
  {
    publisherId: integer('publisher_id')
      .primaryKey()
      .references(() => publishers.id, { onDelete: 'cascade' }),
    /** SHA-256 of the whole token, hex. */
    tokenHash: text('token_hash').notNull(),
    /** The token's last four characters. */
    tokenHint: text('token_hint').notNull(),
    /** Who made the current token, and when. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the current token replaced an earlier one (a rotation), null for a first token. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    /** The last public read with the token (written at most once a minute). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('floor_feed_tokens_hash_idx').on(t.tokenHash)],
);
