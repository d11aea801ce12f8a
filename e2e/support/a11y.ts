/** axe-core in the e2e suite: load it past the app's CSP and expect no serious or critical violations. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { runAxe } from './browser.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Loads axe-core through the DevTools protocol: the app's Content-Security-Policy (script-src
 * 'self') blocks the inline <script> that injectAxe adds. runAxe then finds it present.
 */
export async function loadAxe(page: Page): Promise<void> {
  const present = await page.evaluate(
    () => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined',
  );
  if (!present) await page.evaluate(axeSource);
}

function describeViolations(violations: Result[]): string {
  return violations
    // Each node with axe's summary on the same line (for colour contrast: the two colours and the ratio).
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`).join('\n  ')}`)
    .join('\n');
}

/**
 * The rules whose outcome depends on the theme (colours). A second theme's pass over the same
 * screen runs only these: the other rules read the DOM, which a theme does not change.
 */
export const THEME_RULES = ['color-contrast', 'link-in-text-block'];

export async function expectNoSeriousViolations(
  page: Page,
  what: string,
  /** `within`: a selector to check only (a modal: the page behind its mask is dimmed and inert). */
  opts: { colorsOnly?: boolean; within?: string } = {},
) {
  // The pointer off the content first: a control left hovered by the last click (a menu item that
  // closed over a button) is measured in its hover colour otherwise. Then let animations (drawer,
  // toasts, fades) settle before measuring colours.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
  const t0 = Date.now();
  await loadAxe(page);
  const violations = await runAxe(page, {
    ...(opts.colorsOnly ? { options: { runOnly: { type: 'rule', values: THEME_RULES } } } : {}),
    ...(opts.within ? { context: opts.within } : {}),
  });
  // E2E_AXE_LOG=<file>: each check's milliseconds and name, for the suite's budget work.
  if (process.env.E2E_AXE_LOG) fs.appendFileSync(process.env.E2E_AXE_LOG, `${Date.now() - t0}\t${what}\n`);
  expect(violations, `${what}\n${describeViolations(violations)}`).toEqual([]);
}

export async function setTheme(page: Page, theme: 'light' | 'dark') {
  const current = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
  if (current !== theme) {
    await page.getByTestId('theme-switch').click();
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
  }
}
