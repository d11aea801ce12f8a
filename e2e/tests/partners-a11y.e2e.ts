/**
 * Accessibility pass (axe-core) on the partner screens of issue 19, both themes: a demand partner's
 * page (its form in tabs), the partners' overview, the network registration, a publisher's properties and ads.txt, and a
 * precreation draft with its workflow actions. No serious or critical violations.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { DEMO, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const rows = '[data-testid^="resource-row-"]';

describe.each(['light', 'dark'] as const)('accessibility of the partner screens, %s theme', (theme) => {
  it('a demand partner, the registration, a publisher and a precreation draft', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', theme, path: '/partners/demandpartners_ssp' });
      await expect.poll(() => page.locator(rows).count()).toBeGreaterThan(5);
      await page.locator(rows).first().click();
      await page.getByTestId('resource-form-demand_partners').waitFor();
      await expectNoSeriousViolations(page, 'demand partner detail');

      await page.goto('/en/partners/demand-partners/ssp/overview');
      await page.locator('[data-testid="partners-overview"][data-state="ready"]').waitFor();
      await expectNoSeriousViolations(page, 'demand partners overview');

      await page.goto('/en/partners/demandpartners_ssp_register');
      await page.getByTestId('partner-register').waitFor();
      await expectNoSeriousViolations(page, 'network registration');

      await page.goto('/en/partners/publishers_ssp');
      await expect.poll(() => page.locator(rows).count()).toBeGreaterThan(5);
      await page.locator(rows).first().click();
      await page.getByRole('tab', { name: 'Properties' }).click();
      await page.getByTestId('publisher-properties').waitFor();
      await expectNoSeriousViolations(page, 'publisher properties');
      await page.getByRole('tab', { name: 'ads.txt' }).click();
      await page.getByTestId('publisher-ads-txt').waitFor();
      await expectNoSeriousViolations(page, 'publisher ads.txt');

      await page.goto('/en/partners/precreation_perf');
      await page.locator(rows).filter({ hasText: 'In review' }).first().click();
      await page.getByTestId('precreation-approve').waitFor();
      await expectNoSeriousViolations(page, 'precreation draft in review');
    });
  });
});
