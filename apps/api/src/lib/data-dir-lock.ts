/**
 * The embedded database (PGlite) is a folder that only one process may open at a time. The server
 * and the user command record their process id in `<DATA_DIR>/backoffice.pid` while they use it,
 * and refuse to open a folder another live process holds. Not needed with DATABASE_URL.
 */
import fs from 'node:fs';
import path from 'node:path';

const FILE = 'backoffice.pid';

export class DataDirLockError extends Error {
  override readonly name = 'DataDirLockError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The id of another live process holding the folder, or null. */
export function dataDirHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Claims the folder for this process (removed again on exit). Throws when another live process
 * holds it. A no-op for ':memory:'.
 */
export function claimDataDir(dataDir: string, what: string): void {
  if (dataDir === ':memory:') return;
  const holder = dataDirHolder(dataDir);
  if (holder !== null) {
    throw new DataDirLockError(
      `Another Back Office process (pid ${holder}) is using the embedded database at ${dataDir}. ` +
        `Stop it before running ${what}, or use a PostgreSQL server (DATABASE_URL).`,
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE);
  fs.writeFileSync(file, String(process.pid));
  process.once('exit', () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // already gone
    }
  });
}
