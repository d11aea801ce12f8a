/** Session (spec section 4): remember-me, restore after reload, logout, /clean, expiry, menu refresh and failure. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import {
  apiLogin,
  currentPath,
  DEMO,
  seedSession,
  SESSION_STORAGE_KEY,
  SESSION_VERSION,
  signIn,
  signOut,
  storedSession,
  toast,
  waitForShell,
  withPage,
} from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('session', () => {
  it('restores the session after a reload, menu included', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance);
      const before = await storedSession(page);
      expect(before?.state.menus?.length).toBeGreaterThan(0);
      expect(typeof before?.state.updated).toBe('number');
      const menuRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/v1/admin/menu')) menuRequests.push(r.url());
      });
      await page.reload();
      await waitForShell(page);
      expect(currentPath(page)).toBe('/en');
      // Fresh menus are not fetched again.
      expect(menuRequests).toEqual([]);
    });
  });

  it('without "remember", the session ends with the browser session', async () => {
    await withPage(browser, {}, async (page, context) => {
      await signIn(page, DEMO.finance, { remember: false });
      await page.reload();
      await waitForShell(page); // a reload keeps it
      await context.clearCookies(); // what closing the browser does to session cookies
      await page.reload();
      await page.waitForURL(/\/en\/login$/);
    });
  });

  it('with "remember login on this computer", the session survives the browser closing', async () => {
    await withPage(browser, {}, async (page, context) => {
      await signIn(page, DEMO.finance, { remember: true });
      expect((await storedSession(page))?.state.remember).toBe(true);
      await context.clearCookies();
      await page.reload();
      await waitForShell(page);
      expect(currentPath(page)).toBe('/en');
    });
  });

  it('logs out from the profile menu: the session ends on the server and the stored session is cleared', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance);
      const token = (await storedSession(page))!.state.user!.token;
      await signOut(page);
      const saved = await storedSession(page);
      expect(saved?.state.user ?? null).toBeNull();
      expect(saved?.state.menus ?? null).toBeNull();
      // The old token no longer works anywhere (a copy of it is useless).
      const menuStatus = () =>
        page.evaluate(async (t) => (await fetch('/v1/admin/menu', { headers: { authorization: `Bearer ${t}` } })).status, token);
      await expect.poll(menuStatus).toBe(401);
      await page.goto('/en');
      await page.waitForURL(/\/en\/login$/);
    });
  });

  it('/clean clears local storage, logs out and goes to the locale root', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { lang: 'es' });
      await page.evaluate(() => window.localStorage.setItem('some-other-key', 'x'));
      await page.goto('/clean');
      await page.waitForURL(/\/es\/login$/);
      await expect.poll(() => page.evaluate(() => window.localStorage.getItem('some-other-key'))).toBeNull();
      expect((await storedSession(page))?.state.user ?? null).toBeNull();
    });
  });

  it('with a user and no menus yet, goes to the locale root and loads the menus', async () => {
    await withPage(browser, {}, async (page, context) => {
      await seedSession(context, await apiLogin(DEMO.finance), { lang: 'es' });
      await page.goto('/es/finances/supply');
      await page.waitForURL(/\/es$/);
      await waitForShell(page);
      expect((await storedSession(page))?.state.menus?.length).toBeGreaterThan(0);
    });
  });

  it("an expired token shows 'Token Expired, please logout and try again' and logs out", async () => {
    await withPage(browser, {}, async (page, context) => {
      const session = await apiLogin(DEMO.finance);
      await seedSession(context, { ...session, exp: Math.floor(Date.now() / 1000) - 60 });
      await page.goto('/en/finances/supply');
      await toast(page, 'Token Expired, please logout and try again').waitFor();
      await page.waitForURL(/\/en\/login$/);
    });
  });

  it('a 401 token_expired answer from the API also logs out with the message', async () => {
    await withPage(browser, {}, async (page) => {
      await page.route('**/v1/admin/menu', (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ status: 'error', message: 'auth.token_expired', data: null, text: 'Token Expired, please logout and try again' }),
        }),
      );
      await seedSessionFor(page, DEMO.finance);
      await page.goto('/en');
      await toast(page, 'Token Expired, please logout and try again').waitFor();
      await page.waitForURL(/\/en\/login$/);
    });
  });

  it('menus older than one day: the token is refreshed, then the menus reloaded', async () => {
    await withPage(browser, {}, async (page, context) => {
      const session = await apiLogin(DEMO.finance);
      const twoDaysAgo = Date.now() - 2 * 24 * 60 * 60 * 1000;
      const state = {
        user: session,
        menus: [{ id: 1, id_parent: null, title: 'menu.dashboard', icon: 'DashboardOutlined', prefix: '', slug: '', permission: '', hidden: false, children: [] }],
        locale: 'en',
        theme: 'light',
        version: SESSION_VERSION,
        updated: twoDaysAgo,
        remember: true,
        original: null,
        simulation: null,
      };
      await context.addInitScript(
        ([key, value]) => window.localStorage.setItem(key, value),
        [SESSION_STORAGE_KEY, JSON.stringify({ state, version: SESSION_VERSION })] as const,
      );
      const order: string[] = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path === '/v1/login/refresh' || path === '/v1/admin/menu') order.push(path);
      });
      const menuDone = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/admin/menu');
      await page.goto('/en');
      await menuDone;
      expect(order.slice(0, 2)).toEqual(['/v1/login/refresh', '/v1/admin/menu']);
      await page.waitForFunction(
        ([key, old]) => {
          const saved = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { state?: { updated?: number; menus?: unknown[] } };
          return (saved.state?.updated ?? 0) > old && (saved.state?.menus?.length ?? 0) > 1;
        },
        [SESSION_STORAGE_KEY, twoDaysAgo] as const,
      );
    });
  });

  it('a failed menu fetch shows a toast and logs out', async () => {
    await withPage(browser, {}, async (page) => {
      await page.route('**/v1/admin/menu', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ status: 'error', message: 'error.internal', data: null }),
        }),
      );
      await seedSessionFor(page, DEMO.finance);
      await page.goto('/en');
      await toast(page, 'The menu could not be loaded. Please sign in again.').waitFor();
      await page.waitForURL(/\/en\/login$/);
    });
  });
});

async function seedSessionFor(page: Page, mail: string) {
  await seedSession(page.context(), await apiLogin(mail));
}
