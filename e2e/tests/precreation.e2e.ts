/**
 * Precreation (issue 19): a publisher is onboarded from a draft: filled in with its checklist,
 * sent for review, approved (after a confirmation) and so created; the created publisher opens from
 * the draft and is listed in the public /sellers.json. The draft then takes no edits, and a clone
 * starts from its fields without its identity. Screenshots (E2E_SCREENSHOTS=1) to .tmp/precreation/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { screenshots, sweepResource } from '../support/screenshots.ts';
import { DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('precreation');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, id: string) => page.locator(`[data-testid="resource-form-precreation"] #${id}`);

describe('precreation', () => {
  it('creates a publisher from a draft through review and approval, and finds it in /sellers.json', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: '/partners/precreation_perf/new' });
      await field(page, 'name').fill('Heraldo Pirineo');
      await field(page, 'target').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Publisher' }).click();
      await page.getByTestId('resource-group-entity').click();
      await field(page, 'seller_id').fill('perf-pirineo-9');
      await field(page, 'seller_domain').fill('heraldopirineo.example');
      await field(page, 'revenue_share_pct').fill('66');
      await page.getByTestId('resource-group-checklist').click();
      for (const item of ['contract_signed', 'billing_info', 'ads_txt_verified', 'test_traffic']) await field(page, item).click();
      await page.getByTestId('resource-save').click();
      await page.waitForURL(/\/en\/partners\/precreation_perf\/\d+$/);
      const draftUrl = page.url();
      const draftId = draftUrl.split('/').pop()!;

      await page.getByTestId('precreation-submit').click();
      await toast(page, 'Sent for review').waitFor();
      await page.getByTestId('precreation-approve').click();
      await page.locator('#precreation-approve-confirm').click();
      await toast(page, 'Approved: Heraldo Pirineo is created').waitFor();
      await shot(page, 'created-1440-light-en');

      // The draft is closed to edits; what it created opens from it.
      await expect.poll(() => page.getByTestId('resource-save').isDisabled()).toBe(true);
      await page.getByTestId('precreation-open-created').click();
      await page.waitForURL(/\/en\/partners\/publishers_performance\/\d+$/);
      await page.getByTestId('resource-title').getByText('Heraldo Pirineo').waitFor();

      const doc = (await (await page.request.get('/sellers.json')).json()) as { sellers: { seller_id: string; domain?: string }[] };
      expect(doc.sellers).toContainEqual(expect.objectContaining({ seller_id: 'perf-pirineo-9', domain: 'heraldopirineo.example' }));

      // A clone keeps what the draft was (a publisher, its share) without its identity or checklist.
      await page.goto(`/en/partners/precreation_perf/clone/${draftId}`);
      await expect.poll(() => field(page, 'name').inputValue()).toBe('');
      await page.getByTestId('resource-form-precreation').getByText('Publisher').waitFor();
      await page.getByTestId('resource-group-entity').click();
      await expect.poll(() => field(page, 'revenue_share_pct').inputValue()).toBe('66.00');
      await expect.poll(() => field(page, 'seller_id').inputValue()).toBe('');
    });
  });

  it.runIf(SHOTS_ON)('screenshots: list and one row, light and dark, en and es, 375, 768 and 1440', async () => {
    await sweepResource(browser, { enabled: SHOTS_ON, shot }, { mail: DEMO.admin, path: '/partners/precreation_perf', resource: 'precreation' });
  }, 300_000);
});
