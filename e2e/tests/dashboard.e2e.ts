/**
 * Home (dashboard, issue 4): the figures, the chart and the top lists for people with report
 * areas, money only for people with money permissions, a friendly home for people without
 * report areas, in English and Spanish. Prints how long the tiles took to show (not asserted).
 * With DASHBOARD_SHOTS=1 it also saves screenshots under .tmp/dashboard/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { localDateOf, wallTimeOf } from '@backoffice/core/time-zones';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { REPO_ROOT } from '../support/server.ts';
import { apiLogin, chooseSimulatedRole, DEMO, seedSession, waitForShell, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Opts {
  lang?: Lang;
  theme?: 'light' | 'dark';
  width?: number;
  height?: number;
  timezoneId?: string;
}

/** A signed-in page on the dashboard, in a context with its own time zone (withPage's context). */
async function withDashboard<T>(mail: string, opts: Opts, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const lang = opts.lang ?? 'en';
  const pageOptions = {
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    locale: lang === 'es' ? 'es-ES' : 'en-US',
    timezoneId: opts.timezoneId ?? 'Europe/Madrid',
    colorScheme: opts.theme ?? 'light',
  } as const;
  return withPage(browser, pageOptions, async (page, context) => {
    await seedSession(context, await apiLogin(mail), { lang, theme: opts.theme });
    await page.goto(`/${lang}`);
    await waitForShell(page);
    await page.locator('[data-testid="dashboard"] .bo-dash[data-state="ready"]').waitFor();
    return fn(page, context);
  });
}

/**
 * The line under the greeting for the API's as_of now (Madrid, the contexts' zone): the hour of
 * today, yesterday's whole day in the first hour after midnight, else the instant the data stops.
 */
async function expectedAsOf(lang: Lang, token: string): Promise<RegExp> {
  const res = await fetch(`${getBaseURL()}/v1/dashboard?timezone=Europe%2FMadrid&sections=tiles`, { headers: { authorization: `Bearer ${token}` } });
  const asOf = Date.parse(((await res.json()) as { data: { as_of: string } }).data.as_of);
  const zone = 'Europe/Madrid';
  const day = (ms: number) => localDateOf(ms, zone);
  const w = wallTimeOf(asOf, zone);
  const time = `${String(w.hour).padStart(2, '0')}:00`;
  const now = Date.now();
  if (day(asOf - 1) === day(now)) return lang === 'es' ? new RegExp(`^Hoy hasta las ${time}$`) : new RegExp(`^Today until ${time}$`);
  if (w.hour === 0 && day(asOf) === day(now) && now - asOf < 3_600_000) return lang === 'es' ? /^Ayer, el día completo$/ : /^Yesterday, the whole day$/;
  return lang === 'es' ? new RegExp(`^Datos hasta el ${w.day} [a-z]{3} a las ${time}$`) : new RegExp(`^Data until ${w.day} [A-Z][a-z]{2} ${time}$`);
}

const MONEY_EN = /^\$\d{1,3}(,\d{3})*\.\d{2}$/;
const MONEY_ES = /^\d{1,3}(\.\d{3})*,\d{2}\u00a0\$$/;
const tileKeys = (page: Page) => page.locator('[data-testid="tiles"] > section').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));

/** The lazy chart has drawn its 30 days (one bar path each, plus axes and the margin line). */
async function chartDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="dashboard-chart"] svg path').length > 30);
}

describe('dashboard', () => {
  it('shows an admin the six tiles with figures, the chart and the top lists; a partner opens in the DataViewer', async () => {
    await withDashboard(DEMO.admin, {}, async (page) => {
      await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Good (morning|afternoon|evening), Carmen$/);
      await expect.poll(() => tileKeys(page)).toEqual(['tile-revenue', 'tile-cost', 'tile-margin', 'tile-margin_pct', 'tile-impressions', 'tile-ecpm']);
      const revenue = page.getByTestId('tile-revenue');
      await expect.poll(() => revenue.getByRole('heading').textContent()).toBe('Revenue');
      await expect.poll(() => revenue.getByTestId('tile-today').textContent()).toMatch(MONEY_EN);
      await expect.poll(() => revenue.getByTestId('tile-yesterday').textContent()).toMatch(MONEY_EN);
      await expect.poll(() => page.getByTestId('tile-margin_pct').getByTestId('tile-today').textContent()).toMatch(/^-?\d+\.\d{2}%$/);
      await expect.poll(() => page.getByTestId('tile-impressions').getByTestId('tile-today').textContent()).toMatch(/^\d{1,3}(,\d{3})+$/);
      // Deltas say their direction in words, not only in colour.
      const spoken = (tile: string) => page.getByTestId(tile).locator('.bo-dash-delta .bo-visually-hidden').first().textContent();
      await expect.poll(() => spoken('tile-revenue')).toMatch(/^vs yesterday: (up \+|down \u2212|unchanged )\d+\.\d%$/);
      await expect.poll(() => spoken('tile-margin_pct')).toMatch(/percentage points$/);
      await expect.poll(() => page.getByTestId('as-of').textContent()).toMatch(await expectedAsOf('en', (await apiLogin(DEMO.admin)).token));
      await expect.poll(() => page.getByTestId('money-hidden').count()).toBe(0);

      // The chart (lazy) draws 30 days of revenue and margin.
      const chart = page.getByTestId('dashboard-chart');
      await chartDrawn(page);
      await expect.poll(() => chart.getAttribute('aria-label')).toBe('Revenue and margin, last 30 days');

      const partners = page.getByTestId('top-demand_partner');
      const publishers = page.getByTestId('top-publisher');
      await expect.poll(() => partners.getByTestId('top-row').count()).toBe(5);
      await expect.poll(() => publishers.getByTestId('top-row').count()).toBe(5);
      await expect.poll(() => partners.getByRole('columnheader').allTextContents()).toEqual(['Demand partner', 'Revenue', 'Impressions', 'eCPM']);

      // Timing (reported, not asserted): from navigation start to the tiles showing figures.
      const timing = await page.evaluate(() => ({
        tiles: performance.getEntriesByName('dashboard:tiles')[0]?.startTime ?? null,
        api: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes('/v1/dashboard')).map((e) => Math.round(e.duration)),
        apiStarts: performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/dashboard')).map((e) => e.startTime),
        shellStart: performance.getEntriesByType('resource').find((e) => /\/assets\/shell-layout-[^/]*\.js$/.test(e.name))?.startTime ?? null,
        homeStart: performance.getEntriesByType('resource').find((e) => /\/assets\/dashboard-page-[^/]*\.js$/.test(e.name))?.startTime ?? null,
      }));
      expect(timing.tiles).not.toBeNull();
      // The shell's and the home's code are asked for with the HTML (the boot preload), before the
      // app's entry runs; the entry then sends the one request for the figures while they download.
      expect(timing.apiStarts).toHaveLength(1);
      expect(timing.shellStart).not.toBeNull();
      expect(timing.homeStart).not.toBeNull();
      expect(timing.shellStart!).toBeLessThan(timing.apiStarts[0]!);
      expect(timing.homeStart!).toBeLessThan(timing.apiStarts[0]!);
      // antd's styles for the sign-in page, the shell and the home come with the build's stylesheet
      // (apps/web/build/antd-static-styles.ts): none is written at run time. Only the theme's CSS
      // variables are.
      const runtimeStyles = await page.evaluate(() =>
        Array.from(document.querySelectorAll('style'))
          .map((s) => s.textContent ?? '')
          .filter((text) => text.includes(':where(.css-'))
          .map((text) => /\.ant-[a-z-]+/.exec(text)?.[0] ?? text.slice(0, 60)),
      );
      expect(runtimeStyles, 'components missing from apps/web/build/antd-static-styles.ts').toEqual([]);
      console.log(`dashboard timing: tiles shown ${Math.round(timing.tiles!)} ms after navigation start (first load after sign-in); /v1/dashboard took ${timing.api.join(', ')} ms`);
      await page.reload();
      await page.locator('[data-testid="dashboard"] .bo-dash[data-state="ready"]').waitFor();
      const again = await page.evaluate(() => ({
        tiles: performance.getEntriesByName('dashboard:tiles')[0]?.startTime ?? null,
        steps: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => /\/v1\/|\.js$/.test(e.name))
          .map((e) => `${new URL(e.name).pathname.replace(/^\/assets\//, '')} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`),
      }));
      console.log(`dashboard timing: tiles shown ${Math.round(again.tiles!)} ms after navigation start (reload); requests (ms): ${again.steps.join('; ')}`);

      const link = partners.getByTestId('top-link').first();
      const name = (await link.textContent()) ?? '';
      await link.click();
      await page.waitForURL(/\/en\/reports\/dataviewer\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('tz')).toBe('Europe/Madrid');
      expect(url.searchParams.get('dims')).toBe('day');
      expect(url.searchParams.get('metrics')).toBe('revenue,impressions,ecpm');
      expect(url.searchParams.get('f')).toMatch(/^demand_partner:include:\d+$/);
      expect(url.searchParams.get('run')).toBe('1');
      const start = url.searchParams.get('start')!;
      const end = url.searchParams.get('end')!;
      expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((Date.parse(end) - Date.parse(start)) / 86_400_000).toBe(6);
      // The filter is that partner: the API names the id the link carries.
      const admin = await apiLogin(DEMO.admin);
      const id = url.searchParams.get('f')!.split(':')[2];
      const res = await fetch(`${getBaseURL()}/v1/reports/dimensions/demand_partner/values?ids=${id}`, { headers: { authorization: `Bearer ${admin.token}` } });
      const values = ((await res.json()) as { data: { id: number; value: string }[] }).data;
      expect(values.map((v) => v.value)).toEqual([name]);
    });
  });

  it('shows finance the money, in Spanish, with payouts waiting for them', async () => {
    await withDashboard(DEMO.finance, { lang: 'es' }, async (page) => {
      await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^(Buenos días|Buenas tardes|Buenas noches), Javier$/);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Panel');
      await expect.poll(() => tileKeys(page)).toEqual(['tile-revenue', 'tile-cost', 'tile-margin', 'tile-margin_pct', 'tile-impressions', 'tile-ecpm']);
      const revenue = page.getByTestId('tile-revenue');
      await expect.poll(() => revenue.getByRole('heading').textContent()).toBe('Ingresos');
      await expect.poll(() => revenue.getByTestId('tile-today').textContent()).toMatch(MONEY_ES);
      await expect.poll(() => revenue.locator('dt').allTextContents()).toEqual(['Ayer', 'Hace 7 días']);
      await expect.poll(() => page.getByTestId('as-of').textContent()).toMatch(await expectedAsOf('es', (await apiLogin(DEMO.finance)).token));
      await expect.poll(() => page.getByTestId('top-demand_partner').getByRole('heading').textContent()).toBe('Principales socios de demanda (7 días)');
      const waiting = page.getByTestId('waiting');
      await expect.poll(() => waiting.getByRole('heading').textContent()).toBe('Pendiente para ti');
      const payouts = waiting.getByTestId('waiting-payouts');
      await expect.poll(() => payouts.getAttribute('data-count')).toBe('0');
      await expect.poll(() => payouts.getByRole('link').getAttribute('href')).toBe('/es/billing_performance/publishers_reports');
      // Finance has no scheduler or discrepancy area: those rows are not theirs.
      await expect.poll(() => waiting.getByTestId('waiting-scheduler_failures').count()).toBe(0);
      await expect.poll(() => waiting.getByTestId('waiting-discrepancies').count()).toBe(0);
    });
  });

  it("lists the person's firewall entry that expires within the hour", async () => {
    // Non-admins may only allow their own address: the test runner's, 127.0.0.1.
    const lead = await apiLogin(DEMO.demandLead);
    const res = await fetch(`${getBaseURL()}/v1/firewall/ip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lead.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '127.0.0.1', type: 'HOUR_1' }),
    });
    expect(res.status).toBe(200);
    await withDashboard(DEMO.demandLead, {}, async (page) => {
      const item = page.getByTestId('waiting-firewall_expiring');
      await expect.poll(() => item.textContent()).toMatch(/^Your firewall entry for 127\.0\.0\.1 expires at \d{2}:\d{2}Open$/);
      await expect.poll(() => item.getByRole('link').getAttribute('href')).toBe('/en/utils/ip');
    });
  });

  it('shows no money to a role without money permissions (ADMIN simulating TECH_SUPPLY)', async () => {
    await withDashboard(DEMO.admin, {}, async (page) => {
      await page.getByTestId('simulator-open').click();
      const form = page.getByTestId('simulator-form');
      await form.waitFor();
      await chooseSimulatedRole(page, 'TECH_SUPPLY');
      await form.getByTestId('simulate-submit').click();
      await page.getByTestId('simulation-banner').waitFor();
      await page.locator('[data-testid="dashboard"] .bo-dash[data-state="ready"][data-money="false"]').waitFor();
      await expect.poll(() => tileKeys(page)).toEqual(['tile-impressions']);
      await expect.poll(() => page.getByTestId('money-hidden').textContent()).toBe('Money figures need the reports or finance permission');
      const partners = page.getByTestId('top-demand_partner');
      await expect.poll(() => partners.getByRole('columnheader').allTextContents()).toEqual(['Demand partner', 'Impressions']);
      // No DataViewer for this role: names are not links.
      await expect.poll(() => partners.getByTestId('top-link').count()).toBe(0);
      await expect.poll(() => page.getByTestId('dashboard-chart').getAttribute('aria-label')).toBe('Impressions, last 30 days');
      await page.getByTestId('simulation-stop').click();
      await page.locator('[data-testid="dashboard"] .bo-dash[data-state="ready"][data-money="true"]').waitFor();
    });
  });

  it('gives people without report areas their shortcuts instead of tiles (en and es)', async () => {
    await withDashboard(DEMO.schedulerViewer, {}, async (page) => {
      await expect.poll(() => page.getByTestId('tiles').count()).toBe(0);
      await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/, Tomás$/);
      const areas = page.getByTestId('areas');
      await expect.poll(() => areas.getByRole('heading', { level: 2 }).textContent()).toBe('Your areas');
      await expect.poll(() => areas.getByRole('link', { name: 'Scheduler' }).getAttribute('href')).toBe('/en/utils/scheduler');
      const scheduler = page.getByTestId('waiting-scheduler_failures');
      // The demo's scheduler history has failed runs: they wait for the scheduler's people.
      await expect.poll(async () => Number(await scheduler.getAttribute('data-count'))).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('waiting').textContent()).not.toContain('Nothing is waiting for you');
    });
    await withDashboard(DEMO.marketing, { lang: 'es' }, async (page) => {
      await expect.poll(() => page.getByTestId('tiles').count()).toBe(0);
      await expect.poll(() => page.getByTestId('dashboard-chart').count()).toBe(0);
      const areas = page.getByTestId('areas');
      await expect.poll(() => areas.getByRole('heading', { level: 2 }).textContent()).toBe('Tus áreas');
      await expect.poll(() => areas.getByTestId('area').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('waiting').textContent()).toContain('No tienes nada pendiente');
    });
  });

  it.runIf(process.env.DASHBOARD_SHOTS === '1')('saves screenshots (en/es, light/dark, 375/1024/1440) under .tmp/dashboard', async () => {
    const dir = path.join(REPO_ROOT, '.tmp', 'dashboard');
    fs.mkdirSync(dir, { recursive: true });
    for (const lang of ['en', 'es'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        for (const width of [375, 1024, 1440]) {
          await withDashboard(DEMO.admin, { lang, theme, width, height: 900 }, async (page) => {
            await chartDrawn(page);
            await page.waitForTimeout(500);
            await page.screenshot({ path: path.join(dir, `admin-${lang}-${theme}-${width}.png`), fullPage: true });
          });
        }
      }
    }
    await withDashboard(DEMO.marketing, { lang: 'es', width: 1440 }, async (page) => {
      await page.screenshot({ path: path.join(dir, 'marketing-es-light-1440.png'), fullPage: true });
    });
    await withDashboard(DEMO.schedulerViewer, { theme: 'dark', width: 375 }, async (page) => {
      await page.screenshot({ path: path.join(dir, 'scheduler-en-dark-375.png'), fullPage: true });
    });
  }, 300_000);
});
