/**
 * Campaigns (`/performanceTools/campaign_list`): a person creates a campaign through the form (a
 * daily budget above the total refused next to its field, nothing lost), adds an event whose
 * postback URL is resolved live beside the macros' documentation, saves it and fires a test
 * conversion: the postback goes to this e2e server's own public /healthz (the suite's server
 * allows loopback: ALLOW_PRIVATE_FETCHES in global-setup.ts), and the page shows the URL as sent
 * and the server's answer. Then the demo screens (list, a campaign's form, events and pacing, an
 * event's form and postback test, the offers) pass axe-core light and dark at 1440 and 375 px
 * (screenshots with E2E_SCREENSHOTS=1 to .tmp/campaigns/).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { isAxeView, screenshots } from '../support/screenshots.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('campaigns');
const PATH = '/performanceTools/campaign_list';
const OFFERS = '/performanceTools/premium_offers_list';
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const field = (page: Page, form: string, id: string) =>
  page.locator(`[data-testid="resource-form-${form}"] #${id}`);
const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');
const option = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

async function fillDate(page: Page, form: string, id: string, value: string) {
  await field(page, form, id).click();
  await field(page, form, id).fill(value);
  await field(page, form, id).press('Enter');
}

describe('campaigns', () => {
  it('creates a campaign with an event and tests its postback', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: PATH });
      await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(5);

      await page.getByTestId('resource-new').click();
      await page.waitForURL(new RegExp(`/en${PATH}/new$`));
      await field(page, 'campaigns', 'name').fill('E2E Riviera autumn');
      await field(page, 'campaigns', 'advertiser_id').click();
      await field(page, 'campaigns', 'advertiser_id').fill('Tramun');
      await option(page, 'Tramuntana Performance').click();
      await field(page, 'campaigns', 'offer_id').click();
      await option(page, 'Hôtels Riviera – summer bookings').click();
      await fillDate(page, 'campaigns', 'start_date', day(-3));
      await fillDate(page, 'campaigns', 'end_date', day(27));
      await page.getByTestId('resource-group-budget').click();
      await field(page, 'campaigns', 'total_budget').fill('5000');
      await field(page, 'campaigns', 'daily_budget').fill('6000');
      await field(page, 'campaigns', 'model').click();
      await option(page, 'CPA (per conversion)').click();
      await field(page, 'campaigns', 'rate').fill('9');
      await page.getByTestId('resource-save').click();
      // The shared rule's message next to its field; what was typed stays.
      await page.getByText('The daily budget cannot be above the total budget').waitFor();
      expect(await field(page, 'campaigns', 'total_budget').inputValue()).toBe('5000');
      await field(page, 'campaigns', 'daily_budget').fill('250');
      await page.getByTestId('resource-save').click();
      await page.waitForURL(new RegExp(`/en${PATH}/\\d+$`));
      await page.getByTestId('resource-title').getByText('E2E Riviera autumn').waitFor();
      // A CPA campaign without events says so.
      await page.getByTestId('campaign-cpa-warning').waitFor();

      await page.getByRole('tab', { name: 'Events' }).click();
      await page.getByTestId('campaign-event-new').click();
      await page.waitForURL(new RegExp(`/en${PATH}/\\d+/events/new$`));
      await field(page, 'campaign_events', 'name').fill('First deposit');
      await field(page, 'campaign_events', 'code').fill('first_deposit');
      await field(page, 'campaign_events', 'payout').fill('3.2');
      await field(page, 'campaign_events', 'revenue').fill('4.5');
      // The macros are documented beside the field, and the URL is resolved as one types.
      await page.getByTestId('postback-macros').getByText('{sub5}').waitFor();
      const postback = `${getBaseURL()}/healthz?click={click_id}&amount={payout}&ev={event}`;
      await field(page, 'campaign_events', 'postback_url').fill(postback.replace('{click_id}', '{clickid}'));
      await page.getByTestId('postback-resolved').getByText('Not a macro we fill in: {clickid}').waitFor();
      await field(page, 'campaign_events', 'postback_url').fill(postback);
      await expect
        .poll(() => page.getByTestId('postback-resolved-url').textContent())
        .toBe(`${getBaseURL()}/healthz?click=7f3c9a2e5b1d4e8a&amount=3.2&ev=first_deposit`);
      await page.getByTestId('resource-save').click();
      await page.waitForURL(new RegExp(`/en${PATH}/\\d+/events/\\d+$`));

      await page.getByRole('tab', { name: 'Postback test' }).click();
      await page.getByTestId('postback-send').click();
      await page.locator('#postback-confirm').click();
      const result = page.getByTestId('postback-result');
      await result.getByTestId('postback-outcome').getByText('Answered').waitFor();
      await result.getByTestId('postback-http-status').getByText('HTTP 200').waitFor();
      const sent = (await result.getByTestId('postback-sent-url').textContent()) ?? '';
      expect(sent).toMatch(
        new RegExp(
          `^${getBaseURL().replace(/[.]/g, '\\.')}/healthz\\?click=test-[0-9a-f]{12}&amount=3\\.2000&ev=first_deposit$`,
        ),
      );
      expect(await result.getByTestId('postback-body').textContent()).toContain('"status":"success"');

      // Back to the campaign, on its Events tab: the event is listed, the CPA warning gone.
      await page.getByText('Back to the campaign: E2E Riviera autumn').click();
      await page.waitForURL(new RegExp(`/en${PATH}/\\d+\\?tab=events$`));
      await page.getByTestId('campaign-events').getByText('first_deposit').waitFor();
      expect(await page.getByTestId('campaign-cpa-warning').count()).toBe(0);
    });
  }, 120_000);

  it('passes axe light and dark at 1440 and 375: the list, a campaign, its events and pacing, an event and its postback test, the offers', async () => {
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      for (const [theme, lang] of [
        ['light', 'en'],
        ['dark', 'es'],
      ] as const) {
        if (!isAxeView(width, theme)) continue;
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
          const tab = (en: string, es: string) =>
            page.getByRole('tab', { name: (lang as Lang) === 'en' ? en : es, exact: true });
          await signIn(page, DEMO.admin, { via: 'api', lang, theme, path: `${PATH}?sort=name&page_size=50` });
          await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
          await shot(page, name('list'));
          await expectNoSeriousViolations(page, name('campaigns list'));

          await page.goto(`/${lang}${PATH}?f[name]=Riviera%20summer`);
          await rows(page).first().click();
          await page.getByTestId('resource-form-campaigns').waitFor();
          await shot(page, name('campaign'));
          await expectNoSeriousViolations(page, name('campaign form'));
          await tab('Pacing', 'Ritmo de gasto').click();
          await page.getByTestId('campaign-pacing').waitFor();
          await shot(page, name('pacing'));
          await expectNoSeriousViolations(page, name('campaign pacing'));
          await tab('Events', 'Eventos').click();
          await page.locator('[data-testid^="campaign-event-row-"]').first().waitFor();
          await shot(page, name('events'));
          await expectNoSeriousViolations(page, name('campaign events'));

          await page.locator('[data-testid^="campaign-event-row-"]').filter({ hasText: 'booking' }).click();
          await page.getByTestId('resource-form-campaign_events').waitFor();
          await page.getByTestId('postback-resolved-url').waitFor();
          await shot(page, name('event'));
          await expectNoSeriousViolations(page, name('event form'));
          await tab('Postback test', 'Prueba de postback').click();
          await page.getByTestId('postback-result').waitFor();
          await shot(page, name('postback'));
          await expectNoSeriousViolations(page, name('postback test'));

          await page.goto(`/${lang}${OFFERS}?sort=name`);
          await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
          await shot(page, name('offers'));
          await expectNoSeriousViolations(page, name('offers list'));
          await rows(page)
            .filter({ has: page.getByTestId('offer-payout-warning') })
            .first()
            .click();
          await page.getByTestId('offer-warning').waitFor();
          await shot(page, name('offer'));
          await expectNoSeriousViolations(page, name('offer form'));
        });
      }
    }
  }, 300_000);
});
