/**
 * Budgets by company (`/partners/perf-budgets-companies`): the demo list shows spend against the
 * budgets (an over-budget alert among them); a budget is created through the form (an amount of 0
 * refused in place, nothing lost), opens on its page, and shows in the list with its spend and how
 * much of it is used. Screenshots (E2E_SCREENSHOTS=1) of the list, a budget's form and its spend,
 * light and dark, at 1440 and 375, to .tmp/budgets/, each also checked with axe-core.
 */
import { addMonthsTo, monthOfInstant } from '@backoffice/core/budgets';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('budgets');
const PATH = '/partners/perf-budgets-companies';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string) => page.locator(`[data-testid="resource-form-budgets"] #${id}`);
const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');

describe('budgets', () => {
  it('creates a budget through the form and lists it with its spend and usage', async () => {
    // The warehouse's last month (the server seeded its data up to the current hour).
    const lastMonth = addMonthsTo(monthOfInstant(Date.now()), -1);
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Budgets by company' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
      await page.getByTestId('budget-alert').first().waitFor();

      await page.getByTestId('resource-new').click();
      await page.waitForURL(new RegExp(`/en${PATH}/new$`));
      await field(page, 'company_id').click();
      await field(page, 'company_id').fill('Levante');
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Levante Streaming Networks S.L.' }).click();
      await field(page, 'month').click();
      await field(page, 'month').fill(lastMonth);
      await field(page, 'month').press('Enter');
      await field(page, 'amount').fill('0');
      await page.getByTestId('resource-save').click();
      // The shared rule's message, next to the field; what was typed stays.
      await page.getByText('An amount above 0, up to 100,000,000, with at most two decimals').waitFor();
      await expect.poll(() => field(page, 'month').inputValue()).toBe(lastMonth);
      await field(page, 'amount').fill('500');
      await page.getByTestId('resource-save').click();

      await page.waitForURL(new RegExp(`/en${PATH}/\\d+$`));
      await page.getByTestId('resource-title').getByText(`Levante Streaming Networks S.L., ${lastMonth}`).waitFor();
      await page.getByRole('tab', { name: 'Spend and pacing' }).click();
      await page.getByTestId('budget-spend').getByText('Expected to date', { exact: true }).waitFor();

      // The list, filtered through the URL, shows it with what was spent and the share used.
      await page.goto(`/en${PATH}?f[month]=${lastMonth}`);
      const row = rows(page).filter({ hasText: 'Levante Streaming Networks S.L.' });
      await row.waitFor();
      expect(await row.textContent()).toContain('$500.00');
      await expect.poll(() => row.getByTestId('budget-usage').textContent()).toMatch(/^\d[\d,]*(\.\d)? %$/);
    });
  });

  it.runIf(SHOTS_ON)('screenshots and axe: the list and a budget, light and dark, 1440 and 375', async () => {
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.admin, { via: 'api', theme, path: PATH });
          await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
          await page.getByTestId('budget-alert').first().waitFor();
          await shot(page, `list-${width}-${theme}-en`);
          await expectNoSeriousViolations(page, `budgets list ${width} ${theme}`);
          await rows(page).filter({ has: page.getByTestId('budget-alert') }).first().click();
          await page.getByTestId('resource-form-budgets').waitFor();
          await shot(page, `detail-${width}-${theme}-en`);
          await page.getByRole('tab', { name: 'Spend and pacing' }).click();
          await page.getByTestId('budget-spend').waitFor();
          await shot(page, `spend-${width}-${theme}-en`);
          await expectNoSeriousViolations(page, `budget spend ${width} ${theme}`);
        });
      }
    }
  }, 120_000);
});
