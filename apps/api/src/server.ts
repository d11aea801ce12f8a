/** `npm start` runs this: build the app, listen, print the URL and the demo logins. */
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { demoLogins } from './db/seed.ts';
import { DataDirLockError, claimDataDir } from './lib/data-dir-lock.ts';
import { ProductionGuardError } from './lib/production-guard.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) claimDataDir(config.dataDir, 'the server');
  const app = await buildApp(config);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${config.port}`;
  const db = config.databaseUrl ? 'PostgreSQL server' : `embedded PGlite at ${config.dataDir}`;
  console.log(`\nBack Office ready at ${url}  (database: ${db})`);
  const logins = await demoLogins(app.ctx.database, config);
  if (logins.length > 0) {
    console.log(`\nDemo logins (password: ${config.demoPassword}):`);
    const width = Math.max(...logins.map((l) => l.mail.length));
    for (const l of logins) console.log(`  ${l.mail.padEnd(width)}  ${l.roles.join(', ') || '(no role: sees the no-permissions message)'}`);
    console.log('');
  }
}

main().catch((err) => {
  if (err instanceof ProductionGuardError || err instanceof DataDirLockError) {
    console.error(`\n${err.message}\n`);
    process.exit(1);
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
