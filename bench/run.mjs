#!/usr/bin/env node
// `npm run bench`: API throughput/latency/memory and web bytes/LCP. Prints tables and writes
// bench/results/latest.json. Figures are reported, never judged: no exit code for a missed target.
//
//   npm run bench                 everything
//   npm run bench -- --api-only   only the API bench      npm run bench -- --web-only
//   The API part also runs the resource layer's list bench (bench/resources/run.ts, 100,000 companies),
//   and the web part the companies list in the browser at 100,000 companies (bench/web.ts);
//   --no-resources skips both.
//   BENCH_DURATION=5 npm run bench   seconds per autocannon run (default 10)
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { buildApi, buildWeb } from '../scripts/lib/build.mjs';
import { ensureChromium, ensureDependencies } from '../scripts/lib/deps.mjs';
import { fromRoot, ROOT, TMP_DIR } from '../scripts/lib/paths.mjs';
import { freshPostgresDatabase } from '../scripts/lib/postgres.mjs';
import { run } from '../scripts/lib/proc.mjs';

const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 3;
const RESULTS = fromRoot('bench', 'results', 'latest.json');
const args = new Set(process.argv.slice(2));

const mb = (bytes) => (bytes === null || bytes === undefined ? '-' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const kb = (bytes) => (bytes === null || bytes === undefined ? '-' : `${(bytes / 1024).toFixed(1)} KB`);

/** Resident memory of a process in bytes (Linux /proc). */
function rss(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 200 ms until stopped; returns the peak. */
function rssSampler(pid) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid) ?? 0)), 200);
  return () => {
    clearInterval(timer);
    return peak || null;
  };
}

/** Starts bench/api-server.ts with the given env; resolves once it prints its ports. */
function startApiServer(env, logFile) {
  return new Promise((resolve, reject) => {
    const log = fs.createWriteStream(logFile);
    const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('bench', 'api-server.ts')], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.stderr.pipe(log);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bench server did not start within 120 s; see ${logFile}`));
    }, 120_000);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('BENCH_READY ')) {
        clearTimeout(timer);
        const ports = JSON.parse(line.slice('BENCH_READY '.length));
        resolve({
          child,
          ports,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
              child.once('exit', () => {
                clearTimeout(kill);
                process.removeListener('exit', killOnExit);
                done();
              });
              child.kill('SIGTERM');
            }),
        });
      } else {
        log.write(`${line}\n`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited (${code}) before it was ready; see ${logFile}`));
    });
  });
}

/** What Chromium and Firefox send: the menu is then answered pre-compressed (br). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

function load(url, headers, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
  } catch {
    return null;
  }
}

async function benchRoute(name, url, headers, pid) {
  await load(url, headers, WARMUP);
  const stopSampling = rssSampler(pid);
  const cpu0 = cpuMicros(pid);
  const r = await load(url, headers, DURATION);
  const cpu1 = cpuMicros(pid);
  const peak = stopSampling();
  return {
    name,
    url: new URL(url).pathname,
    reqPerSec: Math.round(r.requests.average),
    // Server CPU per request: steadier than req/s on a shared machine (it does not count the time
    // the server waited for a core), though still a little higher under contention.
    serverCpuMicrosPerReq: cpu0 !== null && cpu1 !== null && r.requests.total ? Math.round((cpu1 - cpu0) / r.requests.total) : null,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    rssPeak: peak,
  };
}

/** Signs in as the demo admin the bench server announced (its mail and seeded password). */
async function signIn(baseURL, admin) {
  const res = await fetch(`${baseURL}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok || body?.status !== 'success') throw new Error(`sign-in as ${admin.email} failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

async function apiBench(label, env) {
  const logFile = path.join(TMP_DIR, `bench-api-${label}.log`);
  console.log(`API bench (${label}): starting the server…`);
  const server = await startApiServer(env, logFile);
  try {
    const appURL = `http://127.0.0.1:${server.ports.app}`;
    const token = await signIn(appURL, server.ports.admin);
    const auth = { authorization: `Bearer ${token}` };
    const menu = await fetch(`${appURL}/v1/admin/menu`, { headers: auth });
    if (!menu.ok) throw new Error(`GET /v1/admin/menu answered ${menu.status}`);
    await new Promise((r) => setTimeout(r, 2000));
    const rssIdle = rss(server.child.pid);
    const rows = [];
    console.log(`API bench (${label}): ${CONNECTIONS} connections, ${DURATION} s per route (+${WARMUP} s warm-up)…`);
    const pid = server.child.pid;
    const bareURL = `http://127.0.0.1:${server.ports.bare}/bare`;
    // The bare route runs first and last: their mean is the baseline, and their spread shows how
    // much the machine's load moved during the run.
    rows.push(await benchRoute('bare Fastify route (no plugins)', bareURL, {}, pid));
    rows.push(await benchRoute('app /healthz (all plugins, no auth/db)', `${appURL}/healthz`, {}, pid));
    rows.push(await benchRoute('GET /v1/admin/menu as admin', `${appURL}/v1/admin/menu`, auth, pid));
    rows.push(await benchRoute('GET /v1/admin/menu as admin, browser Accept-Encoding', `${appURL}/v1/admin/menu`, { ...auth, 'accept-encoding': BROWSER_ACCEPT_ENCODING }, pid));
    rows.push(await benchRoute('bare Fastify route (no plugins), again', bareURL, {}, pid));
    const bare = (rows[0].reqPerSec + rows[4].reqPerSec) / 2;
    const ratio = (row) => (bare ? Number((row.reqPerSec / bare).toFixed(3)) : null);
    return {
      database: label,
      rssIdle,
      rssUnderLoad: Math.max(...rows.map((r) => r.rssPeak ?? 0)) || null,
      bareReqPerSec: Math.round(bare),
      menuToBareRatio: ratio(rows[2]),
      menuBrowserToBareRatio: ratio(rows[3]),
      rows,
    };
  } finally {
    await server.stop();
  }
}

function readPrevious() {
  try {
    return JSON.parse(fs.readFileSync(RESULTS, 'utf8'));
  } catch {
    return null;
  }
}

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function printApi(result) {
  console.log(
    `\nAPI on ${result.database}: RSS idle ${mb(result.rssIdle)}, under load (peak) ${mb(result.rssUnderLoad)}; ` +
      `menu/bare = ${result.menuToBareRatio}, with a browser's Accept-Encoding ${result.menuBrowserToBareRatio} (target >= 0.5; bare = mean of its two runs, ${result.bareReqPerSec} req/s)`,
  );
  console.log(
    table(
      ['route', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'requests', 'non-2xx', 'errors'],
      result.rows.map((r) => [r.name, r.reqPerSec, r.p50Ms, r.p99Ms, r.serverCpuMicrosPerReq ?? '-', r.requests, r.non2xx, r.errors]),
    ),
  );
}

function printWeb(web) {
  const rows = [];
  for (const [name, page] of [
    ['sign-in (/en/login)', web.signIn],
    ['shell (/en, signed in)', web.shell],
  ]) {
    if (!page) continue;
    rows.push([
      name,
      kb(page.shipped.js.gzip),
      page.shipped.js.files,
      kb(page.shipped.css.gzip),
      page.shipped.css.files,
      page.lcpMedianMs ?? '-',
      page.lcpMs.join(' ') + (page.lcpMissing ? ` (${page.lcpMissing} without LCP)` : ''),
      page.warmLcpMedianMs ?? '-',
      (page.warmLcpMs ?? []).join(' '),
    ]);
  }
  if (rows.length > 0) {
    console.log('\nWeb (production build, headless Chromium; cold = empty cache, warm = the next visit in the same browser; targets: sign-in JS < 300 KB gzip, LCP < 1000 ms)');
    console.log(table(['page', 'JS gzip', 'JS files', 'CSS gzip', 'CSS files', 'cold LCP median ms', 'cold LCP runs ms', 'warm LCP median ms', 'warm runs ms'], rows));
  }
  const list = web.list;
  if (list) {
    console.log(
      `\nCompanies list in the browser (${list.url}, ${list.companies.toLocaleString('en')} companies; database filled and server restarted in ${(list.generateMs / 1000).toFixed(1)} s): ` +
        `click on the menu entry (signed in, home loaded) to the first rows; cold = the route's chunks not cached, warm = from the cache after a reload`,
    );
    console.log(
      table(
        ['figure', 'median', 'runs'],
        [
          ['lazy JS beyond the shell, gzip', kb(list.js.gzip), `${list.js.files} files, ${kb(list.js.raw)} raw`],
          ['lazy CSS beyond the shell, gzip', kb(list.css.gzip), `${list.css.files} files`],
          ['cold: click to first rows (ms)', list.coldRowsMedianMs ?? '-', list.coldRowsMs.join(' ')],
          ['cold: click to the frame after (ms)', list.coldPaintMedianMs ?? '-', ''],
          ['warm: click to first rows (ms)', list.warmRowsMedianMs ?? '-', list.warmRowsMs.join(' ')],
          ['warm: click to the frame after (ms)', list.warmPaintMedianMs ?? '-', ''],
          ['cold: click to the route code downloaded (ms)', list.coldCodeEndMedianMs ?? '-', ''],
          ['cold: click to the list request sent / answered (ms)', `${list.coldApiStartMedianMs ?? '-'} / ${list.coldApiEndMedianMs ?? '-'}`, ''],
          ['warm: click to the list request sent / answered (ms)', `${list.warmApiStartMedianMs ?? '-'} / ${list.warmApiEndMedianMs ?? '-'}`, ''],
          ['main-thread long tasks before the rows, cold / warm (ms)', `${list.coldLongTaskMedianMs ?? '-'} / ${list.warmLongTaskMedianMs ?? '-'}`, ''],
        ],
      ),
    );
    console.log(`chunks: ${list.chunks.map((c) => `${c.file.replace(/^\/assets\//, '')} ${kb(c.gzip)}`).join(', ')}; ${list.rowsShown} rows shown`);
  }
  for (const e of web.errors ?? []) console.log(`web bench error: ${e}`);
}

async function main() {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  if (!(await ensureDependencies({ quiet: true }))) return 1;
  const doApi = !args.has('--web-only');
  const doWeb = !args.has('--api-only');
  const results = {
    date: new Date().toISOString(),
    apiDate: doApi ? new Date().toISOString() : null,
    webDate: doWeb ? new Date().toISOString() : null,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      memoryGB: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      // Other work on the machine skews every figure: read them with this in mind.
      loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
    settings: { connections: CONNECTIONS, durationSec: DURATION, warmupSec: WARMUP, logLevel: process.env.BENCH_LOG_LEVEL ?? 'info' },
    api: [],
    web: null,
    errors: [],
  };

  console.log(`Machine: ${results.machine.cpus} cores, load average ${results.machine.loadAverageAtStart.join(' ')} (1/5/15 min)`);
  if (doApi) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-bench-'));
    try {
      const r = await apiBench('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' });
      results.api.push(r);
      printApi(r);
    } catch (err) {
      results.errors.push(`API bench on PGlite: ${err.message}`);
      console.error(`API bench on PGlite failed: ${err.message}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const db = await freshPostgresDatabase('backoffice_bench');
    if (!db.url) {
      console.log(`PostgreSQL bench skipped: ${db.reason}`);
      results.errors.push(`PostgreSQL bench skipped: ${db.reason}`);
    } else {
      try {
        const r = await apiBench('PostgreSQL', { DATABASE_URL: db.url, NODE_ENV: 'development' });
        results.api.push(r);
        printApi(r);
      } catch (err) {
        results.errors.push(`API bench on PostgreSQL: ${err.message}`);
        console.error(`API bench on PostgreSQL failed: ${err.message}`);
      }
    }
  }

  if (doApi && !args.has('--no-resources')) {
    console.log('\nResource list bench (bench/resources/run.ts)…');
    const code = await run(process.execPath, ['--import', 'tsx', fromRoot('bench', 'resources', 'run.ts')], { cwd: ROOT });
    if (code !== 0) results.errors.push(`resource list bench exited with ${code}`);
  }

  if (doWeb) {
    const chromium = await ensureChromium();
    if (!chromium.ok || !(await buildWeb()) || !(await buildApi())) {
      results.errors.push(`web bench: ${chromium.ok ? 'build failed' : chromium.message}`);
    } else {
      const out = path.join(TMP_DIR, 'bench-web.json');
      fs.rmSync(out, { force: true });
      console.log('\nWeb bench: production build, headless Chromium…');
      const webArgs = args.has('--no-resources') ? ['--no-list'] : [];
      const code = await run(process.execPath, ['--import', 'tsx', fromRoot('bench', 'web.ts'), out, ...webArgs], { cwd: ROOT });
      if (code === 0 && fs.existsSync(out)) {
        results.web = JSON.parse(fs.readFileSync(out, 'utf8'));
        printWeb(results.web);
      } else {
        results.errors.push(`web bench exited with ${code}`);
      }
    }
  }

  // A partial run (--api-only, --web-only) keeps the other part of the previous results.
  const previous = readPrevious();
  if (!doApi && previous?.api) Object.assign(results, { api: previous.api, apiDate: previous.apiDate ?? previous.date });
  if (!doWeb && previous?.web) Object.assign(results, { web: previous.web, webDate: previous.webDate ?? previous.date });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(ROOT, RESULTS)}`);
  // A bench that could not run is an error; a slow figure is not.
  const broken = results.errors.filter((e) => !e.includes('skipped'));
  for (const e of broken) console.error(`error: ${e}`);
  return broken.length ? 1 : 0;
}

process.exitCode = await main();
