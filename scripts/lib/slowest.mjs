// The slowest test files of the last `npm test` run, read from what the file-times reporter
// (file-times-reporter.mjs) wrote for each Vitest step into .tmp/test-results/<step>.files.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, TMP_DIR } from './paths.mjs';

export const RESULTS_DIR = path.join(TMP_DIR, 'test-results');
const SUFFIX = '.files.json';

/** Where a step's per-file times go (the reporter reads it from BO_FILE_TIMES). */
export const fileTimesPath = (step) => path.join(RESULTS_DIR, `${step}${SUFFIX}`);

/**
 * Every test file of the given steps with its time in seconds, slowest first.
 * @param {string[]} [steps] step ids; every step with a report by default
 */
export function fileTimes(steps) {
  if (!existsSync(RESULTS_DIR)) return [];
  const names = steps ?? readdirSync(RESULTS_DIR).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length));
  const rows = [];
  for (const step of names) {
    let files;
    try {
      files = JSON.parse(readFileSync(fileTimesPath(step), 'utf8'));
    } catch {
      continue;
    }
    for (const f of files) {
      rows.push({ step, file: path.relative(ROOT, f.file), seconds: f.total / 1000, importSeconds: (f.collect + f.setup) / 1000, tests: f.tests, failed: f.failed });
    }
  }
  return rows.sort((a, b) => b.seconds - a.seconds);
}

/** Prints the `count` slowest files as a table; returns how many were printed. */
export function printSlowest(count = 10, steps) {
  const rows = fileTimes(steps).slice(0, count);
  if (rows.length === 0) return 0;
  const width = Math.max(...rows.map((r) => r.step.length), 'step'.length);
  console.log(`Slowest ${rows.length} test files (seconds in their worker: environment, import, hooks and tests; 'import' is the part spent importing)`);
  console.log(`${'seconds'.padStart(8)}  ${'import'.padStart(6)}  ${'step'.padEnd(width)}  tests  file`);
  for (const r of rows) {
    const cells = [r.seconds.toFixed(1).padStart(8), r.importSeconds.toFixed(1).padStart(6), r.step.padEnd(width), String(r.tests).padStart(5), r.file];
    console.log(`${cells.join('  ')}${r.failed ? `  (${r.failed} failed)` : ''}`);
  }
  return rows.length;
}
