#!/usr/bin/env node
// `npm run typecheck`: `tsc -p` for every workspace, as many at once as there are cores (each
// tsc uses one). Prints each project's errors together, then one line per project.
import os from 'node:os';
import { fromRoot, ROOT } from './lib/paths.mjs';
import { capture } from './lib/proc.mjs';

// Largest first, so the long ones do not start last.
const PROJECTS = ['apps/web', 'apps/api', 'packages/core', 'e2e', 'bench'];
const TSC = fromRoot('node_modules', '.bin', 'tsc');

async function check(project) {
  const started = Date.now();
  const { code, stdout, stderr } = await capture(TSC, ['-p', project, '--pretty', 'false'], { cwd: ROOT });
  return { project, ok: code === 0, output: `${stdout}${stderr}`.trim(), seconds: (Date.now() - started) / 1000 };
}

const queue = [...PROJECTS];
const results = [];
const workers = Array.from({ length: Math.min(os.availableParallelism(), queue.length) }, async () => {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const result = await check(project);
    if (result.output) console.log(result.output);
    results.push(result);
  }
});
await Promise.all(workers);

for (const project of PROJECTS) {
  const r = results.find((x) => x.project === project);
  console.log(`tsc -p ${project.padEnd(13)} ${r.ok ? 'ok    ' : 'FAILED'} ${r.seconds.toFixed(1)} s`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
