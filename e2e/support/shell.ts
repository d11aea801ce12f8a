/**
 * Shell helpers for e2e tests: sign in (through the form, as a person does, or straight from the
 * API for tests about something else), sign out, and read what the shell shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { demoPasswordOf } from '../../apps/api/src/config.ts';
import { DEMO_MAILS } from '../../apps/api/src/db/demo-data.ts';
import { SESSION_STORAGE_KEY, SESSION_VERSION } from '../../apps/web/src/lib/session-keys.ts';
import type { SessionData, SessionUser } from '../../apps/web/src/lib/session-store.ts';
import { getBaseURL, newPage, type NewPageOptions } from './browser.ts';
import { REPO_ROOT } from './server.ts';

/** The demo accounts' password: the one the e2e servers seed (they get this process's env). */
export const DEMO_PASSWORD = demoPasswordOf(process.env);

/** Demo users' mails by key (the API seed's list, default company domain). */
export const DEMO = DEMO_MAILS;

export type Lang = 'en' | 'es';

/** The session object of the API (data of POST /v1/login), as the web app types it. */
export type ApiSession = SessionUser;

/** The web app's persisted state (apps/web/src/lib/session-store.ts), and where it is kept. */
export type StoredSession = SessionData;
export { SESSION_STORAGE_KEY, SESSION_VERSION };

/** Signs in through the API (no browser): the session a test can seed into a page. */
export async function apiLogin(mail: string, password = DEMO_PASSWORD, remember = true): Promise<ApiSession> {
  const res = await fetch(`${getBaseURL()}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: mail, password, remember }),
  });
  const body = (await res.json()) as { status: string; message: string; data: ApiSession };
  if (body.status !== 'success') throw new Error(`login ${mail} failed: ${res.status} ${body.message}`);
  return body.data;
}

/** GET an API path with a session's token; answers the envelope's data (throws on an error). */
export async function apiGet<T>(token: string, apiPath: string): Promise<T> {
  const res = await fetch(`${getBaseURL()}${apiPath}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { status: string; message?: string; data: T };
  if (!res.ok || body.status !== 'success') throw new Error(`GET ${apiPath}: ${res.status} ${body.message ?? ''}`);
  return body.data;
}

const tokens = new Map<string, string>();

/**
 * GET `/v1/<apiPath>` as a demo person (signed in through the API once per test file; signed in
 * again when that session has ended) and answers the envelope's data.
 */
export async function apiGetAs<T>(mail: string, apiPath: string): Promise<T> {
  for (const fresh of [false, true]) {
    let token = fresh ? undefined : tokens.get(mail);
    if (!token) {
      token = (await apiLogin(mail)).token;
      tokens.set(mail, token);
    }
    const res = await fetch(`${getBaseURL()}/v1/${apiPath}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401 && !fresh) continue;
    const body = (await res.json()) as { status: string; message?: string; data: T };
    if (!res.ok || body.status !== 'success') throw new Error(`GET ${apiPath} as ${mail}: ${res.status} ${body.message ?? ''}`);
    return body.data;
  }
  throw new Error(`GET ${apiPath} as ${mail}: the session ended twice`);
}

export interface SignInOptions {
  lang?: Lang;
  remember?: boolean;
  password?: string;
  /** 'ui' fills the sign-in form (default); 'api' seeds the session into local storage. */
  via?: 'ui' | 'api';
  theme?: 'light' | 'dark';
  /** Path (without locale) to open after signing in; default the dashboard. */
  path?: string;
}

/**
 * Puts a signed-in session into the context's local storage before any page script runs (only
 * when the storage holds no session yet, so reloads keep what the app saved).
 */
export async function seedSession(
  context: BrowserContext,
  session: ApiSession,
  opts: { lang?: Lang; theme?: 'light' | 'dark'; remember?: boolean; menus?: StoredSession['menus'] } = {},
) {
  const state: StoredSession = {
    user: session,
    menus: opts.menus ?? null,
    locale: opts.lang ?? 'en',
    theme: opts.theme ?? 'light',
    version: SESSION_VERSION,
    updated: opts.menus ? Date.now() : null,
    remember: opts.remember ?? true,
    original: null,
    simulation: null,
  };
  await context.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [SESSION_STORAGE_KEY, JSON.stringify({ state, version: SESSION_VERSION })] as const,
  );
}

/** Waits until the signed-in shell shows its menu (the menus are loaded). */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('[data-testid="shell"][data-menu="ready"]').waitFor({ state: 'visible' });
}

const PATH_END = (lang: Lang, path = '') => new RegExp(`/${lang}${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * Signs in as `mail` and waits for the dashboard (or `opts.path`) with the menu loaded. Through
 * the sign-in form by default, as a person would.
 */
export async function signIn(page: Page, mail: string, opts: SignInOptions = {}): Promise<void> {
  const lang = opts.lang ?? 'en';
  if (opts.via === 'api') {
    const session = await apiLogin(mail, opts.password, opts.remember ?? true);
    // With its menus seeded too, the app opens the asked path at once (a session without menus
    // goes to the locale root first, spec section 4: one dashboard load less per test).
    const menus = await apiGet<StoredSession['menus']>(session.token, '/v1/admin/menu');
    await seedSession(page.context(), session, { lang, theme: opts.theme, remember: opts.remember, menus });
    await page.goto(`/${lang}${opts.path ?? ''}`);
    await waitForShell(page);
    return;
  }
  await page.goto(`/${lang}/login`);
  await page.locator('#login-mail').fill(mail);
  await page.locator('#login-password').fill(opts.password ?? DEMO_PASSWORD);
  if (opts.remember) await page.getByTestId('login-remember').check();
  await page.getByTestId('login-submit').click();
  await page.waitForURL(PATH_END(lang));
  await waitForShell(page);
  if (opts.path) {
    await page.goto(`/${lang}${opts.path}`);
    await waitForShell(page);
  }
}

/** Logs out through the profile menu and waits for the sign-in page. */
export async function signOut(page: Page, lang: Lang = 'en'): Promise<void> {
  await page.getByTestId('profile-open').click();
  await page.getByTestId('profile-logout').click();
  await page.waitForURL(PATH_END(lang, '/login'));
}

/** The state the app persisted in local storage. */
export async function storedSession(page: Page): Promise<{ state: StoredSession; version: number } | null> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as { state: StoredSession; version: number }) : null;
}

/** The toast (antd message) that contains `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** Path of the current URL (no origin, query or hash). */
export function currentPath(page: Page): string {
  return new URL(page.url()).pathname;
}

/** The sidebar's menu entry link with this visible title. */
export function menuLink(page: Page, title: string | RegExp): Locator {
  return page.getByTestId('sidebar').getByRole('link', { name: title });
}

/** Opens the sidebar (rail or drawer) when it is closed. */
export async function openSidebar(page: Page): Promise<Locator> {
  const toggle = page.getByTestId('sidebar-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const sidebar = page.locator('[data-testid="sidebar"][data-state="open"]');
  await sidebar.waitFor({ state: 'visible' });
  return sidebar;
}

/** Runs `fn` with a fresh context and page, closing them afterwards. */
export async function withPage<T>(browser: Browser, opts: NewPageOptions, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const { context, page } = await newPage(browser, opts);
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => consoleLines.push(`requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  try {
    return await fn(page, context);
  } catch (error) {
    await keepFailureEvidence(page, consoleLines);
    throw error;
  } finally {
    await context.close();
  }
}

/**
 * What a failed test leaves for whoever reads the failure: a screenshot of every page of its
 * context and the page's console, errors and failed requests, in .tmp/e2e-failures/ (named after
 * the test). Never hides the test's own error.
 */
async function keepFailureEvidence(page: Page, consoleLines: string[]): Promise<void> {
  try {
    const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w.-]+/g, '_').slice(0, 150);
    const dir = path.join(REPO_ROOT, '.tmp', 'e2e-failures');
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const pages = page.context().pages();
    for (const [i, p] of pages.entries()) {
      await p.screenshot({ path: path.join(dir, `${name}-${stamp}-${i}.png`), fullPage: true, timeout: 5_000 }).catch(() => undefined);
    }
    fs.writeFileSync(path.join(dir, `${name}-${stamp}.log`), [`url: ${page.url()}`, ...consoleLines].join('\n'));
    console.error(`e2e: screenshots and console of the failed test in ${path.relative(REPO_ROOT, dir)}/${name}-${stamp}*`);
  } catch {
    // Evidence is a help, never a second failure.
  }
}

/** The value of a cookie of the app's origin. */
export async function cookieValue(context: BrowserContext, name: string): Promise<string | undefined> {
  const cookies = await context.cookies(getBaseURL());
  return cookies.find((c) => c.name === name)?.value;
}

/**
 * Picks a role in the open simulator's role select. The list is virtual, so the role is typed
 * into the select's search box to bring it into view; the text is filled into the box itself
 * (keystrokes sent before the box has focus were lost under load, leaving the role out of view).
 */
export async function chooseSimulatedRole(page: Page, role: string): Promise<void> {
  await page.getByTestId('simulate-role').click();
  await page.locator('#bo-simulate-role').fill(role);
  await page.locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${role}$`) }).click();
}
