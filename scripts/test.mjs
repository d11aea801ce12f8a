#!/usr/bin/env node
// `npm test`: installs what is missing, then runs every check in order and stops at the first
// failure. Prints a header and a timing per step, and a summary table at the end.
//
//   npm test                       everything
//   npm test -- --only=unit,e2e    just these steps (names as in the summary table)
//   npm test -- --skip=e2e         everything but these
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApi, buildWeb } from './lib/build.mjs';
import { ensureChromium, ensureDependencies, ensureNginx } from './lib/deps.mjs';
import { fromRoot, ROOT } from './lib/paths.mjs';
import { freshPostgresDatabase } from './lib/postgres.mjs';
import { NPM, run } from './lib/proc.mjs';
import { fileTimesPath, printSlowest, RESULTS_DIR } from './lib/slowest.mjs';

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = (s) => paint('1', s);
const green = (s) => paint('32', s);
const red = (s) => paint('31', s);
const yellow = (s) => paint('33', s);

// Vitest runs cores-1 workers by default: one on a 2-core machine, leaving a core idle while the
// main process waits. Test files are isolated (own process, own database), so use every core.
const WORKERS = process.env.TEST_WORKERS ?? String(os.availableParallelism());
const VITEST = fromRoot('node_modules', '.bin', 'vitest');
/** The console output, a JSON report (test counts) and each file's time (the slowest list). */
const REPORTERS = ['--reporter=default', '--reporter=json', `--reporter=${fromRoot('scripts', 'lib', 'file-times-reporter.mjs')}`];

/** Env for test runs: never let a developer's DATABASE_URL reach the code under test. */
function testEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  if (!('TEST_DATABASE_URL' in extra)) delete env.TEST_DATABASE_URL;
  return env;
}

/** Runs vitest with a JSON report next to the normal output, to count tests per step. */
async function vitest(step, args, env) {
  const report = path.join(RESULTS_DIR, `${step.id}.json`);
  rmSync(report, { force: true });
  const code = await run(VITEST, ['run', ...args, `--maxWorkers=${WORKERS}`, ...REPORTERS, `--outputFile.json=${report}`], {
    cwd: ROOT,
    env: { ...env, BO_FILE_TIMES: fileTimesPath(step.id) },
  });
  step.tests = readCounts(report);
  return code === 0 ? { status: 'pass' } : { status: 'fail' };
}

function readCounts(file) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    return { passed: r.numPassedTests ?? 0, failed: r.numFailedTests ?? 0, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) };
  } catch {
    return undefined;
  }
}

const npmScript = (name) => async () => ((await run(NPM, ['run', '--silent', name], { cwd: ROOT })) === 0 ? { status: 'pass' } : { status: 'fail' });

const notes = [];

/** API test files that need not run twice (see the integration-postgres step). */
const PGLITE_ONLY = ['**/test/fuzz.test.ts', '**/test/acl-matrix.test.ts'];

const steps = [
  {
    id: 'setup',
    title: 'Install what is missing (npm dependencies, Chromium, nginx)',
    async run() {
      // npm and apt download and unpack at the same time: neither waits on the other. The two apt
      // installs go one after the other (they share dpkg's lock).
      const aptPackages = async () => [await ensureChromium(), await ensureNginx()];
      const [installed, packages] = await Promise.all([ensureDependencies(), aptPackages()]);
      for (const res of packages) {
        console.log(res.message);
        // The steps that need them fail with their own clear message; keep going until then.
        if (!res.ok) notes.push(res.message);
      }
      return installed ? { status: 'pass' } : { status: 'fail', why: 'npm ci failed (see above)' };
    },
  },
  { id: 'typecheck', title: 'Typecheck (tsc per workspace)', run: npmScript('typecheck') },
  { id: 'lint', title: 'Lint (eslint, no warnings allowed)', run: npmScript('lint') },
  {
    id: 'unit',
    title: 'Unit tests (Vitest projects core and web)',
    run: (step) => vitest(step, ['--project', 'core', '--project', 'web'], testEnv()),
  },
  {
    id: 'integration-pglite',
    title: 'API integration tests on PGlite (Vitest project api)',
    run: (step) => vitest(step, ['--project', 'api'], testEnv()),
  },
  {
    id: 'integration-postgres',
    title: 'API integration tests on PostgreSQL (Vitest project api, TEST_DATABASE_URL)',
    async run(step) {
      const db = await freshPostgresDatabase('backoffice_test');
      if (!db.url) {
        console.log(yellow(`PostgreSQL pass skipped: ${db.reason}`));
        notes.push(`PostgreSQL pass skipped: ${db.reason}`);
        return { status: 'skip', why: db.reason };
      }
      console.log(`PostgreSQL: using ${redact(db.url)}${db.started ? ' (local cluster started by this script)' : ''}`);
      // The OpenAPI-driven fuzz and ACL matrix check what every route answers to bad input and to
      // each role before any query runs; PGlite is the same PostgreSQL engine, so they run there
      // only (decision 036). Everything else runs on both databases.
      const once = PGLITE_ONLY.flatMap((file) => ['--exclude', file]);
      return vitest(step, ['--project', 'api', ...once], testEnv({ TEST_DATABASE_URL: db.url }));
    },
  },
  {
    id: 'build',
    title: 'Build (API bundle and the web app, served by npm start and by the e2e suite alike)',
    async run() {
      // One web build: the e2e suite tests the very files production serves (docs/decisions/008).
      if (!(await buildApi())) return { status: 'fail', why: 'API build failed' };
      if (!(await buildWeb())) return { status: 'fail', why: 'web build failed' };
      return { status: 'pass' };
    },
  },
  {
    id: 'e2e',
    title: 'End-to-end tests (a built server per worker on a copy of a seeded PGlite, headless Chromium)',
    async run(step) {
      const report = path.join(RESULTS_DIR, 'e2e.json');
      rmSync(report, { force: true });
      const code = await run(process.execPath, [fromRoot('e2e', 'run.mjs'), ...REPORTERS, `--outputFile.json=${report}`], {
        cwd: ROOT,
        env: testEnv({ BO_FILE_TIMES: fileTimesPath(step.id) }),
      });
      step.tests = readCounts(report);
      return code === 0 ? { status: 'pass' } : { status: 'fail' };
    },
  },
];

function redact(url) {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

function parseList(flag) {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${flag}=`));
  return arg ? arg.slice(flag.length + 3).split(',').filter(Boolean) : null;
}

function fmtTests(t) {
  if (!t) return '';
  return `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
}

function printSummary(totalSeconds) {
  const rows = steps.map((s) => [s.id, s.result ?? 'not run', s.seconds === undefined ? '' : s.seconds.toFixed(1), fmtTests(s.tests) || s.why || '']);
  const head = ['step', 'result', 'seconds', 'tests / note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells, paintCell = (_i, c) => c) =>
    cells
      .map((c, i) => paintCell(i, i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const paintResult = (i, c) => (i !== 1 ? c : c.startsWith('pass') ? green(c) : c.startsWith('fail') ? red(c) : yellow(c));
  console.log('');
  console.log(bold('Summary'));
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r, paintResult));
  for (const n of notes) console.log(yellow(`note: ${n}`));
  console.log(`total ${totalSeconds.toFixed(1)} s`);

  const tests = steps.reduce(
    (acc, s) => (s.tests ? { passed: acc.passed + s.tests.passed, failed: acc.failed + s.tests.failed, skipped: acc.skipped + s.tests.skipped } : acc),
    { passed: 0, failed: 0, skipped: 0 },
  );
  console.log(`tests: ${fmtTests(tests)}`);
  const passed = steps.filter((s) => s.result === 'pass').length;
  const failed = steps.filter((s) => s.result === 'fail').length;
  const skipped = steps.length - passed - failed;
  // Last line, in the plain form CI reads: counts of steps.
  console.log(`steps: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed;
}

async function main() {
  const only = parseList('only');
  const skip = parseList('skip') ?? [];
  const known = new Set(steps.map((s) => s.id));
  for (const name of [...(only ?? []), ...skip]) {
    if (!known.has(name)) {
      console.error(`Unknown step '${name}'. Steps: ${[...known].join(', ')}`);
      return 2;
    }
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const started = Date.now();
  let failedStep = null;
  for (const [i, step] of steps.entries()) {
    if (failedStep) continue;
    if ((only && !only.includes(step.id) && step.id !== 'setup') || skip.includes(step.id)) {
      step.result = 'skip';
      step.why = 'not selected';
      continue;
    }
    console.log('');
    console.log(bold(`━━ [${i + 1}/${steps.length}] ${step.id}: ${step.title}`));
    const t0 = Date.now();
    let outcome;
    try {
      outcome = await step.run(step);
    } catch (err) {
      console.error(err);
      outcome = { status: 'fail', why: err instanceof Error ? err.message : String(err) };
    }
    step.seconds = (Date.now() - t0) / 1000;
    step.result = outcome.status;
    if (outcome.why) step.why = outcome.why;
    const verdict = outcome.status === 'pass' ? green('passed') : outcome.status === 'skip' ? yellow('skipped') : red('FAILED');
    console.log(bold(`━━ ${step.id} ${verdict} in ${step.seconds.toFixed(1)} s`));
    if (outcome.status === 'fail') failedStep = step;
  }
  console.log('');
  printSlowest(10, steps.filter((s) => s.tests).map((s) => s.id));
  const failures = printSummary((Date.now() - started) / 1000);
  if (failedStep) console.error(red(`npm test failed at step '${failedStep.id}'.`));
  return failures > 0 ? 1 : 0;
}

process.exitCode = await main();
