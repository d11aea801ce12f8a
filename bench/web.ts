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
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { demoPasswordOf } from '../apps/api/src/config.ts';
import { DEMO_MAILS } from '../apps/api/src/db/demo-data.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer, WEB_DIST } from '../e2e/support/server.ts';

const ADMIN = { mail: DEMO_MAILS.admin, password: demoPasswordOf(process.env) };
const LOADS = 5;
const VIEWPORT = { width: 1440, height: 900 };

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

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: web.ts <out.json>');
  const server = await startServer({ webDist: WEB_DIST, logName: 'bench-web', env: { LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const result: { signIn?: PageFigures; shell?: PageFigures; errors: string[] } = { errors: [] };
  try {
    result.signIn = await measure(browser, server.baseURL, '/en/login', /^\/en\/login$/);
    try {
      const state = await signIn(browser, server.baseURL);
      result.shell = await measure(browser, server.baseURL, '/en', /^\/en\/?$/, state);
    } catch (err) {
      result.errors.push(`shell: ${err instanceof Error ? err.message : String(err)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

await main();
