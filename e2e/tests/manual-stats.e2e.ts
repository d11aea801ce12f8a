/**
 * Manual stats and the Amazon CSV importer (issue 24). Tech enters a day for a manual partner: a
 * wrong revenue is refused next to the field, then the day (which the demo already has) asks
 * before being replaced, and is saved. An admin uploads an APS earnings CSV: the mapping is guessed
 * from APS's column names, a row with a negative figure shows its error in the preview and the
 * import stays off; a clean file previews, imports and appears in the imports list; importing it
 * again changes nothing. With E2E_SCREENSHOTS=1 both screens (and the dialogs) are saved light
 * English and dark Spanish at 375 / 768 / 1440 px under .tmp/manual-stats/, each checked with axe.
 */
import type { PartnerStat, StatsAnswer } from '@backoffice/core/partner-stats';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { apiLogin, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('manual-stats');
const STATS = '/utils/ssp/stats-manual';
const AMAZON = '/utils/amazon_csv';
const DAY_MS = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const HEADER = 'Date,Slot Name,Slot UUID,Ad Size,Impressions,Clicks,Earnings (USD),eCPM (USD)';
const apsLine = (day: string, slot: string, imps: number, earnings: string) => `${day},${slot},9b7e5d1c-${slot},300x250,${imps},90,${earnings},1.62`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function figures(partner: string): Promise<PartnerStat[]> {
  const { token } = await apiLogin(DEMO.tech);
  const res = await fetch(`${getBaseURL()}/v1/stats-manual?search=${encodeURIComponent(partner)}&page_size=100`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: StatsAnswer }).data.items;
}

async function upload(page: Page, name: string, csv: string) {
  await page.getByTestId('amazon-csv-page').locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

describe('manual stats and the Amazon CSV importer', () => {
  it('tech enters a day: a wrong revenue is refused next to the field; replacing the existing day asks first', async () => {
    const day = dayAgo(2);
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: `${STATS}?q=Orion` });
      await page.getByTestId('stats-totals').waitFor();
      await expect.poll(() => page.locator('[data-testid^="stats-row-"]').count()).toBeGreaterThan(0);
      expect(new URL(page.url()).searchParams.get('q')).toBe('Orion');
      await expectNoSeriousViolations(page, 'manual stats list');

      await page.getByTestId('stats-enter-open').click();
      const form = page.getByTestId('stats-enter-form');
      await form.getByTestId('stats-enter-partner').click();
      await page.locator('.ant-select-item-option', { hasText: 'Orion Network' }).click();
      const dayInput = form.locator('#stats-day-0');
      await dayInput.click();
      await dayInput.fill(day.replace(/-/g, '/'));
      await dayInput.press('Enter');
      await form.getByTestId('stats-impressions-0').fill('123456');
      await form.getByTestId('stats-revenue-0').fill('12x');
      await page.getByTestId('stats-enter-save').click();
      await form.getByText('Not a number').waitFor();
      await form.getByTestId('stats-revenue-0').fill('321.50');
      await page.getByTestId('stats-enter-save').click();
      // The demo has that day already: the screen lists it and asks.
      const list = page.getByTestId('stats-replace-list');
      await list.waitFor();
      await list.getByText(day).waitFor();
      await list.getByText('$321.50').waitFor();
      await page.getByTestId('stats-replace-ok').click();
      await toast(page, 'Figures saved').waitFor();
      await expect.poll(async () => (await figures('Orion')).find((f) => f.day === day)?.revenue).toBe('321.50');
      const saved = (await figures('Orion')).find((f) => f.day === day)!;
      expect([saved.impressions, saved.source, saved.updated_by]).toEqual([123456, 'manual', 'Priya Natarajan']);
    });
  }, 120_000);

  it('an admin imports an APS CSV: a row error in the preview, then a clean file imports; the same file again changes nothing', async () => {
    const bad = [HEADER, apsLine(dayAgo(70), 'top', 1000, '1.62'), apsLine(dayAgo(69), 'top', -5, '1.10')].join('\n');
    const good = [HEADER, apsLine(dayAgo(66), 'top', 181_200, '293.54'), apsLine(dayAgo(66), 'mpu', 90_400, '150.06'), apsLine(dayAgo(65), 'top', 175_900, '284.96')].join('\n');
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: AMAZON });
      await page.getByTestId('amazon-imports').waitFor();
      await upload(page, 'aps_bad.csv', bad);
      await page.getByTestId('amazon-mapping').waitFor();
      await page.getByTestId('amazon-preview').click();
      const card = page.getByTestId('amazon-preview-card');
      await card.waitFor();
      await card.getByText('Impressions: Cannot be negative').waitFor();
      expect(await page.getByTestId('amazon-import').isDisabled()).toBe(true);
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'amazon preview with a row error');

      await upload(page, 'aps_good.csv', good);
      await page.getByTestId('amazon-preview').click();
      await card.getByText('3 rows · 2 days · 0 with errors · 0 dropped (empty values)').waitFor();
      await page.getByTestId('amazon-import').click();
      await toast(page, 'File imported').waitFor();
      await page.getByTestId('amazon-imports').getByText('aps_good.csv').waitFor();
      await expect.poll(async () => (await figures('Amazon')).find((f) => f.day === dayAgo(66))?.revenue).toBe('443.60');

      await page.getByTestId('amazon-already').waitFor();
      await page.getByTestId('amazon-import').click();
      await toast(page, 'Already imported: nothing changed').waitFor();
      expect(await page.getByTestId('amazon-imports').getByText('aps_good.csv').count()).toBe(1);
    });
  }, 120_000);

  it.runIf(SHOTS_ON)('screenshots and axe: both screens and their dialogs at 375, 768 and 1440 px, light (en) and dark (es)', async () => {
    const csv = [HEADER, apsLine(dayAgo(3), 'top', 1000, '1.62'), apsLine(dayAgo(2), 'top', -5, '1.10')].join('\n');
    await forEachView(browser, async (page, { width, theme, lang }) => {
      await signIn(page, DEMO.admin, { via: 'api', lang, theme, path: STATS });
      const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
      await page.getByTestId('stats-totals').waitFor();
      await expect.poll(() => page.locator('[data-testid^="stats-row-"]').count()).toBeGreaterThan(0);
      await shot(page, name('stats-list'));
      await expectNoSeriousViolations(page, name('stats-list'));
      if (width <= 768) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.getByTestId('stats-enter-open').click();
      await page.getByTestId('stats-enter-form').waitFor();
      await shot(page, name('stats-enter'));
      await expectNoSeriousViolations(page, name('stats-enter'), { within: '.ant-modal' });

      await page.goto(`/${lang}${AMAZON}`);
      await page.getByTestId('amazon-imports').waitFor();
      await upload(page, 'aps.csv', csv);
      await page.getByTestId('amazon-preview').click();
      await page.getByTestId('amazon-preview-card').waitFor();
      await page.mouse.move(0, 0);
      await shot(page, name('amazon'));
      await expectNoSeriousViolations(page, name('amazon'));
      if (width <= 768) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }, 600_000);
});
