/**
 * The shell's accessibility pass (axe-core), one theme per test file so that the two run on
 * different workers (shell-a11y-light.e2e.ts, shell-a11y-dark.e2e.ts): no serious or critical
 * violations on sign-in, shell (dashboard), forbidden, crash, resource lists, DataViewer and QPS
 * graph. The dark pass runs the colour rules only (THEME_RULES): the rest read the DOM, which the
 * theme does not change, and the light pass runs them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations, setTheme } from './a11y.ts';
import { launchBrowser } from './browser.ts';
import { breakScreen, CRASH_PATH } from './crash.ts';
import { DEMO, openSidebar, signIn, waitForShell, withPage } from './shell.ts';

export function shellA11ySuite(theme: 'light' | 'dark'): void {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe(`accessibility, ${theme} theme`, () => {
    it('sign-in page, empty and with validation messages and the welcome panel', async () => {
      await withPage(browser, {}, async (page) => {
        await page.goto('/en/login');
        await page.getByTestId('login-submit').waitFor();
        await setTheme(page, theme);
        await expectNoSeriousViolations(page, 'sign-in', { colorsOnly: theme === 'dark' });
        await page.getByTestId('login-submit').click();
        await page.getByText('E-mail is a required field').waitFor();
        await page.locator('#login-mail').fill('finance');
        await page.getByTestId('welcome-panel').waitFor();
        await expectNoSeriousViolations(page, 'sign-in with messages', { colorsOnly: theme === 'dark' });
      });
    });

    it('shell with the menu open, forbidden panel and crash screen', async () => {
      await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
        await signIn(page, DEMO.finance, { via: 'api', theme });
        await expectNoSeriousViolations(page, 'shell', { colorsOnly: theme === 'dark' });
        await openSidebar(page);
        await expectNoSeriousViolations(page, 'shell with the sidebar open', {
          colorsOnly: theme === 'dark',
        });
        await page.goto('/en/utils/scheduler');
        await page.waitForURL(/\/en\/not_allowed$/);
        await page.getByTestId('forbidden-page').waitFor();
        await expectNoSeriousViolations(page, 'forbidden', { colorsOnly: theme === 'dark' });
      });
      // The forbidden screen's code is loaded in that page now; the crash needs a page of its own.
      await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
        await breakScreen(page);
        await signIn(page, DEMO.finance, { via: 'api', theme });
        await page.goto(`/en${CRASH_PATH}`);
        await page.getByTestId('crash-screen').waitFor();
        await expectNoSeriousViolations(page, 'crash', { colorsOnly: theme === 'dark' });
      });
    });

    it('a resource list and its detail (companies)', async () => {
      await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
        await signIn(page, DEMO.tech, { via: 'api', theme, path: '/utils/list_companies' });
        await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(5);
        await expectNoSeriousViolations(page, 'companies list', { colorsOnly: theme === 'dark' });
        await page.locator('[data-testid^="resource-row-"]').first().click();
        await page.getByTestId('resource-form-companies').waitFor();
        await expectNoSeriousViolations(page, 'company detail', { colorsOnly: theme === 'dark' });
      });
    });

    it('the IP firewall list and an endpoint with its token fields', async () => {
      await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
        await signIn(page, DEMO.tech, { via: 'api', theme, path: '/utils/ip' });
        await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(1);
        await expectNoSeriousViolations(page, 'firewall list', { colorsOnly: theme === 'dark' });
        await page.goto('/en/utils/endpoints_management');
        await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(5);
        await expectNoSeriousViolations(page, 'endpoints list', { colorsOnly: theme === 'dark' });
        await page.locator('[data-testid^="resource-row-"]').first().click();
        await page.getByTestId('resource-form-endpoints').waitFor();
        await expectNoSeriousViolations(page, 'endpoint detail', { colorsOnly: theme === 'dark' });
      });
    });

    it('report screens with results: DataViewer (table and chart) and QPS graph', async () => {
      await withPage(browser, { viewport: { width: 1440, height: 1000 } }, async (page) => {
        await signIn(page, DEMO.admin, { via: 'api', theme });
        await page.goto(
          '/en/reports/dataviewer?preset=yesterday&tz=Europe%2FMadrid&dims=day,country&metrics=revenue,impressions,ecpm&run=1',
        );
        await page.getByTestId('dv-totals').waitFor();
        await expectNoSeriousViolations(page, 'DataViewer with results', { colorsOnly: theme === 'dark' });
        const hour = (h: number) => new Date(Date.now() + h * 3600_000).toISOString().slice(0, 13);
        await page.goto(
          `/en/graphs/qps/demand?ids=1&metrics=qps,bid_qps&start=${hour(-24)}:00&end=${hour(0)}:00&tz=UTC&interval=60`,
        );
        await page.getByTestId('qps-chart').locator('canvas, svg').first().waitFor();
        await expectNoSeriousViolations(page, 'QPS graph', { colorsOnly: theme === 'dark' });
      });
    });

    it('shell on a phone with the drawer open, in Spanish', async () => {
      await withPage(browser, { viewport: { width: 375, height: 812 } }, async (page) => {
        await signIn(page, DEMO.admin, { via: 'api', theme, lang: 'es' });
        await waitForShell(page);
        await expectNoSeriousViolations(page, 'phone shell', { colorsOnly: theme === 'dark' });
        await page.getByTestId('sidebar-toggle').click();
        await page.locator('.bo-sider-drawer .ant-drawer-content-wrapper').waitFor();
        await expectNoSeriousViolations(page, 'phone drawer', { colorsOnly: theme === 'dark' });
      });
    });
  });
}
