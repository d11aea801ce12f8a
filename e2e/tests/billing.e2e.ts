/**
 * Billing rows (issue 21): a finance user signs in, opens the SSP advertiser billing, picks last
 * month, filters to one partner, opens one of its open rows, types a revenue network that leaves
 * under 20% margin (the preview warns), saves, confirms it through the low-margin warning,
 * approves it after the "no rollback" question, records a payment and sees the payment badge move
 * from "Not paid" to "Partly paid". With E2E_SCREENSHOTS=1 it also saves the four
 * billing screens (the SSP list with a row open, its netting and reconciliation tabs, the two
 * performance lists and the performance overview) at 375, 768 and 1440 px, light (English) and
 * dark (Spanish), each checked with axe-core, under .tmp/billing/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthOf, nextMonth, type BillingListAnswer, type BillingRowDto } from '@backoffice/core/billing-api';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { apiLogin, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const { enabled: SHOTS_ON, shot } = screenshots('billing');

const SSP_PATH = '/billing_ssp/advertiser-billing';

/** `YYYY-MM` of the month `n` months from now (UTC), as the screens count months. */
const monthFromNow = (n: number) => nextMonth(monthOf(Date.now()), n);

/** An open row of last month with its own figure (no partner figure yet), through the API. */
async function openRow(month: string): Promise<BillingRowDto> {
  const { token } = await apiLogin(DEMO.finance);
  const res = await fetch(
    `${getBaseURL()}/v1/billing/ssp/rows?kind=advertiser&month=${month}&state=open&page_size=100`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  const rows = ((await res.json()) as { data: BillingListAnswer }).data.rows;
  const row =
    rows.find((r) => r.revenue_network === null && r.carried_from.length === 0 && Number(r.other_side) > 0) ??
    rows[0];
  if (!row) throw new Error(`no open SSP advertiser row in ${month}`);
  return row;
}

/** A figure that leaves a 15% margin over the row's cost. */
const lowMarginFigure = (row: BillingRowDto) => (Number(row.other_side) / 0.85).toFixed(2);

describe('billing', () => {
  it('a finance user edits a row under 20% margin, confirms it through the warning, approves it and records a payment', async () => {
    const last = monthFromNow(-1);
    const row = await openRow(last);
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { path: `${SSP_PATH}?month=${monthFromNow(-2)}` });
      await page.getByRole('heading', { name: 'Advertiser billing' }).waitFor();

      // Last month, picked in the month input.
      const month = page.locator('#billing-month');
      await month.click();
      await month.fill(last);
      await month.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('month')).toBe(last);

      // One partner.
      await page.getByTestId('billing-search').locator('input').fill(row.counterparty.name);
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(row.counterparty.name);
      const names = page.locator('[data-testid^="billing-open-"] .bo-bill-cp__name');
      await expect
        .poll(async () => [...new Set(await names.allTextContents())])
        .toEqual([row.counterparty.name]);
      await page.getByTestId(`billing-row-${row.id}`).waitFor();
      expect(await page.getByTestId(`billing-badge-${row.id}`).textContent()).toBe('Not paid');

      // The row: its partner figure, under 20% margin, with the warning while typing.
      await page.getByTestId(`billing-open-${row.id}`).click();
      await expect.poll(() => page.getByTestId('billing-detail-state').textContent()).toBe('Open');
      await page.getByTestId('billing-edit-network').fill(lowMarginFigure(row));
      await page.getByTestId('billing-margin-warning').waitFor();
      expect(await page.getByTestId('billing-margin-preview').textContent()).toContain('15.00%');
      await page.getByTestId('billing-edit-save').click();
      await toast(page, 'Saved. This figure leaves a margin under 20%').waitFor();

      // Confirm: the API asks about the margin first.
      await page.getByTestId('billing-row-confirm').click();
      await page.getByTestId('billing-low-margin').waitFor();
      expect(await page.getByTestId('billing-low-margin').textContent()).toContain(
        '1 of the rows leave a margin under 20%',
      );
      await page.getByTestId('billing-low-margin-ok').click();
      await expect
        .poll(() => page.getByTestId('billing-action-summary').textContent())
        .toBe('1 done, 0 skipped');
      await page.getByTestId('billing-action-result-close').click();
      await expect.poll(() => page.getByTestId('billing-detail-state').textContent()).toBe('Confirmed');

      // Approve: final, asked first.
      await page.getByTestId('billing-row-approve').click();
      await page.getByText('Approval is final').waitFor();
      await page.getByTestId('billing-approve-ok').click();
      await expect
        .poll(() => page.getByTestId('billing-action-summary').textContent())
        .toBe('1 done, 0 skipped');
      await page.getByTestId('billing-action-result-close').click();
      await expect.poll(() => page.getByTestId('billing-detail-state').textContent()).toBe('Approved');
      expect(await page.getByTestId('billing-detail-badge').textContent()).toBe('Not paid');

      // A first payment: the row is partly paid.
      await page.getByRole('tab', { name: 'Payments' }).click();
      await page.getByTestId('billing-payment-amount').fill('1000.00');
      await page.getByTestId('billing-payment-reference').fill('SEPA transfer 0001');
      await page.getByTestId('billing-payment-save').click();
      await toast(page, 'Payment recorded').waitFor();
      await expect.poll(() => page.getByTestId('billing-detail-badge').textContent()).toBe('Partly paid');
      await page.getByTestId('billing-payments').getByText('SEPA transfer 0001').waitFor();

      // Closed, the list says the same.
      await page.keyboard.press('Escape');
      await page.getByTestId('billing-figures').waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId(`billing-badge-${row.id}`).textContent()).toBe('Partly paid');
      expect(await page.getByTestId(`billing-state-${row.id}`).textContent()).toBe('Approved');
      await expectNoSeriousViolations(page, 'billing list after the payment');
    });
  });

  it.runIf(SHOTS_ON)(
    'screenshots and axe: the four billing screens at 375, 768 and 1440 px, light (en) and dark (es)',
    async () => {
      const last = monthFromNow(-1);
      const screens = [
        { name: 'ssp', path: SSP_PATH, ready: 'billing-rows' },
        { name: 'perf-advertiser', path: '/billing_performance/advertiser-billing', ready: 'billing-rows' },
        { name: 'perf-supply', path: '/billing_performance/supply-billing', ready: 'billing-rows' },
        { name: 'perf-overview', path: '/billing_performance/performance', ready: 'billing-overview' },
      ];
      await forEachView(browser, async (page, { width, theme, lang }) => {
        const ready = (testId: string) =>
          page.locator(`[data-testid="${testId}"][data-state="ready"]`).waitFor();
        await signIn(page, DEMO.finance, { via: 'api', lang, theme });
        for (const s of screens) {
          const name = `${s.name}-${width}-${theme}-${lang}`;
          await page.goto(`/${lang}${s.path}?month=${last}`);
          await ready(s.ready);
          await shot(page, name);
          await expectNoSeriousViolations(page, name);
        }
        // The SSP list's row drawer and its other tabs.
        await page.goto(`/${lang}${SSP_PATH}?month=${last}`);
        await ready('billing-rows');
        await page.locator('[data-testid^="billing-open-"]').first().click();
        await page.getByTestId('billing-figures').waitFor();
        await shot(page, `ssp-drawer-${width}-${theme}-${lang}`);
        await expectNoSeriousViolations(page, `ssp drawer ${width} ${theme}`);
        await page.keyboard.press('Escape');
        for (const tab of ['netting', 'reconciliation'] as const) {
          await page.goto(`/${lang}${SSP_PATH}?month=${last}&tab=${tab}`);
          await ready(`billing-${tab}`);
          await shot(page, `ssp-${tab}-${width}-${theme}-${lang}`);
          await expectNoSeriousViolations(page, `ssp ${tab} ${width} ${theme}`);
        }
      });
    },
    600_000,
  );
});
