/**
 * Performance report (/partners/performance_report): a demand lead opens it on the current month,
 * goes to last month (whole months compared, said above the table), sorts by impressions on the
 * server, and exports the CSV of every partner; axe finds no serious problem. With
 * E2E_SCREENSHOTS=1 it also saves the screen (light and dark, 1440 and 375 px, made-up changes to
 * see the chips, Spanish, a refused month) under .tmp/performance-report/, with axe on each.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { REPO_ROOT } from '../support/server.ts';
import { DEMO, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
let downloads: string;
beforeAll(async () => {
  browser = await launchBrowser();
  downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-perf-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(downloads, { recursive: true, force: true });
});

const PATH = '/partners/performance_report';
const rows = (page: Page) => page.locator('[data-testid^="perf-row-"]');
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

/** The month before `YYYY-MM`. */
function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The impressions shown in each row (this period's value of the column). */
async function impressions(page: Page): Promise<number[]> {
  const texts = await rows(page).evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = tr.querySelectorAll('td');
      // Partner, then revenue, cost, margin, margin % (value and change each): impressions is the 10th.
      return cells[9]?.querySelector('.bo-perf-value > :first-child')?.textContent ?? '';
    }),
  );
  return texts.map((t) => Number(t.replace(/[^\d]/g, '')));
}

describe('performance report', () => {
  it('shows the month against last month, sorts on the server and exports the CSV', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.demandLead, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Performance report' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
      // The link holds the view: this month, the zone and the sort.
      const month = param(page, 'month')!;
      expect(month).toMatch(/^\d{4}-\d{2}$/);
      expect(param(page, 'tz')).toBe('Europe/Madrid');
      expect(param(page, 'sort')).toBe('-revenue');
      await page.getByTestId('perf-totals').waitFor();

      // Last month: over, so whole months are compared, and the legend says which.
      const previous = monthBefore(month);
      const input = page.locator('#perf-month');
      await input.click();
      await input.fill(previous);
      await input.press('Enter');
      await expect.poll(() => param(page, 'month')).toBe(previous);
      await expect.poll(() => page.getByTestId('perf-windows').getAttribute('data-mode')).toBe('whole_month');
      await expect
        .poll(() => page.getByTestId('perf-windows-text').textContent())
        .toMatch(/^[A-Z][a-z]+ \d{4} compared with the whole of [A-Z][a-z]+ \d{4}\.$/);
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);

      // No serious or critical accessibility problem (the other widths and dark: the screenshots run).
      await expectNoSeriousViolations(page, 'performance report, last month');

      // Sort by impressions (a header click): the server answers them highest first.
      await page.getByRole('columnheader', { name: /^Impressions, .*Last month/ }).click();
      await expect.poll(() => param(page, 'sort')).toBe('-impressions');
      await expect
        .poll(async () => {
          const list = await impressions(page);
          return list.length > 3 && list.every((v, i) => i === 0 || list[i - 1]! >= v);
        })
        .toBe(true);
      const total = Number(
        ((await page.locator('.ant-pagination-total-text').textContent()) ?? '').replace(/[^\d]/g, ''),
      );

      // The CSV: every partner, its titles naming the months compared.
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('perf-export-csv').click(),
      ]);
      expect(file.suggestedFilename()).toMatch(/^performance_report_\d{4}-\d{2}-\d{2}_\d{6}\.csv$/);
      const target = path.join(downloads, file.suggestedFilename());
      await file.saveAs(target);
      const lines = fs
        .readFileSync(target, 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]!.split(',').slice(0, 5)).toEqual([
        'Demand partner',
        'Demand partner ID',
        'Side',
        `Revenue (${previous})`,
        `Revenue (${monthBefore(previous)})`,
      ]);
      expect(lines.length - 1).toBe(total);
      // In the screen's order: impressions, highest first.
      const first = await rows(page)
        .first()
        .locator('td')
        .first()
        .locator('.bo-perf-partner__name')
        .textContent();
      expect(lines[1]!.startsWith(`${first},`)).toBe(true);
    });
  });

  const shots = screenshots('performance-report');
  it.runIf(shots.enabled)(
    'screenshots and axe: light and dark, 1440 and 375 px, made-up changes, Spanish',
    async () => {
      for (const [width, height] of [
        [1440, 900],
        [375, 800],
      ] as const) {
        for (const theme of ['light', 'dark'] as const) {
          await withPage(browser, { viewport: { width, height } }, async (page) => {
            await signIn(page, DEMO.demandLead, { via: 'api', theme, path: PATH });
            await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
            await shots.shot(page, `current-${width}-${theme}`);
            await expectNoSeriousViolations(page, `performance report ${width} ${theme}`);
            // What a phone shows first, and a screen further down (the full page is very tall).
            if (width === 375) {
              const dir = path.join(REPO_ROOT, '.tmp', 'performance-report');
              await page.screenshot({ path: path.join(dir, `top-${width}-${theme}.png`) });
              await page.mouse.wheel(0, 900);
              await page.waitForTimeout(300);
              await page.screenshot({ path: path.join(dir, `scrolled-${width}-${theme}.png`) });
            }
          });
        }
      }
      // Spanish, last month (whole months); a month in the future refused next to the month.
      await withPage(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
        await signIn(page, DEMO.demandLead, { via: 'api', lang: 'es', path: PATH });
        await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
        await page.goto(
          `/es${PATH}?month=${monthBefore(param(page, 'month')!)}&tz=Europe/Madrid&sort=-margin_change`,
        );
        await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
        await shots.shot(page, 'previous-1280-light-es');
        await page.goto(`/es${PATH}?month=2999-01&tz=UTC&sort=-revenue`);
        await page.getByTestId('perf-month-error').waitFor();
        await shots.shot(page, 'future-1280-light-es');
      });
    },
  );
});
