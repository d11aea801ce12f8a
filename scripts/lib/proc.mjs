// Child processes for the scripts: run a command to completion with inherited output, or keep a
// long-lived child (the server) whose lifetime is tied to ours. Every child we start is killed
// when this process exits or receives SIGINT/SIGTERM, so nothing is left behind.
import { spawn } from 'node:child_process';

const live = new Set();
let handlersInstalled = false;

function killTree(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Children run in their own process group (detached) so the whole group goes at once:
    // npm -> sh -> vitest -> workers -> chromium.
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const child of live) killTree(child, 'SIGKILL');
  });
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      // Forward once. A Ctrl-C reaches us twice (from the terminal and from npm, which forwards
      // it too); a second signal would make the server skip its graceful shutdown.
      if (stopping) return;
      stopping = true;
      for (const child of live) killTree(child, signal);
      const code = 128 + (signalNumber(signal) ?? 0);
      // Give children time to close cleanly (the server closes its database); the exit handler
      // kills whatever is left after that.
      setTimeout(() => process.exit(code), 15_000).unref();
      waitAll().then(() => process.exit(code));
    });
  }
}

function waitAll() {
  return Promise.all([...live].map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)))));
}

/**
 * Starts a child in its own process group, tracked for cleanup. Returns the ChildProcess.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts]
 */
export function startChild(cmd, args, opts = {}) {
  installHandlers();
  const child = spawn(cmd, args, { stdio: 'inherit', detached: true, ...opts });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/**
 * Runs a command to completion. Resolves with its exit code (signals map to 128+n).
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts]
 * @returns {Promise<number>}
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = startChild(cmd, args, opts);
    child.once('error', (err) => {
      console.error(`Could not run ${cmd}: ${err.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : 1)));
  });
}

/**
 * Runs a command and captures its output (not shown). For short probes only.
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
export function capture(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = startChild(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', (err) => resolve({ code: 127, stdout, stderr: stderr + err.message }));
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

/** The npm executable for spawning (npm is a script; no shell needed on Linux). */
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
