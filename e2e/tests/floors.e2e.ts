/**
 * Floors (`/partners/floors`): a yield manager adds two overlapping rules through the form (a
 * negative CPM refused in place first), asks the tester which applies and sees the specific one
 * win; exports the rules, raises that rule's CPM in the file, imports it, sees the preview (one
 * change, nothing applied yet), confirms and sees a new version; restores the version before and
 * the old CPM is back. Screenshots (E2E_SCREENSHOTS=1) of the rules, the tester, the versions with
 * a comparison and the import preview, light and dark, at 1440, 768 and 375, in en and es, each also
 * checked with axe-core, to .tmp/floors/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('floors');
const PATH = '/partners/floors';
const SITE = 'e2e-floors.example';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const form = (page: Page) => page.getByTestId('floor-rule-form');
const key = (page: Page, scope: Page | ReturnType<Page['getByTestId']>, k: string) =>
  scope.getByTestId(`floor-key-${k}`);

async function pickSelect(page: Page, item: ReturnType<Page['getByTestId']>, value: string) {
  await item.locator('.ant-select').click();
  // Searchable lists take the typed value; the short ones are picked from as they are.
  if (await item.locator('input').isEditable()) await item.locator('input').fill(value);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${value}$`) })
    .click();
}

async function addRule(page: Page, keys: { site: string; country?: string }, cpm: string) {
  await page.getByTestId('floors-add').click();
  await form(page).waitFor();
  await key(page, form(page), 'site').locator('input').fill(keys.site);
  if (keys.country) await pickSelect(page, key(page, form(page), 'country'), keys.country);
  await form(page).getByTestId('floor-cpm').locator('input').fill(cpm);
  await page.getByTestId('floor-rule-save').click();
}

describe('floors', () => {
  it('two overlapping rules and the tester; CSV export, edit, import with preview; restore', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.sspLead, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Floors' }).waitFor();
      // The demo rule set, saved as versions.
      await expect
        .poll(() => page.getByTestId('floors-version').textContent())
        .toMatch(/^Version \d+ · \d+ rules$/);

      // A negative CPM is refused next to the field; what was typed stays.
      await addRule(page, { site: SITE }, '-0.5');
      await form(page).getByText('A CPM cannot be negative').waitFor();
      expect(await key(page, form(page), 'site').locator('input').inputValue()).toBe(SITE);
      await form(page).getByTestId('floor-cpm').locator('input').fill('0.70');
      await page.getByTestId('floor-rule-save').click();
      await form(page).waitFor({ state: 'hidden' });
      await addRule(page, { site: SITE, country: 'FR' }, '1.10');
      await form(page).waitFor({ state: 'hidden' });
      const saved = page.getByText(/^Saved as version \d+$/).last();
      await saved.waitFor();
      const before = Number((await saved.textContent())!.match(/(\d+)$/)![1]);
      await expect
        .poll(() => page.getByTestId('floors-version').textContent())
        .toContain(`Version ${before} `);

      // The tester: a French request on the site gets the rule with two keys.
      await page.getByRole('tab', { name: 'Which rule applies?' }).click();
      const tester = page.getByTestId('floors-tester');
      await key(page, tester, 'site').locator('input').fill(SITE);
      await pickSelect(page, key(page, tester, 'country'), 'FR');
      await page.getByTestId('floors-tester-run').click();
      await expect.poll(() => page.getByTestId('floors-tester-cpm').textContent()).toBe('$1.10');
      await shot(page, 'tester-1440-light-en');
      expect(await page.getByTestId('floors-tester-why').textContent()).toContain(
        'It names 2 keys, more than any other matching rule.',
      );
      // The general rule of the site is the runner-up.
      await expect
        .poll(() => page.getByTestId('floors-tester-matches').locator('tr.ant-table-row').count())
        .toBe(2);
      expect(
        await page.getByTestId('floors-tester-matches').locator('tr.ant-table-row').nth(1).textContent(),
      ).toContain('$0.70');

      // Export, raise the French rule in the file, import it.
      await page.getByRole('tab', { name: 'Rules' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('floors-export').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^floor_rules_\d{4}-\d{2}-\d{2}_\d{6}\.csv$/);
      const csv = fs.readFileSync((await download.path())!, 'utf8');
      const line = csv.split('\r\n').find((l) => l.includes(SITE) && l.includes(',FR,'))!;
      expect(line).toContain(',1.1,USD,hard');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'floors-e2e-')), 'floors.csv');
      fs.writeFileSync(file, csv.replace(line, line.replace(',1.1,USD,', ',1.35,USD,')));

      await page.getByTestId('floors-import-open').click();
      await page.getByTestId('floors-import').locator('input[type=file]').setInputFiles(file);
      const preview = page.getByTestId('floors-import-preview');
      await preview.waitFor();
      await expect
        .poll(() => page.getByTestId('floors-diff-summary').textContent())
        .toMatch(/^0 Added1 Changed0 Removed\d+ Unchanged$/);
      expect(await page.getByTestId('floors-diff-changed').textContent()).toContain('$1.35');
      // Nothing is applied until confirmed.
      expect(await page.getByTestId('floors-version').textContent()).toContain(`Version ${before} `);
      await shot(page, 'import-1440-light-en');
      await page.getByTestId('floors-import-comment').fill('Raise France on the e2e site');
      await page.getByTestId('floors-import-confirm').click();
      await page.getByTestId('floors-import').waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.getByTestId('floors-version').textContent())
        .toContain(`Version ${before + 1} `);

      // The versions: the import is the newest; restore the one before it.
      await page.getByRole('tab', { name: 'Versions' }).click();
      const newest = page.getByTestId(`floors-version-${before + 1}`);
      await newest.waitFor();
      expect(await newest.textContent()).toContain('Raise France on the e2e site');
      await page.getByTestId(`floors-restore-${before}`).click();
      await page.getByTestId('floors-restore-confirm').click();
      await expect
        .poll(() => page.getByTestId('floors-version').textContent())
        .toContain(`Version ${before + 2} `);
      await page
        .getByTestId(`floors-version-${before + 2}`)
        .getByText(`Restore of version ${before}`)
        .waitFor();

      // The tester answers with the old CPM again.
      await page.getByRole('tab', { name: 'Which rule applies?' }).click();
      await page.getByTestId('floors-tester-run').click();
      await expect.poll(() => page.getByTestId('floors-tester-cpm').textContent()).toBe('$1.10');
    });
  });

  it.runIf(SHOTS_ON)(
    'screenshots and axe: rules, tester, versions, light and dark, 1440, 768 and 375, en and es',
    async () => {
      for (const [width, height] of [
        [1440, 900],
        [768, 1000],
        [375, 800],
      ] as const) {
        for (const theme of ['light', 'dark'] as const) {
          for (const lang of ['en', 'es'] as Lang[]) {
            await withPage(browser, { viewport: { width, height } }, async (page) => {
              const name = `${width}-${theme}-${lang}`;
              await signIn(page, DEMO.sspLead, { via: 'api', theme, lang, path: PATH });
              await page.getByTestId('floors-rules').and(page.locator('[data-state="ready"]')).waitFor();
              await shot(page, `rules-${name}`);
              await expectNoSeriousViolations(page, `floors rules ${name}`);
              await page.goto(`/${lang}${PATH}?tab=tester`);
              const tester = page.getByTestId('floors-tester');
              await pickSelect(page, key(page, tester, 'country'), 'US');
              await pickSelect(page, key(page, tester, 'media_type'), 'video');
              await page.getByTestId('floors-tester-run').click();
              await page.getByTestId('floors-tester-winner').waitFor();
              await page.mouse.move(0, 0);
              await shot(page, `tester-${name}`);
              await expectNoSeriousViolations(page, `floors tester ${name}`);
              await page.goto(`/${lang}${PATH}?tab=versions`);
              await page.getByTestId('floors-versions').locator('tr.ant-table-row').first().waitFor();
              await page
                .getByTestId('floors-versions')
                .locator('tr.ant-table-row')
                .first()
                .getByRole('button')
                .first()
                .click();
              await page.getByTestId('floors-comparison').getByTestId('floors-diff-summary').waitFor();
              await page.mouse.move(0, 0);
              await shot(page, `versions-${name}`);
              await expectNoSeriousViolations(page, `floors versions ${name}`);
              // The Prebid export of a demo publisher: its report, preview and wrapper feed.
              await page.getByTestId('floors-prebid-open').click();
              const modal = page.locator('.ant-modal-wrap:visible');
              await modal.locator('.ant-select').first().click();
              await modal.locator('.ant-select').first().locator('input').fill('Happy');
              await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
              await page.getByTestId('floors-prebid-report').waitFor();
              await page.getByTestId('floors-prebid-preview').waitFor();
              await page.mouse.move(0, 0);
              await shot(page, `prebid-${name}`);
              await expectNoSeriousViolations(page, `floors prebid ${name}`);
            });
          }
        }
      }
    },
    400_000,
  );
});
