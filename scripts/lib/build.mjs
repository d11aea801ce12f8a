// Builds the web app and the API when their output is missing or older than their sources.
// A plain mtime comparison: cheap, and right for a fresh clone (no dist) and after an edit.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { API_SERVER, fromRoot, ROOT, WEB_DIST } from './paths.mjs';
import { NPM, run } from './proc.mjs';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.data', 'coverage']);

/** Newest mtime (ms) of the files under the given paths (files or folders); 0 when none exist. */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (!SKIP_DIRS.has(entry)) visit(path.join(p, entry));
      }
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of paths) visit(p);
  return newest;
}

const CORE_INPUTS = [fromRoot('packages', 'core', 'src'), fromRoot('packages', 'core', 'package.json')];

export const WEB_INPUTS = [
  fromRoot('apps', 'web', 'src'),
  fromRoot('apps', 'web', 'build'),
  fromRoot('apps', 'web', 'public'),
  fromRoot('apps', 'web', 'index.html'),
  fromRoot('apps', 'web', 'vite.config.ts'),
  fromRoot('apps', 'web', 'package.json'),
  ...CORE_INPUTS,
];

export const API_INPUTS = [
  fromRoot('apps', 'api', 'src'),
  fromRoot('apps', 'api', 'drizzle'),
  fromRoot('apps', 'api', 'build.mjs'),
  fromRoot('apps', 'api', 'package.json'),
  ...CORE_INPUTS,
];

/** Why `output` must be rebuilt from `inputs`, or null when it is up to date. */
export function staleReason(output, inputs) {
  if (!existsSync(output)) return `${path.relative(ROOT, output)} is missing`;
  if (newestMtime(inputs) > statSync(output).mtimeMs) return 'sources changed since the last build';
  return null;
}

async function buildIfStale(label, output, inputs, build, { force = false, quiet = false } = {}) {
  const reason = force ? 'rebuild requested' : staleReason(output, inputs);
  if (!reason) {
    if (!quiet) console.log(`${label}: up to date.`);
    return true;
  }
  console.log(`${label}: ${reason}; building…`);
  const started = Date.now();
  const code = await build();
  if (code !== 0) {
    console.error(`${label}: build failed (exit ${code}).`);
    return false;
  }
  console.log(`${label}: built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

/**
 * apps/api/dist/server.js (esbuild bundle, apps/api/build.mjs).
 * @param {{force?: boolean, quiet?: boolean, stdio?: import('node:child_process').StdioOptions}} [opts]
 */
export function buildApi(opts = {}) {
  const stdio = opts.stdio ?? 'inherit';
  return buildIfStale('API build', API_SERVER, API_INPUTS, () => run(NPM, ['run', 'build', '-w', 'apps/api'], { cwd: ROOT, stdio }), opts);
}

/** apps/web/dist: the web build that `npm start`, production and the e2e suite serve. */
export function buildWeb(opts = {}) {
  return buildIfStale('Web build', path.join(WEB_DIST, 'index.html'), WEB_INPUTS, () => run(NPM, ['run', 'build', '-w', 'apps/web'], { cwd: ROOT }), opts);
}
