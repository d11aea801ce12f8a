/**
 * Invoices and credit notes (issue 22): finance drafts an invoice from approved billing rows on
 * "Create invoice / Credit note", opens the draft on "Invoices preview" (SSP), types a fraud
 * deduction (a zero is refused next to the field with the spec's message, then 10 % derives its
 * amount and the net revenue), saves, issues it (the confirmation is final; a double click issues
 * once), downloads its PDF (a real PDF), marks it paid, corrects it with a credit note and sees
 * both documents linked to each other. A second test reads the drafts as cards at 375 px in
 * Spanish and checks them with axe-core. With E2E_SCREENSHOTS=1 both screens are saved (light
 * English and dark Spanish, 375 / 768 / 1440 px) under .tmp/invoices/, each checked with axe-core.
 *
 * Setup through the API: the demo seed drafts every approved row of last month, so one of those
 * drafts is discarded first (its rows become approved and uninvoiced again).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@backoffice/core/format';
import {
  computeDeductions,
  totalsOf,
  type InvoiceList,
  type InvoiceListItem,
} from '@backoffice/core/invoices';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { REPO_ROOT } from '../support/server.ts';
import { apiLogin, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('invoices');
const PREVIEW = '/billing/ssp';
const PRECREATION = '/billing_ssp/invoice-precreation';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { token } = await apiLogin(DEMO.finance);
  const res = await fetch(`${getBaseURL()}/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string; message: string; data: T };
  if (json.status !== 'success') throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  return json.data;
}

const drafts = (q = '') =>
  apiCall<InvoiceList>(
    'GET',
    `invoices?team=ssp&kind=invoice&state=draft&page_size=200${q ? `&q=${encodeURIComponent(q)}` : ''}`,
  );

/** A draft that can be issued (billing information complete, not blocked). */
async function issuableDraft(): Promise<InvoiceListItem> {
  const list = await drafts();
  const ok = list.rows.filter((d) => d.missing.length === 0 && !d.blocked && Number(d.total) > 1000);
  const draft = ok.find((d) => d.months.length === 1) ?? ok[0];
  if (!draft) throw new Error('no issuable SSP draft in the demo data');
  return draft;
}

const drawer = (page: Page) => page.getByTestId('invoice-drawer');

/** A drawer's whole content: the window made tall enough for it, then put back. */
async function drawerShot(page: Page, name: string) {
  if (!SHOTS_ON) return;
  const size = page.viewportSize()!;
  const body = page.locator('.ant-drawer-body:visible').first();
  const height = await body.evaluate((el) => el.scrollHeight);
  await page.setViewportSize({
    width: size.width,
    height: Math.min(4000, Math.max(size.height, height + 220)),
  });
  await page.waitForTimeout(400);
  const dir = path.join(REPO_ROOT, '.tmp', 'invoices');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  await page.setViewportSize(size);
}
const modalOk = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]:visible`);

describe('invoices', () => {
  it('finance drafts an invoice from approved rows, deducts fraud, issues it, downloads its PDF, marks it paid and credits it', async () => {
    // Setup: free the approved rows of one counterparty by discarding its demo draft.
    const seeded = await issuableDraft();
    await apiCall('DELETE', `invoices/${seeded.id}`);
    const month = seeded.months[0]!;

    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', path: `${PRECREATION}?months=${month}` });
      await page.getByRole('heading', { name: 'Create invoice / Credit note' }).waitFor();

      // The counterparty's approved rows are what precreation would draft; choose it.
      const candidate = page.getByTestId(`invoice-candidate-${seeded.id_user}`).first();
      await candidate.waitFor();
      expect(await candidate.textContent()).toContain(seeded.name);
      await candidate.getByRole('checkbox').check();
      await expect
        .poll(() => page.getByTestId('invoice-candidates-selected').textContent())
        .toMatch(/^[1-9]\d* of \d+ selected$/);
      await page.getByTestId('invoice-create-drafts').click();
      await page.getByTestId('invoice-precreated').waitFor();
      await expect.poll(() => candidate.count()).toBe(0);

      // To the drafts, where the new draft is found by its counterparty.
      await page.getByTestId('invoice-precreated-link').click();
      await page.waitForURL(/\/en\/billing\/ssp\?tab=drafts$/);
      const draft = (await drafts(seeded.name)).rows.find(
        (d) => d.id_user === seeded.id_user && d.currency === seeded.currency,
      )!;
      expect(draft.revenue).toBe(seeded.revenue);
      await page.getByTestId('invoice-search').locator('input').fill(seeded.name);
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(seeded.name);
      await page.getByTestId(`invoice-open-${draft.id}`).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('open')).toBe(String(draft.id));
      await drawer(page).getByTestId('invoice-edit-form').waitFor();

      // Fraud: 0 is refused next to the field; 10 % derives its amount and the new net revenue.
      const fraud = drawer(page).getByTestId('invoice-edit-fraud-value');
      await fraud.fill('0');
      await expect
        .poll(() => drawer(page).getByTestId('invoice-edit-fraud-error').textContent())
        .toBe('has to be upper than 0');
      expect(await drawer(page).getByTestId('invoice-edit-save').isDisabled()).toBe(true);
      await fraud.fill('10');
      const expected = computeDeductions(draft.revenue, {
        ...draft,
        fraud_percentage: '10',
        fraud_revenue: null,
        apply_deductions: true,
      });
      if (!expected.ok) throw new Error('deduction refused');
      const total = totalsOf(expected.value.new_revenue_net, draft.tax_treatment).total;
      const money = (v: string) => formatMoney(v, draft.currency, 'en');
      await expect
        .poll(() => drawer(page).getByTestId('invoice-edit-fraud-derived').textContent())
        .toContain(money(expected.value.fraud_revenue!));
      expect(await drawer(page).getByTestId('invoice-edit-net').textContent()).toBe(
        money(expected.value.new_revenue_net),
      );
      await drawer(page).getByTestId('invoice-edit-save').click();
      await toast(page, 'Draft saved').waitFor();
      await expect
        .poll(() => page.getByTestId(`invoice-row-${draft.id}`).textContent())
        .toContain(money(total));

      // Issue: final, asked first; two clicks on OK in the same instant (before the button can
      // disable itself) issue once.
      await drawer(page).getByTestId('invoice-action-issue').click();
      await page.getByTestId('invoice-issue-confirm').waitFor();
      expect(await page.getByTestId('invoice-issue-totals').textContent()).toContain(money(total));
      const issueRequests: string[] = [];
      page.on('request', (r) => r.url().endsWith('/v1/invoices/issue') && issueRequests.push(r.method()));
      await modalOk(page, 'invoice-issue-ok').evaluate((button: HTMLElement) => {
        button.click();
        button.click();
      });
      await expect
        .poll(() => page.getByTestId('invoice-issue-summary').textContent())
        .toBe('1 issued, 0 skipped');
      expect(issueRequests).toEqual(['POST']);
      const number = (await page.getByTestId(`invoice-issue-detail-${draft.id}`).textContent())!;
      expect(number).toMatch(/^F\d{4}-\d{6}$/);
      await page.getByTestId('invoice-issue-result-close').click();
      await expect
        .poll(() => drawer(page).getByTestId('invoice-drawer-title').textContent())
        .toContain(number);
      await expect.poll(() => drawer(page).getByTestId('invoice-detail-state').textContent()).toBe('Issued');
      expect(await drawer(page).getByTestId('invoice-detail-total').textContent()).toBe(money(total));

      // The PDF: downloaded with the session's token, a real PDF.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        drawer(page).getByTestId('invoice-action-pdf').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${number}.pdf`);
      const pdf = fs.readFileSync((await download.path())!);
      expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');

      // Mark as paid (asked first).
      await drawer(page).getByTestId('invoice-action-mark-paid').click();
      await modalOk(page, 'invoice-mark-paid-ok').click();
      await toast(page, 'Marked as paid').waitFor();
      await expect.poll(() => drawer(page).getByTestId('invoice-detail-state').textContent()).toBe('Paid');
      expect(await drawer(page).getByTestId('invoice-detail-outstanding').textContent()).toBe(money('0'));
      await expectNoSeriousViolations(page, 'issued invoice drawer');

      // A credit note for part of it, from the invoice's actions.
      await drawer(page).getByTestId('invoice-action-more').click();
      await page.getByRole('menuitem', { name: 'Create credit note' }).click();
      await page.waitForURL(/\/en\/billing_ssp\/invoice-precreation\?tab=credit&team=ssp&invoice=\d+$/);
      await expect
        .poll(() => page.getByTestId('invoice-credit-left').textContent())
        .toBe(money(expected.value.new_revenue_net));
      const amount = page.getByTestId('invoice-credit-amount');
      await amount.fill('12.345');
      await page.getByTestId('invoice-credit-reason').fill('too short');
      await page.getByTestId('invoice-credit-submit').click();
      await expect
        .poll(() => page.getByTestId('invoice-credit-amount-error').textContent())
        .toBe('An amount above 0 with at most two decimals');
      expect(await page.getByTestId('invoice-credit-reason-error').textContent()).toBe(
        'The reason needs at least 10 characters',
      );
      await amount.fill('100');
      await page
        .getByTestId('invoice-credit-reason')
        .fill('Invalid traffic confirmed by the partner after issuing');
      await page.getByTestId('invoice-credit-submit').click();
      await page.getByTestId('invoice-credit-confirm').waitFor();
      await modalOk(page, 'invoice-credit-ok').click();
      await page.getByTestId('invoice-credit-issued').waitFor();
      const title = (await page
        .getByTestId('invoice-credit-issued')
        .locator('.bo-result-title')
        .textContent())!;
      const creditNumber = /R\d{4}-\d{6}/.exec(title)?.[0];
      expect(creditNumber).toBeTruthy();
      // The credited total comes with the invoice's refetch after the note is issued: read it until it is there.
      await expect.poll(() => page.getByTestId('invoice-credit-credited').textContent()).not.toBe(money('0'));

      // Both documents, linked to each other.
      await page.getByTestId('invoice-credit-open-note').click();
      await page.waitForURL(/\/en\/billing\/ssp\?tab=credit_notes&open=\d+$/);
      await expect
        .poll(() => drawer(page).getByTestId('invoice-drawer-title').textContent())
        .toContain(creditNumber!);
      await expect
        .poll(() => drawer(page).getByTestId('invoice-detail-corrects').textContent())
        .toContain(number);
      expect(await drawer(page).getByTestId('invoice-detail-total').textContent()).toBe(
        money(totalsOf('-100', draft.tax_treatment).total),
      );
      await drawer(page).getByTestId('invoice-detail-corrects').getByRole('button', { name: number }).click();
      await expect
        .poll(() => drawer(page).getByTestId('invoice-drawer-title').textContent())
        .toContain(number);
      await expect
        .poll(() => drawer(page).getByTestId('invoice-detail-credit-notes').textContent())
        .toContain(creditNumber!);
      await expectNoSeriousViolations(page, 'invoice with its credit note');
      await page.keyboard.press('Escape');

      // The VERI*FACTU chains, recomputed with the new invoice and credit note in them.
      await page.getByTestId('invoice-verify-chain').click();
      await expect
        .poll(() => page.getByTestId('invoice-chain-result').textContent())
        .toContain('The VERI*FACTU chain is intact');
      await page.getByTestId('invoice-chain-close').click();
      // The credit notes as CSV, named as the spec names exports.
      await page.getByTestId('invoice-export').click();
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'CSV' }).click(),
      ]);
      expect(csv.suggestedFilename()).toMatch(/^invoices_ssp_\d{4}-\d{2}-\d{2}_\d{6}\.csv$/);
      expect(fs.readFileSync((await csv.path())!, 'utf8')).toContain(creditNumber!);
    });
  });

  it('the drafts read as cards at 375 px in Spanish', async () => {
    await withPage(browser, { viewport: { width: 375, height: 800 } }, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api', lang: 'es', path: PREVIEW });
      await page.getByRole('heading', { name: 'Vista previa de facturas · SSP' }).waitFor();
      await page.locator('[data-testid="invoice-tab-drafts"][data-state="ready"]').waitFor();
      const cards = page.locator('[data-testid="invoice-cards"] [data-testid^="invoice-row-"]');
      await expect.poll(() => cards.count()).toBeGreaterThan(1);
      expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Borradores');
      expect(await cards.first().textContent()).toContain('Borrador');
      // No sideways scroll of the page at 375 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectNoSeriousViolations(page, 'drafts at 375 px in Spanish');
      await cards.first().locator('[data-testid^="invoice-open-"]').click();
      await drawer(page).getByTestId('invoice-edit-form').waitFor();
      expect(await drawer(page).textContent()).toContain('La factura queda en');
      await expectNoSeriousViolations(page, 'draft drawer at 375 px in Spanish');
    });
  });

  it.runIf(SHOTS_ON)(
    'screenshots and axe: both screens at 375, 768 and 1440 px, light (en) and dark (es)',
    async () => {
      const issued = (
        await apiCall<InvoiceList>('GET', 'invoices?team=ssp&kind=invoice&state=paid,partly_paid&page_size=1')
      ).rows[0]!;
      const draft = await issuableDraft();
      // Something to draft on the precreation screen: a counterparty whose billing information is incomplete.
      const incomplete =
        (await drafts()).rows.find((d) => d.missing.length > 0) ??
        (await drafts()).rows.find((d) => d.id !== draft.id)!;
      await apiCall('DELETE', `invoices/${incomplete.id}`);
      await forEachView(browser, async (page, { width, theme, lang }) => {
        await signIn(page, DEMO.finance, { via: 'api', lang, theme });
        const ready = (tab: string) =>
          page.locator(`[data-testid="invoice-tab-${tab}"][data-state="ready"]`).waitFor();
        const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
        for (const tab of ['drafts', 'invoices', 'credit_notes'] as const) {
          await page.goto(`/${lang}${PREVIEW}?tab=${tab}`);
          await ready(tab);
          await shot(page, name(`preview-${tab}`));
          await expectNoSeriousViolations(page, name(`preview-${tab}`));
        }
        await page.goto(`/${lang}${PREVIEW}?open=${draft.id}`);
        await drawer(page).getByTestId('invoice-edit-form').waitFor();
        await drawer(page).getByTestId('invoice-edit-fraud-value').fill('0');
        await drawer(page).getByTestId('invoice-edit-fraud-error').waitFor();
        await drawerShot(page, name('draft-drawer'));
        await expectNoSeriousViolations(page, name('draft-drawer'));
        await page.goto(`/${lang}${PREVIEW}?tab=invoices&open=${issued.id}`);
        await drawer(page).getByTestId('invoice-document').waitFor();
        await expect
          .poll(() => drawer(page).getByTestId('invoice-detail-lines').locator('tbody tr').count())
          .toBeGreaterThan(0);
        await drawerShot(page, name('invoice-drawer'));
        await expectNoSeriousViolations(page, name('invoice-drawer'));
        await drawer(page).getByTestId('invoice-action-advertiser').click();
        await page.getByTestId('invoice-advertiser-info').waitFor();
        await drawerShot(page, name('advertiser-info'));
        await page.keyboard.press('Escape');
        await page.goto(`/${lang}${PRECREATION}?months=${incomplete.months.join(',')}`);
        await page.locator('[data-testid="invoice-create"][data-state="ready"]').waitFor();
        await shot(page, name('precreation-create'));
        await expectNoSeriousViolations(page, name('precreation-create'));
        await page.goto(`/${lang}${PRECREATION}?tab=credit&invoice=${issued.id}`);
        await page.getByTestId('invoice-credit-form').waitFor();
        await shot(page, name('precreation-credit'));
        await expectNoSeriousViolations(page, name('precreation-credit'));
      });
    },
    600_000,
  );
});
