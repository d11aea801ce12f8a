/** Menu permissions (spec sections 4 and 6): forbidden vs allowed by role, ADMIN sees all, hidden entries. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { DEMO, menuLink, openSidebar, signIn, waitForShell, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('permissions', () => {
  it('sends a role without the menu permission to the forbidden panel, with a way back', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.goto('/en/utils/scheduler');
      await page.waitForURL(/\/en\/not_allowed$/);
      const panel = page.getByTestId('forbidden-page');
      await panel.getByRole('heading', { name: 'Forbidden access' }).waitFor();
      await panel.getByText('You do not have permission to access to this url.').waitFor();
      await panel.getByRole('link', { name: 'Back to dashboard' }).click();
      await page.waitForURL(/\/en$/);
    });
  });

  it('shows the forbidden panel in Spanish too', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', lang: 'es' });
      await page.goto('/es/partners/floors');
      await page.waitForURL(/\/es\/not_allowed$/);
      await page.getByRole('heading', { name: 'Acceso prohibido' }).waitFor();
      await page.getByRole('link', { name: 'Volver al panel' }).waitFor();
    });
  });

  it('lets a role open the screens of its menu, each its own screen under its menu title', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.goto('/en/utils/signature_manager');
      await waitForShell(page);
      await page.getByTestId('signature-manager').getByRole('heading', { name: 'Signature manager', level: 1 }).waitFor();
      await expect.poll(() => page.title()).toContain('Signature manager');
      expect(await page.getByTestId('being-built').count()).toBe(0);
      // Another screen of the role's menu, from another group.
      await page.goto('/en/billing_performance/prepayments');
      await page.getByRole('heading', { name: 'Prepayments', level: 1 }).waitFor();
      expect(await page.getByTestId('being-built').count()).toBe(0);
    });
  });

  it('allows /utils/scheduler to the scheduler viewer, whose menu has it', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.schedulerViewer, { via: 'api' });
      await page.goto('/en/utils/scheduler');
      await page.getByRole('heading', { name: 'Scheduler', level: 1 }).waitFor();
      expect(await page.getByTestId('being-built').count()).toBe(0);
      const sidebar = await openSidebar(page);
      await sidebar.getByText('Settings', { exact: true }).waitFor();
      await expect.poll(() => menuLink(page, 'Scheduler').count()).toBe(1);
      await expect.poll(() => menuLink(page, 'Supply finances').count()).toBe(0);
    });
  });

  it("shows a role only its menu entries; ADMIN sees everything, hidden entries included", async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      const sidebar = await openSidebar(page);
      const groups = await sidebar.locator('.ant-menu-submenu-title').allTextContents();
      expect(groups).toContain('Finances');
      expect(groups).not.toContain('Builders');
      expect(groups).not.toContain('Offers');
      await sidebar.getByTestId('menu-search').fill('parametrization');
      await sidebar.getByText('No menu entries match').waitFor();
    });
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const sidebar = await openSidebar(page);
      await sidebar.getByTestId('menu-search').fill('parametrization');
      await menuLink(page, 'Logs parametrization').waitFor();
      await page.goto('/en/utils/ssp/logs-data/parametrization');
      await page.getByRole('heading', { name: 'Logs parametrization', level: 1 }).waitFor();
      expect(await page.getByTestId('being-built').count()).toBe(0);
    });
  });

  it('always allows the root to a signed-in role', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.marketing, { via: 'api' });
      await page.getByTestId('dashboard').getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    });
  });
});
