/** The crash screen (spec sections 2 and 8) on a screen whose code throws (e2e/support/crash.ts). */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { breakScreen, CRASH_MESSAGE, CRASH_PATH } from '../support/crash.ts';
import { DEMO, menuLink, openSidebar, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('crash screen', () => {
  it('replaces only the broken screen: the shell stays, with the report steps, URL and stack', async () => {
    await withPage(browser, {}, async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: getBaseURL() });
      const broken = await breakScreen(page);
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.goto(`/en${CRASH_PATH}`);
      const crash = page.getByTestId('crash-screen');
      await crash.getByRole('heading', { name: 'Something went wrong on this screen' }).waitFor();
      expect(broken.served()).toBe(true);
      await crash.getByText('How to report it').waitFor();
      const report = await crash.getByTestId('crash-report').inputValue();
      expect(report).toContain(`URL: ${getBaseURL()}/en${CRASH_PATH}`);
      expect(report).toContain(CRASH_MESSAGE);
      expect(report).toMatch(/Stack:\n.*Error/);
      // The shell is still there and works.
      await page.getByTestId('top-bar').waitFor();
      await openSidebar(page);
      await menuLink(page, 'Dashboard').waitFor();
      await page.keyboard.press('Escape');
      await crash.getByRole('button', { name: 'Copy report' }).click();
      await toast(page, 'Report copied to the clipboard').waitFor();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(report);
      await crash.getByRole('link', { name: 'Back to dashboard' }).click();
      await page.waitForURL(/\/en$/);
      await page.getByTestId('dashboard').getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await expect.poll(() => page.getByTestId('crash-screen').count()).toBe(0);
    });
  });

  it('is translated', async () => {
    await withPage(browser, {}, async (page) => {
      await breakScreen(page);
      await signIn(page, DEMO.finance, { via: 'api', lang: 'es' });
      await page.goto(`/es${CRASH_PATH}`);
      await page.getByRole('heading', { name: 'Algo ha fallado en esta pantalla' }).waitFor();
      await page.getByRole('link', { name: 'Volver al panel' }).waitFor();
    });
  });
});
