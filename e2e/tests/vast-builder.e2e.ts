/**
 * VAST builder (issue 25, decision 038): tech builds a VAST 4.2 InLine ad in the form and sees it
 * validate against the XSD (the API's check); breaks the Duration in the code view and sees the
 * form and the errors follow (the rule at the field, the XSD's finding at its line); fixes it in the
 * form. (Saving versions, comparing and loading them back on this screen: builders.e2e.ts.) Then
 * axe at 1440 px light (en) and 375 px dark (es): the builder with its preview, the load dialog,
 * and at 375 px dark the versions drawer and the comparison of two versions; with
 * E2E_SCREENSHOTS=1 the screens are saved under .tmp/vast-builder/.
 */
import type { BuilderVersionPage } from '@backoffice/core/builders/common';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('vast-builder');
// Versions without a subject: the demo seed saves its examples for partners, so this list is the test's own.
const SCREEN = '/utils/vastbuilder?subject_type=none';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const status = (page: Page) => page.getByTestId('vast-status');
const field = (page: Page, path: string) => page.locator(`#builder-field-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`);
/**
 * The whole text of the code view. CodeMirror draws only the visible lines, so it is read from the
 * editor's state, found from its content element as EditorView.findFromDOM does.
 */
const codeText = (page: Page) =>
  page.getByTestId('vast-code-input').evaluate((el) => {
    type Tile = { root?: { view?: { state: { doc: { toString(): string } } } } };
    const tile = (el as HTMLElement & { cmTile?: Tile }).cmTile;
    const text = tile?.root?.view?.state.doc.toString();
    if (text === undefined) throw new Error('no CodeMirror view on the code input');
    return text;
  });

async function waitValid(page: Page) {
  await expect.poll(async () => `${await status(page).getAttribute('data-state')} ${await status(page).textContent()}`, { timeout: 20_000 }).toMatch(/^valid .*Valid VAST 4\.2/);
}

describe('vast builder', () => {
  it('builds an InLine ad, sees it validate, breaks it in the code and fixes it in the form', async () => {
    const stamp = Date.now().toString(36);
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: SCREEN });
      await page.getByTestId('vast-form').waitFor();

      // Build the ad in the form: title, serving id, duration, the media file.
      await field(page, 'ad_title').fill(`Northwind Coffee – Spring 20s ${stamp}`);
      await field(page, 'ad_serving_id').fill(`bo-e2e-${stamp}`);
      await field(page, 'creatives.0.linear.duration').fill('00:00:20');
      await field(page, 'creatives.0.linear.media_files.0.url').fill('https://cdn.adserver-demo.com/creatives/northwind/spring-20s-720p.mp4');
      await waitValid(page);
      const code = await codeText(page);
      expect(code).toContain('<Duration>00:00:20</Duration>');
      expect(code).toContain(`<AdTitle>Northwind Coffee – Spring 20s ${stamp}</AdTitle>`);
      // The XSD's order: AdServingId before AdTitle, Duration before MediaFiles.
      expect(code.indexOf('<AdServingId>')).toBeLessThan(code.indexOf('<AdTitle>'));
      expect(code.indexOf('<Duration>')).toBeLessThan(code.indexOf('<MediaFiles>'));

      // Break the duration in the code view: the form follows and both checks say what is wrong.
      const editor = page.getByTestId('vast-code-input');
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(code.replace('<Duration>00:00:20</Duration>', '<Duration>00:00:2x</Duration>'));
      await expect.poll(() => field(page, 'creatives.0.linear.duration').inputValue()).toBe('00:00:2x');
      const durationItem = page.locator('.ant-form-item', { has: field(page, 'creatives.0.linear.duration') });
      await durationItem.getByText('Enter the duration as HH:MM:SS or HH:MM:SS.mmm, e.g. 00:00:30.').waitFor();
      await expect.poll(() => status(page).getAttribute('data-state')).toBe('errors');
      const xsdIssue = page.locator('[data-testid="vast-issue"][data-source="schema"]');
      await xsdIssue.first().waitFor({ timeout: 20_000 });
      expect(await xsdIssue.first().textContent()).toContain("Element 'Duration'");
      expect(Number(await xsdIssue.first().getAttribute('data-line'))).toBeGreaterThan(1);

      // Fix it in the form: the code is written again and the document validates.
      await field(page, 'creatives.0.linear.duration').fill('00:00:20');
      await waitValid(page);
      expect(await codeText(page)).toContain('<Duration>00:00:20</Duration>');
      expect(await page.locator('[data-testid="vast-issue"]').count()).toBe(0);
    });
  }, 180_000);

  it('passes axe in light (en) and dark (es) at 1440 and 375 px, with the preview, the load dialog, the versions and a comparison', async () => {
    // A demo version (the seed saves the examples for partners): its subject has two to compare.
    const [demo] = (await apiGetAs<BuilderVersionPage>(DEMO.tech, 'builders/vast/versions?page_size=1')).items;
    expect(demo).toBeDefined();
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (!isAxeView(width, theme)) continue;
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.tech, { via: 'api', lang, theme, path: SCREEN });
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          // The example that plays this server's demo video.
          await page.getByTestId('vast-examples').click();
          await page.getByTestId('vast-example-3').click();
          await expect.poll(async () => status(page).getAttribute('data-state'), { timeout: 20_000 }).toBe('valid');
          const video = page.getByTestId('vast-preview-video');
          await video.waitFor();
          await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState), { timeout: 20_000 }).toBeGreaterThan(0);
          expect(await page.getByTestId('vast-macro').count()).toBeGreaterThan(0);
          await shot(page, name('builder'));
          await expectNoSeriousViolations(page, name('builder'));
          await page.getByTestId('vast-load-open').click();
          await page.getByTestId('vast-load-paste').waitFor();
          await shot(page, name('load'));
          await expectNoSeriousViolations(page, name('load'));
          // The versions drawer and the comparison: at 1440 px light in builders.e2e.ts's flow.
          if (width > 1024) return;
          await page.goto(`/${lang}/utils/vastbuilder?version=${demo!.id}`);
          await page.getByTestId('vast-versions-open').click();
          const drawer = page.getByTestId('vast-versions');
          await drawer.locator('[data-version-id]').nth(1).waitFor();
          await shot(page, name('versions'));
          await expectNoSeriousViolations(page, name('versions'), { within: '.ant-drawer' });
          const picks = drawer.getByTestId('vast-version-pick');
          await picks.nth(0).check();
          await picks.nth(1).check();
          await drawer.getByTestId('vast-compare').click();
          await page.getByTestId('vast-compare-view').locator('.cm-editor').first().waitFor();
          await shot(page, name('compare'));
          await expectNoSeriousViolations(page, name('compare'), { within: '.ant-modal' });
        });
      }
    }
  }, 240_000);
});
