/**
 * The database schema (Drizzle, Postgres dialect). One schema for PGlite and PostgreSQL.
 * After changing it run `npm run db:generate -w apps/api` and commit the new migration in drizzle/.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  numeric,
  boolean,
  index,
  inet,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The columns every resource table has: optimistic-concurrency version, who and when. */
export function resourceColumns() {
  return {
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  };
}

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Key/value settings shared by every instance (for example the generated JWT secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    mail: text('mail').notNull(),
    name: text('name').notNull(),
    /** scrypt$N$r$p$salt$hash (base64) */
    passwordHash: text('password_hash').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_mail_lower_idx').on(sql`lower(${t.mail})`)],
);

export type Acl = Record<string, string[]>;

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  acl: jsonb('acl').$type<Acl>().notNull().default({}),
  ...timestamps,
});

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** Menu entries (spec section 3): groups have no slug; leaves link to prefix/slug. */
export const menuEntries = pgTable('menu_entries', {
  id: serial('id').primaryKey(),
  idParent: integer('id_parent'),
  /** i18n key, e.g. menu.dataviewers */
  title: text('title').notNull(),
  icon: text('icon').notNull().default(''),
  prefix: text('prefix').notNull().default(''),
  slug: text('slug').notNull().default(''),
  /** ACL resource; '' means always visible */
  permission: text('permission').notNull().default(''),
  hidden: boolean('hidden').notNull().default(false),
  order: integer('sort_order').notNull().default(0),
});

/** The staff roster used by the welcome panel (spec section 3, Team roster entry). */
export const staff = pgTable('staff', {
  id: serial('id').primaryKey(),
  /** Work mail in lowercase; null for the default entry. */
  mail: text('mail').unique(),
  name: text('name').notNull(),
  /** Path of the picture served by the API. */
  pic: text('pic').notNull(),
  text: text('text'),
  isDefault: boolean('is_default').notNull().default(false),
});

/** Every state-changing call: actor, simulated-by, source address, action, entity, before, after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: integer('actor_id'),
    simulatedById: integer('simulated_by_id'),
    ip: text('ip'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The role an ADMIN was simulating (role simulation: actor and simulated_by are the ADMIN). */
    simulatedRoleId: integer('simulated_role_id'),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId, t.at), index('audit_log_at_idx').on(t.at)],
);

/**
 * Sign-in sessions: one row per issued token (its `jti`). A token is valid while its row is neither
 * revoked nor expired. Simulations are sessions too: `simulated_by` is the ADMIN, `parent_id` the
 * ADMIN's own session that started it, and `simulated_role_id` the role of a role simulation (then
 * `user_id` is the ADMIN). A trigger (migration 0006) revokes a user's sessions when the password
 * changes or the account is disabled, whoever makes the change.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    simulatedBy: integer('simulated_by').references(() => users.id, { onDelete: 'cascade' }),
    simulatedRoleId: integer('simulated_role_id').references(() => roles.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    remember: boolean('remember').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** logout, refreshed, simulation_ended, password_changed, user_disabled, ended_by_admin */
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId, t.expiresAt),
    index('sessions_parent_idx').on(t.parentId),
    index('sessions_simulated_by_idx').on(t.simulatedBy),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Fixed-window counters shared by every instance (sign-in limits, public look-ups). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** IP firewall allow-list entries (spec section 3, Firewall request; screens: IP firewall). */
export const firewallEntries = pgTable(
  'firewall_entries',
  {
    id: serial('id').primaryKey(),
    ip: inet('ip').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** HOUR_1 … HOUR_12 or UNLIMITED */
    type: text('type').notNull(),
    /** ACTIVE, PENDING, DISABLED, ERROR */
    status: text('status').notNull().default('PENDING'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** null for UNLIMITED */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Why a DISABLED entry is disabled: 'manual' (a person) or 'expired' (the expiry job). */
    disabledReason: text('disabled_reason'),
  },
  (t) => [
    index('firewall_entries_status_idx').on(t.status, t.expiresAt),
    // One entry per owner and address: asking again for the same IP replaces/extends it.
    uniqueIndex('firewall_entries_owner_ip_idx').on(t.ownerId, t.ip),
  ],
);

/**
 * One row per execution of a background job handler (src/jobs): which instance ran which job,
 * when, and how it ended. Shows that a job runs once across instances; pruned by a daily job.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    jobId: text('job_id').notNull(),
    /** The API process that ran it (host:pid:random). */
    instance: text('instance').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ok: boolean('ok'),
    output: jsonb('output'),
    error: text('error'),
  },
  (t) => [index('job_runs_queue_idx').on(t.queue, t.startedAt), index('job_runs_job_idx').on(t.jobId)],
);

/**
 * Companies (resource layer, packages/core/src/resources/companies.ts): the legal entities behind
 * advertisers, partners, publishers and agencies. Column names are the API's field names.
 */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    legalName: text('legal_name').notNull(),
    tradeName: text('trade_name'),
    country: text('country').notNull(),
    taxId: text('tax_id').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull(),
    billingEmail: text('billing_email').notNull(),
    iban: text('iban'),
    currency: text('currency').notNull(),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('companies_country_tax_id_idx').on(t.country, t.taxId),
    // The list's sorts read these in order (a sort's tie-breaker, id, follows its direction, so one
    // index serves both); the trigram indexes serve "contains" filters and the autocomplete (PGlite
    // runs no autovacuum: a bulk load ends with VACUUM, which merges their pending lists).
    index('companies_legal_name_idx').on(t.legalName, t.id),
    index('companies_trade_name_idx').on(t.tradeName, t.id),
    index('companies_city_idx').on(t.city, t.id),
    index('companies_country_idx').on(t.country, t.id),
    index('companies_legal_name_trgm_idx').using('gin', sql`${t.legalName} gin_trgm_ops`),
    index('companies_trade_name_trgm_idx').using('gin', sql`${t.tradeName} gin_trgm_ops`),
  ],
);

/**
 * Supply and demand endpoints (packages/core/src/resources/endpoints.ts). The token is kept only as
 * its SHA-256 (token_hash) and its last four characters (token_hint, to tell tokens apart).
 */
export const endpoints = pgTable(
  'endpoints',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    side: text('side').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    region: text('region').notNull(),
    url: text('url').notNull(),
    openrtbVersion: text('openrtb_version').notNull(),
    qpsCap: integer('qps_cap').notNull(),
    formats: jsonb('formats').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    tokenHash: text('token_hash').notNull(),
    tokenHint: text('token_hint').notNull(),
    tokenRotatedAt: timestamp('token_rotated_at', { withTimezone: true }).notNull().defaultNow(),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('endpoints_name_idx').on(t.name),
    uniqueIndex('endpoints_token_hash_idx').on(t.tokenHash),
    index('endpoints_company_idx').on(t.companyId),
  ],
);

/** Agencies (packages/core/src/resources/agencies.ts): a company behind each; contacts and advertisers as JSON lists. */
export const agencies = pgTable(
  'agencies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    contacts: jsonb('contacts').$type<{ name: string; email: string; phone: string | null }[]>().notNull().default([]),
    commissionPct: numeric('commission_pct', { precision: 5, scale: 2 }).notNull(),
    advertisers: jsonb('advertisers').$type<string[]>().notNull().default([]),
    status: text('status').notNull().default('active'),
    ...resourceColumns(),
  },
  (t) => [index('agencies_company_idx').on(t.companyId), index('agencies_name_idx').on(t.name, t.id)],
);

/**
 * Budgets (packages/core/src/resources/budgets.ts): a performance-side company's budget for a
 * month (`YYYY-MM`), one per company and month; the amount as an exact decimal.
 */
export const budgets = pgTable(
  'budgets',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    month: text('month').notNull(),
    amount: numeric('amount', { precision: 11, scale: 2 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    notes: text('notes'),
    ...resourceColumns(),
  },
  (t) => [uniqueIndex('budgets_company_month_idx').on(t.companyId, t.month), index('budgets_month_idx').on(t.month, t.id), index('budgets_amount_idx').on(t.amount, t.id)],
);
