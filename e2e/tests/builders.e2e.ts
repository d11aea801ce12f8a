/**
 * The builders' shared layer (issue 25, docs/decisions/037-builders.md), on the VAST builder: tech
 * picks a demand partner, starts from an example (the API's XSD check says it is valid), renames
 * the ad in the form (the code follows), pastes a document in the code view (the form follows and
 * the text stays as pasted), breaks it (the syntax error is marked at its line and the form keeps
 * its values), adds an element the standard does not allow (the XSD's issue comes from the API with
 * its line; clicking it takes the cursor there), saves two versions, compares them (the changed
 * setting and the code side by side) and loads the first back; a link with ?version= opens it.
 * Axe-core on the syntax error, the versions drawer and the comparison at 1440 px light (en); the
 * page, the drawer and the comparison at 375 px dark (es) are vast-builder.e2e.ts's sweep. With
 * E2E_SCREENSHOTS=1 the drawer and the comparison are saved under .tmp/builders/.
 */
import type { BuilderSubjectOption, BuilderVersionDto, BuilderVersionPage } from '@backoffice/core/builders/common';
import { vastBuilder } from '@backoffice/core/builders/vast';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { shot } = screenshots('builders');
const PATH = '/utils/vastbuilder';
const T = 'vast';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const apiGet = <T,>(path: string) => apiGetAs<T>(DEMO.tech, path);

/** The code view once CodeMirror has replaced the plain text area. */
const editor = (page: Page) => page.locator(`[data-testid="${T}-code"][data-ready="true"]`);
const editorText = (page: Page) => editor(page).locator('.cm-content').innerText();
const status = (page: Page) => page.getByTestId(`${T}-status`);

/** Replaces the whole code as a person pasting a document would. */
async function paste(page: Page, code: string) {
  await editor(page).locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(code);
}

async function saveVersion(page: Page, name: string) {
  await page.getByTestId(`${T}-save`).click();
  const modal = page.getByTestId(`${T}-save-modal`);
  await modal.getByTestId(`${T}-version-name`).fill(name);
  await modal.getByTestId(`${T}-save-ok`).click();
  await toast(page, name).waitFor();
  await modal.waitFor({ state: 'hidden' });
}

describe('builders: the shared layer on the VAST builder', () => {
  it('tech builds, checks, saves, compares and reloads versions for a partner', async () => {
    const partners = await apiGet<BuilderSubjectOption[]>('builders/vast/subjects?type=partner');
    const partner = partners[partners.length - 1]!;
    const before = await apiGet<BuilderVersionPage>(`builders/vast/versions?subject_type=partner&subject_id=${partner.id}&page_size=100`);
    const next = Math.max(0, ...before.items.map((v) => v.number)) + 1;
    const example = vastBuilder.examples()[0]!;

    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: PATH });
      await editor(page).waitFor();

      // The partner, searched in the picker.
      await page.getByTestId(`${T}-subject-pick`).click();
      await page.keyboard.type(partner.name.slice(0, 6));
      await page.locator('.ant-select-item-option', { hasText: partner.name }).first().click();
      await expect.poll(() => new URL(page.url()).searchParams.get('subject_id')).toBe(String(partner.id));

      // An example: rendered at once, then valid by the API's XSD check.
      await page.getByTestId(`${T}-examples`).click();
      await page.getByTestId(`${T}-example-0`).click();
      await expect.poll(() => editorText(page)).toContain(example.config.ad_title);
      await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 15_000 }).toBe('valid');
      expect(await status(page).textContent()).toContain('VAST 4.2');

      // The form drives the code.
      const title = page.locator('#builder-field-ad_title');
      await title.fill('Northwind Coffee – Spring Blend 30s');
      await expect.poll(() => editorText(page)).toContain('Northwind Coffee – Spring Blend 30s');

      // Pasted code drives the form, and stays exactly as pasted.
      const pasted = vastBuilder.render({ ...example.config, ad_title: 'Pasted title 20s' }).code;
      await paste(page, pasted);
      await expect.poll(() => title.inputValue()).toBe('Pasted title 20s');
      await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 15_000 }).toBe('valid');

      // Broken XML: marked in the code at its line, listed as a syntax issue; the form keeps its values.
      await editor(page).locator('.cm-content').click();
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.type('<Extra');
      await expect.poll(() => status(page).getAttribute('data-state')).toBe('errors');
      const syntax = page.locator(`[data-testid="${T}-issue"][data-source="syntax"]`);
      await syntax.first().waitFor();
      expect(await syntax.first().getAttribute('data-line')).not.toBeNull();
      await editor(page).locator('.cm-lintRange-error').first().waitFor();
      expect(await title.inputValue()).toBe('Pasted title 20s');
      await page.getByText('The code cannot be read: the form keeps its last values.').waitFor();
      await expectNoSeriousViolations(page, 'syntax error');

      // Well-formed but not allowed by the standard: the API's XSD issue, at its line.
      const bogus = pasted.replace('<AdTitle>', '<Bogus>1</Bogus><AdTitle>');
      expect(bogus).not.toBe(pasted);
      await paste(page, bogus);
      const schema = page.locator(`[data-testid="${T}-issue"][data-source="schema"]`);
      await schema.first().waitFor({ timeout: 15_000 });
      const line = Number(await schema.first().getAttribute('data-line'));
      expect(line).toBeGreaterThan(0);
      expect(bogus.split('\n')[line - 1]).toContain('Bogus');
      await schema.first().click();
      await expect.poll(() => editor(page).locator('.cm-activeLine').innerText()).toContain('Bogus');
      // Saving waits until the errors are fixed.
      expect(await page.getByTestId(`${T}-save`).isDisabled()).toBe(true);

      // Fixed; two versions saved.
      await paste(page, pasted);
      await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 15_000 }).toBe('valid');
      await saveVersion(page, 'Pasted title, first cut');
      await title.fill('Pasted title 15s');
      await expect.poll(() => editorText(page)).toContain('Pasted title 15s');
      await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 15_000 }).toBe('valid');
      await saveVersion(page, 'Shorter cut');
      const saved = await apiGet<BuilderVersionPage>(`builders/vast/versions?subject_type=partner&subject_id=${partner.id}&page_size=100`);
      expect(saved.items.slice(0, 2).map((v) => [v.number, v.name, v.author?.name])).toEqual([
        [next + 1, 'Shorter cut', 'Priya Natarajan'],
        [next, 'Pasted title, first cut', 'Priya Natarajan'],
      ]);

      // The versions drawer: both, newest first; compare them.
      await page.getByTestId(`${T}-versions-open`).click();
      const drawer = page.getByTestId(`${T}-versions`);
      await drawer.getByTestId(`${T}-version-${next + 1}`).waitFor();
      expect(await drawer.getByTestId(`${T}-version-${next}`).textContent()).toContain('Pasted title, first cut');
      await expectNoSeriousViolations(page, 'versions drawer', { within: '.ant-drawer' });
      await shot(page, 'versions-1440-light-en');
      await drawer.getByTestId(`${T}-version-${next}`).getByTestId(`${T}-version-pick`).check();
      await drawer.getByTestId(`${T}-version-${next + 1}`).getByTestId(`${T}-version-pick`).check();
      await drawer.getByTestId(`${T}-compare`).click();
      const compare = page.getByTestId(`${T}-compare-view`);
      await compare.waitFor();
      expect(await compare.getByTestId(`${T}-changed-paths`).textContent()).toContain('ad_title');
      await compare.locator('.cm-mergeView').waitFor();
      await expect.poll(() => compare.locator('.cm-changedLine').count()).toBeGreaterThan(0);
      await expectNoSeriousViolations(page, 'compare', { within: '.ant-modal' });
      await shot(page, 'compare-1440-light-en');
      await page.keyboard.press('Escape');
      await compare.waitFor({ state: 'hidden' });

      // Load the first one back.
      await drawer.getByTestId(`${T}-version-${next}`).getByTestId(`${T}-version-load`).click();
      await toast(page, `Version ${next} loaded`).waitFor();
      await expect.poll(() => title.inputValue()).toBe('Pasted title 20s');
      await expect.poll(() => editorText(page)).toContain('Pasted title 20s');
    });

    // A link to a version opens it, for its subject.
    const first = (await apiGet<BuilderVersionPage>(`builders/vast/versions?subject_type=partner&subject_id=${partner.id}&page_size=100`)).items.find((v) => v.number === next)!;
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.tech, { via: 'api', path: `${PATH}?version=${first.id}` });
      await expect.poll(() => page.locator('#builder-field-ad_title').inputValue()).toBe('Pasted title 20s');
      await expect.poll(() => page.getByTestId(`${T}-subject-pick`).textContent()).toContain(partner.name);
      const detail = await apiGet<BuilderVersionDto>(`builders/vast/versions/${first.id}`);
      await expect.poll(() => editorText(page)).toContain('Pasted title 20s');
      expect(detail.code).toContain('Pasted title 20s');
    });
  }, 240_000);
});
