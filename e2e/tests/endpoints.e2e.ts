/**
 * Endpoints (`/utils/endpoints_management`, issue 18): tech creates one (a URL with another scheme
 * is refused in place, nothing lost), reads its token once in a dialog, sees only its last four
 * characters afterwards, rotates it after a confirmation (a new token, the history says so), and
 * finds the paused endpoints through a URL filter. Screenshots (E2E_SCREENSHOTS=1) to .tmp/endpoints/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { screenshots, sweepResource } from '../support/screenshots.ts';
import { DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('endpoints');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string) => page.locator(`[data-testid="resource-form-endpoints"] #${id}`);
async function pick(page: Page, id: string, text: string) {
  await field(page, id).click();
  await field(page, id).fill(text);
  await page.locator('.ant-select-item-option').filter({ hasText: text, visible: true }).first().click();
}
const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');

describe('endpoints', () => {
  it('creates one, shows its token once, rotates it after a confirmation and records it in the history', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/endpoints_management' });
      await rows(page).filter({ hasText: 'SpreeDSP Frankfurt' }).waitFor();
      await shot(page, 'list-1440-light-en');

      await page.getByTestId('resource-new').click();
      await page.waitForURL(/\/en\/utils\/endpoints_management\/new$/);
      // Active by default (the schema's default).
      await expect.poll(() => page.getByRole('switch').getAttribute('aria-checked')).toBe('true');
      // Its own name per attempt: a retried test must not meet the first attempt's endpoint.
      const name = `Tajo Video Bidder ${Date.now().toString(36)}`;
      await field(page, 'name').fill(name);
      await pick(page, 'side', 'Demand');
      await field(page, 'company_id').click();
      await field(page, 'company_id').fill('Isar');
      await page.locator('.ant-select-item-option').filter({ hasText: 'Isar Video Monetization AG' }).click();
      await pick(page, 'region', 'EU Central');
      await field(page, 'url').fill('ws://bid.tajo.example/ortb');
      await pick(page, 'openrtb_version', '2.6');
      await field(page, 'qps_cap').fill('12000');
      await pick(page, 'formats', 'Video');
      await page.keyboard.press('Escape');
      await page.getByTestId('resource-save').click();
      await page.getByText('The URL must start with http, https, ftp or ftps').waitFor();
      await expect.poll(() => field(page, 'name').inputValue()).toBe(name);
      await field(page, 'url').fill('https://bid.tajo.example/ortb');
      await page.getByTestId('resource-save').click();

      const dialog = page.getByTestId('endpoint-token');
      await dialog.waitFor();
      const token = (await page.getByTestId('endpoint-token-value').textContent())!.trim();
      expect(token).toMatch(/^boep_[A-Za-z0-9_-]{43}$/);
      await shot(page, 'token-1440-light-en');
      await page.locator('#endpoint-token-done').click();
      await page.waitForURL(/\/en\/utils\/endpoints_management\/\d+$/);
      await page.getByText(`…${token.slice(-4)}`).waitFor();
      // Shown once: once the dialog has gone (antd removes it after closing), the page holds only
      // its last characters. Read before the removal, the page still had the closing dialog.
      await dialog.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(token);

      await page.getByTestId('endpoint-rotate').click();
      await page.locator('#endpoint-rotate-confirm').click();
      await toast(page, 'New token issued').waitFor();
      await expect.poll(async () => (await page.getByTestId('endpoint-token-value').textContent())?.trim()).not.toBe(token);
      const rotated = (await page.getByTestId('endpoint-token-value').textContent())!.trim();
      expect(rotated).toMatch(/^boep_/);
      await page.locator('#endpoint-token-done').click();
      await page.getByText(`…${rotated.slice(-4)}`).waitFor();

      await page.getByRole('tab', { name: 'History' }).click();
      const entries = page.getByTestId('resource-history-entry');
      await expect.poll(() => entries.count()).toBe(2);
      await entries.nth(0).getByText('Token rotated').waitFor();
      await entries.nth(1).getByText('Created').waitFor();
      await shot(page, 'history-1440-light-en');
    });
  });

  it('finds paused endpoints through the URL, in Spanish, on a phone', async () => {
    await withPage(browser, { viewport: { width: 375, height: 812 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', lang: 'es', theme: 'dark', path: '/utils/endpoints_management?f[active]=false' });
      await rows(page).filter({ hasText: 'AndaNative feed' }).waitFor();
      await expect.poll(() => rows(page).count()).toBe(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.getByTestId('resource-filters-toggle').getByText('1').waitFor();
      await shot(page, 'list-375-dark-es');
    });
  });

  it.runIf(SHOTS_ON)('screenshots: list and one row, light and dark, en and es, 375, 768 and 1440', async () => {
    await sweepResource(browser, { enabled: SHOTS_ON, shot }, { mail: DEMO.tech, path: '/utils/endpoints_management', resource: 'endpoints' });
  }, 300_000);
});
