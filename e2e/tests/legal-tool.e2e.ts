/**
 * Legal tool (`/utils/legal_tool`): a person of the LEGAL role (the administrator simulating the
 * role: no demo user holds it) opens the publisher agreement, picks a
 * publisher whose records lack data, sees what is missing (which placeholder, which record, the
 * link to fix it), types the missing values for this document, generates the PDF and downloads it:
 * its text (read with unpdf) carries the publisher and the typed values. The editor refuses an
 * unknown placeholder inserted by hand and the picker inserts a known one. axe-core on the list,
 * the text and versions tab and the generate tab (with the missing list) at 375 and 1440 px, light
 * English and dark Spanish; with E2E_SCREENSHOTS=1 the views go to .tmp/legal-tool/.
 */
import type { CheckAnswer, CounterpartyOption } from '@backoffice/core/legal';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { getBaseURL, launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import {
  apiGet,
  apiLogin,
  DEMO,
  seedSession,
  toast,
  waitForShell,
  withPage,
  type ApiSession,
  type Lang,
  type StoredSession,
} from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('legal-tool');
const PATH = '/utils/legal_tool';
const AGREEMENT = 'Publisher agreement (SSP)';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function call<T>(
  token: string,
  method: 'GET' | 'POST',
  apiPath: string,
  payload?: unknown,
): Promise<T> {
  const res = await fetch(`${getBaseURL()}/v1/${apiPath}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const body = (await res.json()) as { status: string; message?: string; data: T };
  if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${body.message ?? ''}`);
  return body.data;
}

/** A session of the LEGAL role: the administrator simulating it (POST /v1/login/as). */
async function legalSession(): Promise<ApiSession> {
  const admin = await apiLogin(DEMO.admin);
  const roles = await apiGet<{ id: number; name: string }[]>(admin.token, '/v1/admin/role');
  const role = roles.find((r) => r.name === 'LEGAL')!;
  return call<ApiSession>(admin.token, 'POST', 'login/as', { id_role: role.id });
}

async function signInLegal(page: Page, opts: { lang?: Lang; theme?: 'light' | 'dark'; path: string }) {
  const session = await legalSession();
  const menus = await apiGet<StoredSession['menus']>(session.token, '/v1/admin/menu');
  await seedSession(page.context(), session, { lang: opts.lang ?? 'en', theme: opts.theme, menus });
  await page.goto(`/${opts.lang ?? 'en'}${opts.path}`);
  await waitForShell(page);
}

interface TemplateRow {
  id: number;
  name: string;
  current_version: number;
}

/** The agreement, and a publisher whose records leave something the template needs empty (or the first one). */
async function agreementAndPublisher(): Promise<{
  template: TemplateRow;
  publisher: CounterpartyOption;
  check: CheckAnswer;
}> {
  const { token } = await legalSession();
  const templates = await call<{ items: TemplateRow[] }>(
    token,
    'GET',
    `legal/templates?f[name]=${encodeURIComponent(AGREEMENT)}`,
  );
  const template = templates.items.find((t) => t.name === AGREEMENT)!;
  const options = await call<CounterpartyOption[]>(
    token,
    'GET',
    'legal/counterparties?type=publisher&limit=30',
  );
  let fallback: { publisher: CounterpartyOption; check: CheckAnswer } | null = null;
  for (const publisher of options) {
    const check = await call<CheckAnswer>(token, 'POST', `legal/templates/${template.id}/check`, {
      version: template.current_version,
      language: 'en',
      counterparty_type: 'publisher',
      counterparty_id: publisher.id,
    });
    if (check.missing.some((m) => m.source.link !== null)) return { template, publisher, check };
    fallback ??= { publisher, check };
  }
  return { template, ...fallback! };
}

const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');
const tab = (page: Page, lang: Lang, en: string, es: string) =>
  page.getByRole('tab', { name: lang === 'en' ? en : es, exact: true });

async function openAgreement(page: Page) {
  await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
  await rows(page).filter({ hasText: AGREEMENT }).first().click();
  await page.getByTestId('resource-detail-legal_templates').waitFor();
}

async function pickPublisher(page: Page, name: string) {
  await page.getByTestId('legal-counterparty').click();
  await page.locator('#legal-counterparty').fill(name);
  await page.locator('.ant-select-item-option').filter({ hasText: name }).first().click();
}

describe('legal tool', () => {
  it('legal generates a publisher agreement after typing the values its records lack, and downloads the PDF', async () => {
    const { template, publisher, check } = await agreementAndPublisher();
    expect(check.missing.length).toBeGreaterThan(0);

    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signInLegal(page, { path: PATH });
      await openAgreement(page);
      expect(new URL(page.url()).pathname).toBe(`/en${PATH}/${template.id}`);

      // The editor: an unknown placeholder is refused as it is typed; the picker inserts a known one.
      await tab(page, 'en', 'Text and versions', '').click();
      const body = page.getByTestId('legal-body_en');
      await body.waitFor();
      await page.getByTestId(`legal-version-${template.current_version}`).waitFor();
      await body.click();
      await body.press('Control+End');
      await body.pressSequentially('\nVAT: {{counterparty.vat}}');
      await page.getByTestId('legal-issues').getByText('Unknown placeholder counterparty.vat').waitFor();
      expect(await page.getByTestId('legal-save-version').isDisabled()).toBe(true);
      await page.getByTestId('legal-discard').click();
      await expect.poll(() => page.getByTestId('legal-issues').count()).toBe(0);

      await tab(page, 'en', 'Generate a document', '').click();
      await pickPublisher(page, publisher.name);
      const missingList = page.getByTestId('legal-missing');
      await missingList.waitFor();
      expect(await missingList.textContent()).toContain(
        `${check.missing.length} value${check.missing.length === 1 ? ' is' : 's are'} missing`,
      );
      const recordGap = check.missing.find((m) => m.source.link !== null);
      if (recordGap) {
        const fix = page.getByTestId(`legal-fix-${recordGap.key}`);
        expect(await fix.getAttribute('href')).toBe(`/en${recordGap.source.link}`);
      }
      expect(await page.getByTestId('legal-generate-submit').isDisabled()).toBe(true);
      await shot(page, 'flow-missing-1440');
      await expectNoSeriousViolations(page, 'generate tab with missing data');

      // Type every missing value for this document.
      const typed: Record<string, string> = {};
      for (const m of check.missing) {
        const id = `legal-value-${m.key.replace('.', '-')}`;
        if (m.type === 'date') {
          const value = m.key === 'contract.end_date' ? '2028-01-14' : '2027-01-15';
          const input = page.getByTestId(id).locator('input');
          await input.click();
          await input.fill(value);
          await input.press('Enter');
          typed[m.key] = value;
        } else {
          const value =
            m.type === 'percent'
              ? '65'
              : m.key.endsWith('legal_name')
                ? 'Ediciones Sierra Sur, S.L.'
                : `Valor de ${m.key.split('.')[1]}`;
          const field = page.getByTestId(id);
          const input =
            (await field.evaluate((el) => el.tagName)) === 'INPUT' ? field : field.locator('input');
          await input.fill(value);
          typed[m.key] = value;
        }
      }
      const submit = page.getByTestId('legal-generate-submit');
      await expect.poll(() => submit.isDisabled()).toBe(false);
      await submit.click();
      await toast(page, 'Document generated').waitFor();
      await page.getByTestId('legal-made').waitFor();
      await page.getByTestId('legal-recent').getByText(publisher.name).first().waitFor();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('legal-download').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^publisher-agreement-ssp-.+-v\d+-en\.pdf$/);
      const file = await download.path();
      const { text } = await extractText(new Uint8Array(fs.readFileSync(file)), { mergePages: true });
      const printed = text.replace(/\s+/g, ' ');
      expect(printed).toContain('Publisher Agreement');
      expect(printed).toContain(publisher.name);
      if (typed['contract.start_date']) expect(printed).toContain('2027-01-15');
      for (const [key, value] of Object.entries(typed))
        if (!key.startsWith('contract.')) expect(printed).toContain(value);
      expect(printed).toMatch(/Page 1 of \d/);
      expect(printed).not.toContain('{{');

      // The document is listed with who made it and the values typed by hand.
      await page.getByTestId('legal-recent').getByText(publisher.name).first().click();
      await page.getByTestId('resource-detail-legal_documents').waitFor();
      expect(await page.getByTestId('resource-details').textContent()).toContain('Carmen Ortega');
    });
  });

  // The two views of an axe sweep (isAxeView, decision 036): 1440 px light (en), 375 px dark (es).
  const VIEWS = [
    [1440, 'light', 'en'],
    [375, 'dark', 'es'],
  ] as const;
  for (const [width, theme, lang] of VIEWS) {
    it(`has no serious axe violations at ${width} px, ${theme} ${lang}: list, text and versions, compare, generate, documents`, async () => {
      const { publisher } = await agreementAndPublisher();
      await withPage(browser, { viewport: { width, height: 900 } }, async (page) => {
        const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
        await signInLegal(page, { lang, theme, path: PATH });
        await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
        await shot(page, name('list'));
        await expectNoSeriousViolations(page, name('templates list'));

        await openAgreement(page);
        // By the URL: at 375 px the detail's last tabs are in the tab bar's overflow menu.
        const detail = new URL(page.url()).pathname;
        await page.goto(`${getBaseURL()}${detail}?tab=text`);
        await page.getByTestId('legal-versions').waitFor();
        await shot(page, name('text'));
        await expectNoSeriousViolations(page, name('text and versions'));

        await page.locator('[data-testid^="legal-version-compare-"]').first().click();
        await page.getByTestId('legal-compare').waitFor();
        await shot(page, name('compare'));
        await expectNoSeriousViolations(page, name('compare'), { within: '.ant-modal' });
        await page.keyboard.press('Escape');

        await page.goto(`${getBaseURL()}${detail}?tab=generate`);
        await pickPublisher(page, publisher.name);
        await page.getByTestId('legal-missing').waitFor();
        await shot(page, name('generate'));
        await expectNoSeriousViolations(page, name('generate'));

        await page.goto(`${getBaseURL()}/${lang}${PATH}/documents`);
        await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
        await shot(page, name('documents'));
        await expectNoSeriousViolations(page, name('documents'));
      });
    }, 150_000);
  }
});
