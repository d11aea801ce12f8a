/**
 * Publishers (issue 19): an admin creates a
 * publisher with its sellers.json entry (a missing domain is refused on its tab, nothing lost) and
 * finds it in the public /sellers.json; an SSP publisher shows its properties and its ads.txt
 * lines. Screenshots (E2E_SCREENSHOTS=1) to .tmp/publishers/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { screenshots, sweepResource } from '../support/screenshots.ts';
import { DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('publishers');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string) => page.locator(`[data-testid="resource-form-publishers"] #${id}`);

describe('publishers', () => {
  it('creates a publisher whose sellers.json entry needs a domain, and finds it in /sellers.json', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: '/partners/publishers_performance/new' });
      await field(page, 'name').fill('Crónica del Ebro');
      await field(page, 'revenue_share_pct').fill('68');
      await page.getByTestId('resource-group-sellers_json').click();
      await field(page, 'seller_id').fill('perf-ebro-77');
      await page.getByTestId('resource-save').click();
      // The domain is on the sellers.json tab: the error is shown there, and the name kept.
      await page.getByText('sellers.json needs the domain of a publisher that is not confidential').waitFor();
      await field(page, 'seller_domain').fill('cronicadelebro.example');
      await page.getByTestId('resource-save').click();
      await page.waitForURL(/\/en\/partners\/publishers_performance\/\d+$/);
      await toast(page, 'Created').waitFor();
      await page.getByTestId('resource-title').getByText('Crónica del Ebro').waitFor();

      await page.getByRole('tab', { name: 'ads.txt' }).click();
      await page.getByTestId('publisher-in-sellers-json').getByText('Listed in sellers.json').waitFor();
      expect(await page.getByTestId('publisher-ads-txt').textContent()).toMatch(/^[a-z.]+, perf-ebro-77, DIRECT$/);
      await shot(page, 'adstxt-1440-light-en');

      const res = await page.request.get('/sellers.json');
      expect(res.status()).toBe(200);
      const doc = (await res.json()) as { sellers: { seller_id: string; name?: string; domain?: string; seller_type: string }[] };
      expect(doc.sellers).toContainEqual({ seller_id: 'perf-ebro-77', name: 'Crónica del Ebro', domain: 'cronicadelebro.example', seller_type: 'PUBLISHER', is_confidential: 0 });
    });
  });

  it("shows an SSP publisher's properties with their ad units", async () => {
    await withPage(browser, { viewport: { width: 375, height: 812 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', lang: 'es', path: '/partners/publishers_ssp' });
      await page.getByRole('heading', { name: 'Editores (SSP)' }).waitFor();
      await page.locator('[data-testid^="resource-row-"]').first().click();
      await page.getByRole('tab', { name: 'Propiedades' }).click();
      await expect.poll(() => page.getByTestId('publisher-properties').locator('tbody tr').count()).toBeGreaterThan(0);
      // No ads.txt check has run on the demo's properties yet.
      await page.getByTestId('property-ads-txt').first().getByText('Sin comprobar').waitFor();
      await shot(page, 'properties-375-light-es');
    });
  });

  it.runIf(SHOTS_ON)('screenshots: list and one row, light and dark, en and es, 375, 768 and 1440', async () => {
    await sweepResource(browser, { enabled: SHOTS_ON, shot }, { mail: DEMO.admin, path: '/partners/publishers_ssp', resource: 'publishers' });
  }, 300_000);
});
