/**
 * Screenshots for looking at screens (E2E_SCREENSHOTS=1): they go to .tmp/<folder>/, and nothing
 * is taken otherwise. `sweepResource` takes a resource screen's list and one row in both themes,
 * both languages and three widths.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { REPO_ROOT } from './server.ts';
import { signIn, withPage, type Lang } from './shell.ts';

export interface Screenshots {
  /** Whether screenshots are taken in this run. */
  enabled: boolean;
  shot: (page: Page, name: string) => Promise<void>;
}

export function screenshots(folder: string): Screenshots {
  const dir = process.env.E2E_SCREENSHOTS ? path.join(REPO_ROOT, '.tmp', folder) : null;
  return {
    enabled: dir !== null,
    shot: async (page, name) => {
      if (!dir) return;
      fs.mkdirSync(dir, { recursive: true });
      // The pointer off the screen: no hover state or tooltip left from the last click.
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    },
  };
}

/** A resource list and its second row, light and dark, en and es, at 375, 768 and 1440. */
export async function sweepResource(browser: Browser, shots: Screenshots, opts: { mail: string; path: string; resource: string }): Promise<void> {
  const rows = (page: Page) => page.locator('[data-testid^="resource-row-"]');
  for (const [width, height] of [
    [375, 800],
    [768, 1000],
    [1440, 900],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      for (const lang of ['en', 'es'] as Lang[]) {
        await withPage(browser, { viewport: { width, height } }, async (page) => {
          await signIn(page, opts.mail, { via: 'api', lang, theme, path: opts.path });
          await expect.poll(() => rows(page).count()).toBeGreaterThan(1);
          await shots.shot(page, `all-list-${width}-${theme}-${lang}`);
          await rows(page).nth(1).click();
          await page.getByTestId(`resource-detail-${opts.resource}`).waitFor();
          await shots.shot(page, `all-detail-${width}-${theme}-${lang}`);
        });
      }
    }
  }
}

/** One way of looking at a screen: a width (with a height), a theme and a language. */
export interface View {
  width: number;
  height: number;
  theme: 'light' | 'dark';
  lang: Lang;
}

/** The widths screens are looked at: phone, tablet, desktop. */
export const VIEW_SIZES = [
  [375, 800],
  [768, 1000],
  [1440, 900],
] as const;

/**
 * Opens a fresh page per view and runs `fn` in it: each width in light (English) and dark
 * (Spanish), so both themes and both languages are seen at every width.
 */
export async function forEachView(browser: Browser, fn: (page: Page, view: View) => Promise<void>): Promise<void> {
  for (const [width, height] of VIEW_SIZES) {
    for (const theme of ['light', 'dark'] as const) {
      const lang: Lang = theme === 'light' ? 'en' : 'es';
      await withPage(browser, { viewport: { width, height } }, (page) => fn(page, { width, height, theme, lang }));
    }
  }
}

/**
 * Whether an axe sweep checks this view: desktop (1440) in light English and phone (375) in dark
 * Spanish, every rule at each. Two views see both widths, both themes and both languages once;
 * the other two of the four doubled a sweep's time and found nothing the two did not (the suite's
 * budget, decision 036). Screenshots (`shot`) are still taken wherever a test looks.
 */
export const isAxeView = (width: number, theme: 'light' | 'dark'): boolean => (width >= 1024) === (theme === 'light');

/** `forEachView` for an axe sweep: the two views of `isAxeView`. */
export async function forAxeViews(browser: Browser, fn: (page: Page, view: View) => Promise<void>): Promise<void> {
  for (const [width, height, theme, lang] of [
    [1440, 900, 'light', 'en'],
    [375, 800, 'dark', 'es'],
  ] as const) {
    await withPage(browser, { viewport: { width, height } }, (page) => fn(page, { width, height, theme, lang }));
  }
}
