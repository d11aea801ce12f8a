/** `npm run user -- …`: account management from the command line (see lib/user-cli.ts). */
import { loadConfig } from './config.ts';
import { migrateDatabase, openDatabase, withAdvisoryLock } from './db/client.ts';
import { seed } from './db/seed.ts';
import { claimDataDir } from './lib/data-dir-lock.ts';
import { runUserCli, terminalIo } from './lib/user-cli.ts';

async function main(): Promise<number> {
  const config = { ...loadConfig(), logLevel: 'silent' };
  if (!config.databaseUrl) claimDataDir(config.dataDir, 'npm run user');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateDatabase(database);
    await withAdvisoryLock(database, 7263542, () => seed(database, config));
    return await runUserCli(process.argv.slice(2), database, config, terminalIo());
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
