/**
 * E-mail schedules of a saved DataViewer (issue 4): the owner opens the Schedules drawer, meets
 * the company-mail rule, adds a weekly schedule, sends it now and sees its last run; a role the
 * DataViewer is shared with sees the schedules read-only. Screenshots of both themes, en/es, at
 * 375/1024/1440 go to .tmp/schedules/ (E2E_SCREENSHOTS=1).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { REPO_ROOT } from '../support/server.ts';
import { apiLogin, DEMO, signIn, toast, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
let dataviewerId: number;
const SHOTS = process.env.E2E_SCREENSHOTS ? path.join(REPO_ROOT, '.tmp', 'schedules') : null;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  browser = await launchBrowser();
  const lead = await apiLogin(DEMO.demandLead);
  const finance = await apiLogin(DEMO.finance);
  const res = await fetch(`${getBaseURL()}/v1/reports/dataviewers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${lead.token}` },
    body: JSON.stringify({
      name: 'Partners by day (schedules e2e)',
      shared_role_ids: [finance.roles[0]!.id],
      definition: { preset: 'yesterday', timezone: 'Europe/Madrid', dimensions: ['day', 'demand_partner'], metrics: ['revenue', 'impressions'], filters: [], sort: [] },
    }),
  });
  dataviewerId = ((await res.json()) as { data: { id: number } }).data.id;
});
afterAll(async () => browser?.close());

async function openDrawer(page: Page) {
  await page.locator(`[data-testid="dataviewer-page"][data-saved-id="${dataviewerId}"]`).waitFor();
  await page.getByTestId('dvs-button').click();
  await page.locator('.ant-drawer-open [data-testid="dvs-drawer"], [data-testid="dvs-drawer"]').first().waitFor();
}

describe('DataViewer schedules', () => {
  it('the owner adds a schedule, meets the company-mail rule, sends it now and sees the run', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await signIn(page, DEMO.demandLead, { via: 'api', path: `/reports/dataviewer/${dataviewerId}` });
      await openDrawer(page);
      await page.getByTestId('dvs-empty').waitFor();
      await page.getByTestId('dvs-add').click();
      const form = page.getByTestId('dvs-form');
      await form.waitFor();
      // The person creating it is the first recipient; the DataViewer's zone is the default.
      await expect(form.locator('.ant-select-selection-item, .ant-tag').filter({ hasText: DEMO.demandLead }).first().isVisible()).resolves.toBe(true);
      await expect(page.getByTestId('dvs-timezone').textContent()).resolves.toContain('Europe/Madrid');

      await page.getByTestId('dvs-frequency').getByText('Weekly').click();
      await page.getByTestId('dvs-weekday').waitFor();
      const recipients = page.getByTestId('dvs-recipients').locator('input');
      await recipients.click();
      await recipients.pressSequentially('someone@gmail.com,ops@ssp.example,');
      await page.getByTestId('dvs-save').click();
      await form.getByText('Only company e-mail addresses can receive reports').waitFor();
      await shot(page, 'owner-form-error-1440-light-en');
      // Remove the outside address and save.
      await form.locator('.ant-tag').filter({ hasText: 'someone@gmail.com' }).locator('.ant-tag-close-icon').click();
      await page.getByTestId('dvs-save').click();
      await toast(page, 'Schedule saved').waitFor();

      const card = page.getByTestId('dvs-card').first();
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain('Every Monday at 08:00');
      await expect(card.textContent()).resolves.toContain('ops@ssp.example');
      await expect(page.getByTestId('dvs-next-run').textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} 08:00$/);
      await expect(card.textContent()).resolves.toContain('Never');

      await card.getByTestId('dvs-send').click();
      await toast(page, 'Report sent').waitFor({ timeout: 30_000 });
      await card.getByTestId('dvs-last-run').getByText('Sent').waitFor();
      await expect(card.getByTestId('dvs-last-run').textContent()).resolves.toMatch(/\d+ rows/);
      await expect(page.getByTestId('dvs-count').textContent()).resolves.toContain('1');
      await shot(page, 'owner-list-1440-light-en');

      // Pause: no next run.
      await card.getByTestId('dvs-toggle').click();
      await toast(page, 'Schedule updated').waitFor();
      await expect(page.getByTestId('dvs-next-run').textContent()).resolves.toBe('Not scheduled (paused)');
      await card.getByTestId('dvs-toggle').click();
      await page.getByTestId('dvs-next-run').getByText(/08:00$/).waitFor();
      expect(errors).toEqual([]);
    });
  });

  it('shows the schedules read-only to a role it is shared with', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 800 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: `/reports/dataviewer/${dataviewerId}` });
      await openDrawer(page);
      await page.getByTestId('dvs-read-only').waitFor();
      await page.getByTestId('dvs-card').first().waitFor();
      await expect.poll(() => page.getByTestId('dvs-add').count()).toBe(0);
      await expect.poll(() => page.getByTestId('dvs-send').count()).toBe(0);
      await expect.poll(() => page.getByTestId('dvs-toggle').count()).toBe(0);
      await shot(page, 'shared-readonly-1024-light-en');
    });
  });

  const looks: { width: number; height: number; theme: 'light' | 'dark'; lang: Lang }[] = [
    { width: 375, height: 780, theme: 'light', lang: 'en' },
    { width: 375, height: 780, theme: 'dark', lang: 'es' },
    { width: 1024, height: 800, theme: 'dark', lang: 'es' },
    { width: 1440, height: 900, theme: 'dark', lang: 'en' },
  ];
  for (const look of looks) {
    it(`lays out the drawer and the form at ${look.width} (${look.theme}, ${look.lang})`, async () => {
      await withPage(browser, { viewport: { width: look.width, height: look.height }, colorScheme: look.theme }, async (page) => {
        await signIn(page, DEMO.demandLead, { via: 'api', lang: look.lang, theme: look.theme, path: `/reports/dataviewer/${dataviewerId}` });
        await shot(page, `toolbar-${look.width}-${look.theme}-${look.lang}`);
        await openDrawer(page);
        await page.getByTestId('dvs-card').first().waitFor();
        // Nothing wider than the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await shot(page, `list-${look.width}-${look.theme}-${look.lang}`);
        await page.getByTestId('dvs-edit').first().click();
        await page.getByTestId('dvs-form').waitFor();
        await page.getByTestId('dvs-frequency').getByText(look.lang === 'es' ? 'Mensual' : 'Monthly').click();
        await page.getByTestId('dvs-month-day').waitFor();
        await shot(page, `form-${look.width}-${look.theme}-${look.lang}`);
      });
    });
  }
});
