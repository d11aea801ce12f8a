/**
 * Starts the built server (`node apps/api/dist/server.js`) on a free loopback port with a fresh
 * PGlite data folder, and stops it again. Used by the e2e global setup and by the web bench.
 * `startServers` starts several, each on its own copy of one seeded data folder: one per e2e
 * worker, so that test files running at the same time never share a database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built API; E2E_API_SERVER names another build (a private one, so as not to overwrite the shared dist). */
export const API_SERVER = process.env.E2E_API_SERVER ?? path.join(REPO_ROOT, 'apps', 'api', 'dist', 'server.js');
export const WEB_DIST = path.join(REPO_ROOT, 'apps', 'web', 'dist');

/** Debian's Chromium and the flags e2e and bench launch it with (headless, no sandbox as root). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface RunningServer {
  baseURL: string;
  port: number;
  dataDir: string;
  logFile: string;
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes the data folder, unless kept. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  /** Built web app to serve (WEB_DIST). */
  webDist: string;
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** Where the server's output goes; defaults to .tmp/<name>-server.log. */
  logName?: string;
  readyTimeoutMs?: number;
  /** Folder to create the temporary data folder in (the OS temp folder by default). */
  dataParent?: string;
  /** A seeded data folder (of a stopped server) to start from, copied; a fresh one by default. */
  dataTemplate?: string;
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early (${child.exitCode ?? child.signalCode})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready after ${timeoutMs} ms (${last})`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  if (!fs.existsSync(API_SERVER)) throw new Error(`${API_SERVER} is missing: run 'node e2e/run.mjs' (it builds first) or 'npm run build'.`);
  if (!fs.existsSync(path.join(opts.webDist, 'index.html'))) throw new Error(`${opts.webDist}/index.html is missing: build the web app first.`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(opts.dataParent ?? os.tmpdir(), 'bo-e2e-'));
  if (opts.dataTemplate) fs.cpSync(opts.dataTemplate, dataDir, { recursive: true });
  const logDir = path.join(REPO_ROOT, '.tmp');
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${opts.logName ?? 'e2e'}-server.log`);
  const log = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: opts.webDist,
    FIREWALL_ADAPTER: 'none',
    // Every e2e request comes from 127.0.0.1: allow the welcome look-ups of a whole suite.
    WELCOME_MAX_PER_MIN: '1000',
    // Payouts of last month can be confirmed from the 15th: before it, the suite runs as on the 15th.
    CLOCK_MIN_DAY_OF_MONTH: '15',
    ...opts.env,
  };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  const child = spawn(process.execPath, [API_SERVER], { cwd: REPO_ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const baseURL = `http://127.0.0.1:${port}`;
  const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
  // An interrupted run (Ctrl-C skips Vitest's teardown) must not leave the server or its data
  // folder behind.
  const killOnExit = () => {
    child.kill('SIGKILL');
    cleanup();
  };
  process.once('exit', killOnExit);
  try {
    // E2E_READY_TIMEOUT_MS: a longer wait on a machine shared with other work (seeding is ~10 s alone).
    await waitReady(`${baseURL}/readyz`, child, opts.readyTimeoutMs ?? (Number(process.env.E2E_READY_TIMEOUT_MS) || 60_000));
  } catch (err) {
    await stopChild(child);
    cleanup();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- last lines of ${logFile} ---\n${tail(logFile)}`);
  }
  return {
    baseURL,
    port,
    dataDir,
    logFile,
    pid: child.pid ?? 0,
    async stop({ keepData = false } = {}) {
      await stopChild(child);
      process.removeListener('exit', killOnExit);
      if (!keepData) cleanup();
    },
  };
}

/**
 * Starts `count` servers, each on its own copy of one data folder: the first server migrates and
 * seeds it (the slow part, about 10 s), is stopped, and the copies start from it (about 2 s each,
 * all at once). With `count` 1 this is `startServer`.
 */
export async function startServers(count: number, opts: StartOptions): Promise<RunningServer[]> {
  if (count <= 1) return [await startServer(opts)];
  const seeding = await startServer({ ...opts, logName: `${opts.logName ?? 'e2e'}-seed`, dataTemplate: undefined });
  // Stopped before copying: a PGlite folder is consistent once its server has closed it.
  await seeding.stop({ keepData: true });
  const template = seeding.dataDir;
  try {
    const started = await Promise.allSettled(
      Array.from({ length: count }, (_, i) => startServer({ ...opts, logName: `${opts.logName ?? 'e2e'}-${i + 1}`, dataTemplate: template })),
    );
    const failed = started.find((r) => r.status === 'rejected');
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (failed) {
      await Promise.all(servers.map((s) => s.stop()));
      throw failed.reason;
    }
    return servers;
  } finally {
    fs.rmSync(template, { recursive: true, force: true });
  }
}
