import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { TokenService } from './plugins/auth.ts';

/** What every module gets: configuration, the database and the token service. */
export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
