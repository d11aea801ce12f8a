/**
 * SDK builder and app tracking manager (issue 25, decision 041). Tech opens the SDK builder,
 * chooses the demo iOS news app (its platform and app-ads.txt status show, its bundle fills the
 * configuration), adds a native placement mapped to one of the app's ad units (the downloaded
 * JSON has it), pastes SKAdNetwork ids with one bad one (the error shows at its line in the list
 * and, from the issues list, at its line in the code), fixes it and saves a version. On the app
 * tracking manager, an Android app's app-ads.txt is checked (the publishers' check: the demo's
 * developer domain cannot be reached). axe in light and dark at 1440 and 375 px; with
 * E2E_SCREENSHOTS=1 both screens are saved under .tmp/sdk-builder/.
 */
import type { BuilderVersionPage } from '@backoffice/core/builders/common';
import type { SdkConfig } from '@backoffice/core/builders/sdk';
import type { SdkAppPage } from '@backoffice/core/sdk-apps';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('sdk-builder');
const SDK = '/utils/sdk-builder';
const TRACKING = '/utils/app-tracking-manager';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const appId = async (bundle: string) => (await apiGetAs<SdkAppPage>(DEMO.tech, `sdk/apps?q=${bundle}`)).items.find((a) => a.bundle === bundle)!.id;
const status = (page: Page, testId: string) => page.getByTestId(`${testId}-status`);

/** Loads a builder's example (confirming the replacement of the app's details the choice filled in). */
async function loadExample(page: Page, testId: string, index: number) {
  await page.getByTestId(`${testId}-examples`).click();
  await page.getByTestId(`${testId}-example-${index}`).click();
  const replace = page.locator('.ant-modal-confirm .ant-btn-dangerous');
  if (await replace.waitFor({ timeout: 1500 }).then(() => true, () => false)) await replace.click();
}

async function chooseApp(page: Page, testId: string, search: string, bundle: string) {
  await page.getByTestId(`${testId}-subject-pick`).click();
  await page.keyboard.type(search);
  await page.locator('.ant-select-item-option', { hasText: bundle }).first().click();
  await page.getByTestId(`${testId}-app`).waitFor();
}

describe('sdk builder and app tracking manager', () => {
  it('tech builds the SDK configuration of an iOS app: a placement, pasted SKAdNetwork ids with one bad, a saved version', async () => {
    const nimbus = await appId('com.nimbusnews.reader');
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: SDK });
      await page.getByTestId('sdk-form').waitFor();
      await page.getByTestId('sdk-app-none').waitFor();

      // The app: its platform and last app-ads.txt check; its bundle and store id fill the configuration.
      await chooseApp(page, 'sdk', 'nimbusnews', 'com.nimbusnews.reader');
      const panel = page.getByTestId('sdk-app');
      expect(await panel.getByTestId('sdk-app-platform').textContent()).toBe('iOS');
      expect(await panel.getByTestId('sdk-app-ads-status').textContent()).toBe('Verified');
      await expect.poll(() => page.locator('#builder-field-app-bundle').inputValue()).toBe('com.nimbusnews.reader');
      expect(await page.locator('#builder-field-app-store_id').inputValue()).toBe('id1482750917');
      expect(new URL(page.url()).searchParams.get('subject_id')).toBe(String(nimbus));

      // The first placement's ad unit, then a new native placement on another of the app's ad units.
      const adUnit = async (card: number, search: string, name: string) => {
        await page.getByTestId('sdk-placement').nth(card).getByTestId('sdk-placement-ad-unit').locator('input').fill(search);
        await page.locator('.ant-select-item-option', { hasText: name }).first().click();
      };
      await adUnit(0, 'home', 'nimbusnews_ios/home_320x50');
      await page.getByTestId('sdk-placement-add').click();
      const added = page.getByTestId('sdk-placement').nth(1);
      await added.getByTestId('sdk-placement-name').fill('Article feed native');
      await added.getByTestId('sdk-placement-format').click();
      await page.locator('.ant-select-item-option', { hasText: 'Native' }).first().click();
      await adUnit(1, 'feed', 'nimbusnews_ios/feed_native');
      // Nothing wrong but the empty SKAdNetwork list (a warning).
      await expect.poll(async () => (await status(page, 'sdk').getAttribute('data-state')) ?? '').toBe('warnings');

      // The JSON follows the form: the file downloaded now has the new placement.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sdk-download').click()]);
      expect(download.suggestedFilename()).toBe('sdk-config-com.nimbusnews.reader-ios.json');
      const file = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as SdkConfig;
      expect(file.app).toEqual({ bundle: 'com.nimbusnews.reader', store_id: 'id1482750917' });
      expect(file.placements[1]).toEqual({
        id: 'placement_2',
        name: 'Article feed native',
        format: 'native',
        sizes: [],
        refresh_seconds: null,
        floor: { amount: '0.50', currency: 'USD' },
        ad_unit_id: 'nimbusnews_ios/feed_native',
        reward: null,
        test_mode: false,
      });

      // Paste SKAdNetwork ids, the third one bad: its error at line 3 of the list and at its line in the code.
      await page.getByTestId('sdk-skan-paste-open').click();
      await page.getByTestId('sdk-skan-paste-text').fill('cstr6suwn9.skadnetwork\n4fzdc2evr5.skadnetwork\nNOT-AN-ID.skadnetwork\nydx93a7ass.skadnetwork');
      await page.getByTestId('sdk-skan-paste-add').click();
      await toast(page, '4 ids added.').waitFor();
      const rows = page.getByTestId('sdk-skan-row');
      await expect.poll(() => rows.count()).toBe(4);
      await rows.nth(2).getByText('Line 3: NOT-AN-ID.skadnetwork is not an SKAdNetwork id').waitFor();
      expect(await rows.nth(1).locator('.ant-form-item-explain-error').count()).toBe(0);
      await expect.poll(async () => (await status(page, 'sdk').getAttribute('data-errors')) ?? '').toBe('1');
      expect(await page.getByTestId('sdk-save').isDisabled()).toBe(true);
      const issue = page.locator('[data-testid="sdk-issue"][data-path="skadnetwork_ids.2"]');
      const line = Number(await issue.getAttribute('data-line'));
      expect(line).toBeGreaterThan(1);
      await issue.click();
      await expect.poll(async () => (await page.locator('.cm-activeLine').textContent()) ?? '').toContain('"NOT-AN-ID.skadnetwork"');

      // Fixed at its line: valid (the API's check included), and saved as a version of the app.
      await rows.nth(2).getByTestId('sdk-skan-input').fill('v72qych5uu.skadnetwork');
      await expect.poll(async () => (await status(page, 'sdk').getAttribute('data-state')) ?? '').toBe('valid');
      expect(await status(page, 'sdk').textContent()).toContain('Valid SDK configuration');
      await page.getByTestId('sdk-save').click();
      await page.getByTestId('sdk-version-name').fill('Launch with feed native');
      await page.getByTestId('sdk-save-ok').click();
      await toast(page, /Version \d+ saved: Launch with feed native/).waitFor();
      const versions = await apiGetAs<BuilderVersionPage>(DEMO.tech, `builders/sdk/versions?subject_type=app&subject_id=${nimbus}`);
      expect(versions.items[0]).toMatchObject({ name: 'Launch with feed native', subject_name: 'com.nimbusnews.reader' });
    });
  }, 150_000);

  it('checks an Android app’s app-ads.txt from the app tracking manager, and its output is JSON', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: TRACKING });
      await chooseApp(page, 'tracking', 'pixelracer', 'com.pixelracer.drift');
      const panel = page.getByTestId('tracking-app');
      expect(await panel.getByTestId('tracking-app-platform').textContent()).toBe('Android');
      expect(await panel.getByTestId('tracking-app-ads-status').textContent()).toBe('Not checked');
      await expect.poll(async () => (await page.getByTestId('tracking-code').getAttribute('data-language')) ?? '').toBe('json');
      await panel.getByTestId('tracking-app-check').click();
      // The demo's developer domain (.example) never answers: the check says so, on the app.
      await expect.poll(async () => (await panel.getByTestId('tracking-app-ads-status').textContent()) ?? '', { timeout: 20_000 }).toBe('Unreachable');
      await panel.getByText(/Read from https:\/\/pixelracer\.example\/app-ads\.txt/).waitFor();
    });
  }, 90_000);

  it('passes axe in light (en) and dark (es) at 1440 and 375 px on both screens', async () => {
    const nimbus = await appId('com.nimbusnews.reader');
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (!isAxeView(width, theme)) continue;
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.tech, { via: 'api', lang, theme, path: `${SDK}?subject_id=${nimbus}` });
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          await page.getByTestId('sdk-app').waitFor();
          await loadExample(page, 'sdk', 0);
          await page.locator('[data-testid="sdk-code"][data-ready="true"]').waitFor();
          await expect.poll(async () => (await status(page, 'sdk').getAttribute('data-state')) ?? '').toBe('valid');
          await shot(page, name('sdk'));
          await expectNoSeriousViolations(page, name('sdk'));

          await page.goto(`/${lang}${TRACKING}?subject_id=${nimbus}`);
          await page.getByTestId('tracking-app').waitFor();
          await loadExample(page, 'tracking', 0);
          await page.locator('[data-testid="tracking-code"][data-ready="true"]').waitFor();
          await expect.poll(async () => (await status(page, 'tracking').getAttribute('data-state')) ?? '').toBe('valid');
          await shot(page, name('tracking'));
          await expectNoSeriousViolations(page, name('tracking'));
        });
      }
    }
  }, 240_000);
});
