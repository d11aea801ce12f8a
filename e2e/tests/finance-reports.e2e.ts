/**
 * Finance reports (/finance_reports/*): a finance user opens the networks report (the last twelve
 * months by default), narrows the range to two months with the month inputs, filters one network,
 * reads its revenue total as the API gives it, and exports the CSV of what is filtered; the other
 * four routes are real screens (PlayOn per publisher and per network, AC, revenue and margin per
 * product); axe finds no serious problem. With E2E_SCREENSHOTS=1 it also saves the screens (light
 * en and dark es, 375, 768 and 1440 px) under .tmp/finance-reports/, with axe on each.
 */
import { formatMoney } from '@backoffice/core/format';
import type { FinanceAnswer } from '@backoffice/core/finance-reports';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { apiLogin, DEMO, signIn, withPage } from '../support/shell.ts';

let browser: Browser;
let downloads: string;
beforeAll(async () => {
  browser = await launchBrowser();
  downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-fin-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(downloads, { recursive: true, force: true });
});

const NETWORKS = '/finance_reports/reportNetworks';
const rows = (page: Page) => page.locator('[data-testid="fin-table"] tr.bo-fin-row');
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

async function api<T>(pathAndQuery: string): Promise<T> {
  const { token } = await apiLogin(DEMO.finance);
  const res = await fetch(`${getBaseURL()}/v1/${pathAndQuery}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

async function setMonth(page: Page, id: string, month: string): Promise<void> {
  const input = page.locator(`#${id}`);
  await input.click();
  await input.fill(month);
  await input.press('Enter');
}

describe('finance reports', () => {
  it('narrows the months, filters a network, shows its figures and exports them', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: NETWORKS });
      await page.getByRole('heading', { name: 'Networks report' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
      const to = param(page, 'to')!;
      expect(param(page, 'from')).toMatch(/^\d{4}-\d{2}$/);
      await page.getByTestId('fin-chart').waitFor();
      await page.getByTestId('fin-totals').waitFor();

      // Two months: the last one and the one before (the months shown are those).
      const from = monthBefore(to);
      await setMonth(page, 'fin-from-report_networks', from);
      await expect.poll(() => param(page, 'from')).toBe(from);
      await expect
        .poll(async () => {
          const months = await rows(page).evaluateAll((trs) =>
            trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent?.slice(0, 7) ?? ''),
          );
          return months.length > 0 && months.every((m) => m === from || m === to);
        })
        .toBe(true);

      // One network, chosen by name: its rows only, its revenue as the API adds it up.
      const answer = await api<FinanceAnswer>(
        `finance-reports?from=${from}&to=${to}&group=network&sort=-revenue&page_size=5`,
      );
      const top = answer.rows[0]!;
      await page.locator('#fin-ids-report_networks').click();
      await page.locator('#fin-ids-report_networks').fill(top.name);
      await page.locator('.ant-select-item-option', { hasText: top.name }).first().click();
      await page.keyboard.press('Escape');
      await expect.poll(() => param(page, 'ids')).toBe(String(top.id));
      await expect.poll(() => rows(page).count()).toBeLessThanOrEqual(2);
      const one = await api<FinanceAnswer>(
        `finance-reports?from=${from}&to=${to}&group=network&ids=${top.id}`,
      );
      await expect
        .poll(() => page.getByTestId('fin-total-revenue').textContent())
        .toBe(formatMoney(one.totals.revenue, 'USD', 'en'));
      expect(await rows(page).first().locator('td').first().textContent()).toContain(top.name);

      await expectNoSeriousViolations(page, 'finance networks report, one network');

      // The CSV of what is filtered: the network's months.
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('fin-export-csv').click(),
      ]);
      expect(file.suggestedFilename()).toMatch(/^finance_report_\d{4}-\d{2}-\d{2}_\d{6}\.csv$/);
      const target = path.join(downloads, file.suggestedFilename());
      await file.saveAs(target);
      const lines = fs
        .readFileSync(target, 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]!.split(',').slice(0, 4)).toEqual(['Month', 'Network', 'ID', 'Revenue (USD)']);
      expect(lines.length - 1).toBe(one.total_rows);
      expect(lines.slice(1).every((l) => l.includes(`,${top.id},`))).toBe(true);
    });
  });

  it('shows the product lines and the groupings on the other four routes', async () => {
    await withPage(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: '/finance_reports/playon/networks' });
      await page.getByRole('heading', { name: 'PlayOn networks' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await page.getByText('PlayOn (outstream video)').first().waitFor();

      await page.goto('/en/finance_reports/playon/acm');
      await page.getByRole('heading', { name: 'PlayOn ACM' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      expect(await page.locator('[data-testid="fin-table"] th').first().textContent()).toContain('Publisher');

      await page.goto('/en/finance_reports/reportACMonetization');
      await page.getByRole('heading', { name: 'AC monetization' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await page.getByText('AC (apps and CTV)').first().waitFor();

      await page.goto('/en/finance_reports/revenue_margin_report');
      await page.getByRole('heading', { name: 'Revenue and margin' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await page.getByTestId('fin-group').getByText('Product').click();
      await expect.poll(() => param(page, 'group')).toBe('product');
      await expect
        .poll(async () =>
          (
            await rows(page).evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')?.textContent ?? ''))
          ).every((n) => ['banner', 'video', 'native', 'audio'].includes(n)),
        )
        .toBe(true);
      await expectNoSeriousViolations(page, 'revenue and margin per product');
    });
  });

  const shots = screenshots('finance-reports');
  it.runIf(shots.enabled)(
    'screenshots and axe: light en and dark es, 375, 768 and 1440 px',
    async () => {
      const routes = [
        'reportNetworks',
        'reportACMonetization',
        'revenue_margin_report',
        'playon/acm',
        'playon/networks',
      ];
      await forEachView(browser, async (page, { width, theme, lang }) => {
        await signIn(page, DEMO.finance, {
          via: 'api',
          lang,
          theme,
          path: `/finance_reports/${routes[0]}`,
        });
        for (const route of width === 1440 || width === 375 ? routes : routes.slice(0, 1)) {
          await page.goto(`/${lang}/finance_reports/${route}`);
          await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
          await page.getByTestId('fin-chart').waitFor();
          const name = `${route.replace('/', '-')}-${width}-${theme}-${lang}`;
          await shots.shot(page, name);
          await expectNoSeriousViolations(page, name);
        }
      });
    },
    900_000,
  );
});
