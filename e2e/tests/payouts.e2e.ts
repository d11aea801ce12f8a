/**
 * Payouts (issue 23): finance opens "Supply pending payout" on last month, tries to confirm with
 * nothing selected ('Some payout must be selected'), selects two payouts, tries to confirm with a
 * short comment and a wrong code (errors next to the fields, nothing changes), confirms properly
 * with the code shown, approves (a final confirmation), marks them paid with a bank reference and
 * sees the states change; changing the minimum-revenue filter asks first. A second test reads the
 * payouts as cards at 375 px in Spanish with axe-core. With E2E_SCREENSHOTS=1 the three payout
 * screens and the dialogs are saved (light English and dark Spanish, 375 / 768 / 1440 px) under
 * .tmp/payouts/, each checked with axe-core.
 *
 * The e2e server runs its date rules as on the 15th at the earliest (CLOCK_MIN_DAY_OF_MONTH, e2e/support/server.ts), so
 * last month can be confirmed whatever day the suite runs.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextMonth, monthOf } from '@backoffice/core/billing-api';
import type { PayoutDto, PayoutListAnswer } from '@backoffice/core/payouts';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('payouts');
const SUPPLY = '/billing_ssp/supply-billing';
const MONTH = nextMonth(monthOf(Date.now()), -1);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const apiGet = <T,>(path: string) => apiGetAs<T>(DEMO.finance, path);
const payout = async (id: number) => (await apiGet<{ payout: PayoutDto }>(`payouts/ssp/${id}`)).payout;

/** Pending payouts of last month that can be confirmed (billing info, over the minimum, no alerts). */
async function confirmable(n: number): Promise<PayoutDto[]> {
  const list = await apiGet<PayoutListAnswer>(`payouts/ssp?month=${MONTH}&state=pending&sort=-payout&page_size=100`);
  const ok = list.rows.filter((p) => p.blockers.length === 0 && p.alerts.length === 0).slice(3, 3 + n);
  if (ok.length < n) throw new Error('not enough confirmable payouts in the demo data');
  return ok;
}

const rowOf = (page: Page, id: number) => page.getByTestId(`payout-row-${id}`);
const ready = (page: Page) => page.getByTestId('payout-totals').waitFor();

describe('payouts', () => {
  it('finance confirms two payouts (after a short comment and a wrong code are refused), approves them and marks them paid', async () => {
    const picked = await confirmable(2);
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: `${SUPPLY}?month=${MONTH}&q=${encodeURIComponent(picked[0]!.name)}` });
      await ready(page);
      // Nothing selected: the spec's message.
      await page.getByTestId('payout-bulk-confirm').click();
      await toast(page, 'Some payout must be selected').waitFor();

      // The two payouts, each found by its name.
      for (const p of picked) {
        await page.getByTestId('payout-search').locator('input').fill(p.name);
        await rowOf(page, p.id).waitFor();
        await rowOf(page, p.id).getByRole('checkbox').check();
      }
      expect(await page.getByTestId('payout-selected-count').textContent()).toBe('2 selected');
      await page.getByTestId('payout-bulk-confirm').click();
      const dialog = page.getByTestId('payout-confirm-dialog');
      await dialog.getByTestId('payout-code-value').waitFor();
      const code = (await dialog.getByTestId('payout-code-value').textContent())!.trim();
      expect(code).toMatch(/^\d{6}$/);

      // A short comment: refused next to the field, nothing sent.
      await dialog.getByTestId('payout-comment').fill('Too short');
      await dialog.getByTestId('payout-code').fill(code === '000000' ? '111111' : '000000');
      await page.getByTestId('payout-confirm-ok').click();
      await dialog.getByText('A comment needs at least 10 characters').waitFor();
      // A proper comment and a wrong code: refused by the API next to the code.
      await dialog.getByTestId('payout-comment').fill('Checked against the partner reports');
      await page.getByTestId('payout-confirm-ok').click();
      await dialog.getByTestId('payout-code-error').getByText('The verification code is not correct').waitFor();
      for (const p of picked) expect((await payout(p.id)).state).toBe('pending');

      // The right code: confirmed.
      await dialog.getByTestId('payout-code').fill(code);
      await page.getByTestId('payout-confirm-ok').click();
      await toast(page, '2 done, 0 skipped').first().waitFor();
      for (const p of picked) await expect.poll(async () => (await payout(p.id)).state).toBe('confirmed');
      expect((await payout(picked[0]!.id)).comments).toBe('Checked against the partner reports');

      // Approve: final, asked first.
      for (const p of picked) {
        await page.getByTestId('payout-search').locator('input').fill(p.name);
        await page.getByTestId(`payout-state-${p.id}`).getByText('Confirmed').waitFor();
        await rowOf(page, p.id).getByRole('checkbox').check();
      }
      await page.getByTestId('payout-bulk-approve').click();
      await page.getByText('Approval is final').waitFor();
      await page.getByTestId('payout-approve-ok').click();
      await toast(page, '2 done, 0 skipped').first().waitFor();
      for (const p of picked) await expect.poll(async () => (await payout(p.id)).state).toBe('approved');

      // Approved payouts leave the pending queue: the "Approved" count shows them.
      await page.getByTestId('payout-state-count-approved').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('states')).toBe('approved');
      // Mark paid with the bank's reference.
      for (const p of picked) {
        await page.getByTestId('payout-search').locator('input').fill(p.name);
        await page.getByTestId(`payout-state-${p.id}`).getByText('Approved').waitFor();
        await rowOf(page, p.id).getByRole('checkbox').check();
      }
      await page.getByTestId('payout-bulk-pay').click();
      await page.getByTestId('payout-bank-reference').fill('SEPA-E2E-0001');
      await page.getByTestId('payout-pay-ok').click();
      await toast(page, '2 done, 0 skipped').first().waitFor();
      for (const p of picked) await expect.poll(async () => (await payout(p.id)).state).toBe('paid');
      expect((await payout(picked[1]!.id)).bank_reference).toBe('SEPA-E2E-0001');
      // The history in the drawer.
      await page.goto(`/en${SUPPLY}?month=${MONTH}&states=all&payout=${picked[0]!.id}`);
      const history = page.getByTestId('payout-drawer').getByRole('tab', { name: 'History' });
      await history.click();
      await page.getByTestId('payout-history').getByText('Mark paid').waitFor();
      await expectNoSeriousViolations(page, 'paid payout drawer');
    });
  }, 180_000);

  it('changing the minimum-revenue filter asks first; cancelling keeps the list', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: `${SUPPLY}?month=${MONTH}` });
      await ready(page);
      const min = page.getByTestId('payout-filter-min');
      await min.fill('5000');
      await min.press('Enter');
      await page.locator('.ant-modal-confirm-title', { hasText: 'Change the minimum-revenue filter?' }).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await min.inputValue()).toBe('');
      expect(new URL(page.url()).searchParams.get('min')).toBeNull();
      await min.fill('5000');
      await min.press('Enter');
      await page.getByTestId('payout-min-ok').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('min')).toBe('5000');
      const rows = await apiGet<PayoutListAnswer>(`payouts/ssp?month=${MONTH}&min_payout=5000&state=pending,held,confirmed&page_size=1`);
      await expect.poll(async () => (await page.getByTestId('payout-total-payout-EUR').textContent())?.replace(/\s/g, '')).toContain(
        rows.totals.by_currency[0]!.payout.split('.')[0]!.replace(/\B(?=(\d{3})+(?!\d))/g, ','),
      );
    });
  });

  it('the payouts read as cards at 375 px in Spanish', async () => {
    await withPage(browser, { viewport: { width: 375, height: 800 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', lang: 'es', path: '/billing_performance/publishers_reports' });
      await page.getByRole('heading', { name: 'Pagos pendientes a editores' }).waitFor();
      const cards = page.locator('[data-testid="payout-cards"] [data-testid^="payout-row-"]');
      await expect.poll(() => cards.count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectNoSeriousViolations(page, 'payouts at 375 px in Spanish');
      await cards.first().locator('[data-testid^="payout-open-"]').click();
      await page.getByTestId('payout-figures').waitFor();
      await expectNoSeriousViolations(page, 'payout drawer at 375 px in Spanish');
    });
  });

  it.runIf(SHOTS_ON)('screenshots and axe: the three screens and the confirmation at 375, 768 and 1440 px, light (en) and dark (es)', async () => {
    const [one] = await confirmable(1);
    await forEachView(browser, async (page, { width, theme, lang }) => {
      await signIn(page, DEMO.finance, { via: 'api', lang, theme });
      const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
      for (const [what, path] of [
        ['supply-pending', SUPPLY],
        ['publisher-pending', '/billing_performance/publishers_reports'],
        ['publisher-payouts', '/billing_performance/performance-publisher-monthly-report'],
      ] as const) {
        await page.goto(`/${lang}${path}?month=${MONTH}`);
        await ready(page);
        await shot(page, name(what));
        await expectNoSeriousViolations(page, name(what));
      }
      await page.goto(`/${lang}${SUPPLY}?month=${MONTH}&payout=${one!.id}`);
      await page.getByTestId('payout-figures').waitFor();
      await shot(page, name('drawer'));
      await expectNoSeriousViolations(page, name('drawer'));
      await page.goto(`/${lang}${SUPPLY}?month=${MONTH}&q=${encodeURIComponent(one!.name)}`);
      await rowOf(page, one!.id).waitFor();
      await rowOf(page, one!.id).getByRole('checkbox').check();
      await page.getByTestId('payout-bulk-confirm').click();
      await page.getByTestId('payout-code-value').waitFor();
      await page.getByTestId('payout-comment').fill('short');
      await page.getByTestId('payout-confirm-ok').click();
      await shot(page, name('confirm-dialog'));
      await expectNoSeriousViolations(page, name('confirm-dialog'), { within: '.ant-modal' });
    });
  }, 900_000);
});
