/**
 * Resources manager (`/utils/resources_manager2`): marketing uploads two files at once (each with
 * its own progress and result), sees them listed with type, size and owner, previews the image
 * (shown from the API's bytes), renames one and deletes the other after confirming; the API agrees.
 * axe-core at 375, 768 and 1440 px in light (English) and dark (Spanish), on the list and on an
 * image's preview; with E2E_SCREENSHOTS=1 they are saved under .tmp/resources-manager/.
 */
import type { ResourceFileRow } from '@backoffice/core/files';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { rgbPng } from '../support/png.ts';
import { forAxeViews, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
let tmp: string;
const { shot } = screenshots('resources-manager');
const SCREEN = '/utils/resources_manager2';

/** A real 320x100 PNG: a teal banner with an orange stripe. */
const bannerPng = (width = 320, height = 100): Buffer => rgbPng(width, height, (_x, y) => (y > 40 && y < 60 ? [240, 120, 20] : [0, 128, 128]));
/** A one-page PDF (enough for the type check by bytes and for a viewer). */
function ratecardPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R >>',
    '<< /Length 0 >>\nstream\n\nendstream',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

beforeAll(async () => {
  browser = await launchBrowser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-rm-e2e-'));
  fs.writeFileSync(path.join(tmp, 'e2e spring banner.png'), bannerPng());
  fs.writeFileSync(path.join(tmp, 'e2e rate card.pdf'), ratecardPdf());
});
afterAll(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const rowByName = (page: Page, name: string) =>
  page.locator('[data-testid^="files-row-"]').filter({ hasText: name });

async function openActions(page: Page, row: ResourceFileRow) {
  await page.getByTestId(`files-actions-${row.id}`).click();
}

describe('resources manager', () => {
  it('marketing uploads two files, sees them, previews the image, renames one and deletes the other', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.marketing, { via: 'api', path: SCREEN });
      await page.getByTestId('resources-manager').waitFor();
      // The demo files are listed.
      await page.locator('[data-testid^="files-row-"]').first().waitFor();

      await page.getByTestId('files-upload-toggle').click();
      await page
        .getByTestId('files-upload')
        .locator('input[type="file"]')
        .setInputFiles([path.join(tmp, 'e2e spring banner.png'), path.join(tmp, 'e2e rate card.pdf')]);
      const items = page.getByTestId('files-upload-item');
      await expect.poll(() => items.count()).toBe(2);
      await expect
        .poll(
          async () =>
            (await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).join(','),
          { timeout: 20_000 },
        )
        .toBe('done,done');
      await toast(page, 'Files uploaded').waitFor();

      const files = (
        await apiGetAs<{ items: ResourceFileRow[] }>(
          DEMO.marketing,
          'resources-manager/files?f[name]=e2e&sort=name',
        )
      ).items;
      expect(files.map((f) => [f.name, f.kind, f.owner_id_label])).toEqual([
        ['e2e rate card.pdf', 'pdf', 'Sophie Laurent'],
        ['e2e spring banner.png', 'image', 'Sophie Laurent'],
      ]);
      const [pdf, png] = files as [ResourceFileRow, ResourceFileRow];
      await rowByName(page, 'e2e spring banner.png').waitFor();
      expect(await rowByName(page, 'e2e spring banner.png').textContent()).toMatch(
        /Image.*B.*Sophie Laurent/,
      );
      expect(await rowByName(page, 'e2e rate card.pdf').textContent()).toContain('PDF');

      // Preview: the image comes from the API's bytes.
      await page.getByTestId(`files-open-${png.id}`).click();
      const image = page.getByTestId('files-preview-image');
      await image.waitFor();
      await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(320);
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'image preview');
      await page.keyboard.press('Escape');
      await image.waitFor({ state: 'detached' });

      // Rename the image.
      await openActions(page, png);
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      const input = page.getByTestId('files-rename-input');
      await input.fill('Spring banner 320x100.png');
      await page.getByTestId('files-rename-ok').click();
      await toast(page, 'File saved').waitFor();
      await rowByName(page, 'Spring banner 320x100.png').waitFor();

      // Delete the PDF, after confirming.
      await openActions(page, pdf);
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page
        .locator('.ant-modal-confirm-title')
        .getByText('Delete “e2e rate card.pdf”? This cannot be undone.')
        .waitFor();
      await page.getByTestId('files-delete-ok').click();
      await toast(page, 'File deleted').waitFor();
      await rowByName(page, 'e2e rate card.pdf').waitFor({ state: 'detached' });

      const after = (
        await apiGetAs<{ items: ResourceFileRow[] }>(
          DEMO.marketing,
          `resources-manager/files?f[owner_id]=${png.owner_id}&sort=name&page_size=100`,
        )
      ).items.map((f) => f.name);
      expect(after).toContain('Spring banner 320x100.png');
      expect(after).not.toContain('e2e rate card.pdf');
      expect(after).not.toContain('e2e spring banner.png');
    });
  }, 120_000);

  it('passes axe on the list and an image preview, light (en) and dark (es), at 375, 768 and 1440 px', async () => {
    const images = (
      await apiGetAs<{ items: ResourceFileRow[] }>(
        DEMO.marketing,
        'resources-manager/files?f[kind]=image&sort=name',
      )
    ).items;
    const logo = images.find((f) => f.name === 'backoffice-logo-dark.png')!;
    expect(logo).toBeTruthy();
    await forAxeViews(browser, async (page, { width, theme, lang }) => {
      const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
      await signIn(page, DEMO.marketing, {
        via: 'api',
        lang,
        theme,
        path: `${SCREEN}?f[folder_id]=${logo.folder_id}`,
      });
      await page.getByTestId(`files-row-${logo.id}`).waitFor();
      await page.mouse.move(0, 0);
      await shot(page, name('folder'));
      await expectNoSeriousViolations(page, name('folder'));
      await page.goto(`/${lang}${SCREEN}`);
      await page.locator('[data-testid^="files-row-"]').first().waitFor();
      await page.getByTestId('files-upload-toggle').click();
      await page.getByTestId('files-upload').waitFor();
      await page.mouse.move(0, 0);
      await shot(page, name('all-files'));
      await expectNoSeriousViolations(page, name('all-files'));
      await page.getByTestId(`files-open-${logo.id}`).click();
      await page.getByTestId('files-preview-image').waitFor();
      // The drawer's body is a named, focusable region once open (it scrolls on short screens).
      await page.locator('.bo-files-drawer .ant-drawer-body[role="region"]').waitFor();
      await page.mouse.move(0, 0);
      await shot(page, name('preview'));
      await expectNoSeriousViolations(page, name('preview'));
    });
  }, 300_000);
});
