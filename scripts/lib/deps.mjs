// Installs what a fresh clone is missing: npm dependencies, and the Debian packages the tests need
// (Chromium for e2e, nginx for the firewall adapter test).
import { existsSync, statSync } from 'node:fs';
import { fromRoot, ROOT } from './paths.mjs';
import { capture, NPM, run } from './proc.mjs';

/** Why dependencies must be (re)installed, or null when node_modules matches the lockfile. */
export function dependencyInstallReason() {
  const lock = fromRoot('package-lock.json');
  // npm writes node_modules/.package-lock.json at the end of every successful install.
  const marker = fromRoot('node_modules', '.package-lock.json');
  if (!existsSync(marker)) return 'node_modules is missing';
  if (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000) {
    return 'package-lock.json is newer than node_modules';
  }
  return null;
}

const NPM_FLAGS = ['--no-audit', '--no-fund'];

/** The `npm error` lines of an npm run, shortened: what a person needs to see to fix it. */
function npmErrors(output, max = 8) {
  const all = output.split('\n').filter((l) => l.startsWith('npm error') && l.trim() !== 'npm error');
  // npm ci follows a usage error with its whole help text: the lines before it are the message.
  const help = all.findIndex((l) => /^npm error (Clean install a project|Usage:)/.test(l));
  const lines = help > 0 ? all.slice(0, help) : all;
  return lines.length > max ? [...lines.slice(0, max), `npm error … (${lines.length - max} more lines)`].join('\n') : lines.join('\n');
}

/**
 * Installs exactly the lockfile (`npm ci`) when node_modules is missing or older than it; when
 * node_modules is current, still checks that the lockfile matches every package.json
 * (`npm ci --dry-run`, about a second). A lockfile out of sync fails here, loudly, with npm's own
 * list of what is missing: there is no fallback to `npm install`, which would quietly resolve
 * other versions than the ones CI and every other clone get. Returns true on success.
 */
export async function ensureDependencies({ quiet = false } = {}) {
  if (!existsSync(fromRoot('package-lock.json'))) {
    console.error('Dependencies: package-lock.json is missing; run npm install and commit it.');
    return false;
  }
  const reason = dependencyInstallReason();
  const args = reason ? ['ci', ...NPM_FLAGS] : ['ci', '--dry-run', '--ignore-scripts', ...NPM_FLAGS];
  if (reason) console.log(`Dependencies: ${reason}; running npm ci…`);
  const ci = await capture(NPM, args, { cwd: ROOT });
  const output = `${ci.stdout}\n${ci.stderr}`;
  if (ci.code !== 0) {
    const outOfSync = /in sync|Missing: |Invalid: /.test(output);
    console.error(npmErrors(output));
    console.error(
      outOfSync
        ? 'Dependencies: package-lock.json does not match the package.json files. Run `npm install` (or `npm install --package-lock-only`) and commit package-lock.json.'
        : `Dependencies: npm ${args.join(' ')} failed (exit ${ci.code}).`,
    );
    return false;
  }
  if (reason) console.log(output.split('\n').filter((l) => /^(added|removed|changed|up to date)/.test(l.trim())).join('\n') || 'npm ci: done');
  else if (!quiet) console.log('Dependencies: up to date, and package-lock.json matches every package.json.');
  return true;
}

/** True when `bin` is found on PATH (or is an existing absolute path). */
export function hasBinary(bin) {
  if (bin.startsWith('/')) return existsSync(bin);
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin']);
  return dirs.some((d) => d && existsSync(`${d}/${bin}`));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Installs a Debian package when `bin` is missing and we are root. On a failed install it runs
 * `apt-get update` once and tries again. Returns {ok, message}.
 */
export async function ensureAptBinary(bin, pkg) {
  if (hasBinary(bin)) return { ok: true, message: `${pkg}: present` };
  if (!isRoot()) {
    return { ok: false, message: `${pkg}: ${bin} is missing and we are not root; install it with 'apt-get install -y ${pkg}'` };
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get may hold the lock (a parallel session): wait for it rather than fail.
  const install = () =>
    run('apt-get', ['install', '-y', '-q', '-o', 'DPkg::Lock::Timeout=600', pkg], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`${pkg}: ${bin} is missing; running apt-get install -y ${pkg}…`);
  let code = await install();
  if (code !== 0) {
    console.log(`${pkg}: install failed (exit ${code}); running apt-get update and trying again…`);
    await run('apt-get', ['update', '-q', '-o', 'DPkg::Lock::Timeout=600'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    code = await install();
  }
  if (code !== 0 || !hasBinary(bin)) return { ok: false, message: `${pkg}: apt-get install failed (exit ${code})` };
  return { ok: true, message: `${pkg}: installed` };
}

export const CHROMIUM = '/usr/bin/chromium';
export const ensureChromium = () => ensureAptBinary(CHROMIUM, 'chromium');
export const ensureNginx = () => ensureAptBinary('nginx', 'nginx');
