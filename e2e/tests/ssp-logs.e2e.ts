/**
 * SSP logs (issue 24): tech searches the sampled logs by partner (the filter) and time window (the
 * URL), opens a log (the OpenRTB request and response side by side), collapses and expands the
 * request; the ADMIN (the parametrization is a hidden menu entry) goes to the logs parametrization, is refused a 10-minute duration next to the
 * field, and switches sampling on at 40 % for one partner for 30 minutes: the status and the
 * history show it. With E2E_SCREENSHOTS=1 the tool, the viewer and the parametrization are saved
 * (light English and dark Spanish, 375 / 768 / 1440 px) under .tmp/ssp-logs/, each checked with axe-core.
 */
import type { SamplingSetting, SspLogsAnswer } from '@backoffice/core/ssp-logs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('ssp-logs');
const TOOL = '/process/ssp-logs-tool';
const PARAM = '/utils/ssp/logs-data/parametrization';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const apiGet = <T,>(path: string) => apiGetAs<T>(DEMO.tech, path);

describe('ssp logs', () => {
  it('tech searches by partner and time, opens a log, collapses and expands it, and switches sampling on', async () => {
    const [newest] = (await apiGet<SspLogsAnswer>('ssp-logs?page_size=1&outcome=won')).items;
    expect(newest).toBeTruthy();
    const partner = newest!.partner;
    const to = new Date(Date.parse(newest!.logged_at) + 60_000).toISOString();
    const from = new Date(Date.parse(to) - 6 * 3600_000).toISOString();
    const expected = await apiGet<SspLogsAnswer>(`ssp-logs?partner_id=${partner.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&page_size=25`);

    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: `${TOOL}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}` });
      await page.getByTestId('ssp-logs-table').waitFor();
      // The partner, picked in its filter as a person would.
      const select = page.getByTestId('ssp-logs-filter-partner');
      await select.click();
      await page.keyboard.type(partner.name);
      await page.locator('.ant-select-item-option', { hasText: partner.name }).first().click();
      await expect.poll(() => new URL(page.url()).searchParams.get('partner')).toBe(String(partner.id));
      await page.getByTestId(`ssp-logs-row-${expected.items[0]!.id}`).waitFor();
      const rows = page.locator('[data-testid^="ssp-logs-row-"]');
      await expect.poll(() => rows.count()).toBe(expected.items.length);
      expect(await rows.first().textContent()).toContain(partner.name);

      // Open the newest log: the pair side by side, the outcome and latency tags; the URL links to it.
      await page.getByTestId(`ssp-log-open-${newest!.id}`).click();
      const viewer = page.getByTestId('ssp-log-viewer');
      await viewer.getByTestId('ssp-log-request').waitFor();
      expect(new URL(page.url()).searchParams.get('log')).toBe(String(newest!.id));
      expect(await viewer.getByTestId('ssp-log-outcome').textContent()).toBe('Won');
      await viewer.getByTestId('ssp-log-response').getByText('seatbid').first().waitFor();
      const request = viewer.getByTestId('ssp-log-request');
      // Two levels start open (the schain's nodes are deeper); expand all shows them, collapse all folds the top.
      await request.getByText(/^tmax:?$/).first().waitFor();
      expect(await request.getByText('"adtech.example"').count()).toBe(0);
      await request.getByTestId('ssp-log-request-expand').click();
      await request.getByText('"adtech.example"').first().waitFor();
      expect(await request.getByText(`"${newest!.request_id}"`).count()).toBeGreaterThan(0);
      await request.getByTestId('ssp-log-request-collapse').click();
      await expect.poll(() => request.getByText('"adtech.example"').count()).toBe(0);
      await expect.poll(() => request.getByText(/^tmax:?$/).count()).toBe(0);
      await request.getByTestId('ssp-log-request-expand').click();
      await request.getByText(/^tmax:?$/).first().waitFor();
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'log viewer');
      await page.keyboard.press('Escape');
      await expect.poll(() => new URL(page.url()).searchParams.get('log')).toBe(null);

      // Tech is no ADMIN: the hidden parametrization entry is not offered (spec 6).
      expect(await page.getByTestId('ssp-logs-to-parametrization').count()).toBe(0);
    });

    // The ADMIN opens it from the tool's status line.
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: TOOL });
      await page.getByTestId('ssp-logs-to-parametrization').click();
      const form = page.getByTestId('ssp-param-form');
      await form.waitFor();
      const before = await apiGet<SamplingSetting>('ssp-logs/parametrization');
      expect(before.active).toBe(false);
      await page.getByTestId('ssp-param-active').click();
      const minutes = page.getByTestId('ssp-param-minutes');
      await minutes.fill('10');
      await page.getByTestId('ssp-param-save').click();
      await form.getByText('The duration is from 15 to 1,440 minutes (24 hours).').waitFor();
      expect((await apiGet<SamplingSetting>('ssp-logs/parametrization')).version).toBe(before.version);
      // What was typed stays; fix it with a preset, 40 %, one partner.
      expect(await minutes.inputValue()).toBe('10');
      await page.getByTestId('ssp-param-preset-30').click();
      await page.getByTestId('ssp-param-rate').fill('40');
      await page.getByTestId('ssp-param-scope').getByText('Chosen partners').click();
      await page.getByTestId('ssp-param-partners').click();
      await page.keyboard.type(partner.name);
      await page.locator('.ant-select-item-option', { hasText: partner.name }).first().click();
      await page.keyboard.press('Escape');
      await page.getByTestId('ssp-param-save').click();
      await toast(page, 'Sampling setting saved').waitFor();
      await expect.poll(async () => (await page.getByTestId('ssp-param-status').getAttribute('data-sampling')) ?? '').toBe('on');
      const after = await apiGet<SamplingSetting>('ssp-logs/parametrization');
      expect(after).toMatchObject({ active: true, sampling: true, sample_rate_pct: 40, duration_mode: 'minutes', duration_minutes: 30, partner_scope: 'partners', partner_ids: [partner.id] });
      expect(Date.parse(after.ends_at!) - Date.parse(after.started_at!)).toBe(30 * 60_000);
      await expect.poll(async () => (await page.getByTestId('ssp-param-history').locator('.ant-timeline-item').first().textContent()) ?? '').toMatch(/Setting changed.*Carmen Ortega.*sample_rate_pct: 10 → 40/);
      // A just-clicked primary button keeps antd's lighter hover colour under the pointer.
      await page.mouse.move(0, 0);
      await expectNoSeriousViolations(page, 'parametrization');
      // Back on the tool, the status says it samples.
      await page.getByTestId('ssp-param-to-tool').click();
      await expect.poll(async () => (await page.getByTestId('ssp-logs-status').getAttribute('data-sampling')) ?? '').toBe('on');
    });
  }, 120_000);

  it.runIf(SHOTS_ON)('screenshots and axe: the tool, the viewer and the parametrization at 375, 768 and 1440 px, light (en) and dark (es)', async () => {
    const [one] = (await apiGet<SspLogsAnswer>('ssp-logs?page_size=1&outcome=won')).items;
    for (const [width, height] of [
      [375, 800],
      [768, 1000],
      [1440, 900],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const lang: Lang = theme === 'light' ? 'en' : 'es';
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.tech, { via: 'api', lang, theme });
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          await page.goto(`/${lang}${TOOL}`);
          await page.getByTestId(width < 768 ? 'ssp-logs-cards' : 'ssp-logs-table').waitFor();
          await page.locator('[data-testid^="ssp-logs-row-"]').first().waitFor();
          await shot(page, name('tool'));
          await expectNoSeriousViolations(page, name('tool'));
          await page.goto(`/${lang}${TOOL}?log=${one!.id}`);
          await page.getByTestId('ssp-log-request').waitFor();
          await shot(page, name('viewer'));
          await expectNoSeriousViolations(page, name('viewer'));
        });
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, DEMO.admin, { via: 'api', lang, theme });
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          await page.goto(`/${lang}${PARAM}`);
          await page.getByTestId('ssp-param-form').waitFor();
          await page.getByTestId('ssp-param-history').locator('.ant-timeline-item').first().waitFor();
          await shot(page, name('parametrization'));
          await expectNoSeriousViolations(page, name('parametrization'));
        });
      }
    }
  }, 300_000);
});
