#!/usr/bin/env node
// Runs the e2e suite: makes sure Chromium and the builds exist, then Vitest with the e2e config.
// Extra arguments go to Vitest, e.g. `node e2e/run.mjs e2e/tests/smoke.e2e.ts -t login`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApi, buildWeb } from '../scripts/lib/build.mjs';
import { ensureChromium } from '../scripts/lib/deps.mjs';
import { fromRoot, ROOT } from '../scripts/lib/paths.mjs';
import { run } from '../scripts/lib/proc.mjs';

async function main() {
  const chromium = await ensureChromium();
  if (!chromium.ok) {
    console.error(`e2e: ${chromium.message}`);
    return 1;
  }
  if (!(await buildApi())) return 1;
  if (!(await buildWeb())) return 1;
  const vitest = fromRoot('node_modules', '.bin', 'vitest');
  // The server's data folder goes in here; removed whatever way Vitest ends.
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'bo-e2e-run-'));
  process.on('exit', () => rmSync(tmpRoot, { recursive: true, force: true }));
  return run(vitest, ['run', '--config', fromRoot('e2e', 'vitest.config.ts'), ...process.argv.slice(2)], {
    cwd: ROOT,
    env: { ...process.env, E2E_TMP_ROOT: tmpRoot },
  });
}

process.exitCode = await main();
