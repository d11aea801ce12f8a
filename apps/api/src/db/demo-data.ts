/**
 * The demo data set (seeded on first start, never in production): roles with ACLs, demo users and
 * the staff roster of spec section 3. Pure data; seed.ts writes it.
 *
 * ACLs use the menu permissions of @backoffice/core/routes (MENU_ROUTES) as resources. Actions:
 * 'read', 'write', 'approve', 'delete' (the resources manager's files and folders), '*' (any) and
 * 'firewall_unlimited' (on /v1/firewall). Keys starting
 * with '^' are regular expressions; ACL_BYPASS opens every resource outside PROTECTED_RESOURCES.
 *
 * Firewall (top-bar IP update, spec section 6): every role whose people work on the ad-serving and
 * reporting systems holds '/v1/firewall' read+write, so each demo user except norole can whitelist
 * its address. HR and LEGAL do not (they use no IP-restricted system). Only ADMIN (every action,
 * as admin) and TECH hold 'firewall_unlimited'.
 */
import { ACL_BYPASS, ADMIN_ROLE, FIREWALL_UNLIMITED, type Acl } from '@backoffice/core/acl';
import { DEFAULT_COMPANY_DOMAINS } from '@backoffice/core/mail';

export interface DemoRole {
  name: string;
  description: string;
  acl: Acl;
}

const R = ['read'];
const RW = ['read', 'write'];
const RWA = ['read', 'write', 'approve'];
const ALL = ['*'];
/** The top-bar firewall control: update one's own address for a limited time. */
const FIREWALL: Acl = { '/v1/firewall': RW };
/**
 * The profile menu's Signature item: read is enough to edit one's own signature; the company
 * templates and other people's signatures need write (MARKETING, HR and ADMIN).
 */
const SIGNATURE: Acl = { '/v1/signatures': R };
/** Reports: run and export them, open shared DataViewers, and save, share and schedule one's own. */
const REPORTS: Acl = { '/v1/reports': R, '/v1/reports/dataviewers': RW };

export const DEMO_ROLES: readonly DemoRole[] = [
  {
    name: ADMIN_ROLE,
    description: 'Administrators: every page, hidden menu entries and the role/user simulator.',
    acl: { '^/v1/.*$': ALL, scheduler: ALL, resources_manager: ALL },
  },
  {
    name: 'DEMAND_LEAD',
    description: 'Demand lead: demand partners (networks), floors, deals, agencies and reports.',
    acl: {
      '/v1/companies': R,
      '/v1/partners/demand': RW,
      '/v1/floors': RW,
      '/v1/deals': RW,
      '/v1/agencies': RW,
      '/v1/budgets': R,
      ...REPORTS,
      '/v1/graphs': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'DEMAND_HEAD',
    description: 'Head of demand: everything a demand lead has, with approvals, precreation and finance reports.',
    acl: {
      '/v1/companies': R,
      '^/v1/(partners/demand|floors|deals|agencies)(/.*)?$': ALL,
      '/v1/budgets': RW,
      '/v1/precreation': RW,
      ...REPORTS,
      '/v1/finance-reports': R,
      '/v1/graphs': R,
      '/v1/billing/ssp': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'PERFORMANCE_LEAD',
    description: 'Performance lead: offers, campaigns, publishers and the performance report.',
    acl: {
      '/v1/companies': R,
      '/v1/offers': RW,
      '/v1/campaigns': RW,
      '/v1/partners/publishers': R,
      '/v1/precreation': RW,
      ...REPORTS,
      '/v1/budgets': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'PERFORMANCE_HEAD',
    description: 'Head of performance: the performance lead tools plus performance billing and payouts (read).',
    acl: {
      '/v1/companies': R,
      '^/v1/(offers|campaigns|precreation)(/.*)?$': ALL,
      '/v1/partners/publishers': RW,
      '/v1/partners/demand': R,
      '/v1/budgets': RW,
      ...REPORTS,
      '/v1/finance-reports': R,
      '/v1/billing/performance': R,
      '/v1/payouts': R,
      '/v1/prepayments': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'TECH',
    description: 'Tech / operations: the operations area, unlimited firewall entries, read access to everything unprotected.',
    acl: {
      [ACL_BYPASS]: R,
      '/v1/discrepancy': ALL,
      '/v1/impressions-log': ALL,
      '/v1/ssp-logs': ALL,
      '/v1/stats-manual': ALL,
      '/v1/endpoints': ALL,
      '/v1/companies': ALL,
      '/v1/builders': ALL,
      '/v1/sdk': ALL,
      '/v1/app-log': R,
      '/v1/firewall': ['read', 'write', FIREWALL_UNLIMITED],
      ...SIGNATURE,
    },
  },
  {
    name: 'TECH_SUPPLY',
    description: 'Tech, supply side: SSP logs, manual stats, endpoints, SDK and tag builders.',
    acl: {
      '^/v1/(ssp-logs|stats-manual|endpoints)(/.*)?$': ALL,
      '/v1/impressions-log': RW,
      '/v1/discrepancy': R,
      '/v1/builders': ALL,
      '/v1/sdk': ALL,
      '/v1/companies': R,
      '/v1/graphs': R,
      '/v1/partners/publishers': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'TECH_DEMAND',
    description: 'Tech, demand side: discrepancies, impression logs, builders and the Amazon importer.',
    acl: {
      '/v1/discrepancy': ALL,
      '/v1/impressions-log': ALL,
      '/v1/builders': ALL,
      '/v1/amazon': ALL,
      '/v1/endpoints': R,
      '/v1/companies': R,
      '/v1/graphs': R,
      '/v1/partners/demand': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'FINANCE',
    description: 'Finance: billing (both sides), invoices, payouts, prepayments, finances and finance reports.',
    acl: {
      '^/v1/(billing|invoices|payouts|prepayments)(/.*)?$': RWA,
      '/v1/finances': ALL,
      '/v1/finance-reports': R,
      ...REPORTS,
      '/v1/companies': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'MARKETING',
    description: 'Marketing: creatives, the resources manager, signatures and the premium offers (read).',
    acl: {
      '/v1/creatives': ALL,
      resources_manager: ['read', 'write', 'delete'],
      '/v1/signatures': ALL,
      '/v1/offers': R,
      ...FIREWALL,
    },
  },
  {
    name: 'HR',
    description: 'Human resources: e-mail signatures and the company list.',
    acl: { '/v1/signatures': ALL, '/v1/companies': R },
  },
  {
    name: 'LEGAL',
    description: 'Legal: the legal tool, companies and partners (read).',
    acl: { '/v1/legal': ALL, '^/v1/partners/(demand|publishers)$': R, '/v1/companies': R, ...SIGNATURE },
  },
  {
    name: 'SSP_SUPPLY_LEAD',
    description: 'SSP supply lead: publishers, floors, deals, precreation, SSP billing (read) and reports.',
    acl: {
      '/v1/companies': R,
      '/v1/partners/publishers': RW,
      '/v1/floors': RW,
      '/v1/deals': RW,
      '/v1/precreation': RW,
      '/v1/billing/ssp': R,
      '/v1/stats-manual': R,
      ...REPORTS,
      '/v1/graphs': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'SSP_SUPPLY_HEAD',
    description: 'Head of SSP supply: the supply lead tools plus SSP billing approvals, invoices and payouts (read).',
    acl: {
      '/v1/companies': R,
      '^/v1/partners/(publishers|demand)(/.*)?$': ALL,
      '/v1/floors': ALL,
      '/v1/deals': ALL,
      '/v1/precreation': ALL,
      '/v1/billing/ssp': RWA,
      '/v1/invoices': R,
      '/v1/payouts': R,
      '/v1/stats-manual': RW,
      '/v1/ssp-logs': R,
      ...REPORTS,
      '/v1/finance-reports': R,
      '/v1/graphs': R,
      ...FIREWALL,
      ...SIGNATURE,
    },
  },
  {
    name: 'SCHEDULER_ADMIN',
    description: 'Scheduler admin: creates and edits scheduled jobs; reads reports.',
    acl: { '/v1/scheduler-api': RW, scheduler: ALL, '/v1/reports': R, ...FIREWALL, ...SIGNATURE },
  },
  {
    name: 'SCHEDULER_VIEWER',
    description: 'Scheduler viewer: reads the scheduler.',
    acl: { '/v1/scheduler-api': R, scheduler: R, ...FIREWALL, ...SIGNATURE },
  },
];

export interface DemoUser {
  /** Short name the tests sign in by (DEMO_MAILS). */
  key: string;
  /** Local part; the primary company domain is appended. */
  local: string;
  name: string;
  /** Role name, or null for the user with no role. */
  role: string | null;
  /** Greeting shown on the welcome panel (optional). */
  text: string | null;
}

export const DEMO_USERS = [
  { key: 'admin', local: 'admin', name: 'Carmen Ortega', role: ADMIN_ROLE, text: 'Welcome back, Carmen. Everything is under control.' },
  { key: 'finance', local: 'finance', name: 'Javier Morales', role: 'FINANCE', text: '¿Listo para el cierre de mes?' },
  { key: 'demandLead', local: 'demand.lead', name: 'Lucía Fernández', role: 'DEMAND_LEAD', text: 'Let the bids roll in!' },
  { key: 'sspLead', local: 'ssp.lead', name: 'Marco Bianchi', role: 'SSP_SUPPLY_LEAD', text: null },
  { key: 'tech', local: 'tech', name: 'Priya Natarajan', role: 'TECH', text: 'Ship it, then monitor it.' },
  { key: 'schedulerViewer', local: 'scheduler.viewer', name: 'Tomás Herrera', role: 'SCHEDULER_VIEWER', text: null },
  { key: 'marketing', local: 'marketing', name: 'Sophie Laurent', role: 'MARKETING', text: 'Bonjour ! Une belle journée créative.' },
  { key: 'noRole', local: 'norole', name: 'Daniel Novák', role: null, text: null },
] as const satisfies readonly DemoUser[];

export type DemoKey = (typeof DEMO_USERS)[number]['key'];

/** The demo users' sign-in mails with the default company domains, by key (what tests sign in with). */
export const DEMO_MAILS = Object.fromEntries(DEMO_USERS.map((u) => [u.key, `${u.local}@${DEFAULT_COMPANY_DOMAINS[0]}`])) as Readonly<Record<DemoKey, string>>;

export interface RosterEntry {
  /** Local part of the work mail. */
  local: string;
  /** Index into the company domains (wraps around when fewer are configured). */
  domain: number;
  name: string;
  text: string | null;
}

/** The rest of the staff roster (the demo users are on it too): 42 people, varied names. */
export const ROSTER: readonly RosterEntry[] = [
  { local: 'alejandro.garcia', domain: 0, name: 'Alejandro García López', text: '¡Buenos días! A por ello.' },
  { local: 'mariajose.sanchez', domain: 0, name: 'María José Sánchez', text: null },
  { local: 'pablo.navarro', domain: 2, name: 'Pablo Navarro Gil', text: 'Performance first.' },
  { local: 'anabelen.castro', domain: 0, name: 'Ana Belén Castro', text: null },
  { local: 'sergio.dominguez', domain: 1, name: 'Sergio Domínguez', text: 'Que los floors te acompañen.' },
  { local: 'elena.vazquez', domain: 0, name: 'Elena Vázquez', text: null },
  { local: 'raul.moreno', domain: 2, name: 'Raúl Moreno', text: null },
  { local: 'nuria.campos', domain: 0, name: 'Núria Campos', text: 'Bon dia!' },
  { local: 'inaki.etxeberria', domain: 1, name: 'Iñaki Etxeberria', text: 'Egun on!' },
  { local: 'montse.puig', domain: 1, name: 'Montserrat Puig', text: null },
  { local: 'jordi.ferrer', domain: 3, name: 'Jordi Ferrer', text: 'PlayOn, play hard.' },
  { local: 'aitana.romero', domain: 0, name: 'Aitana Romero', text: null },
  { local: 'diego.alonso', domain: 2, name: 'Diego Alonso', text: 'Campaigns are live.' },
  { local: 'beatriz.molina', domain: 0, name: 'Beatriz Molina', text: null },
  { local: 'hugo.serrano', domain: 1, name: 'Hugo Serrano', text: null },
  { local: 'claudia.rubio', domain: 3, name: 'Claudia Rubio', text: '¡Hola! Que tengas un gran día.' },
  { local: 'oscar.medina', domain: 0, name: 'Óscar Medina', text: null },
  { local: 'irene.cortes', domain: 2, name: 'Irene Cortés', text: null },
  { local: 'alvaro.delgado', domain: 1, name: 'Álvaro Delgado', text: 'Supply side, best side.' },
  { local: 'sofia.marin', domain: 0, name: 'Sofía Marín', text: null },
  { local: 'valentina.rojas', domain: 2, name: 'Valentina Rojas', text: '¡Vamos con todo!' },
  { local: 'mateo.gutierrez', domain: 3, name: 'Mateo Gutiérrez', text: null },
  { local: 'emma.whitfield', domain: 0, name: 'Emma Whitfield', text: 'Cheers, and happy reporting.' },
  { local: 'liam.oconnor', domain: 2, name: "Liam O'Connor", text: null },
  { local: 'hannah.schmidt', domain: 1, name: 'Hannah Schmidt', text: 'Guten Morgen!' },
  { local: 'lukas.becker', domain: 1, name: 'Lukas Becker', text: null },
  { local: 'chiara.romano', domain: 3, name: 'Chiara Romano', text: 'Ciao! Ready to crunch the numbers?' },
  { local: 'giulia.esposito', domain: 0, name: 'Giulia Esposito', text: null },
  { local: 'matteo.ricci', domain: 2, name: 'Matteo Ricci', text: null },
  { local: 'camille.dubois', domain: 0, name: 'Camille Dubois', text: 'Bonne journée !' },
  { local: 'julien.moreau', domain: 1, name: 'Julien Moreau', text: null },
  { local: 'ines.carvalho', domain: 3, name: 'Inês Carvalho', text: 'Bom dia!' },
  { local: 'joao.pereira', domain: 2, name: 'João Pereira', text: null },
  { local: 'anna.kowalska', domain: 0, name: 'Anna Kowalska', text: 'Dzień dobry!' },
  { local: 'piotr.nowak', domain: 1, name: 'Piotr Nowak', text: null },
  { local: 'yuki.tanaka', domain: 2, name: 'Yuki Tanaka', text: 'Have a focused day.' },
  { local: 'wei.zhang', domain: 1, name: 'Wei Zhang', text: null },
  { local: 'minjun.kim', domain: 3, name: 'Min-jun Kim', text: null },
  { local: 'fatima.benali', domain: 0, name: 'Fátima Benali', text: 'Welcome back!' },
  { local: 'omar.haddad', domain: 2, name: 'Omar Haddad', text: null },
  { local: 'aarav.sharma', domain: 1, name: 'Aarav Sharma', text: 'Latency is a feature.' },
  { local: 'zeynep.yilmaz', domain: 0, name: 'Zeynep Yılmaz', text: null },
];

/** The roster's default entry (spec section 3): its picture is used for people not on the roster. */
export const DEFAULT_ROSTER_ENTRY = { name: 'Back Office', text: null as string | null };
