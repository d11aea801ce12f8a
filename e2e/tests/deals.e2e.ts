/**
 * Deals (`/partners/deals`): the demand lead creates a deal through the form (a deal ID with a
 * space refused in place, nothing lost), opens it on its page with its pmp JSON (and no delivery
 * yet), then opens a demo deal to read its delivery by day from the warehouse. Screenshots
 * (E2E_SCREENSHOTS=1) of the list, a deal's form, delivery, floor rules and pmp JSON, light and
 * dark, at 1440 and 375, in English and Spanish, to .tmp/deals/, each page also checked with axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('deals');
const PATH = '/partners/deals';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string) => page.locator(`[data-testid="resource-form-deals"] #${id}`);
const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');
const option = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

describe('deals', () => {
  it('creates a deal through the form, shows its pmp JSON, and a demo deal its delivery', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.demandLead, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Deals' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);

      await page.getByTestId('resource-new').click();
      await page.waitForURL(new RegExp(`/en${PATH}/new$`));
      await field(page, 'code').fill('E2E SPORTS 1');
      await field(page, 'name').fill('E2E Sports premium');
      await field(page, 'demand_partner_id').click();
      await field(page, 'demand_partner_id').fill('Nimbus');
      await option(page, 'Nimbus Exchange').click();
      await field(page, 'type').click();
      await option(page, 'Private marketplace (PMP)').click();
      await field(page, 'bidfloor').fill('3.25');
      await field(page, 'wadomain').fill('brand-e2e.com');
      await field(page, 'wadomain').press('Enter');
      await page.getByTestId('resource-save').click();
      // The shared rule's message, next to the field; what was typed stays.
      await page
        .getByText('At most 64 letters, digits and . _ : - (no spaces): the id travels in bid requests')
        .waitFor();
      expect(await field(page, 'name').inputValue()).toBe('E2E Sports premium');
      expect(await field(page, 'bidfloor').inputValue()).toBe('3.25');
      await field(page, 'code').fill('E2E-SPORTS-1');
      await page.getByTestId('resource-save').click();

      await page.waitForURL(new RegExp(`/en${PATH}/\\d+$`));
      await page.getByTestId('resource-title').getByText('E2E Sports premium').waitFor();
      await page.getByRole('tab', { name: 'pmp JSON' }).click();
      await expect
        .poll(() => page.getByTestId('deal-pmp-json').textContent())
        .toContain('"id": "E2E-SPORTS-1"');
      const pmp = JSON.parse((await page.getByTestId('deal-pmp-json').textContent()) ?? '{}') as unknown;
      expect(pmp).toEqual({
        private_auction: 1,
        deals: [
          { id: 'E2E-SPORTS-1', bidfloor: 3.25, bidfloorcur: 'USD', at: 1, wadomain: ['brand-e2e.com'] },
        ],
      });
      await page.getByRole('tab', { name: 'Delivery' }).click();
      await page.getByTestId('deal-delivery').getByText('No delivery on these dates').waitFor();

      // A demo deal has the warehouse's delivery, by UTC day, with revenue for the demand lead.
      await page.goto(`/en${PATH}?f[status]=active&sort=code`);
      await rows(page).first().click();
      await page.getByTestId('resource-detail-deals').waitFor();
      await page.getByRole('tab', { name: 'Delivery' }).click();
      const table = page.getByTestId('deal-delivery-table');
      await table.waitFor();
      await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(30);
      expect(await table.locator('thead').textContent()).toContain('Revenue (USD)');
      expect(await table.locator('.ant-table-summary').textContent()).toMatch(/Total[\d,]+/);
    });
  });

  it.runIf(SHOTS_ON)(
    'screenshots and axe: the list and a deal, light and dark, 1440 and 375, en and es',
    async () => {
      for (const [width, height] of [
        [1440, 900],
        [375, 800],
      ] as const) {
        for (const theme of ['light', 'dark'] as const) {
          for (const lang of ['en', 'es'] as Lang[]) {
            await withPage(browser, { viewport: { width, height } }, async (page) => {
              const tab = (en: string, es: string) =>
                page.getByRole('tab', { name: lang === 'en' ? en : es, exact: true });
              const name = `${width}-${theme}-${lang}`;
              await signIn(page, DEMO.demandLead, {
                via: 'api',
                theme,
                lang,
                path: `${PATH}?sort=code&page_size=50`,
              });
              await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
              await shot(page, `list-${name}`);
              await expectNoSeriousViolations(page, `deals list ${name}`);
              // A deal whose floor a demo floor rule is above, when there is one (its warning), else another.
              const flagged = rows(page).filter({ has: page.getByTestId('deal-floor-below') });
              await ((await flagged.count()) > 0 ? flagged.first() : rows(page).nth(1)).click();
              await page.getByTestId('resource-form-deals').waitFor();
              await shot(page, `detail-${name}`);
              await expectNoSeriousViolations(page, `deal form ${name}`);
              await tab('Delivery', 'Entrega').click();
              await page.getByTestId('deal-delivery-table').waitFor();
              await page.getByTestId('deal-delivery-chart').waitFor();
              await shot(page, `delivery-${name}`);
              await expectNoSeriousViolations(page, `deal delivery ${name}`);
              await tab('Floor rules', 'Reglas de mínimo').click();
              await page.getByTestId('deal-floor').waitFor();
              await shot(page, `floors-${name}`);
              await tab('pmp JSON', 'JSON pmp').click();
              await page.getByTestId('deal-pmp-json').waitFor();
              await shot(page, `pmp-${name}`);
              await expectNoSeriousViolations(page, `deal pmp ${name}`);
            });
          }
        }
      }
    },
    240_000,
  );
});
