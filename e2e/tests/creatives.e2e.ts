/**
 * Creatives (issue 26): marketing searches the IAB sizes for 300x250, opens it (the ad units that
 * use it), goes on to resize an image to it; on the resize tool a text file named .jpg is refused
 * next to the field before anything is sent, then a PNG is uploaded, two more sizes typed, the
 * focal point set by a click, the image resized to the three sizes, and the zip downloaded: its
 * three entries are images of the right dimensions (read from their headers). axe-core in light
 * (English) and dark (Spanish) at 1440 and 375 px on both screens; with E2E_SCREENSHOTS=1 they are
 * saved under .tmp/creatives/.
 */
import { readImageHeader, type CreativeSizeDetail, type CreativeSizesAnswer } from '@backoffice/core/creatives';
import JSZip from 'jszip';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { rgbPng } from '../support/png.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
let tmp: string;
const { shot } = screenshots('creatives');
const SIZES = '/utils/info_creative_sizes';
const TOOL = '/utils/creatives_resize_tool';

/** A real 1200x600 PNG: an orange left half and a teal right half, with a white band across the middle. */
const campaignPng = (width = 1200, height = 600): Buffer =>
  rgbPng(width, height, (x, y) => (y > height * 0.45 && y < height * 0.55 ? [255, 255, 255] : x < width / 2 ? [240, 120, 20] : [0, 128, 128]));

beforeAll(async () => {
  browser = await launchBrowser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-creatives-e2e-'));
  fs.writeFileSync(path.join(tmp, 'spring-campaign.png'), campaignPng());
  fs.writeFileSync(path.join(tmp, 'brief.jpg'), 'Spring campaign brief: three banners, due Friday.\n'.repeat(10));
});
afterAll(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const uploadInput = (page: Page) => page.locator('input[type="file"]').first();

/** Upload the PNG and resize it to 300x250 (preselected or picked), 728x90 and 160x600 typed as custom text. */
async function resizeThree(page: Page, lang: Lang) {
  await uploadInput(page).setInputFiles(path.join(tmp, 'spring-campaign.png'));
  await page.getByTestId('creatives-focal').waitFor();
  const sizes = page.getByTestId('creatives-sizes');
  const current = await sizes.locator('.ant-select-selection-item, .ant-tag').allTextContents();
  await sizes.click();
  for (const s of ['300x250', '728 x 90', '160x600']) {
    if (s === '300x250' && current.some((c) => c.includes('300x250'))) continue;
    await page.keyboard.type(s);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Escape');
  await page.getByTestId('creatives-resize-submit').click();
  await toast(page, lang === 'en' ? 'Resized to 3 sizes' : 'Redimensionada a 3 tamaños').waitFor();
  await page.getByTestId('creatives-result-160x600').waitFor();
}

describe('creatives', () => {
  it('marketing finds 300x250 and its ad units, then resizes an image to three sizes and downloads the zip', async () => {
    const detail = await apiGetAs<CreativeSizeDetail>(DEMO.marketing, 'creatives/sizes/300x250');
    expect(detail.ad_units.total).toBeGreaterThan(0);
    const firstUnit = detail.ad_units.items[0]!;

    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.marketing, { via: 'api', path: SIZES });
      await page.getByTestId('creative-sizes-table').waitFor();
      await page.getByTestId('creative-sizes-search').locator('input').fill('300x250');
      await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('300x250');
      const rows = page.locator('[data-testid^="creative-sizes-row-"]');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('Medium Rectangle');
      expect(await rows.first().textContent()).toContain('150 kB');

      await page.getByTestId('creative-size-open-300x250').click();
      const drawer = page.getByTestId('creative-size-drawer');
      await drawer.getByTestId(`creative-unit-${firstUnit.id}`).waitFor();
      expect(new URL(page.url()).searchParams.get('open')).toBe('300x250');
      expect(await drawer.getByTestId('creative-units-count').textContent()).toBe(`${detail.ad_units.total} ad units`);
      expect(await drawer.getByTestId(`creative-unit-${firstUnit.id}`).textContent()).toContain(firstUnit.publisher.name);
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'size drawer');

      await drawer.getByTestId('creative-size-resize').click();
      await page.getByTestId('creatives-resize').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/en${TOOL}`);

      // A text file named .jpg: refused by its bytes, next to the field, before any request.
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/v1/creatives/resize')) posts.push(r.url());
      });
      await uploadInput(page).setInputFiles(path.join(tmp, 'brief.jpg'));
      await page.getByText('This file is not a JPEG, PNG, WebP or GIF image (checked by its content, not its name).').waitFor();
      expect(posts).toEqual([]);

      await uploadInput(page).setInputFiles(path.join(tmp, 'spring-campaign.png'));
      await page.getByTestId('creatives-focal').waitFor();
      expect(await page.getByTestId('creatives-input').textContent()).toContain('spring-campaign.png · PNG · 1200 × 600 px');
      // The focal point on the orange half, a quarter across.
      const box = (await page.getByTestId('creatives-focal').locator('img').boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.5);
      expect(await page.getByTestId('creatives-focal-value').textContent()).toMatch(/Focal point: 2[4-6] % across, (49|50|51) % down/);

      await page.getByTestId('creatives-sizes').click();
      for (const s of ['728 x 90', '160x600']) {
        await page.keyboard.type(s);
        await page.keyboard.press('Enter');
      }
      await page.keyboard.press('Escape');
      await page.getByTestId('creatives-resize-submit').click();
      await toast(page, 'Resized to 3 sizes').waitFor();
      for (const s of ['300x250', '728x90', '160x600']) await page.getByTestId(`creatives-result-${s}`).waitFor();
      expect(await page.getByTestId('creatives-result-160x600').textContent()).toContain('Wide Skyscraper');
      expect(await page.getByTestId('creatives-result-300x250').textContent()).toMatch(/Within the IAB 150 kB initial load|Over the IAB 150 kB initial load/);

      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('creatives-download-zip').click()]);
      expect(file.suggestedFilename()).toBe('spring-campaign_sizes.zip');
      const target = path.join(tmp, file.suggestedFilename());
      await file.saveAs(target);
      const zip = await JSZip.loadAsync(fs.readFileSync(target));
      expect(Object.keys(zip.files).sort()).toEqual(['spring-campaign_160x600.png', 'spring-campaign_300x250.png', 'spring-campaign_728x90.png']);
      for (const [name, width, height] of [
        ['spring-campaign_160x600.png', 160, 600],
        ['spring-campaign_300x250.png', 300, 250],
        ['spring-campaign_728x90.png', 728, 90],
      ] as const) {
        const bytes = await zip.file(name)!.async('uint8array');
        expect(readImageHeader(bytes), name).toEqual({ type: 'png', width, height });
      }

      // One file on its own.
      const [one] = await Promise.all([page.waitForEvent('download'), page.getByTestId('creatives-download-728x90').click()]);
      expect(one.suggestedFilename()).toBe('spring-campaign_728x90.png');

      // Changing a setting marks the results as out of date.
      await page.getByTestId('creatives-fit-contain').click();
      await page.getByTestId('creatives-stale').waitFor();
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'resize tool with results');
    });
  }, 120_000);

  it('passes axe in light (en) and dark (es) at 1440 and 375 px on both screens', async () => {
    const sizes = await apiGetAs<CreativeSizesAnswer>(DEMO.marketing, 'creatives/sizes?page_size=1');
    expect(sizes.total).toBeGreaterThan(20);
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        if (!isAxeView(width, theme)) continue;
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.marketing, { via: 'api', lang, theme, path: SIZES });
          await page.getByTestId(width < 768 ? 'creative-sizes-cards' : 'creative-sizes-table').waitFor();
          await page.locator('[data-testid^="creative-sizes-row-"]').first().waitFor();
          await shot(page, name('sizes'));
          await expectNoSeriousViolations(page, name('sizes'));
          await page.goto(`/${lang}${SIZES}?open=300x250`);
          await page.getByTestId('creative-units').locator('tbody tr').first().waitFor();
          await shot(page, name('size-drawer'));
          await expectNoSeriousViolations(page, name('size-drawer'));

          await page.goto(`/${lang}${TOOL}`);
          await page.getByTestId('creatives-upload').waitFor();
          await shot(page, name('tool-empty'));
          await resizeThree(page, lang);
          await shot(page, name('tool-results'));
          await expectNoSeriousViolations(page, name('tool-results'));
        });
      }
    }
  }, 240_000);
});
