/**
 * Ad unit generator and JSON builder (issue 25, decision 039).
 * - Tech builds a Prebid ad unit in the form (a code, a second banner size, video outstream, a
 *   Magnite bidder whose missing zoneId is flagged at its field), sees it validate against Prebid's
 *   shape (the API's check), then loads the generated code into a blank page with a tiny `pbjs`
 *   stub: what `addAdUnits` receives has Prebid's documented shape (the JSON Schema of
 *   packages/core/src/standards/prebid/, checked here with Ajv) with mediaTypes and bids[].bidder/params.
 * - In the JSON builder tech chooses the OpenRTB 2.6 Imp schema, breaks a field in the code and sees
 *   the schema error at its JSON pointer, on its line and at the field; fixes it in the form.
 * - axe at 1440 and 375 px, light (en) and dark (es), on both screens; with E2E_SCREENSHOTS=1 the
 *   screens are saved under .tmp/adunit-generator/.
 */
import { PREBID_ADUNITS_SCHEMA } from '@backoffice/core/standards/prebid/adunits-schema';
import Ajv from 'ajv';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('adunit-generator');
const ADUNIT = '/utils/adunit_generator?subject_type=publisher';
const JSON_SCREEN = '/utils/jsonbuilder';
const { $schema: _, ...prebidSchema } = PREBID_ADUNITS_SCHEMA;
const validatePrebid = new Ajv({ allErrors: true }).compile(prebidSchema);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, path: string) => page.locator(`#builder-field-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`);
const itemOf = (page: Page, path: string) => page.locator('.ant-form-item', { has: field(page, path) });
/** The whole text of a code view, from the CodeMirror state (it draws only the visible lines). */
const codeText = (page: Page, testId: string) =>
  page.getByTestId(`${testId}-code-input`).evaluate((el) => {
    type Tile = { root?: { view?: { state: { doc: { toString(): string } } } } };
    const text = (el as HTMLElement & { cmTile?: Tile }).cmTile?.root?.view?.state.doc.toString();
    if (text === undefined) throw new Error('no CodeMirror view on the code input');
    return text;
  });
/** An option of the open antd Select (its visible item, not the hidden accessible list). */
const option = (page: Page, label: string) => page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`);
const state = (page: Page, testId: string) => page.getByTestId(`${testId}-status`).getAttribute('data-state');
const waitState = (page: Page, testId: string, want: string) => expect.poll(() => state(page, testId), { timeout: 20_000 }).toBe(want);

/** Prebid's ad units as a page receives them: the code in a blank page, the queue run by a stub. */
async function addAdUnitsReceives(code: string): Promise<unknown[]> {
  const probe = await browser.newPage();
  try {
    await probe.setContent(
      '<!doctype html><html><head><title>publisher page</title><script>window.pbjs = { que: [], calls: [], addAdUnits: function (u) { this.calls.push(JSON.parse(JSON.stringify(u))); }, setConfig: function () {} };</script></head><body><div id="slot"></div></body></html>',
    );
    await probe.addScriptTag({ content: code });
    // Prebid.js, once loaded, runs the queued functions.
    return await probe.evaluate(() => {
      const pbjs = (window as unknown as { pbjs: { que: (() => void)[]; calls: unknown[] } }).pbjs;
      for (const f of pbjs.que) f();
      return pbjs.calls;
    });
  } finally {
    await probe.close();
  }
}

describe('ad unit generator and JSON builder', () => {
  it('builds an ad unit whose code hands Prebid its documented shape', async () => {
    const code = `div-e2e-${Date.now().toString(36)}`;
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: ADUNIT });
      await page.getByTestId('adunit-form').waitFor();
      await waitState(page, 'adunit', 'valid');

      await page.getByTestId('adunit-field-code').fill(code);
      // A second banner size, typed.
      const sizes = page.getByTestId('adunit-banner-sizes');
      await sizes.click();
      await page.keyboard.type('728x90');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      // Video, outstream (the default player size 640x360).
      await page.getByTestId('adunit-media-types').getByLabel('Video').check();
      await page.getByTestId('adunit-video').waitFor();
      // A Magnite bidder: its required parameters are asked for; zoneId is missing at first.
      await page.getByTestId('adunit-bidder-add').click();
      const bidder = page.getByTestId('adunit-bidder-1');
      await field(page, 'bids.1.bidder').fill('rubicon');
      await page.keyboard.press('Escape');
      await bidder.getByText('Prebid’s parameters for Magnite (Rubicon)').waitFor();
      await field(page, 'bids.1.params.accountId').fill('14062');
      await field(page, 'bids.1.params.siteId').fill('70608');
      await itemOf(page, 'bids.1.params.zoneId').getByText('rubicon needs the parameter zoneId.').waitFor();
      await waitState(page, 'adunit', 'errors');
      await field(page, 'bids.1.params.zoneId').fill('498816');
      await waitState(page, 'adunit', 'valid');

      // Outstream without a player size is refused at the field, and accepted again with one.
      const videoCard = page.getByTestId('adunit-video');
      const playerW = videoCard.getByRole('spinbutton', { name: 'Width (px)' });
      const playerH = videoCard.getByRole('spinbutton', { name: 'Height (px)' });
      await playerW.fill('');
      await playerH.fill('');
      await itemOf(page, 'mediaTypes.video.playerSize').getByText('An outstream unit needs the player size.').waitFor();
      await playerW.fill('640');
      await playerH.fill('360');
      await waitState(page, 'adunit', 'valid');
      await expect.poll(() => page.getByTestId('adunit-status').textContent()).toContain('Valid Prebid.js ad unit');

      const generated = await codeText(page, 'adunit');
      expect(generated).toContain('pbjs.addAdUnits(adUnits);');
      const received = await addAdUnitsReceives(generated);
      expect(received).toHaveLength(1);
      const units = received[0] as { code: string; mediaTypes: { banner: { sizes: number[][] }; video: { context: string; playerSize: number[] } }; bids: { bidder: string; params: Record<string, unknown> }[] }[];
      expect(validatePrebid(units), JSON.stringify(validatePrebid.errors)).toBe(true);
      expect(units).toHaveLength(1);
      expect(units[0]!.code).toBe(code);
      expect(units[0]!.mediaTypes.banner.sizes).toEqual([
        [300, 250],
        [728, 90],
      ]);
      expect(units[0]!.mediaTypes.video).toMatchObject({ context: 'outstream', playerSize: [640, 360] });
      expect(units[0]!.bids).toEqual([
        { bidder: 'msft', params: { placement_id: 13144370 } },
        { bidder: 'rubicon', params: { accountId: 14062, siteId: 70608, zoneId: 498816 } },
      ]);
      // The same array as JSON beside the code, for integrations.
      await page.getByTestId('adunit-json').waitFor();
    });
  }, 180_000);

  it('checks an OpenRTB Imp: a broken field is an error at its path, its line and its field', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: JSON_SCREEN });
      await page.getByTestId('jsonbuilder-form').waitFor();
      // A request schema for the default Imp document: its imp is missing.
      const picker = page.getByTestId('jsonbuilder-schema');
      await picker.click();
      await option(page, 'OpenRTB 2.6 BidRequest').click();
      await waitState(page, 'jsonbuilder', 'errors');
      await page.locator('[data-testid="jsonbuilder-issue"][data-path="/imp"]').waitFor();
      // The Imp schema: valid.
      await picker.click();
      await option(page, 'OpenRTB 2.6 Imp').click();
      await waitState(page, 'jsonbuilder', 'valid');

      // Break "secure" in the code view.
      const code = await codeText(page, 'jsonbuilder');
      const broken = code.replace('"secure": 1', '"secure": 2');
      expect(broken).not.toBe(code);
      await page.getByTestId('jsonbuilder-code-input').click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(broken);
      await waitState(page, 'jsonbuilder', 'errors');
      const issue = page.locator('[data-testid="jsonbuilder-issue"][data-path="/secure"]');
      await issue.waitFor({ timeout: 20_000 });
      expect(await issue.getAttribute('data-source')).toBe('schema');
      expect(await issue.textContent()).toContain('/secure: must be one of 0, 1.');
      const secureLine = broken.split('\n').findIndex((l) => l.includes('"secure": 2')) + 1;
      expect(Number(await issue.getAttribute('data-line'))).toBe(secureLine);
      await page.getByTestId('jsonbuilder-field-secure').getByText('/secure: must be one of 0, 1.').waitFor();
      // The schema stays the one chosen while typing.
      expect(await picker.textContent()).toContain('OpenRTB 2.6 Imp');

      // Fix it in the form.
      await page.getByTestId('jsonbuilder-field-secure').locator('.ant-select').click();
      await option(page, '1').click();
      await waitState(page, 'jsonbuilder', 'valid');
      expect(await codeText(page, 'jsonbuilder')).toContain('"secure": 1');
    });
  }, 180_000);

  it('passes axe in light (en) and dark (es) at 1440 and 375 px', async () => {
    // Every screen is checked (and shot) before the verdict, so one run shows every finding.
    const findings: string[] = [];
    const check = async (page: Page, name: string) => {
      await shot(page, name);
      try {
        await expectNoSeriousViolations(page, name);
      } catch (error) {
        findings.push(error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n') : String(error));
      }
    };
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (!isAxeView(width, theme)) continue;
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          await signIn(page, DEMO.tech, { via: 'api', lang, theme, path: ADUNIT });
          await page.getByTestId('adunit-examples').click();
          await page.getByTestId('adunit-example-1').click();
          await waitState(page, 'adunit', 'valid');
          await page.getByTestId('adunit-json-code').waitFor();
          await check(page, name('adunit'));

          await page.goto(page.url().replace(/\/utils\/adunit_generator.*$/, '/utils/jsonbuilder'));
          await page.getByTestId('jsonbuilder-examples').click();
          await page.getByTestId('jsonbuilder-example-0').click();
          await waitState(page, 'jsonbuilder', 'valid');
          await check(page, name('jsonbuilder'));
        });
      }
    }
    expect(findings).toEqual([]);
  }, 300_000);
});
