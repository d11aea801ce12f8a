/**
 * Signature manager: the demand lead opens Signature from the profile menu, finds the form
 * prefilled from the account, fills a title and a phone (first without the country code: refused
 * next to the field), sees both previews (light, and dark with repainted colours and the logo the
 * API serves), saves, copies the signature (the clipboard read back in Chromium: text/html with the
 * table and text/plain as the API renders it), copies the HTML source (exactly the API's HTML) and
 * downloads the .html. Marketing (write) sees the people and templates tabs. axe-core in light
 * (English) and dark (Spanish) at 1440 and 375 px; with E2E_SCREENSHOTS=1 they are saved under
 * .tmp/signature-manager/.
 */
import type { MySignatureAnswer } from '@backoffice/core/signatures';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('signature-manager');
const PATH = '/utils/signature_manager';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('signature manager', () => {
  it('a person opens Signature from the profile menu, fills title and phone, sees both previews, saves and copies the HTML', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: getBaseURL() });
      await signIn(page, DEMO.demandLead, { via: 'api' });
      await page.getByTestId('profile-open').click();
      await page.getByTestId('profile-signature').click();
      await page.getByTestId('signature-editor').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/en${PATH}`);
      expect(await page.getByTestId('signature-name').inputValue()).toBe('Lucía Fernández');
      expect(await page.getByTestId('signature-mail').inputValue()).toBe(DEMO.demandLead);
      expect(await page.getByTestId('signature-saved-state').textContent()).toContain('Not saved yet');

      await page.getByTestId('signature-title').fill('Head of Demand Partnerships');
      await page.getByTestId('signature-department').fill('Demand');
      await page.getByTestId('signature-phone-add').click();
      await page.getByTestId('signature-phone-0').fill('612 34 56 78');
      await page.getByTestId('signature-phone-0').blur();
      expect(await page.getByTestId('signature-phone-0-error').textContent()).toBe('Write the number in international form, with the country code (+34…).');
      await page.getByTestId('signature-phone-0').fill('+34 612 34 56 78');
      await page.getByTestId('signature-phone-0-error').waitFor({ state: 'detached' });

      // Both previews follow the form; the dark one repaints the dark colours on a dark background.
      const light = page.getByTestId('signature-preview-light');
      const dark = page.getByTestId('signature-preview-dark');
      for (const pane of [light, dark]) {
        await expect.poll(() => pane.textContent()).toContain('Head of Demand Partnerships · Demand');
        expect(await pane.textContent()).toContain('+34 612 34 56 78');
        expect(await pane.textContent()).toContain('Adtech Media Iberia, S.L.');
      }
      const nameColour = (pane: typeof light) => pane.locator('td', { hasText: /^Lucía Fernández$/ }).evaluate((el) => getComputedStyle(el).color);
      expect(await nameColour(light)).toBe('rgb(26, 79, 139)');
      expect(await nameColour(dark)).not.toBe('rgb(26, 79, 139)');
      expect(await dark.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(31, 31, 31)');
      // The logo is served by the API (public) and loads in the app.
      await expect.poll(() => light.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

      await page.getByTestId('signature-save').click();
      await toast(page, 'Signature saved').waitFor();
      await expect.poll(() => page.getByTestId('signature-saved-state').textContent()).toContain('by Lucía Fernández');
      const saved = await apiGetAs<MySignatureAnswer>(DEMO.demandLead, 'signatures/me');
      expect(saved.signature).toMatchObject({ version: 1, title: 'Head of Demand Partnerships', phones: [{ kind: 'mobile', number: '+34612345678' }] });

      // Copy: text/html and text/plain on the clipboard, read back as a mail client would paste them.
      await page.getByTestId('signature-copy').click();
      await toast(page, /Signature copied/).waitFor();
      const copied = await page.evaluate(async () => {
        const [item] = await navigator.clipboard.read();
        return { types: item!.types, html: await (await item!.getType('text/html')).text(), text: await (await item!.getType('text/plain')).text() };
      });
      expect(copied.types).toEqual(expect.arrayContaining(['text/html', 'text/plain']));
      expect(copied.html).toContain('<table');
      expect(copied.html).toContain('href="tel:+34612345678"');
      expect(copied.html).toContain('Head of Demand Partnerships · Demand');
      expect(copied.html).not.toMatch(/<style|<script|\sclass=/i);
      expect(copied.text).toBe(saved.render.text);

      // Copy source: exactly the API's HTML.
      await page.getByTestId('signature-copy-source').click();
      await toast(page, 'HTML source copied').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved.render.html);

      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('signature-download').click()]);
      expect(file.suggestedFilename()).toBe('signature-lucia-fernandez.html');
      const downloaded = fs.readFileSync((await file.path())!, 'utf8');
      expect(downloaded).toContain(saved.render.html);
      expect(downloaded.startsWith('<!DOCTYPE html>')).toBe(true);

      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'signature after copy');
    });
  }, 120_000);

  it('passes axe in light (en) and dark (es) at 1440 and 375 px, with the people and templates tabs for marketing', async () => {
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (!isAxeView(width, theme)) continue;
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.marketing, { via: 'api', lang, theme, path: PATH });
          await page.getByTestId('signature-editor').waitFor();
          await page.getByTestId('signature-preview-light').locator('table').first().waitFor();
          await shot(page, name('mine'));
          await expectNoSeriousViolations(page, name('mine'));
          await page.goto(`/${lang}${PATH}?tab=templates`);
          await page.getByTestId('signature-templates').waitFor();
          await page.getByTestId('signature-template-preview-light').locator('table').first().waitFor();
          await shot(page, name('templates'));
          await expectNoSeriousViolations(page, name('templates'));
          await page.goto(`/${lang}${PATH}?tab=people`);
          await page.getByTestId('signature-person').click();
          await page.locator('.ant-select-item-option').first().click();
          await page.getByTestId('signature-person-editor').waitFor();
          await shot(page, name('people'));
          await expectNoSeriousViolations(page, name('people'));
        });
      }
    }
  }, 240_000);
});
