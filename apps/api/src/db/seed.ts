/**
 * Seeding. The menu tree (from the route table in @backoffice/core/routes) and the ADMIN role are
 * written in every environment; the demo data set (roles, users, staff roster) is seeded on first
 * start only, never in production (config.seedDemo is false there).
 */
import { seedReportsDemo } from '../reports-data/index.ts';
import { completeRollupLevels } from '../reports-data/rollups.ts';
import { ADMIN_ROLE } from '@backoffice/core/acl';
import { seedDemoAgencies, seedDemoCompanies } from './demo-companies.ts';
import { seedDemoEndpoints } from './demo-endpoints.ts';
import { seedDemoFirewall } from './demo-firewall.ts';
import { seedDemoPartners } from './demo-partners.ts';
import { seedDemoBudgets } from './demo-budgets.ts';
import { seedDemoFloors } from './demo-floors.ts';
import { seedDemoApps } from './demo-apps.ts';
import { seedBillingAccountsDemo } from '../modules/billing-accounts/demo.ts';
import { seedBillingDemo } from '../modules/billing/demo.ts';
import { seedPartnerStatsDemo } from '../modules/partner-stats/demo.ts';
import { seedInvoiceIssuers, seedInvoicesDemo } from '../modules/invoices/demo.ts';
import { seedPrepaymentsDemo } from '../modules/prepayments/demo.ts';
import { seedFinancesDemo } from '../modules/finances/demo.ts';
import { seedPayoutsDemo } from '../modules/payouts/demo.ts';
import { seedImpressionLogsDemo } from '../modules/impression-logs/demo.ts';
import { seedDiscrepancyDemo } from '../modules/discrepancy/demo.ts';
import { seedSspLogsDemo } from '../modules/ssp-logs/demo.ts';
import { seedSchedulerDemo } from '../modules/scheduler/demo.ts';
import { seedOffersCampaignsDemo } from '../modules/campaigns/demo.ts';
import { seedBuildersDemo } from './demo-builders.ts';
import { seedDemoLegal } from './demo-legal.ts';
import { seedDemoSignatures } from './demo-signatures.ts';
import { seedResourcesManagerDemo } from '../modules/resources-manager/demo.ts';
import { MENU_GROUPS, MENU_ROUTES } from '@backoffice/core/routes';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { hashPassword } from '../lib/password.ts';
import type { Database, Db } from './client.ts';
import { DEFAULT_ROSTER_ENTRY, DEMO_ROLES, DEMO_USERS, ROSTER } from './demo-data.ts';
import { menuEntries, roles, settings, staff, userRoles, users } from './schema.ts';

/** settings key set when the demo data set was seeded (it is never seeded twice). */
export const DEMO_SEEDED_KEY = 'demo_seeded_at';

/** Writes the menu tree when the table is empty. */
export async function seedMenu(database: Database): Promise<void> {
  const [{ n } = { n: 0 }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(menuEntries);
  if (n > 0) return;
  await database.db.transaction(async (tx) => {
    let order = 0;
    const groupIds = new Map<string, number>();
    const home = MENU_ROUTES.find((r) => r.group === null);
    if (home) {
      await tx.insert(menuEntries).values({
        title: `menu.${home.id}`, icon: home.icon, prefix: home.prefix, slug: home.slug,
        permission: home.permission, hidden: home.hidden ?? false, order: order++,
      });
    }
    for (const g of MENU_GROUPS) {
      const [row] = await tx
        .insert(menuEntries)
        .values({ title: `menu.group.${g.id}`, icon: g.icon, order: order++ })
        .returning({ id: menuEntries.id });
      groupIds.set(g.id, row!.id);
    }
    for (const r of MENU_ROUTES) {
      if (r.group === null) continue;
      await tx.insert(menuEntries).values({
        idParent: groupIds.get(r.group) ?? null,
        title: `menu.${r.id}`, icon: r.icon, prefix: r.prefix, slug: r.slug,
        permission: r.permission, hidden: r.hidden ?? false, order: order++,
      });
    }
  });
}

/** The ADMIN role exists everywhere (production included), so the user command can create the first admin. */
export async function seedAdminRole(db: Db): Promise<void> {
  const admin = DEMO_ROLES.find((r) => r.name === ADMIN_ROLE)!;
  await db.insert(roles).values(admin).onConflictDoNothing({ target: roles.name });
}

/** Inserts (or, with `update`, refreshes the ACL of) the standard role catalogue. Returns the role ids by name. */
export async function seedRoles(db: Db, opts: { update?: boolean } = {}): Promise<Map<string, number>> {
  const existing = new Set((await db.select({ name: roles.name }).from(roles)).map((r) => r.name));
  // Only missing roles are inserted (no serial ids burnt on conflicts), in catalogue order.
  const missing = DEMO_ROLES.filter((r) => !existing.has(r.name));
  if (missing.length > 0) await db.insert(roles).values([...missing]).onConflictDoNothing({ target: roles.name });
  if (opts.update) {
    for (const role of DEMO_ROLES) {
      await db.update(roles).set({ acl: role.acl, description: role.description, updatedAt: sql`now()` }).where(eq(roles.name, role.name));
    }
  }
  const rows = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(inArray(roles.name, DEMO_ROLES.map((r) => r.name)));
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Picture URL of a roster entry. */
export function staffPicPath(id: number): string {
  return `/v1/staff/pic/${id}.svg`;
}

/** Mails of the demo users on the configured primary domain. */
export function demoUserMails(config: Pick<Config, 'companyDomains'>): { mail: string; name: string; role: string | null }[] {
  return DEMO_USERS.map((u) => ({ mail: `${u.local}@${config.companyDomains[0]}`, name: u.name, role: u.role }));
}

/**
 * Seeds the demo data set once (a settings marker records it, so deleting demo rows later is
 * respected). Answers true when it seeded now.
 */
export async function seedDemo(database: Database, config: Config): Promise<boolean> {
  const [done] = await database.db.select().from(settings).where(eq(settings.key, DEMO_SEEDED_KEY));
  if (done) return false;
  // Hash outside the transaction (scrypt runs on the thread pool); one salt per user.
  const demo = demoUserMails(config);
  const hashes = await Promise.all(demo.map(() => hashPassword(config.demoPassword)));
  const domains = config.companyDomains;
  return database.db.transaction(async (tx) => {
    const [marker] = await tx
      .insert(settings)
      .values({ key: DEMO_SEEDED_KEY, value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: settings.key });
    if (!marker) return false;
    const roleIds = await seedRoles(tx as unknown as Db);
    for (const [i, u] of demo.entries()) {
      const [row] = await tx
        .insert(users)
        .values({ mail: u.mail, name: u.name, passwordHash: hashes[i]! })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (row && u.role) await tx.insert(userRoles).values({ userId: row.id, roleId: roleIds.get(u.role)! }).onConflictDoNothing();
    }
    const roster = [
      ...DEMO_USERS.map((u) => ({ mail: `${u.local}@${domains[0]}`, name: u.name, text: u.text })),
      ...ROSTER.map((r) => ({ mail: `${r.local}@${domains[r.domain % domains.length]}`, name: r.name, text: r.text })),
    ];
    await tx.insert(staff).values(roster.map((r) => ({ ...r, mail: r.mail.toLowerCase(), pic: '' }))).onConflictDoNothing();
    await tx.insert(staff).values({ mail: null, name: DEFAULT_ROSTER_ENTRY.name, text: DEFAULT_ROSTER_ENTRY.text, pic: '', isDefault: true });
    // The picture path carries the row id, known only now.
    await tx.update(staff).set({ pic: sql`'/v1/staff/pic/' || ${staff.id} || '.svg'` }).where(eq(staff.pic, ''));
    return true;
  });
}

export interface SeedResult {
  /** Rollup levels built for a data set loaded before they existed, per table (empty: none). */
  rollupLevelsBuilt: Record<string, number[]>;
}

export async function seed(database: Database, config: Config): Promise<SeedResult> {
  await seedMenu(database);
  await seedAdminRole(database.db);
  if (config.seedDemo && config.env !== 'production') {
    await seedDemo(database, config);
    await seedDemoCompanies(database.db);
    await seedDemoAgencies(database.db);
    await seedDemoEndpoints(database.db);
    // The issuing companies of invoices: configuration the tests need too.
    await seedInvoiceIssuers(database);
    // The demo warehouse (30 days of stats) and allow-list: tests make their own.
    if (config.env !== 'test') {
      await seedDemoFirewall(database.db);
      await seedReportsDemo(database);
      await seedDemoApps(database);
      await seedDemoPartners(database.db);
      await seedDemoBudgets(database);
      // After the budgets: the campaigns' pacing reads the performance side's spend they write.
      await seedOffersCampaignsDemo(database);
      await seedDemoFloors(database);
      await seedBillingAccountsDemo(database.db);
      await seedPartnerStatsDemo(database);
      await seedBillingDemo(database);
      await seedInvoicesDemo(database);
      await seedPrepaymentsDemo(database);
      await seedFinancesDemo(database);
      await seedPayoutsDemo(database);
      await seedImpressionLogsDemo(database);
      await seedDiscrepancyDemo(database);
      await seedSspLogsDemo(database);
      await seedSchedulerDemo(database);
      await seedBuildersDemo(database);
      await seedDemoLegal(database);
      await seedDemoSignatures(database);
      await seedResourcesManagerDemo(database, config);
    }
  }
  // A data set loaded by an earlier version lacks the rollups and levels added since: build them
  // once (seconds for the demo set; reports read them only once they are complete). On PGlite,
  // before the server listens (its one connection would hold every request while it builds); a
  // PostgreSQL server builds them after it listens (see buildApp).
  return {
    rollupLevelsBuilt: config.env !== 'test' && database.kind === 'pglite' ? await completeRollupLevels(database) : {},
  };
}

/**
 * The demo logins to print at start-up: the demo users that still exist, with their roles; empty
 * in production or when the demo data set was never seeded.
 */
export async function demoLogins(database: Database, config: Config): Promise<{ mail: string; roles: string[] }[]> {
  if (config.env === 'production') return [];
  const [done] = await database.db.select().from(settings).where(eq(settings.key, DEMO_SEEDED_KEY));
  if (!done) return [];
  const mails = demoUserMails(config).map((u) => u.mail);
  const rows = await database.db
    .select({ id: users.id, mail: users.mail, role: roles.name })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(users.mail, mails))
    .orderBy(users.id);
  const byMail = new Map<string, string[]>();
  for (const r of rows) {
    const list = byMail.get(r.mail) ?? [];
    if (r.role) list.push(r.role);
    byMail.set(r.mail, list);
  }
  return mails.filter((m) => byMail.has(m)).map((mail) => ({ mail, roles: byMail.get(mail)! }));
}
