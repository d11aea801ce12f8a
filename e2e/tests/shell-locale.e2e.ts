/** Locale rules of spec section 2: /, the locale segment, the cookie, mismatches, trailing slashes, /report. */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { cookieValue, currentPath, DEMO, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function setLocaleCookie(context: BrowserContext, value: string) {
  await context.addCookies([{ name: 'locale', value, url: getBaseURL() }]);
}

describe('locale in the URL', () => {
  it('sends / to /en without a saved locale, then to the sign-in page', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/');
      await page.waitForURL(/\/en\/login$/);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    });
  });

  it('sends / to the locale saved in the cookie', async () => {
    await withPage(browser, {}, async (page, context) => {
      await setLocaleCookie(context, 'es');
      await page.goto('/');
      await page.waitForURL(/\/es\/login$/);
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    });
  });

  it('takes the locale from the first segment over the cookie, and saves it', async () => {
    await withPage(browser, {}, async (page, context) => {
      await setLocaleCookie(context, 'en');
      await page.goto('/es/login');
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
      await expect.poll(() => cookieValue(context, 'locale')).toBe('es');
      await page.goto('/');
      await page.waitForURL(/\/es\/login$/);
    });
  });

  it('replaces an unknown locale by the active one and ignores an invalid cookie', async () => {
    await withPage(browser, {}, async (page, context) => {
      // Each page is waited for until it shows its heading, not just its URL: the URL is made
      // canonical before the app renders, and the locale segment's layout saves the locale
      // cookie when it renders. A cookie set in between was overwritten by that save (the run
      // that ended on /es/login after the cookie 'xx').
      await page.goto('/fr/login');
      await page.waitForURL(/\/en\/login$/);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      await setLocaleCookie(context, 'es');
      await page.goto('/de/login');
      await page.waitForURL(/\/es\/login$/);
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
      await setLocaleCookie(context, 'xx');
      await page.goto('/');
      await page.waitForURL(/\/en\/login$/);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      await expect.poll(() => cookieValue(context, 'locale')).toBe('en');
    });
  });

  it('normalises the case of a valid locale and adds a missing one', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/ES/login');
      await page.waitForURL(/\/es\/login$/);
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
      await page.goto('/login');
      // The active locale is now es (saved when /es/login was shown).
      await page.waitForURL(/\/es\/login$/);
    });
  });

  it('removes trailing slashes, keeping the query', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login/?from=mail');
      await page.waitForURL(/\/en\/login\?from=mail$/);
      expect(currentPath(page)).toBe('/en/login');
      await page.goto('/en///');
      await page.waitForURL(/\/en\/login$/);
    });
  });

  it('redirects /report/{id} to /reports/dataviewer/{id} inside the locale', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', lang: 'es' });
      await page.goto('/es/report/42');
      await page.waitForURL(/\/es\/reports\/dataviewer\/42$/);
      await page.goto('/report/7');
      await page.waitForURL(/\/es\/reports\/dataviewer\/7$/);
    });
  });

  it('switches the language from the sign-in page: URL, texts and the saved locale', async () => {
    await withPage(browser, {}, async (page, context) => {
      await page.goto('/en/login');
      await page.getByTestId('language-switch').getByText('ES', { exact: true }).click();
      await page.waitForURL(/\/es\/login$/);
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
      await expect.poll(() => cookieValue(context, 'locale')).toBe('es');
      await page.reload();
      await page.getByRole('heading', { name: 'Inicia sesión en tu cuenta' }).waitFor();
    });
  });
});
