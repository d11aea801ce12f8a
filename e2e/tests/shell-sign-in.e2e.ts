/** Sign-in (spec sections 2, 5 and 6): validation, welcome panel, success, failures, mail without @. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { currentPath, DEMO, DEMO_PASSWORD, storedSession, toast, waitForShell, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('sign-in', () => {
  it('shows the welcome panel when the typed mail (no @, any case) matches a staff entry', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login');
      await page.locator('#login-mail').fill('FINANCE');
      // The mail the app will use is shown, with the primary domain appended.
      await page.getByText('You will sign in as finance@adtech.example').waitFor();
      const panel = page.getByTestId('welcome-panel');
      await panel.waitFor();
      await expect.poll(() => panel.textContent()).toContain('Hi, Javier Morales!');
      await expect.poll(() => panel.locator('img').getAttribute('src')).toMatch(/^\/v1\/staff\/pic\//);
      // Signed out, the sign-in page downloads none of the shell's or the home's code.
      const chunks = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/assets/')));
      expect(chunks.some((p) => p.startsWith('/assets/login-page-'))).toBe(true);
      expect(chunks.filter((p) => /^\/assets\/(shell-layout|dashboard-page)-/.test(p))).toEqual([]);
      // An unknown mail shows no panel.
      await page.locator('#login-mail').fill('nobody.here@adtech.example');
      await panel.waitFor({ state: 'detached' });
    });
  });

  it('requires mail and password with the spec messages, in English and Spanish', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login');
      await page.getByTestId('login-submit').click();
      await page.getByText('E-mail is a required field').waitFor();
      await page.getByText('Password is a required field').waitFor();
      await expect.poll(() => page.locator('#login-mail').getAttribute('aria-invalid')).toBe('true');
      expect(currentPath(page)).toBe('/en/login');
      await page.locator('#login-mail').fill('finance');
      await page.getByText('E-mail is a required field').waitFor({ state: 'detached' });
      await page.getByText('Password is a required field').waitFor();

      await page.goto('/es/login');
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await page.getByText('El correo electrónico es un campo obligatorio').waitFor();
      await page.getByText('La contraseña es un campo obligatorio').waitFor();
    });
  });

  it('signs in with a mail without @, says so, shows the redirecting label and opens the dashboard', async () => {
    await withPage(browser, {}, async (page) => {
      // The menus are fetched while the redirecting label shows: the shell never waits for them.
      await page.addInitScript(() => {
        const spinner = '[data-testid="menu-loading"]';
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of Array.from(r.addedNodes))
              if (n instanceof Element && (n.matches(spinner) || n.querySelector(spinner))) (window as { menuSpinner?: boolean }).menuSpinner = true;
        }).observe(document, { subtree: true, childList: true });
      });
      await page.goto('/en/login');
      const submit = page.getByTestId('login-submit');
      expect((await submit.textContent())?.trim()).toBe('Sign in');
      await page.locator('#login-mail').fill('finance');
      await page.locator('#login-password').fill(DEMO_PASSWORD);
      await submit.click();
      await toast(page, 'Correct credentials, redirecting to dashboard').waitFor();
      await page.getByRole('button', { name: 'Redirecting…' }).waitFor();
      await page.waitForURL(/\/en$/);
      await waitForShell(page);
      const saved = await storedSession(page);
      expect(saved?.state.user?.mail).toBe('finance@adtech.example');
      expect(saved?.version).toBe(1);
      await page.getByTestId('dashboard').getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      expect(saved?.state.menus?.length).toBeGreaterThan(0);
      await expect.poll(() => page.evaluate(() => (window as { menuSpinner?: boolean }).menuSpinner ?? false)).toBe(false);
    });
  });

  it("shows the server's message as an error toast for a wrong password", async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login');
      await page.locator('#login-mail').fill(DEMO.marketing);
      await page.locator('#login-password').fill('not-the-password');
      await page.getByTestId('login-submit').click();
      await toast(page, 'Wrong e-mail or password').waitFor();
      await page.getByTestId('login-failure').getByText('Wrong e-mail or password').waitFor();
      expect(currentPath(page)).toBe('/en/login');
      expect((await page.getByTestId('login-submit').textContent())?.trim()).toBe('Sign in');
    });
  });

  it('translates the failure message in Spanish', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/es/login');
      await page.locator('#login-mail').fill(DEMO.marketing);
      await page.locator('#login-password').fill('otra-cosa');
      await page.getByTestId('login-submit').click();
      await toast(page, 'Correo o contraseña incorrectos').waitFor();
    });
  });

  it('tells a user without a role that they have no permissions', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login');
      await page.locator('#login-mail').fill(DEMO.noRole);
      await page.locator('#login-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-submit').click();
      await toast(page, 'Your User has no permissions. Please contact with the IT team.').waitFor();
      expect(currentPath(page)).toBe('/en/login');
      expect((await storedSession(page))?.state.user ?? null).toBeNull();
    });
  });

  it('sends a signed-in user who opens the sign-in page to the dashboard', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/login');
      await page.locator('#login-mail').fill(DEMO.tech);
      await page.locator('#login-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.waitForURL(/\/en$/);
      await waitForShell(page);
      await page.goto('/en/login');
      await page.waitForURL(/\/en$/);
      await waitForShell(page);
    });
  });

  it('sends an unauthenticated visit of a screen to the sign-in page', async () => {
    await withPage(browser, {}, async (page) => {
      await page.goto('/en/utils/ip');
      await page.waitForURL(/\/en\/login$/);
    });
  });
});
