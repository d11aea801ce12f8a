/**
 * Companies on the resource layer (issue 18): create with an invalid tax id (translated error,
 * nothing lost), fix it and save, find it through a URL-synced filter, edit it in two tabs and
 * meet the conflict dialog in the second, and read both edits in its history. Screenshots of the
 * list and the detail in both themes, en/es, at 375 and 1440 go to .tmp/companies/
 * (E2E_SCREENSHOTS=1).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { screenshots, sweepResource } from '../support/screenshots.ts';
import { DEMO, signIn, toast, waitForShell, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('companies');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string, form = 'companies') => page.locator(`[data-testid="resource-form-${form}"] #${id}`);

async function pick(page: Page, id: string, text: string, form = 'companies') {
  await field(page, id, form).click();
  await field(page, id, form).fill(text);
  await page.locator('.ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('companies', () => {
  it('creates (an invalid tax id is refused in place), filters by URL, meets a conflict in a second tab, and shows both edits in the history', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page, context) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/list_companies' });
      await page.getByTestId('resource-list-companies').waitFor();
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(5);
      await shot(page, 'list-1440-light-en');

      await page.getByTestId('resource-new').click();
      await page.waitForURL(/\/en\/utils\/list_companies\/new$/);
      await field(page, 'legal_name').fill('Puerta del Sol Media S.L.');
      await pick(page, 'country', 'Spain');
      await field(page, 'tax_id').fill('B12345675');
      await field(page, 'address').fill('Puerta del Sol 1');
      await field(page, 'city').fill('Madrid');
      await field(page, 'postal_code').fill('28013');
      await field(page, 'billing_email').fill('billing@puertadelsol.es');
      await pick(page, 'currency', 'Euro');
      await page.getByTestId('resource-save').click();
      // The form's own check, the same rule and message as the API's; nothing typed is lost.
      await page.getByText('Not a valid tax ID for this country').waitFor();
      await expect.poll(() => field(page, 'legal_name').inputValue()).toBe('Puerta del Sol Media S.L.');
      await shot(page, 'new-invalid-1440-light-en');
      await field(page, 'tax_id').fill('B12345674');
      await page.getByTestId('resource-save').click();
      await page.waitForURL(/\/en\/utils\/list_companies\/\d+$/);
      await page.getByTestId('resource-title').getByText('Puerta del Sol Media S.L.').waitFor();
      const url = page.url();

      // The list filtered through the URL finds it (a link reproduces the view). The route asks
      // for the page as the navigation starts and the list takes that answer: one request.
      const listRequests: string[] = [];
      page.on('request', (r) => {
        if (/\/v1\/companies\?/.test(r.url())) listRequests.push(r.url());
      });
      await page.goto('/en/utils/list_companies?f[legal_name]=puerta');
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBe(1);
      expect(listRequests).toHaveLength(1);
      await page.locator('[data-testid^="resource-row-"]').first().getByText('Puerta del Sol Media S.L.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Legal name' }).inputValue()).toBe('puerta');

      // Two tabs on the same company: the first saves, the second meets the conflict.
      const second = await context.newPage();
      await second.goto(url);
      await waitForShell(second);
      await page.goto(url);
      await field(page, 'billing_email').fill('first@puertadelsol.es');
      await page.getByTestId('resource-save').click();
      await toast(page, 'Saved').waitFor();
      await field(second, 'billing_email').waitFor();
      await field(second, 'city').fill('Alcalá de Henares');
      await second.getByTestId('resource-save').click();
      const dialog = second.getByTestId('resource-conflict');
      await dialog.waitFor();
      await dialog.getByText('first@puertadelsol.es').waitFor();
      await shot(second, 'conflict-1440-light-en');
      // Keep both: load theirs, then make the change again.
      await second.getByTestId('resource-conflict-reload').click();
      await expect.poll(() => field(second, 'billing_email').inputValue()).toBe('first@puertadelsol.es');
      await field(second, 'city').fill('Alcalá de Henares');
      await second.getByTestId('resource-save').click();
      await toast(second, 'Saved').waitFor();

      await second.getByRole('tab', { name: 'History' }).click();
      const entries = second.getByTestId('resource-history-entry');
      await expect.poll(() => entries.count()).toBe(3);
      await entries.nth(0).getByText('Alcalá de Henares').waitFor();
      await entries.nth(1).getByText('first@puertadelsol.es').waitFor();
      await entries.nth(2).getByText('Created').waitFor();
      await shot(second, 'history-1440-light-en');
      await second.close();
    });
  });

  it('agencies: a demand lead creates one behind a company picked by name; that company then cannot be deleted', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.demandLead, { via: 'api', path: '/partners/agencies' });
      await page.getByTestId('resource-list-agencies').waitFor();
      // The company column shows names, not ids.
      await page.locator('[data-testid^="resource-row-"]').filter({ hasText: 'Iberia Media Exchange S.L.' }).first().waitFor();
      await shot(page, 'agencies-1440-light-en');
      // A number range and a reference filter, both in the URL.
      const max = page.getByRole('spinbutton', { name: 'Commission % ≤' });
      await max.fill('10');
      await max.press('Enter');
      await page.waitForURL(/f%5Bcommission_pct%5D%5Bmax%5D=10|f\[commission_pct\]\[max\]=10/);
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBe(3);
      await page.getByTestId('resource-clear-filters').click();
      const company = page.getByRole('combobox', { name: 'Company' });
      await company.click();
      await company.fill('Spree');
      await page.locator('.ant-select-item-option').filter({ hasText: 'Spree Demand Platform GmbH' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBe(1);
      await page.locator('[data-testid^="resource-row-"]').getByText('Spree Audience Lab').waitFor();
      await page.getByTestId('resource-clear-filters').click();
      await page.getByTestId('resource-new').click();
      await field(page, 'name', 'agencies').fill('Levante Media Buying');
      await field(page, 'company_id', 'agencies').click();
      await field(page, 'company_id', 'agencies').fill('Levante');
      await page.locator('.ant-select-item-option').filter({ hasText: 'Levante Streaming Networks S.L.' }).click();
      await page.getByTestId('agency-contact-add').click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).last().fill('Pau Ferrer');
      await page.getByRole('textbox', { name: 'E-mail', exact: true }).last().fill('pau@levantemb.es');
      await field(page, 'commission_pct', 'agencies').fill('11.5');
      await pick(page, 'status', 'Active', 'agencies');
      await page.getByTestId('resource-save').click();
      await page.waitForURL(/\/en\/partners\/agencies\/\d+$/);
      await page.getByTestId('resource-title').getByText('Levante Media Buying').waitFor();
      await expect.poll(() => field(page, 'commission_pct', 'agencies').inputValue()).toBe('11.50');
      await shot(page, 'agency-detail-1440-light-en');
    });
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: '/utils/list_companies?f[legal_name]=levante' });
      await page.locator('[data-testid^="resource-row-"]').first().click();
      await page.getByRole('tab', { name: 'Used by' }).click();
      await page.getByText('Agencies: 1').waitFor();
      await page.getByRole('tab', { name: 'Details' }).click();
      await page.getByTestId('resource-delete').click();
      await page.locator('#resource-delete-confirm').click();
      await toast(page, /It cannot be deleted: it is in use: Agencies \(1\)/).waitFor();
    });
  });

  it('asks before leaving a form with unsaved changes', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/list_companies/new' });
      await field(page, 'legal_name').fill('Half-typed S.L.');
      await page.getByText('Back to the list').click();
      await page.locator('.ant-modal-confirm-title').getByText('Leave without saving?').waitFor();
      await page.getByRole('button', { name: 'Stay' }).click();
      await expect.poll(() => field(page, 'legal_name').inputValue()).toBe('Half-typed S.L.');
    });
  });

  it('on a phone, folds the filters behind a button that says how many apply', async () => {
    await withPage(browser, { viewport: { width: 375, height: 800 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/list_companies?f[country]=DE' });
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(2);
      await expect.poll(() => page.getByTestId('resource-filters').isVisible()).toBe(false);
      await page.getByTestId('resource-filters-toggle').getByText('Filters (1 applied)').click();
      await expect.poll(() => page.getByTestId('resource-filters').isVisible()).toBe(true);
      await shot(page, 'list-375-filters-open');
    });
  });

  it('is read-only for a role with read only (no New, no Save)', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: '/utils/list_companies' });
      await expect.poll(() => page.locator('[data-testid^="resource-row-"]').count()).toBeGreaterThan(5);
      expect(await page.getByTestId('resource-new').count()).toBe(0);
      await page.locator('[data-testid^="resource-row-"]').first().click();
      await page.getByTestId('resource-detail-companies').waitFor();
      await expect.poll(() => page.getByTestId('resource-save').isDisabled()).toBe(true);
    });
  });

  it.runIf(SHOTS_ON)('screenshots: list and one row, light and dark, en and es, 375, 768 and 1440', async () => {
    await sweepResource(browser, { enabled: SHOTS_ON, shot }, { mail: DEMO.tech, path: '/utils/list_companies', resource: 'companies' });
  }, 300_000);
});
