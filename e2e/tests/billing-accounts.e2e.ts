/**
 * Billing accounts (`/billing_ssp/advertiser`): finance searches the list down to one partner, opens
 * its account (statement first), changes its payment terms after an invalid VAT id is refused in
 * place (what was typed stays; closing with unsaved changes asks first), adds a billing contact,
 * saves, and sees the new terms in the list, in the URL-kept view and in the account's history. Screenshots
 * (E2E_SCREENSHOTS=1) of the list, a statement, the terms form and the missing billing
 * information, light and dark, at 1440, 768 and 375 (and Spanish at 1440), each checked with
 * axe-core, to .tmp/billing-accounts/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('billing-accounts');
const PATH = '/billing_ssp/advertiser';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const rows = (page: Page) => page.locator('[data-testid^="account-row-"]');
const drawer = (page: Page) => page.getByTestId('account-detail');
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

describe('billing accounts', () => {
  it('finance finds a partner, opens its statement and changes its payment terms', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Advertisers · Billing SSP' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);

      await page.getByTestId('accounts-search').locator('input').fill('Kappa');
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(new URL(page.url()).searchParams.get('q')).toBe('Kappa');
      const row = rows(page).first();
      expect(await row.textContent()).toContain('Lumière Régie Numérique SAS');
      await row.getByRole('link', { name: 'Open the account of Kappa Media' }).click();

      await expect.poll(() => page.getByTestId('account-title').textContent()).toBe('Kappa Media');
      await drawer(page).getByTestId('account-statement').waitFor();
      expect(new URL(page.url()).searchParams.get('account')).toMatch(/^\d+$/);

      await drawer(page).getByRole('tab', { name: 'Billing terms' }).click();
      const form = drawer(page).getByTestId('resource-form-billing_ssp_accounts');
      await form.waitFor();
      // An invalid VAT id is refused next to its field; the other changes stay.
      await form.locator('#payment_terms').click();
      await option(page, 'Net 60').click();
      await form.locator('#vat_id').fill('DE129273399');
      await form.getByTestId('resource-save').click();
      await form.getByText('Not a valid VAT ID').waitFor();
      expect(await form.locator('.ant-form-item', { has: page.locator('#payment_terms') }).textContent()).toContain('Net 60');
      // Closing with unsaved changes asks first.
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await page.locator('.ant-modal-confirm-title', { hasText: 'Leave without saving?' }).waitFor();
      await page.getByRole('button', { name: 'Stay' }).click();
      await form.locator('#vat_id').fill('FR40303265045');
      const contacts = form.getByTestId('account-contacts');
      // The demo account may already list contacts: the new one comes after them.
      const n = (await contacts.getByLabel(/^Name \d+$/).count()) + 1;
      await contacts.getByTestId('account-contact-add').click();
      await contacts.getByLabel(`Name ${n}`).fill('Hugo Lefèvre');
      await contacts.getByLabel(`E-mail ${n}`).fill('hugo.lefevre@lumiere-ads.fr');
      await contacts.getByLabel(`Role ${n}`).click();
      await option(page, 'Accounts payable').click();
      await form.getByTestId('resource-save').click();
      await toast(page, 'Billing terms saved').waitFor();
      await drawer(page).getByRole('tab', { name: 'Billing information' }).click();
      await drawer(page).getByTestId('account-info').getByText('hugo.lefevre@lumiere-ads.fr').waitFor();

      await drawer(page).getByRole('tab', { name: 'History' }).click();
      const entry = drawer(page).getByTestId('account-history-entry').first();
      await entry.waitFor();
      expect(await entry.textContent()).toContain('Billing terms changed by Javier Morales');
      expect(await entry.textContent()).toContain('Payment terms: Net 30 → Net 60');
      expect(await entry.textContent()).toContain('Net 60');

      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('account')).toBeNull();
      await expect.poll(() => rows(page).first().textContent()).toContain('Net 60');
      // The view is in the URL: a reload shows the same filtered list.
      await page.reload();
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(await rows(page).first().textContent()).toContain('Net 60');
    });
  });

  it.runIf(SHOTS_ON)('screenshots and axe: list, statement, terms, missing billing info; light and dark; 1440, 768, 375', async () => {
    const runs: [number, number, 'light' | 'dark', Lang][] = [];
    for (const [w, h] of [
      [1440, 900],
      [768, 1000],
      [375, 800],
    ] as const)
      for (const theme of ['light', 'dark'] as const) runs.push([w, h, theme, 'en']);
    runs.push([1440, 900, 'light', 'es']);
    for (const [width, height, theme, lang] of runs) {
      await withPage(browser, { viewport: { width, height } }, async (page) => {
        const name = `${width}-${theme}-${lang}`;
        await signIn(page, DEMO.finance, { via: 'api', theme, lang, path: `${PATH}?sort=-outstanding` });
        await page.getByTestId('billing-accounts-ssp').and(page.locator('[data-state="ready"]')).waitFor();
        await expect.poll(() => rows(page).count()).toBeGreaterThan(1);
        await page.mouse.move(0, 0);
        await shot(page, `list-${name}`);
        await expectNoSeriousViolations(page, `accounts list ${name}`);

        await rows(page).first().getByRole('link').first().click();
        await drawer(page).getByTestId('account-statement').waitFor();
        // The drawer scrolls inside the viewport: a tall one shows all of it in the picture.
        await page.setViewportSize({ width, height: 2200 });
        await shot(page, `statement-${name}`);
        await expectNoSeriousViolations(page, `account statement ${name}`);

        await drawer(page).getByRole('tab').nth(2).click();
        await drawer(page).getByTestId('account-terms').waitFor();
        await shot(page, `terms-${name}`);
        await expectNoSeriousViolations(page, `account terms ${name}`);

        // Amazon TAM has no company: the spec's message instead of the billing information.
        await page.setViewportSize({ width, height });
        await page.goto(`/${lang}${PATH}?q=Amazon`);
        await expect.poll(() => rows(page).count()).toBe(1);
        await rows(page).first().getByRole('link').first().click();
        await drawer(page).getByRole('tab').nth(1).click();
        await drawer(page).getByTestId('account-info-missing').waitFor();
        await shot(page, `missing-${name}`);
        await expectNoSeriousViolations(page, `account missing info ${name}`);
      });
    }
  }, 400_000);
});
