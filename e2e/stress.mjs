#!/usr/bin/env node
// The e2e suite's stability check: runs the whole suite several times in a row while CPU-heavy
// processes run beside it, without retries, and reports every failed test of every run.
//
//   npm run test:e2e:stress                       5 runs, 1 busy process beside them
//   npm run test:e2e:stress -- --runs=3 --load=2  3 runs, 2 busy processes (one per core)
//
// Extra arguments go to Vitest (e.g. a file to repeat). Exits 1 when any run had a failure.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildApi, buildWeb } from '../scripts/lib/build.mjs';
import { fromRoot, ROOT, TMP_DIR } from '../scripts/lib/paths.mjs';
import { run } from '../scripts/lib/proc.mjs';

function option(name, fallback) {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  const n = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number`);
  return n;
}

/** A process that keeps one core busy until it is killed (or after an hour, whatever happens). */
function startBusyProcess() {
  return spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end) {}'], { stdio: 'ignore' });
}

function failedTests(report) {
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    return r.testResults.flatMap((f) =>
      f.assertionResults.filter((t) => t.status === 'failed').map((t) => `${path.relative(ROOT, f.name)} > ${t.fullName}`),
    );
  } catch {
    return ['(no report: the run did not finish)'];
  }
}

async function main() {
  const runs = option('runs', 5);
  const load = option('load', 1);
  const vitestArgs = process.argv.slice(2).filter((a) => !/^--(runs|load)=/.test(a));
  if (!(await buildApi()) || !(await buildWeb())) return 1;
  const busy = Array.from({ length: load }, startBusyProcess);
  const stopBusy = () => busy.forEach((p) => p.kill('SIGKILL'));
  process.on('exit', stopBusy);
  console.log(`e2e stress: ${runs} runs of the suite, ${load} busy process(es) beside them, no retries.`);
  const results = [];
  try {
    for (let i = 1; i <= runs; i++) {
      const report = path.join(TMP_DIR, 'test-results', `e2e-stress-${i}.json`);
      rmSync(report, { force: true });
      const started = Date.now();
      // CI unset: the e2e config retries failed tests once on CI; a stability check must not.
      const env = { ...process.env };
      delete env.CI;
      const code = await run(process.execPath, [fromRoot('e2e', 'run.mjs'), '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs], { cwd: ROOT, env });
      const seconds = (Date.now() - started) / 1000;
      const failed = code === 0 ? [] : failedTests(report);
      // The servers' logs are rewritten by the next run: a failed run's are kept beside its report.
      if (failed.length) {
        const keep = path.join(TMP_DIR, `e2e-stress-${i}`);
        mkdirSync(keep, { recursive: true });
        for (const f of readdirSync(TMP_DIR).filter((n) => /^e2e-.*server\.log$/.test(n))) copyFileSync(path.join(TMP_DIR, f), path.join(keep, f));
      }
      results.push({ run: i, seconds, failed });
      console.log(`e2e stress: run ${i}/${runs} ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s${failed.length ? `\n  ${failed.join('\n  ')}` : ''}`);
    }
  } finally {
    stopBusy();
  }
  const failedRuns = results.filter((r) => r.failed.length > 0).length;
  console.log(`\ne2e stress: ${runs - failedRuns} of ${runs} runs passed (${load} busy process(es); run times ${results.map((r) => r.seconds.toFixed(0)).join(', ')} s)`);
  return failedRuns === 0 ? 0 : 1;
}

process.exitCode = await main();
