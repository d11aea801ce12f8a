import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaseURL, launchBrowser, newPage } from '../support/browser.ts';

describe('smoke: the built app is served', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('answers /readyz once the database is reachable', async () => {
    const res = await fetch(`${getBaseURL()}/readyz`);
    expect(res.status).toBe(200);
  });

  it('serves the web app: / goes to /en/login and shows the sign-in form', async () => {
    const { context, page } = await newPage(browser);
    try {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/');
      await page.waitForURL(/\/en\/login$/);
      const form = page.locator('form').filter({ has: page.locator('input[type="password"]') });
      await form.waitFor({ state: 'visible' });
      await expect(form.locator('input[type="password"]').isVisible()).resolves.toBe(true);
      await expect(form.locator('button[type="submit"]').isVisible()).resolves.toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers unknown API paths with the error envelope, not the web app', async () => {
    const res = await fetch(`${getBaseURL()}/v1/does-not-exist`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { status: string; message: string };
    expect(body.status).toBe('error');
  });
});
