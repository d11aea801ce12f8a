/** Sidebar (spec sections 2, 4 and 9): collapsed rail, search, submenus, real links, drawer on small screens. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { currentPath, DEMO, menuLink, openSidebar, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DESKTOP = { width: 1440, height: 900 };

describe('sidebar', () => {
  it('is a collapsed 2.5rem rail on desktop that expands to 300px and closes on an outside click', async () => {
    await withPage(browser, { viewport: DESKTOP }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const sidebar = page.getByTestId('sidebar');
      await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
      expect((await sidebar.boundingBox())?.width).toBe(40);
      await openSidebar(page);
      await page.waitForFunction(() => document.querySelector('[data-testid="sidebar"]')?.getBoundingClientRect().width === 300);
      await page.mouse.click(900, 600);
      await page.locator('[data-testid="sidebar"][data-state="collapsed"]').waitFor();
      await openSidebar(page);
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="sidebar"][data-state="collapsed"]').waitFor();
    });
  });

  it('searches entries by title, opening their groups, and navigates through real links', async () => {
    await withPage(browser, { viewport: DESKTOP }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const sidebar = await openSidebar(page);
      await sidebar.getByTestId('menu-search').fill('firewall');
      const link = menuLink(page, 'IP Firewall');
      await link.waitFor();
      await expect.poll(() => link.getAttribute('href')).toBe('/en/utils/ip');
      // Only the group holding a match is left, and it is open.
      await expect.poll(() => sidebar.locator('.ant-menu-submenu-title').allTextContents()).toEqual(['Settings']);
      await expect.poll(() => menuLink(page, 'Dashboard').count()).toBe(0);
      await link.click();
      await page.waitForURL(/\/en\/utils\/ip$/);
      // Collapsed again after the navigation.
      await page.locator('[data-testid="sidebar"][data-state="collapsed"]').waitFor();
      await page.getByTestId('resource-list-firewall_entries').getByRole('heading', { name: 'IP Firewall' }).waitFor();
    });
  });

  it('finds entries in Spanish, accents ignored', async () => {
    await withPage(browser, { viewport: DESKTOP }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', lang: 'es' });
      const sidebar = await openSidebar(page);
      await sidebar.getByTestId('menu-search').fill('facturacion');
      const titles = await sidebar.locator('.ant-menu-submenu-title').allTextContents();
      expect(titles.length).toBeGreaterThan(0);
      expect(titles.every((t) => /Facturación/.test(t))).toBe(true);
    });
  });

  it('opens an entry in a new tab with a modified click (real <a href>)', async () => {
    await withPage(browser, { viewport: DESKTOP }, async (page, context) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      await openSidebar(page);
      await page.getByTestId('sidebar').getByText('Reports', { exact: true }).click();
      const link = menuLink(page, 'DataViewers');
      await link.waitFor();
      await expect.poll(() => link.getAttribute('href')).toBe('/en/reports/dataviewer');
      const [popup] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['ControlOrMeta'] })]);
      await popup.waitForLoadState();
      await popup.waitForURL(/\/en\/reports\/dataviewer$/);
      await popup.getByTestId('dataviewer-page').getByRole('heading', { name: 'DataViewer', level: 1 }).waitFor();
      // The first tab stayed where it was.
      expect(currentPath(page)).toBe('/en');
      await popup.close();
    });
  });

  it('navigates from the collapsed rail through submenu popups', async () => {
    await withPage(browser, { viewport: DESKTOP }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const rail = page.locator('[data-testid="sidebar"][data-state="collapsed"]');
      await rail.locator('.ant-menu-submenu-title').nth(0).hover();
      const popupLink = page.locator('.ant-menu-submenu-popup').getByRole('link', { name: 'DataViewers' });
      await popupLink.waitFor();
      await popupLink.click();
      await page.waitForURL(/\/en\/reports\/dataviewer$/);
    });
  });

  it('opens a screen at its top even from a scrolled one, and back returns to where the person was', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 420 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      await page.getByTestId('dashboard').locator('[data-state="ready"]').waitFor();
      await page.evaluate(() => window.scrollTo(0, 120));
      await page.waitForFunction(() => window.scrollY === 120);
      const sidebar = await openSidebar(page);
      await sidebar.getByTestId('menu-search').fill('dataviewers');
      await menuLink(page, 'DataViewers').click();
      await page.waitForURL(/\/en\/reports\/dataviewer$/);
      await page.locator('.dv-page[data-testid="dataviewer-page"]').waitFor();
      await page.getByTestId('dv-run').waitFor();
      // The new screen is taller than the window: a kept offset would show.
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(120);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await page.waitForURL(/\/en$/);
      await page.waitForFunction(() => window.scrollY === 120);
    });
  });

  it('is a drawer on a phone: 80% wide, toggled, closed after navigation', async () => {
    await withPage(browser, { viewport: { width: 375, height: 812 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await expect.poll(() => page.locator('[data-testid="sidebar"]').count()).toBe(0);
      await page.getByTestId('sidebar-toggle').click();
      const drawer = page.locator('.bo-sider-drawer .ant-drawer-content-wrapper');
      await drawer.waitFor();
      expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(300);
      await page.getByTestId('sidebar').getByText('Finances', { exact: true }).click();
      await menuLink(page, 'Supply finances').click();
      await page.waitForURL(/\/en\/finances\/supply$/);
      await drawer.waitFor({ state: 'hidden' });
    });
  });

  it('is a 300px drawer on a tablet', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 768 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.getByTestId('sidebar-toggle').click();
      const drawer = page.locator('.bo-sider-drawer .ant-drawer-content-wrapper');
      await drawer.waitFor();
      expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(300);
      await page.locator('.bo-sider-drawer .ant-drawer-mask').click({ position: { x: 900, y: 400 } });
      await drawer.waitFor({ state: 'hidden' });
    });
  });
});
