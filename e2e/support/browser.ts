/**
 * Browser helpers for e2e tests: Debian's Chromium driven by playwright-core, a context per test
 * with the server's base URL, and an axe-core accessibility pass.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { AxeResults, ElementContext, Result, RunOptions } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './server.ts';

/**
 * Base URL (http://127.0.0.1:<port>) of this worker's server, started by the global setup. Vitest
 * numbers its workers 1..n in VITEST_POOL_ID; a file keeps its worker from start to end.
 */
export function getBaseURL(): string {
  const urls = inject('baseURLs');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const url = urls[(Math.max(1, worker) - 1) % urls.length];
  if (!url) throw new Error('e2e: no server was started (run the suite with node e2e/run.mjs)');
  return url;
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(
      `${CHROMIUM_PATH} is missing: run 'node e2e/run.mjs' (installs it as root) or 'apt-get install -y chromium'.`,
    );
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /** The browser's time zone (an IANA name); the machine's by default. */
  timezoneId?: string;
  /**
   * The system's motion preference; 'reduce' by default: the app then turns off antd's and the
   * charts' animations, so a test never acts on a menu or popup that is still moving (the cause
   * of flaky clicks under load) and Chromium spends no time animating.
   */
  reducedMotion?: 'reduce' | 'no-preference';
}

/** A fresh context (empty storage) with the base URL set, and a page in it. */
export async function newPage(
  browser: Browser,
  opts: NewPageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: getBaseURL(),
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    locale: opts.locale ?? 'en-US',
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: opts.reducedMotion ?? 'reduce',
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  const page = await context.newPage();
  return { context, page };
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** Adds axe-core to the current document (again after each navigation). */
export async function injectAxe(page: Page): Promise<void> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // page.evaluate runs through the DevTools protocol, so the app's CSP (script-src 'self') does not block it.
  await page.evaluate(axeSource);
}

export interface RunAxeOptions {
  /** What to check (a selector or axe context); the whole document by default. */
  context?: ElementContext;
  /** axe-core run options (rules, runOnly, …). */
  options?: RunOptions;
}

/** Runs axe-core on the page and returns only the serious and critical violations. */
export async function runAxe(page: Page, opts: RunAxeOptions = {}): Promise<Result[]> {
  const present = await page.evaluate(
    () => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined',
  );
  if (!present) await injectAxe(page);
  // Arguments travel as JSON: axe's context and options are plain selectors and settings.
  const violations: Result[] = await page.evaluate(
    async (json: string) => {
      const { context, options } = JSON.parse(json) as { context?: ElementContext; options?: RunOptions };
      const axe = (
        window as unknown as { axe: { run(c: ElementContext, o: RunOptions): Promise<AxeResults> } }
      ).axe;
      // Only violations are read: axe skips building the (much longer) passes and incomplete lists.
      const result = await axe.run(context ?? document, { resultTypes: ['violations'], ...(options ?? {}) });
      // Plain data back across the page boundary.
      return JSON.parse(JSON.stringify(result.violations)) as Result[];
    },
    JSON.stringify({ context: opts.context, options: opts.options }),
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
