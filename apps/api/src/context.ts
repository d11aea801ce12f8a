import type { VerifactuSender } from './modules/invoices/verifactu/sender.ts';
import type { AdsTxtFetcher } from './modules/publishers/ads-txt-check.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { SessionIssuer, TokenService } from './plugins/auth.ts';

/** What every module gets: configuration, the database, the token service and the session issuer. */
export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
  sessions: SessionIssuer;
  /** How the ads.txt check reads a URL (tests replace it; absent: HTTP). */
  adsTxtFetcher?: AdsTxtFetcher;
  /**
   * Where issued documents' VERI*FACTU records are sent (the tax agency's service; tests replace
   * it). Absent, the default: sending is off and records are only stored.
   */
  verifactuSender?: VerifactuSender;
  /** The clock of rules that depend on the date (payout confirmation from the 15th); tests fix it. */
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
