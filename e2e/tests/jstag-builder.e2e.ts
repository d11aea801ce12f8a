/**
 * JS tag and PlayOn builders (issue 25, decision 040), in Chromium:
 *   - a generated async tag pasted into a plain page with a CMP (TCF, GPP and US privacy APIs)
 *     asks the test ad server for its ad with the consent the CMP gave, and shows the creative,
 *     which prints what arrived; with a floor above the test bid it shows the passback instead;
 *   - tech fills the JS tag builder's form and its preview (a sandboxed frame) shows the creative
 *     for that ad unit;
 *   - a PlayOn embed in an article loads the demo VAST, plays the video and fires its impression;
 *     the PlayOn builder's preview does the same;
 *   - axe on the builders' form and preview at 1440 and 375 px, light (en) and dark (es); with E2E_SCREENSHOTS=1 the screens are saved
 *     under .tmp/jstag-builder/.
 */
import { jstagBuilder, type JsTagConfig } from '@backoffice/core/builders/jstag';
import { playonBuilder } from '@backoffice/core/builders/playon';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('jstag-builder');

/**
 * The publisher's site: another origin on this machine, serving the page the test sets. (A page
 * of about:blank or data: is a public context for Chromium, which may not call a server on
 * 127.0.0.1; a real publisher's page and ad server are both public.)
 */
let publisherHtml = '';
const publisher = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(publisherHtml);
});
let publisherUrl = '';

beforeAll(async () => {
  browser = await launchBrowser();
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  publisherUrl = `http://localhost:${(publisher.address() as AddressInfo).port}/news/article.html`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => publisher.close(resolve));
});

const TC_STRING = 'CQH0vQAQH0vQAAHABBENBWFsAP_gAEPgAAAAKYtV_G__bWlr8X73aftkeY1P9_h77sQxBhfJE-4FzLvW_JwXx2ExNA36tqIKmRIEu3bBIQNlHJDUTVCgaogVryDMakWcoTNKJ6BkiFMRO2dYCF5vmQtj-QKY5vr991dx2B-t7dr83dzyz4VHn3a5_2a0WJCdA5-tDfv9bROb-9IOd_x8v4v8_F_rE2_eT1l_tevp7D9-cts7_XW-9_fff79Ll_-mBwUcALMNCogDLIkJCDQMIIEAKgrCAigQAAAAkDRAQAmDAp2BgEusJEAIAUAAwQAgABRkACAAASABCIAIACgQAAQCBQAAgAACAQAAgAAAAAAAAAAAQAAAAAAAAAQAAAAAAAA';
const GPP_STRING = 'DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA';

/** A CMP as IAB's stubs answer: TCF 2 (after a short wait), GPP 1.1 and the US privacy API. */
const CMP = `<script>
  window.__tcfapi = function (command, version, callback) {
    if (command === 'addEventListener') setTimeout(function () { callback({ eventStatus: 'tcloaded', gdprApplies: true, tcString: '${TC_STRING}', listenerId: 1 }, true); }, 50);
  };
  window.__gpp = function (command, callback) {
    if (command === 'addEventListener') callback({ eventName: 'signalStatus', listenerId: 1, data: 'ready', pingData: { signalStatus: 'ready', gppString: '${GPP_STRING}', applicableSections: [2] } }, true);
  };
  window.__uspapi = function (command, version, callback) { callback({ version: 1, uspString: '1YNN' }, true); };
</script>`;

const texts = (frame: FrameLocator) => frame.locator('svg text').allTextContents();

/** The plain page a publisher would have: a CMP, then the tag. */
async function publisherPage(page: Page, tag: string) {
  publisherHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Publisher page</title>${CMP}</head><body><main><h1>News</h1>${tag}</main></body></html>`;
  await page.goto(publisherUrl);
}

const asyncTag = (over: Partial<JsTagConfig>): string =>
  jstagBuilder.render({
    ...jstagBuilder.defaults(),
    server_url: getBaseURL(),
    ad_unit: 'e2e_home_mpu',
    sizes: ['300x250', '300x600'],
    floor: '0.85',
    consent: { tcf: 'cmp', gpp: 'cmp', us_privacy: 'cmp', vendor_id: 1126, timeout_ms: 2000 },
    ...over,
  }).code;

describe('js tag builder', () => {
  it('runs a generated async tag in a page: it asks for the test creative with the CMP’s consent, and passes back without an ad', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 768 } }, async (page) => {
      const request = page.waitForRequest((r) => r.url().includes('/v1/public/serve/ad?'));
      await publisherPage(page, asyncTag({}));
      const url = new URL((await request).url());
      expect(Object.fromEntries(['unit', 'sizes', 'floor', 'cur', 'gdpr', 'gdpr_consent', 'gpp', 'gpp_sid', 'us_privacy'].map((k) => [k, url.searchParams.get(k)]))).toEqual({
        unit: 'e2e_home_mpu',
        sizes: '300x250,300x600',
        floor: '0.85',
        cur: 'EUR',
        gdpr: '1',
        gdpr_consent: TC_STRING,
        gpp: GPP_STRING,
        gpp_sid: '2',
        us_privacy: '1YNN',
      });
      expect(url.searchParams.get('cb')).toMatch(/^[0-9a-z]{8,}$/);
      // The creative shows in the slot, at the first size, printing what arrived.
      const creative = page.frameLocator('ins.bo-ad iframe');
      await creative.locator('svg').waitFor();
      const printed = (await texts(creative)).join('\n');
      expect(printed).toContain('Test ad 300x250');
      expect(printed).toContain('unit: e2e_home_mpu');
      expect(printed).toContain('gdpr=1');
      expect(await page.locator('ins.bo-ad iframe').getAttribute('width')).toBe('300');
    });

    await withPage(browser, { viewport: { width: 1024, height: 768 } }, async (page) => {
      const passback = '<p id="passback">House ad: subscribe to the newsletter</p><script>document.getElementById("passback").dataset.ran = "yes"</script>';
      await publisherPage(page, asyncTag({ floor: '9.50', passback_type: 'html', passback }));
      const slot = page.frameLocator('ins.bo-ad iframe');
      await slot.locator('#passback').waitFor();
      expect(await slot.locator('#passback').getAttribute('data-ran')).toBe('yes');
    });
  });

  it('tech builds a tag in the form and the preview shows the test creative for its ad unit', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/jstagbuilder' });
      await page.getByTestId('jstag-form').waitFor();
      const request = page.waitForRequest((r) => r.url().includes('/v1/public/serve/ad?') && r.url().includes('unit=e2e_article_top') && r.url().includes('floor=1.20'));
      await page.getByTestId('jstag-ad-unit').fill('e2e_article_top');
      await page.locator('#builder-field-floor').fill('1.20');
      await expect.poll(async () => page.getByTestId('jstag-status').getAttribute('data-state'), { timeout: 20_000 }).toBe('valid');
      const creative = page.frameLocator('[data-testid="jstag-preview-frame"]').frameLocator('iframe');
      await request;
      await expect.poll(async () => (await texts(creative)).join('\n'), { timeout: 20_000 }).toContain('unit: e2e_article_top');
      expect((await texts(creative)).join('\n')).toContain('1.20 EUR');

      // A floor above the test bid: the creative says no ad, and the slot collapses (no passback).
      await page.locator('#builder-field-floor').fill('7');
      await page.getByTestId('jstag-preview-reload').click();
      const preview = page.frameLocator('[data-testid="jstag-preview-frame"]');
      await expect.poll(async () => preview.locator('ins.bo-ad').evaluate((el) => getComputedStyle(el).display), { timeout: 20_000 }).toBe('none');
    });
  });

  it('a PlayOn embed reads the demo VAST, plays the video and fires the impression, in a page and in the builder’s preview', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 900 }, reducedMotion: 'no-preference' }, async (page) => {
      const { code } = playonBuilder.render({ ...playonBuilder.defaults(), server_url: getBaseURL(), ad_unit: 'e2e_article_video', paragraph: 1, frequency_cap: null });
      const vast = page.waitForRequest((r) => r.url().includes('/v1/public/serve/vast-demo.xml'));
      const impression = page.waitForRequest((r) => r.url().includes('/v1/public/serve/track?e=impression'), { timeout: 30_000 });
      const firstQuartile = page.waitForRequest((r) => r.url().includes('/v1/public/serve/track?e=firstQuartile'), { timeout: 30_000 });
      await publisherPage(page, `<article><p>First paragraph.</p>${code}<p>Second paragraph.</p></article>`);
      const vastUrl = new URL((await vast).url());
      expect(vastUrl.searchParams.get('gdpr_consent')).toBe(TC_STRING);
      await impression;
      await firstQuartile;
      const video = page.locator('.bo-playon video');
      expect(await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, playing: !v.paused, src: v.currentSrc }))).toMatchObject({ muted: true, playing: true });
      // The player sits after the first paragraph.
      expect(await page.locator('article > p + .bo-playon').count()).toBe(1);
    });

    await withPage(browser, { viewport: { width: 1440, height: 900 }, reducedMotion: 'no-preference' }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: '/utils/playon-builders' });
      await page.getByTestId('playon-form').waitFor();
      const impression = page.waitForRequest((r) => r.url().includes('/v1/public/serve/track?e=impression'), { timeout: 30_000 });
      await page.getByTestId('playon-ad-unit').fill('e2e_preview_video');
      await page.locator('#builder-field-paragraph').fill('1');
      // The player waits until half of it is on screen (the viewability threshold).
      await page.getByTestId('playon-preview-frame').scrollIntoViewIfNeeded();
      await impression;
      const frame = page.frameLocator('[data-testid="playon-preview-frame"]');
      await frame.locator('.bo-playon video').waitFor();
    });
  });

  for (const [width, height, theme, lang] of [
    [1440, 900, 'light', 'en'],
    [375, 800, 'dark', 'es'],
  ] as const) {
    for (const screen of ['jstagbuilder', 'playon-builders'] as const) {
      it(`${screen}: no serious accessibility problem at ${width} px, ${theme} (${lang})`, async () => {
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.tech, { via: 'api', lang: lang as Lang, theme, path: `/utils/${screen}` });
          const id = screen === 'jstagbuilder' ? 'jstag' : 'playon';
          await page.getByTestId(`${id}-form`).waitFor();
          await page.getByTestId(`${id}-examples`).click();
          await page.getByTestId(`${id}-example-0`).click();
          await expect.poll(async () => page.getByTestId(`${id}-status`).getAttribute('data-state'), { timeout: 20_000 }).toMatch(/valid|warnings/);
          await page.getByTestId(`${id}-preview-frame`).scrollIntoViewIfNeeded();
          const preview = page.frameLocator(`[data-testid="${id}-preview-frame"]`);
          if (id === 'jstag') await preview.frameLocator('iframe').locator('svg').waitFor({ timeout: 20_000 });
          else await preview.locator('.bo-playon video').waitFor({ timeout: 20_000 });
          // This builder's parts: its form and its preview (the shared page around them is checked by the builders' own e2e).
          await expectNoSeriousViolations(page, `${screen} ${width} ${theme}`, { within: `[data-testid="${id}-form"], [data-testid="${id}-preview"]` });
          await shot(page, `${id}-${width}-${theme}-${lang}`);
        });
      });
    }
  }
});

