// Finds a PostgreSQL server for the integration pass and the benchmarks: DATABASE_URL when set,
// else the local server on 127.0.0.1:5432, started with pg_ctlcluster when installed but stopped.
import net from 'node:net';
import { createRequire } from 'node:module';
import { fromRoot } from './paths.mjs';
import { hasBinary } from './deps.mjs';
import { capture } from './proc.mjs';

// Debian's cluster asks for a password on 127.0.0.1 (scram-sha-256), so the local pass uses a
// dedicated role, created on first use through the postgres superuser's local socket (peer auth).
const LOCAL_ROLE = 'backoffice';
const LOCAL_URL = `postgres://${LOCAL_ROLE}:${LOCAL_ROLE}@127.0.0.1:5432/postgres`;

/** Resolves true when a TCP connection to host:port opens within the timeout. */
export function probe(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function probeUntil(host, port, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await probe(host, port)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** The first local cluster from pg_lsclusters as [version, name], else ['15', 'main']. */
async function localCluster() {
  const { code, stdout } = await capture('pg_lsclusters', ['--no-header']);
  if (code === 0) {
    const line = stdout.split('\n').find((l) => /\s5432\s/.test(l)) ?? stdout.split('\n')[0] ?? '';
    const [version, name] = line.trim().split(/\s+/);
    if (version && name) return [version, name];
  }
  return ['15', 'main'];
}

/** Creates (or resets) the local role with CREATEDB, as the postgres OS user. Needs root. */
async function ensureLocalRole() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0 || !hasBinary('runuser') || !hasBinary('psql')) {
    return 'the role needs creating and that needs root, runuser and psql';
  }
  const sql = `DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${LOCAL_ROLE}') THEN
      CREATE ROLE ${LOCAL_ROLE} LOGIN CREATEDB PASSWORD '${LOCAL_ROLE}';
    ELSE
      ALTER ROLE ${LOCAL_ROLE} LOGIN CREATEDB PASSWORD '${LOCAL_ROLE}';
    END IF;
  END $$;
  -- Lets the tests' DROP DATABASE … WITH (FORCE) end autovacuum workers on a test database.
  GRANT pg_signal_backend TO ${LOCAL_ROLE};`;
  const res = await capture('runuser', ['-u', 'postgres', '--', 'psql', '-v', 'ON_ERROR_STOP=1', '-Atc', sql], { cwd: '/' });
  return res.code === 0 ? null : `creating role ${LOCAL_ROLE} failed: ${(res.stderr || res.stdout).trim()}`;
}

/** Tries to sign in to the server; null when it works, else the server's message. */
async function canConnect(url) {
  const { Client } = loadPg();
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The local server answers on 127.0.0.1:5432: make sure our role can sign in. */
async function localServer(started, log) {
  if ((await canConnect(LOCAL_URL)) === null) return { url: LOCAL_URL, started };
  log(`PostgreSQL: setting up role ${LOCAL_ROLE} on the local cluster…`);
  const failed = await ensureLocalRole();
  if (failed) return { url: null, reason: failed };
  const error = await canConnect(LOCAL_URL);
  return error === null ? { url: LOCAL_URL, started } : { url: null, reason: `cannot sign in as ${LOCAL_ROLE} on 127.0.0.1:5432: ${error}` };
}

/**
 * @returns {Promise<{url: string, started: boolean} | {url: null, reason: string}>}
 *   url: a connection string to an existing database on a reachable server.
 */
export async function findPostgres({ log = console.log } = {}) {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    if (!/^postgres(ql)?:\/\//.test(configured)) return { url: null, reason: `DATABASE_URL is not a postgres:// URL` };
    const u = new URL(configured);
    const ok = await probe(u.hostname, Number(u.port || 5432));
    return ok ? { url: configured, started: false } : { url: null, reason: `DATABASE_URL ${u.hostname}:${u.port || 5432} is not reachable` };
  }
  if (await probe('127.0.0.1', 5432)) return localServer(false, log);
  if (!hasBinary('pg_ctlcluster')) {
    return { url: null, reason: 'no DATABASE_URL, nothing listens on 127.0.0.1:5432 and pg_ctlcluster is not installed' };
  }
  const [version, name] = await localCluster();
  log(`PostgreSQL: nothing on 127.0.0.1:5432; running pg_ctlcluster ${version} ${name} start…`);
  const res = await capture('pg_ctlcluster', [version, name, 'start']);
  if (res.code !== 0) {
    const why = (res.stderr || res.stdout).trim().split('\n').pop();
    return { url: null, reason: `pg_ctlcluster ${version} ${name} start failed: ${why}` };
  }
  if (await probeUntil('127.0.0.1', 5432, 20)) return localServer(true, log);
  return { url: null, reason: 'started the local cluster but 127.0.0.1:5432 did not answer within 20 s' };
}

/** node-postgres, loaded from the workspace once dependencies are installed. */
function loadPg() {
  const require = createRequire(fromRoot('package.json'));
  const pg = require('pg');
  return pg.default ?? pg;
}

/**
 * Drops and creates database `name` on the server of `serverUrl`. Returns its connection string.
 * Throws with the server's message when it cannot (authentication, permissions).
 */
export async function recreateDatabase(serverUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid database name ${name}`);
  const { Client } = loadPg();
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    // Also after a failed sign-in: an open socket would keep the process alive.
    await client.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Finds a server and prepares a fresh database on it: {url} or {url: null, reason}. */
export async function freshPostgresDatabase(name, opts) {
  const found = await findPostgres(opts);
  if (!found.url) return found;
  try {
    return { url: await recreateDatabase(found.url, name), started: found.started };
  } catch (err) {
    return { url: null, reason: `cannot create database ${name}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
