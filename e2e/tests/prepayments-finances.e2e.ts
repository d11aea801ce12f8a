/**
 * Prepayments and finances (issue 23). Finance opens a prepaid advertiser's ledger, adds a top-up
 * and sees the balance move, then reverses it (confirmation with a reason) and sees the balance
 * back and the entry marked reversed. On supply finances it creates an entry with a comment over
 * 100 characters (refused next to the field, nothing saved, what was typed kept), shortens it,
 * chooses to send the e-mail and sees the entry "Sent". Screenshots (E2E_SCREENSHOTS=1) of both
 * screens and their drawers at 375, 768 and 1440, light and dark, English and Spanish, each checked
 * with axe-core, to .tmp/prepayments-finances/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('prepayments-finances');
const PREPAYMENTS = '/billing_performance/prepayments';
const SUPPLY = '/finances/supply';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const ppRows = (page: Page) => page.locator('[data-testid^="prepayment-row-"]');
const finRows = (page: Page) => page.locator('[data-testid^="finance-row-"]');
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

async function choose(page: Page, selector: string, search: string, text: string) {
  const input = page.locator(selector);
  await input.click();
  if (search) await input.fill(search);
  await option(page, text).click();
}

describe('prepayments and finances', () => {
  it('finance tops up a prepaid advertiser, sees the balance, and reverses the top-up', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: `${PREPAYMENTS}?q=Cierzo` });
      await page.getByRole('heading', { name: 'Prepayments · Billing Performance' }).waitFor();
      await expect.poll(() => ppRows(page).count()).toBe(1);
      // The demo has one advertiser under its threshold: the alert says so.
      await page.getByTestId('prepayments-low-alert').waitFor();
      await ppRows(page).first().getByRole('link', { name: 'Open the ledger of Cierzo Installs' }).click();
      const drawer = page.getByTestId('prepayment-detail');
      await drawer.getByTestId('ledger').waitFor();
      expect(await drawer.getByTestId('ledger-balance').textContent()).toContain('2,000.00');

      await drawer.getByTestId('entry-add').click();
      const modal = page.getByTestId('entry-form');
      await modal.waitFor();
      // A wrong amount is refused next to its field; what was typed stays.
      await modal.locator('#entry-amount').fill('12.345');
      await modal.locator('#entry-reference').fill('SEPA CIERZO-0002');
      await page.getByTestId('entry-save').click();
      await modal.getByText('An amount greater than 0, up to 10,000,000, with at most 2 decimals').waitFor();
      expect(await modal.locator('#entry-reference').inputValue()).toBe('SEPA CIERZO-0002');
      await modal.locator('#entry-amount').fill('250.25');
      await page.getByTestId('entry-save').click();
      await toast(page, 'Entry added to the ledger').waitFor();
      await expect.poll(() => drawer.getByTestId('ledger-balance').textContent()).toContain('2,250.25');
      const top = drawer.locator('[data-testid^="ledger-row-"]').first();
      expect(await top.textContent()).toContain('Top-up');
      expect(await top.textContent()).toContain('2,250.25');

      await top.getByRole('button', { name: /^Reverse entry #\d+$/ }).click();
      await page.getByTestId('reverse-modal').locator('#reverse-reason').fill('Wrong advertiser: the transfer was Levante’s');
      await page.getByTestId('reverse-confirm').click();
      await toast(page, 'Entry reversed').waitFor();
      await expect.poll(() => drawer.getByTestId('ledger-balance').textContent()).toContain('2,000.00');
      const rows = drawer.locator('[data-testid^="ledger-row-"]');
      expect(await rows.first().textContent()).toContain('Reversal');
      expect(await rows.nth(1).textContent()).toMatch(/Reversed by #\d+/);
      // Reversed once only: the top-up offers no second reversal.
      expect(await rows.nth(1).getByRole('button', { name: /^Reverse entry/ }).count()).toBe(0);

      await drawer.getByRole('tab', { name: 'History' }).click();
      await drawer.getByTestId('prepayment-history').getByText('Entry reversed by Javier Morales').first().waitFor();
    });
  });

  it('finance creates a supply entry: a too-long comment is refused, then it is saved and its e-mail sent', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: SUPPLY });
      await page.getByRole('heading', { name: 'Supply finances · Finances' }).waitFor();
      await expect.poll(() => finRows(page).count()).toBeGreaterThan(1);
      const before = await finRows(page).count();

      await page.getByTestId('finance-new').click();
      const form = page.getByTestId('finance-form');
      await form.waitFor();
      await choose(page, '#counterparty_id', 'Ofertas', 'Ofertas Costa Brava');
      await choose(page, '#network_id', 'Tramuntana', 'Tramuntana Performance');
      await choose(page, '#item', '', 'Bonus');
      await form.locator('#amount').fill('120.50');
      await page.locator('#period').click();
      await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) [data-preset="lastMonth"]').click();
      const long = 'Quarterly bonus for the Costa Brava summer campaign, agreed with the publisher’s manager in the review call';
      expect(long.length).toBeGreaterThan(100);
      await form.locator('#comment').fill(long);
      await form.getByLabel('Yes, send it').check();
      await page.getByTestId('finance-save').click();
      await form.getByText('The comment can have at most 100 characters').waitFor();
      expect(await form.locator('#comment').inputValue()).toBe(long);
      // Nothing was saved.
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await page.locator('.ant-modal-confirm-title', { hasText: 'Leave without saving?' }).waitFor();
      await page.getByRole('button', { name: 'Stay' }).click();
      expect(await finRows(page).count()).toBe(before);

      await form.locator('#comment').fill('Quarterly bonus, Costa Brava summer campaign');
      await page.getByTestId('finance-save').click();
      await toast(page, 'Finance entry saved · E-mail sent').waitFor();
      const detail = page.getByTestId('finance-detail');
      await detail.waitFor();
      const id = Number(await detail.getAttribute('data-entry'));
      expect(await detail.getByTestId(`finance-email-${id}`).first().textContent()).toBe('Sent');
      expect(await detail.getByTestId('finance-details').textContent()).toContain('pagos@ofertascostabrava.example');
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await expect.poll(() => finRows(page).count()).toBe(before + 1);
      expect(await page.getByTestId(`finance-row-${id}`).textContent()).toContain('Sent');
    });
  });

  it.runIf(SHOTS_ON)('screenshots and axe: both screens and their drawers; 375, 768, 1440; light and dark; en and es', async () => {
    const runs: [number, number, 'light' | 'dark', Lang][] = [];
    for (const [w, h] of [
      [1440, 900],
      [768, 1000],
      [375, 800],
    ] as const)
      for (const theme of ['light', 'dark'] as const) for (const lang of ['en', 'es'] as const) runs.push([w, h, theme, lang]);
    for (const [width, height, theme, lang] of runs) {
      await withPage(browser, { viewport: { width, height } }, async (page) => {
        const name = `${width}-${theme}-${lang}`;
        await signIn(page, DEMO.finance, { via: 'api', theme, lang, path: PREPAYMENTS });
        await page.getByTestId('prepayments').and(page.locator('[data-state="ready"]')).waitFor();
        await expect.poll(() => ppRows(page).count()).toBeGreaterThan(1);
        await page.mouse.move(0, 0);
        await shot(page, `prepayments-${name}`);
        await expectNoSeriousViolations(page, `prepayments ${name}`);
        await page.goto(`/${lang}${PREPAYMENTS}?q=Levante`);
        await expect.poll(() => ppRows(page).count()).toBe(1);
        await ppRows(page).first().getByRole('link').first().click();
        await page.getByTestId('ledger-table').waitFor();
        await page.setViewportSize({ width, height: 1600 });
        await shot(page, `ledger-${name}`);
        await expectNoSeriousViolations(page, `ledger ${name}`);

        await page.setViewportSize({ width, height });
        await page.goto(`/${lang}${SUPPLY}`);
        await expect.poll(() => finRows(page).count()).toBeGreaterThan(1);
        await page.mouse.move(0, 0);
        await shot(page, `finances-${name}`);
        await expectNoSeriousViolations(page, `finances ${name}`);
        await page.getByTestId('finance-new').click();
        await page.getByTestId('finance-form').waitFor();
        await page.getByTestId('finance-save').click();
        await page.locator('.ant-form-item-explain-error').first().waitFor();
        await page.mouse.move(0, 0);
        await page.setViewportSize({ width, height: 1400 });
        await shot(page, `finance-form-${name}`);
        await expectNoSeriousViolations(page, `finance form ${name}`);
      });
    }
  }, 900_000);
});
