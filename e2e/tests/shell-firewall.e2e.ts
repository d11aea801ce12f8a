/** The top-bar firewall control (spec sections 2, 5, 8, 9): durations, Unlimited permission, messages, visibility. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { chooseSimulatedRole, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openFirewall(page: Page) {
  await page.getByTestId('firewall-open').click();
  const form = page.getByTestId('firewall-form');
  await form.waitFor();
  return form;
}

async function durationOptions(page: Page): Promise<string[]> {
  await page.getByTestId('firewall-type').click();
  const options = page.locator('.ant-select-item-option');
  await options.first().waitFor();
  return options.allTextContents();
}

describe('firewall control', () => {
  it("shows the caller's IP, 'Select..' until a duration is chosen, and no Unlimited without firewall_unlimited", async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.getByTestId('firewall-open').getByText('127.0.0.1').waitFor();
      const form = await openFirewall(page);
      await expect.poll(() => form.getByTestId('firewall-ip').textContent()).toContain('127.0.0.1');
      await form.getByText('Select..').waitFor();
      await expect.poll(() => form.getByTestId('firewall-submit').isDisabled()).toBe(true);
      expect(await durationOptions(page)).toEqual(['1 hour', '2 hours', '3 hours', '6 hours', '9 hours', '12 hours']);
      await page.locator('.ant-select-item-option').filter({ hasText: /^2 hours$/ }).click();
      await form.getByTestId('firewall-submit').click();
      await toast(page, 'Your IP has been added to the firewall').waitFor();
    });
  });

  it('offers Unlimited with firewall_unlimited and adds the IP without expiry', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', lang: 'es' });
      await openFirewall(page);
      const options = await durationOptions(page);
      expect(options).toEqual(['1 hora', '2 horas', '3 horas', '6 horas', '9 horas', '12 horas', 'Ilimitado']);
      await page.locator('.ant-select-item-option').filter({ hasText: /^Ilimitado$/ }).click();
      await page.getByTestId('firewall-submit').click();
      await toast(page, 'Tu IP se ha añadido al firewall').waitFor();
    });
  });

  it("shows the server's error when the update fails", async () => {
    await withPage(browser, {}, async (page) => {
      await page.route('**/v1/firewall/ip', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 403,
              contentType: 'application/json',
              body: JSON.stringify({ status: 'error', message: 'firewall.unlimited_forbidden', data: null }),
            })
          : route.continue(),
      );
      await signIn(page, DEMO.finance, { via: 'api' });
      await openFirewall(page);
      await durationOptions(page);
      await page.locator('.ant-select-item-option').filter({ hasText: /^1 hour$/ }).click();
      await page.getByTestId('firewall-submit').click();
      await toast(page, 'You do not have permission for an unlimited duration').waitFor();
    });
  });

  it('reports the database and firewall results of an update with the spec messages', async () => {
    await withPage(browser, {}, async (page) => {
      const answers = [
        { update_db_ip: 'duplicated', update_firewall_ip: 'OK' },
        { update_db_ip: 'OK', update_firewall_ip: 'nginx reload failed' },
        { update_db_ip: 'x', update_firewall_ip: 'y' },
      ];
      await page.route('**/v1/firewall/ip', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'success', message: 'ok', data: answers.shift() }) })
          : route.continue(),
      );
      await signIn(page, DEMO.finance, { via: 'api' });
      await openFirewall(page);
      await durationOptions(page);
      await page.locator('.ant-select-item-option').filter({ hasText: /^3 hours$/ }).click();
      const submit = page.getByTestId('firewall-submit');
      // The toast can show before the button leaves its loading state, and a loading button
      // ignores clicks: wait for it to be ready again before the next update.
      const ready = () => page.locator('[data-testid="firewall-submit"]:not(.ant-btn-loading)').waitFor();
      await submit.click();
      await toast(page, 'The IP could not be saved in the database').waitFor();
      await ready();
      await submit.click();
      await toast(page, 'nginx reload failed').waitFor();
      await ready();
      await submit.click();
      await toast(page, 'Something wrong happened').waitFor();
    });
  });

  it('is hidden on mobile', async () => {
    await withPage(browser, { viewport: { width: 375, height: 812 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await page.getByTestId('profile-open').waitFor();
      await expect.poll(() => page.getByTestId('firewall-open').count()).toBe(0);
    });
  });

  it('is absent for a role without /v1/firewall (ADMIN simulating HR)', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      await page.getByTestId('firewall-open').waitFor();
      await page.getByTestId('simulator-open').click();
      await chooseSimulatedRole(page, 'HR');
      await page.getByTestId('simulate-submit').click();
      await page.getByTestId('simulation-banner').waitFor();
      await page.getByTestId('firewall-open').waitFor({ state: 'detached' });
    });
  });
});
