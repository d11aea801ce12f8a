#!/usr/bin/env node
// Runs one of the API's command-line tools from its bundle, building it first when needed:
//   node scripts/api-cli.mjs cli-user list      (npm run user -- list)
//   node scripts/api-cli.mjs cli-data --days 90 (npm run data:generate -- --days 90)
// Install/build messages go to stderr so the tool's own output can be piped.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildApi } from './lib/build.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { fromRoot, ROOT } from './lib/paths.mjs';

const [tool, ...args] = process.argv.slice(2);
if (!tool || !/^[a-z][a-z0-9-]*$/.test(tool)) {
  console.error('usage: node scripts/api-cli.mjs <tool> [args…]   (tool: a file apps/api/src/<tool>.ts)');
  process.exit(2);
}

console.log = console.error;
if (!(await ensureDependencies({ quiet: true })) || !(await buildApi({ quiet: true, stdio: ['ignore', 2, 2] }))) process.exit(1);
const bundle = fromRoot('apps', 'api', 'dist', `${tool}.js`);
if (!existsSync(bundle)) {
  console.error(`${bundle} is missing: apps/api/build.mjs does not bundle src/${tool}.ts.`);
  process.exit(1);
}

// Same process group and terminal as us: the tool may prompt for a password, and a Ctrl-C
// reaches it directly (so SIGINT is not forwarded again); other signals are passed on.
const child = spawn(process.execPath, [bundle, ...args], { cwd: ROOT, stdio: 'inherit' });
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
