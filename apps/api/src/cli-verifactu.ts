/**
 * `npm run verifactu:verify` — recomputes every issuer's VERI*FACTU record chain from the stored
 * records (issue 22) and reports the first broken link of each: the record, its invoice number,
 * why (its hash does not match its fields, or it does not point at the previous record's hash).
 * Exit code 0 when every chain is intact, 1 when one is broken. Reads the configured database
 * (DATA_DIR for PGlite, or DATABASE_URL); stop the server first when it uses the same PGlite folder.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { claimDataDir, DataDirLockError } from './lib/data-dir-lock.ts';
import { verifyStoredChain } from './modules/invoices/chain.ts';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  if (!config.databaseUrl) claimDataDir(config.dataDir, 'npm run verifactu:verify');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: 2,
  });
  try {
    const started = performance.now();
    const checks = await verifyStoredChain(database);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    let broken = 0;
    for (const c of checks) {
      if (c.ok)
        process.stdout.write(
          `ok      ${c.legal_name}: ${c.count.toLocaleString('en')} records, chain intact\n`,
        );
      else {
        broken++;
        const b = c.broken!;
        process.stdout.write(
          `BROKEN  ${c.legal_name}: record ${b.id} (${b.number}), position ${b.index + 1} of the chain: ${b.reason}\n` +
            `        expected ${b.expected}\n        found    ${b.found}\n`,
        );
      }
    }
    process.stdout.write(`${checks.length} chain(s) checked in ${seconds} s\n`);
    return broken === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof DataDirLockError) console.error(err.message);
    else console.error(err);
    process.exit(2);
  },
);
