/** Configuration from environment variables. Every variable is listed in the README with its default. */
import { parseDomains } from '@backoffice/core/mail';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resourcesStorageConfig, type ResourcesStorageConfig } from './lib/storage/config.ts';

/** The demo accounts' password when DEMO_PASSWORD is unset (never accepted in production). */
export const DEFAULT_DEMO_PASSWORD = 'Demo1234!';

/** The password the demo accounts are seeded with for this environment. */
export function demoPasswordOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.DEMO_PASSWORD ?? DEFAULT_DEMO_PASSWORD;
}

export type FirewallAdapterKind = 'none' | 'nginx';
export type MailTransportKind = 'file' | 'smtp';

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** PGlite data folder; ':memory:' for an in-memory database. Ignored when databaseUrl is set. */
  dataDir: string;
  /** The storage adapter's folder (lib/storage.ts): files the server keeps, such as impression-log extracts. */
  storageDir: string;
  /** The resources manager's storage (lib/storage/config.ts): the local folder or an S3-compatible bucket, and its file size limit. */
  resourcesStorage: ResourcesStorageConfig;
  /** postgres://… to use a PostgreSQL server instead of the embedded PGlite. */
  databaseUrl: string | null;
  /** HS256 secret; when empty a random one is generated once and stored in the database. */
  jwtSecret: string | null;
  /** Token lifetime in seconds, and with "remember login on this computer". */
  tokenTtl: number;
  tokenTtlRemember: number;
  companyDomains: string[];
  demoPassword: string;
  /** Seed the demo data set on first start (never in production). */
  seedDemo: boolean;
  corsOrigins: string[];
  /** Fastify trustProxy: false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  firewallAdapter: FirewallAdapterKind;
  firewallNginxFile: string;
  firewallReloadCmd: string;
  /** Run background jobs (pg-boss workers and schedules) in this process. */
  jobs: boolean;
  logLevel: string;
  bodyLimit: number;
  /** Built web app served at / (SPA fallback); null to serve the API only. */
  webDist: string | null;
  /**
   * Sign-in limits over a sliding loginWindowSec: attempts per address and account
   * (loginMaxPerMail) and per address (loginMaxPerIp) answer 429 beyond the limit; an account's
   * failures from anywhere beyond loginSlowAfter slow its sign-ins (1 s doubling, at most
   * loginSlowMaxMs) without blocking them.
   */
  loginMaxPerMail: number;
  loginMaxPerIp: number;
  loginWindowSec: number;
  loginSlowAfter: number;
  loginSlowMaxMs: number;
  /** Welcome-panel look-ups allowed per source address per minute. */
  welcomeMaxPerMin: number;
  /** How long an instance caches a signed-in user's roles and ACL (ms); 0 reads them on every request. */
  identityCacheMs: number;
  /** Outgoing mail: 'file' writes .eml files into mailOutboxDir, 'smtp' sends through smtpUrl. */
  mailTransport: MailTransportKind;
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps://… (TLS from the start). */
  smtpUrl: string | null;
  /** From header of outgoing mail. */
  mailFrom: string;
  mailOutboxDir: string;
  /**
   * The tax agency's environment the VERI*FACTU QR codes point at (VERIFACTU_ENV): 'test' (the
   * agency's pre-production host) until the company registers the system, then 'production'.
   */
  verifactuEnvironment: 'production' | 'test';
  /**
   * Outside production: the date rules' clock (payout confirmation from the 15th) reads at least
   * this day of the current month (CLOCK_MIN_DAY_OF_MONTH, 1-28; a later real date is kept), so
   * that end-to-end runs do not depend on the day they run on. Null: the real date.
   */
  clockDayOfMonth: number | null;
  /**
   * Whether server-side fetches of URLs people type (the VAST builder's loader, the postback test)
   * may reach loopback and private addresses: in tests, whose stub servers listen on loopback, and
   * outside production with ALLOW_PRIVATE_FETCHES=true (the e2e suite's postback points at its own
   * server); never in production.
   */
  allowPrivateFetches: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/api, whether running from src/ (tsx, tests) or dist/ (bundle). */
export const API_ROOT = path.resolve(here, '..');
export const REPO_ROOT = path.resolve(API_ROOT, '..', '..');

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`Expected a number, got "${value}"`);
  return Math.trunc(n);
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function trustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value.trim() === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return list(value);
}

function mailConfig(env: NodeJS.ProcessEnv, dataDir: string): Pick<Config, 'mailTransport' | 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'> {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  const transport = (env.MAIL_TRANSPORT?.trim() || (smtpUrl ? 'smtp' : 'file')) as MailTransportKind;
  if (transport !== 'file' && transport !== 'smtp') throw new Error(`MAIL_TRANSPORT must be file or smtp, got "${transport}"`);
  if (transport === 'smtp' && !smtpUrl) throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return {
    mailTransport: transport,
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || `Back Office <no-reply@${parseDomains(env.COMPANY_DOMAINS)[0]}>`,
    mailOutboxDir: path.resolve(env.MAIL_OUTBOX_DIR ?? path.join(dataDir === ':memory:' ? path.join(REPO_ROOT, '.data') : dataDir, 'outbox')),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = int(env.PORT, 3000);
  const adapter = (env.FIREWALL_ADAPTER ?? 'none').trim() as FirewallAdapterKind;
  if (adapter !== 'none' && adapter !== 'nginx') throw new Error(`FIREWALL_ADAPTER must be none or nginx, got "${adapter}"`);
  const dataDir = env.DATA_DIR ?? path.join(REPO_ROOT, '.data');
  const webDist = env.WEB_DIST === '' ? null : (env.WEB_DIST ?? path.join(REPO_ROOT, 'apps', 'web', 'dist'));
  return {
    env: nodeEnv,
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: dataDir === ':memory:' ? dataDir : path.resolve(dataDir),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    jwtSecret: env.JWT_SECRET?.trim() || null,
    tokenTtl: int(env.TOKEN_TTL, 8 * 3600),
    tokenTtlRemember: int(env.TOKEN_TTL_REMEMBER, 30 * 24 * 3600),
    companyDomains: parseDomains(env.COMPANY_DOMAINS),
    demoPassword: demoPasswordOf(env),
    seedDemo: nodeEnv !== 'production' && bool(env.SEED_DEMO, true),
    corsOrigins: env.CORS_ORIGINS !== undefined ? list(env.CORS_ORIGINS) : [`http://localhost:${port}`, 'http://localhost:5173'],
    trustProxy: trustProxy(env.TRUST_PROXY),
    firewallAdapter: adapter,
    firewallNginxFile: path.resolve(env.FIREWALL_NGINX_FILE ?? path.join(dataDir === ':memory:' ? REPO_ROOT : dataDir, 'firewall', 'allow.conf')),
    firewallReloadCmd: env.FIREWALL_RELOAD_CMD ?? 'nginx -t -q && nginx -s reload',
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir === ':memory:' ? path.join(REPO_ROOT, '.data') : dataDir, 'storage')),
    resourcesStorage: resourcesStorageConfig(env),
    jobs: bool(env.JOBS, true),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024),
    webDist: webDist === null ? null : path.resolve(webDist),
    loginMaxPerMail: int(env.LOGIN_MAX_PER_MAIL, 5),
    loginMaxPerIp: int(env.LOGIN_MAX_PER_IP, 20),
    loginWindowSec: int(env.LOGIN_WINDOW_SEC, 15 * 60),
    loginSlowAfter: int(env.LOGIN_SLOW_AFTER, 10),
    loginSlowMaxMs: int(env.LOGIN_SLOW_MAX_MS, 5000),
    welcomeMaxPerMin: int(env.WELCOME_MAX_PER_MIN, 30),
    identityCacheMs: int(env.IDENTITY_CACHE_MS, nodeEnv === 'test' ? 0 : 5000),
    ...mailConfig(env, dataDir),
    verifactuEnvironment: env.VERIFACTU_ENV?.trim() === 'production' ? 'production' : 'test',
    clockDayOfMonth: nodeEnv === 'production' || !env.CLOCK_MIN_DAY_OF_MONTH ? null : Math.min(28, Math.max(1, int(env.CLOCK_MIN_DAY_OF_MONTH, 15))),
    allowPrivateFetches: nodeEnv === 'test' || (nodeEnv !== 'production' && bool(env.ALLOW_PRIVATE_FETCHES, false)),
  };
}
