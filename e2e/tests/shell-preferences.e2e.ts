/** Theme and language switches in the shell, persisting across reloads (spec sections 1, 3 and 9). */
import { es } from '@backoffice/core/i18n/catalogues';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { cookieValue, DEMO, signIn, storedSession, waitForShell, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('preferences', () => {
  it('switches to the dark theme and keeps it after a reload and a new sign-in', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance);
      const light = await bodyBackground(page);
      const themeSwitch = page.getByRole('button', { name: 'Dark theme' });
      await expect.poll(() => themeSwitch.getAttribute('aria-pressed')).toBe('false');
      await themeSwitch.click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await expect.poll(() => themeSwitch.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => bodyBackground(page)).not.toBe(light);
      expect((await storedSession(page))?.state.theme).toBe('dark');
      await page.reload();
      await waitForShell(page);
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      // A preference, not session data: it stays after logging out.
      await page.getByTestId('profile-open').click();
      await page.getByTestId('profile-logout').click();
      await page.waitForURL(/\/en\/login$/);
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    });
  });

  it('switches the language in the shell: URL segment, texts, antd locale, and it persists', async () => {
    await withPage(browser, {}, async (page, context) => {
      await signIn(page, DEMO.finance, { via: 'api', path: '/utils/signature_manager' });
      await page.getByTestId('language-switch').getByText('ES', { exact: true }).click();
      await page.waitForURL(/\/es\/utils\/signature_manager$/);
      await page.getByTestId('signature-manager').getByRole('heading', { name: 'Gestor de firmas', level: 1 }).waitFor();
      await page.getByText(es['signatures.intro']).waitFor();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
      await expect.poll(() => cookieValue(context, 'locale')).toBe('es');
      expect((await storedSession(page))?.state.locale).toBe('es');
      await page.goto('/');
      await page.waitForURL(/\/es$/);
      await waitForShell(page);
      await page.getByRole('button', { name: 'Tema oscuro' }).waitFor();
    });
  });
});
