/**
 * A screen that crashes, for the crash-screen tests, without any test-only code in the build: the
 * browser is served the real code of the DataViewer screen with a `throw` at its end, so opening
 * that screen fails the way a bug in a screen's module (or a broken deploy) does, and the shell's
 * error boundary takes over. The DataViewer's chunk is loaded by its route alone (no other chunk
 * imports it), so the shell and every other screen keep working. Install before the page first
 * opens the screen (a chunk, once loaded, stays in the page's module map).
 */
import type { Page } from 'playwright-core';

export const CRASH_MESSAGE = 'Test crash: this screen throws on purpose';

/** The screen whose code is broken: the DataViewer, open to every role with reports. */
export const CRASH_PATH = '/reports/dataviewer';

/** The DataViewer's chunk (Vite names a chunk after its module: dataviewer-page-<hash>.js). */
const SCREEN_CHUNK = /\/assets\/dataviewer-page-[\w-]+\.js$/;

export interface BrokenScreen {
  /** True once the browser has asked for the chunk (and got the broken one). */
  served(): boolean;
}

export async function breakScreen(page: Page): Promise<BrokenScreen> {
  let served = false;
  await page.route(SCREEN_CHUNK, async (route) => {
    const response = await route.fetch();
    const code = await response.text();
    served = true;
    await route.fulfill({
      status: 200,
      contentType: 'text/javascript; charset=utf-8',
      body: `${code}\nthrow new Error(${JSON.stringify(CRASH_MESSAGE)});\n`,
    });
  });
  return { served: () => served };
}
