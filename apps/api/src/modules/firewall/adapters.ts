/**
 * Enforcement adapters for the IP allow-list, chosen by FIREWALL_ADAPTER:
 *   none   the database is the only record (nothing outside it is changed);
 *   nginx  writes an include file (`allow <ip>;` per address, then `deny all;`) atomically and runs
 *          the configured reload command.
 * An adapter gets the complete list every time (rebuilt from the database, the source of truth),
 * so several instances writing the same file converge on the same content.
 */
import { canonicalIp } from '@backoffice/core/firewall';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config, FirewallAdapterKind } from '../../config.ts';

/** How long the reload command may run before it is killed and the apply counts as failed. */
export const RELOAD_TIMEOUT_MS = 15_000;

export type ApplyResult =
  | { ok: true; /** false when the enforcement point already had exactly this list */ changed: boolean }
  | { ok: false; /** firewall.* message key */ key: string; /** for the logs only */ detail: string };

export interface FirewallAdapter {
  readonly kind: FirewallAdapterKind;
  /** Makes the enforcement point allow exactly these addresses (and deny the rest). */
  apply(ips: readonly string[]): Promise<ApplyResult>;
}

export function createAdapter(config: Pick<Config, 'firewallAdapter' | 'firewallNginxFile' | 'firewallReloadCmd'>): FirewallAdapter {
  if (config.firewallAdapter === 'nginx') {
    return new NginxAdapter(config.firewallNginxFile, config.firewallReloadCmd);
  }
  return { kind: 'none', apply: async () => ({ ok: true, changed: false }) };
}

/** The nginx include file for these addresses: sorted, deduplicated, then `deny all;`. */
export function renderAllowList(ips: readonly string[]): string {
  const unique = [...new Set(ips.map((ip) => canonicalIp(ip)).filter((ip): ip is string => ip !== null))].sort();
  return [
    '# Managed by Back Office (IP firewall). Rebuilt from the database on every change; do not edit.',
    ...unique.map((ip) => `allow ${ip};`),
    'deny all;',
    '',
  ].join('\n');
}

export class NginxAdapter implements FirewallAdapter {
  readonly kind = 'nginx' as const;
  /** Content this process last wrote and reloaded successfully. */
  #lastApplied: string | null = null;

  constructor(
    readonly file: string,
    readonly reloadCmd: string,
    readonly timeoutMs = RELOAD_TIMEOUT_MS,
  ) {}

  async apply(ips: readonly string[]): Promise<ApplyResult> {
    const content = renderAllowList(ips);
    if (content === this.#lastApplied && (await readOrNull(this.file)) === content) {
      return { ok: true, changed: false };
    }
    this.#lastApplied = null;
    try {
      await writeFileAtomic(this.file, content);
    } catch (err) {
      return { ok: false, key: 'firewall.write_failed', detail: errorText(err) };
    }
    if (this.reloadCmd.trim() !== '') {
      const run = await runCommand(this.reloadCmd, this.timeoutMs);
      if (!run.ok) {
        const detail = run.timedOut
          ? `reload command timed out after ${this.timeoutMs} ms: ${run.output}`
          : `reload command failed (${run.signal ? `signal ${run.signal}` : `exit ${run.code}`}): ${run.output}`;
        return { ok: false, key: run.timedOut ? 'firewall.reload_timeout' : 'firewall.reload_failed', detail };
      }
    }
    this.#lastApplied = content;
    return { ok: true, changed: true };
  }
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Replaces `file` atomically: a temporary file in the same folder is written and fsynced, then
 * renamed over the target (readers see the old or the new content, never a partial one), and the
 * folder is fsynced so the rename survives a crash. The temporary name ends in .tmp so an nginx
 * `include dir/*.conf` never picks it up.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(tmp, 'wx', 0o644);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  try {
    const dirHandle = await fs.open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic there.
  }
}

export interface CommandResult {
  ok: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout + stderr, at most 2000 characters. */
  output: string;
}

/**
 * Runs an operator-configured command line with `sh -c` (it is configuration, never request data),
 * in its own process group so a timeout kills it and anything it started.
 */
export function runCommand(command: string, timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 2000) output = (output + chunk.toString('utf8')).slice(0, 2000);
    };
    let child;
    try {
      child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ ok: false, code: null, signal: null, timedOut: false, output: errorText(err) });
      return;
    }
    let timedOut = false;
    let settled = false;
    const finish = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A daemon the command started may keep the pipes open: stop reading, do not wait for it.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...result, output: result.output.trim() });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', (err) => finish({ ok: false, code: null, signal: null, timedOut, output: `${output}${errorText(err)}` }));
    child.on('exit', (code, signal) => {
      // Let the last buffered output arrive.
      setImmediate(() => finish({ ok: !timedOut && code === 0, code, signal, timedOut, output }));
    });
  });
}
