/**
 * Web bench (run with `node --import tsx bench/web.ts <out.json>`, started by bench/run.mjs):
 * the production build served by the built server, in headless Chromium.
 * - Bytes: gzip size (level 9) of every JS and CSS response of a cold load of the sign-in page,
 *   and of a cold load of the signed-in home (the shell).
 * - LCP: largest-contentful-paint of each page, median of 5 cold loads (fresh browser context,
 *   so an empty cache), after one unmeasured load that warms the server. After each cold load the
 *   same context opens the page once more ("warm": the next morning's visit, hashed assets from
 *   the browser's cache, the API asked again).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { demoPasswordOf } from '../apps/api/src/config.ts';
import { DEMO_MAILS } from '../apps/api/src/db/demo-data.ts';
import { API_SERVER, CHROMIUM_ARGS, CHROMIUM_PATH, REPO_ROOT, startServer, WEB_DIST, type RunningServer } from '../e2e/support/server.ts';

const ADMIN = { mail: DEMO_MAILS.admin, password: demoPasswordOf(process.env) };
const LOADS = 5;
const VIEWPORT = { width: 1440, height: 900 };
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
/** Companies in the database of the list measurement. */
const LIST_COMPANIES = Number(option('companies', '100000'));
const LIST_PATH = '/en/utils/list_companies';
const ROW_SELECTOR = '[data-testid^="resource-row-"]';
/** A first start migrates and seeds; on a busy 2-core host that took more than a minute. */
const READY_TIMEOUT_MS = 180_000;

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface Shipped {
  js: { files: number; raw: number; gzip: number };
  css: { files: number; raw: number; gzip: number };
}

interface PageFigures {
  url: string;
  shipped: Shipped;
  lcpMs: number[];
  /** Loads that reported no LCP entry within 10 s. */
  lcpMissing: number;
  lcpMedianMs: number | null;
  /** LCP of the second visit in the same context (cached assets). */
  warmLcpMs: number[];
  warmLcpMedianMs: number | null;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Records the page's LCP candidates from the first byte on. */
const LCP_OBSERVER = `
  window.__lcp = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

async function coldContext(browser: Browser, baseURL: string, storageState?: StorageState): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, storageState });
  await context.addInitScript(LCP_OBSERVER);
  return { context, page: await context.newPage() };
}

async function readLcp(page: Page): Promise<number | null> {
  // LCP entries reach the observer in a later task, which a busy machine can delay: wait for
  // the first one, then a short pause for a later, larger paint.
  await page.waitForFunction(() => (window as unknown as { __lcp: number | null }).__lcp !== null, undefined, { timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __lcp: number | null }).__lcp);
}

/** Loads `path` in a cold context, summing what JS and CSS it downloads, and reads its LCP. */
async function coldLoad(browser: Browser, baseURL: string, path: string, expectUrl: RegExp, storageState?: StorageState) {
  const { context, page } = await coldContext(browser, baseURL, storageState);
  const shipped: Shipped = { js: { files: 0, raw: 0, gzip: 0 }, css: { files: 0, raw: 0, gzip: 0 } };
  const pending: Promise<void>[] = [];
  let counting = true;
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (!counting) return;
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response
        .body()
        .then((body) => {
          const bucket = type === 'script' ? shipped.js : shipped.css;
          bucket.files += 1;
          bucket.raw += body.length;
          bucket.gzip += gzipSync(body, { level: 9 }).length;
        })
        .catch(() => undefined),
    );
  });
  try {
    await page.goto(path, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    if (!expectUrl.test(new URL(page.url()).pathname)) throw new Error(`${path} ended at ${page.url()}, expected ${expectUrl}`);
    const lcp = await readLcp(page);
    await Promise.all(pending);
    counting = false;
    // The same page again in the same context: what a person sees on their next visit.
    await page.goto(path, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    const warmLcp = await readLcp(page);
    return { shipped, lcp, warmLcp };
  } finally {
    await context.close();
  }
}

/** Signs in through the form as a person would; returns the storage state (the saved session). */
async function signIn(browser: Browser, baseURL: string): Promise<StorageState> {
  const { context, page } = await coldContext(browser, baseURL);
  try {
    await page.goto('/en/login');
    const form = page.locator('form').filter({ has: page.locator('input[type="password"]') });
    await form.locator('input:not([type="password"]):not([type="checkbox"]):not([type="hidden"])').first().fill(ADMIN.mail);
    await form.locator('input[type="password"]').fill(ADMIN.password);
    await form.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.includes('/login'), { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return await context.storageState();
  } finally {
    await context.close();
  }
}

async function measure(browser: Browser, baseURL: string, path: string, expectUrl: RegExp, storageState?: StorageState): Promise<PageFigures> {
  await coldLoad(browser, baseURL, path, expectUrl, storageState); // warms the server; not counted
  const lcps: number[] = [];
  const warm: number[] = [];
  let shipped: Shipped | null = null;
  for (let i = 0; i < LOADS; i += 1) {
    const run = await coldLoad(browser, baseURL, path, expectUrl, storageState);
    shipped ??= run.shipped;
    if (run.lcp !== null) lcps.push(Math.round(run.lcp));
    if (run.warmLcp !== null) warm.push(Math.round(run.warmLcp));
  }
  return { url: path, shipped: shipped!, lcpMs: lcps, lcpMissing: LOADS - lcps.length, lcpMedianMs: median(lcps), warmLcpMs: warm, warmLcpMedianMs: median(warm) };
}

interface Download {
  file: string;
  type: string;
  raw: number;
  gzip: number;
}

interface ListNavigation {
  /** Click to the first row in the DOM, and to the frame after it (ms). */
  rowsMs: number;
  paintMs: number;
  /** JavaScript and CSS downloaded after the click. */
  downloads: Download[];
  /** From the click to the list request's start and to the end of its answer (resource timing; ms). */
  apiStartMs: number | null;
  apiEndMs: number | null;
  /** From the click to the end of the last script or stylesheet download. */
  codeEndMs: number | null;
  /** Long tasks (50 ms or more of main-thread work) that began between the click and the rows: their sum. */
  longTaskMs: number;
  rows: number;
}

export interface ListFigures {
  url: string;
  companies: number;
  /** Filling the database with the command, and the server's start on it (ms). */
  generateMs: number;
  /** What the route downloads beyond the shell and the home (from the first measured cold run). */
  chunks: Download[];
  js: { files: number; raw: number; gzip: number };
  css: { files: number; raw: number; gzip: number };
  coldRowsMs: number[];
  coldRowsMedianMs: number | null;
  coldPaintMedianMs: number | null;
  warmRowsMs: number[];
  warmRowsMedianMs: number | null;
  warmPaintMedianMs: number | null;
  /** Cold runs: click to the end of the route's code downloads, to the list request's start and to its answer's end. */
  coldCodeEndMedianMs: number | null;
  coldApiStartMedianMs: number | null;
  coldApiEndMedianMs: number | null;
  warmApiStartMedianMs: number | null;
  warmApiEndMedianMs: number | null;
  /** Main-thread long tasks between the click and the rows (sum; cold and warm medians). */
  coldLongTaskMedianMs: number | null;
  warmLongTaskMedianMs: number | null;
  rowsShown: number;
}

/**
 * Watches for the first resource row, recording when it came and the frame after (a string, as
 * LCP_OBSERVER: tsx would wrap a function's inner functions in a helper the page does not have).
 */
const ROWS_OBSERVER = `
  window.__rowsAt = null;
  window.__paintAt = null;
  const observer = new MutationObserver(() => {
    if (window.__rowsAt !== null || !document.querySelector(${JSON.stringify(ROW_SELECTOR)})) return;
    window.__rowsAt = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => (window.__paintAt = performance.now()), 0));
  });
  observer.observe(document.body, { childList: true, subtree: true });
  window.__longTasks = [];
  if (!window.__longTaskObserver) {
    window.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    });
    window.__longTaskObserver.observe({ type: 'longtask' });
  }
`;

/** The figures of one navigation, read in the page (resource timing for the request and the code). */
const TIMES = `(() => {
  const nav = window.__navStart;
  const entries = performance.getEntriesByType('resource').filter((e) => e.startTime >= nav);
  const api = entries.find((e) => /\\/v1\\/companies(\\?|$)/.test(e.name));
  const code = entries.filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname)).map((e) => e.responseEnd);
  return {
    rowsMs: window.__rowsAt - nav,
    paintMs: window.__paintAt - nav,
    apiStartMs: api ? api.startTime - nav : null,
    apiEndMs: api ? api.responseEnd - nav : null,
    codeEndMs: code.length > 0 ? Math.max(...code) - nav : null,
    longTaskMs: window.__longTasks.filter(([t]) => t >= nav && t < window.__rowsAt).reduce((a, [, d]) => a + d, 0),
  };
})()`;

/** Opens the sidebar, searches for the entry and clicks it; measures until the first rows. */
async function navigateToList(page: Page): Promise<ListNavigation> {
  const toggle = page.getByTestId('sidebar-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const sidebar = page.locator('[data-testid="sidebar"][data-state="open"]');
  await sidebar.waitFor({ state: 'visible' });
  await sidebar.getByTestId('menu-search').fill('compan');
  const link = sidebar.locator(`a[href="${LIST_PATH}"]`);
  await link.waitFor({ state: 'visible' });
  // Let the search's own rendering settle before the clock starts.
  await page.waitForTimeout(200);

  const downloads: Promise<Download | null>[] = [];
  let recording = false;
  const onResponse = (response: Response) => {
    if (!recording) return;
    const request = response.request();
    const type = request.resourceType();
    if (type === 'script' || type === 'stylesheet') {
      downloads.push(
        response
          .body()
          .then((body) => ({
            file: new URL(response.url()).pathname,
            type,
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
          }))
          .catch(() => null),
      );
    }
  };
  page.on('response', onResponse);
  try {
    await page.evaluate(ROWS_OBSERVER);
    recording = true;
    await link.evaluate((a) => {
      // Resource timing entries from here on only (the buffer holds 250 by default).
      performance.clearResourceTimings();
      (window as unknown as { __navStart: number }).__navStart = performance.now();
      (a as HTMLAnchorElement).click();
    });
    await page.waitForFunction(() => (window as unknown as { __paintAt: number | null }).__paintAt !== null, undefined, { timeout: 60_000 });
    const times = (await page.evaluate(TIMES)) as Pick<ListNavigation, 'rowsMs' | 'paintMs' | 'apiStartMs' | 'apiEndMs' | 'codeEndMs' | 'longTaskMs'>;
    if (new URL(page.url()).pathname !== LIST_PATH) throw new Error(`the menu entry led to ${page.url()}`);
    const rows = await page.locator(ROW_SELECTOR).count();
    await page.waitForLoadState('networkidle');
    const got = (await Promise.all(downloads)).filter((d): d is Download => d !== null);
    return { ...times, downloads: got, rows };
  } finally {
    recording = false;
    page.off('response', onResponse);
  }
}

/** Loads the signed-in home and waits for it to settle. */
async function openHome(page: Page): Promise<void> {
  await page.goto('/en', { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await page.getByTestId('sidebar-toggle').waitFor();
}

/** One context: a cold navigation to the list, then (home reloaded) a warm one. */
async function listRun(browser: Browser, baseURL: string, storageState: StorageState) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, storageState });
  try {
    const page = await context.newPage();
    await openHome(page);
    const cold = await navigateToList(page);
    await openHome(page);
    const warm = await navigateToList(page);
    return { cold, warm };
  } finally {
    await context.close();
  }
}

/** Runs a command to completion, its output into the log file. */
function runLogged(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = fs.openSync(logFile, 'w');
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args[0] ?? command)} exited with ${code}; see ${logFile}`))));
  });
}

/**
 * Stops the server, fills its database with `companies` companies by the data command's bundle
 * (the code `npm run data:generate -- --companies N` runs) and starts a server on a copy of it.
 */
async function serverWithCompanies(server: RunningServer, companies: number): Promise<RunningServer> {
  await server.stop({ keepData: true });
  const dataDir = server.dataDir;
  try {
    const cli = path.join(path.dirname(API_SERVER), 'cli-data.js');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    await runLogged(process.execPath, [cli, '--companies', String(companies)], env, path.join(REPO_ROOT, '.tmp', 'bench-web-companies.log'));
    return await startServer({
      webDist: WEB_DIST,
      logName: 'bench-web-list',
      env: { LOG_LEVEL: 'warn' },
      dataTemplate: dataDir,
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureList(browser: Browser, baseURL: string, storageState: StorageState, generateMs: number): Promise<ListFigures> {
  await listRun(browser, baseURL, storageState); // warms the server and its database; not counted
  const cold: ListNavigation[] = [];
  const warm: ListNavigation[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    const run = await listRun(browser, baseURL, storageState);
    cold.push(run.cold);
    warm.push(run.warm);
  }
  const chunks = cold[0]!.downloads;
  const sum = (type: string) => {
    const of = chunks.filter((d) => d.type === type);
    return {
      files: of.length,
      raw: of.reduce((a, d) => a + d.raw, 0),
      gzip: of.reduce((a, d) => a + d.gzip, 0),
    };
  };
  const round = (xs: number[]) => xs.map((x) => Math.round(x));
  const med = (xs: (number | null)[]) => median(round(xs.filter((x): x is number => x !== null)));
  return {
    url: LIST_PATH,
    companies: LIST_COMPANIES,
    generateMs: Math.round(generateMs),
    chunks,
    js: sum('script'),
    css: sum('stylesheet'),
    coldRowsMs: round(cold.map((r) => r.rowsMs)),
    coldRowsMedianMs: median(round(cold.map((r) => r.rowsMs))),
    coldPaintMedianMs: median(round(cold.map((r) => r.paintMs))),
    warmRowsMs: round(warm.map((r) => r.rowsMs)),
    warmRowsMedianMs: median(round(warm.map((r) => r.rowsMs))),
    warmPaintMedianMs: median(round(warm.map((r) => r.paintMs))),
    coldCodeEndMedianMs: med(cold.map((r) => r.codeEndMs)),
    coldApiStartMedianMs: med(cold.map((r) => r.apiStartMs)),
    coldApiEndMedianMs: med(cold.map((r) => r.apiEndMs)),
    warmApiStartMedianMs: med(warm.map((r) => r.apiStartMs)),
    warmApiEndMedianMs: med(warm.map((r) => r.apiEndMs)),
    coldLongTaskMedianMs: med(cold.map((r) => r.longTaskMs)),
    warmLongTaskMedianMs: med(warm.map((r) => r.longTaskMs)),
    rowsShown: cold[0]!.rows,
  };
}

async function main() {
  const out = argv.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!out) throw new Error('usage: web.ts <out.json> [--no-list | --list-only] [--companies N]');
  const doPages = !flag('list-only');
  const doList = !flag('no-list');
  let server = await startServer({
    webDist: WEB_DIST,
    logName: 'bench-web',
    env: { LOG_LEVEL: 'warn' },
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const result: { signIn?: PageFigures; shell?: PageFigures; list?: ListFigures; errors: string[] } = {
    errors: [],
  };
  try {
    if (doPages) result.signIn = await measure(browser, server.baseURL, '/en/login', /^\/en\/login$/);
    let state: StorageState | null = null;
    try {
      state = await signIn(browser, server.baseURL);
      if (doPages) result.shell = await measure(browser, server.baseURL, '/en', /^\/en\/?$/, state);
    } catch (err) {
      result.errors.push(`shell: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (doList && state) {
      try {
        const started = performance.now();
        server = await serverWithCompanies(server, LIST_COMPANIES);
        const generateMs = performance.now() - started;
        // Another port is another origin: the session saved on the first server is not seen there.
        result.list = await measureList(browser, server.baseURL, await signIn(browser, server.baseURL), generateMs);
      } catch (err) {
        result.errors.push(`list: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

await main();
