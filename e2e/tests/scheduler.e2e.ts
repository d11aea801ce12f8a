/**
 * The scheduler (`/utils/scheduler`): an admin creates a job (the expression in words and the next
 * five runs follow what they type; an invalid expression is refused next to the field), runs it
 * now, watches the run finish and reads its log, then pauses it; a scheduler viewer sees the jobs
 * and a run's log without any command. With E2E_SCREENSHOTS=1 the list, a job with its runs and a
 * run's log are saved (light English and dark Spanish, 375 / 768 / 1440 px) under .tmp/scheduler/,
 * each checked with axe-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '../support/a11y.ts';
import { launchBrowser } from '../support/browser.ts';
import { forEachView, screenshots } from '../support/screenshots.ts';
import { apiGetAs, DEMO, signIn, toast, withPage } from '../support/shell.ts';

let browser: Browser;
const { enabled: SHOTS_ON, shot } = screenshots('scheduler');
const PATH = '/utils/scheduler';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const apiGet = <T,>(path: string, mail: string = DEMO.admin) => apiGetAs<T>(mail, path);

/** A demo job with a run history, by name. */
async function demoJob(name: string): Promise<{ id: number }> {
  const list = await apiGet<{ items: { id: number; name: string }[] }>(`scheduler-api/jobs?f[name]=${encodeURIComponent(name)}`);
  if (!list.items[0]) throw new Error(`demo job ${name} missing`);
  return list.items[0];
}

const detailReady = (page: Page) => page.getByTestId('resource-detail-scheduled_jobs').waitFor();

describe('scheduler', () => {
  it('an admin creates a job with a live cron preview, runs it now, reads the log and pauses it', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: `${PATH}/new` });
      await page.getByTestId('resource-form-scheduled_jobs').waitFor();
      await page.getByLabel('Name').fill('E2E firewall sweep');
      // The task: firewall expiry (no parameters).
      await page.getByLabel('Task').click();
      await page.locator('.ant-select-item-option', { hasText: 'Expire firewall entries' }).click();
      await page.getByTestId('scheduler-params').or(page.getByText('This task takes no parameters.')).first().waitFor();
      // Words and the next five runs follow the expression as it is typed.
      const cron = page.getByTestId('scheduler-cron');
      await cron.fill('0 7 * * 1-5');
      await page.getByTestId('scheduler-words').getByText('At 07:00, Monday through Friday').waitFor();
      await expect.poll(() => page.getByTestId('scheduler-next-runs').locator('li').count()).toBe(5);
      const firstRuns = await page.getByTestId('scheduler-next-runs').textContent();
      await cron.fill('30 2 * * *');
      await page.getByTestId('scheduler-words').getByText('At 02:30').waitFor();
      expect(await page.getByTestId('scheduler-next-runs').textContent()).not.toBe(firstRuns);
      // An invalid expression: said in the preview, and refused next to the field on save.
      await cron.fill('61 * * * *');
      await page.getByTestId('scheduler-preview-error').waitFor();
      await page.getByTestId('resource-save').click();
      await page.locator('.ant-form-item-explain-error', { hasText: 'Not a valid cron expression' }).waitFor();
      await cron.fill('*/5 * * * *');
      await page.getByTestId('resource-save').click();
      await toast(page, 'Created').first().waitFor();
      await detailReady(page);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      expect(id).toBeGreaterThan(0);

      // Run now: the run's drawer follows it to the end and shows its log.
      await page.getByTestId('scheduler-run-now').click();
      const drawer = page.getByTestId('scheduler-run');
      await drawer.getByTestId('scheduler-run-status').getByText('Succeeded').waitFor({ timeout: 30_000 });
      await expect.poll(() => drawer.getByTestId('scheduler-run-log').textContent()).toContain('Allow-list applied');
      expect(await drawer.getByTestId('scheduler-run-log').textContent()).toContain('Queued by "run now"');
      expect(await drawer.getByTestId('scheduler-run-duration').textContent()).toMatch(/\d/);
      await expectNoSeriousViolations(page, 'run drawer');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Runs' }).click();
      await page.getByTestId('scheduler-runs-table').getByText('Succeeded').first().waitFor();

      // Pause: the job keeps its definition and has no next run.
      await page.getByTestId('scheduler-pause').click();
      await toast(page, 'Job paused').first().waitFor();
      await page.getByTestId('scheduler-resume').waitFor();
      const job = await apiGet<{ enabled: boolean; next_run_at: string | null; cron: string }>(`scheduler-api/jobs/${id}`);
      expect(job).toMatchObject({ enabled: false, next_run_at: null, cron: '*/5 * * * *' });
    });
  }, 120_000);

  it('a scheduler viewer sees jobs and logs without any command', async () => {
    const job = await demoJob('Nightly ads.txt check');
    await withPage(browser, { viewport: { width: 1440, height: 900 } }, async (page) => {
      await signIn(page, DEMO.schedulerViewer, { via: 'api', path: PATH });
      await page.locator('[data-testid^="resource-row-"]').first().waitFor();
      expect(await page.getByRole('button', { name: 'New' }).count()).toBe(0);
      await page.goto(`/en${PATH}/${job.id}`);
      await detailReady(page);
      expect(await page.getByTestId('scheduler-run-now').count()).toBe(0);
      expect(await page.getByTestId('scheduler-pause').count()).toBe(0);
      expect(await page.getByTestId('resource-delete').count()).toBe(0);
      expect(await page.getByTestId('resource-save').isDisabled()).toBe(true);
      await page.getByRole('tab', { name: 'Runs' }).click();
      await page.getByTestId('scheduler-runs-table').getByText('Failed').first().waitFor();
      expect(await page.locator('[data-testid^="scheduler-run-retry-"]').count()).toBe(0);
      await page.locator('[data-testid^="scheduler-run-open-"]').first().click();
      await expect.poll(() => page.getByTestId('scheduler-run-log').textContent()).toContain('Checking ads.txt');
      await expectNoSeriousViolations(page, 'viewer run log');
    });
  }, 60_000);

  it.runIf(SHOTS_ON)('screenshots and axe: the list, a job with its runs and a run log at 375, 768 and 1440 px, light (en) and dark (es)', async () => {
    const job = await demoJob('Daily revenue by partner');
    await forEachView(browser, async (page, { width, theme, lang }) => {
      const name = (what: string) => `${what}-${width}-${theme}-${lang}`;
      await signIn(page, DEMO.admin, { via: 'api', lang, theme, path: PATH });
      await page.locator('[data-testid^="resource-row-"]').first().waitFor();
      await shot(page, name('list'));
      await expectNoSeriousViolations(page, name('list'));
      await page.goto(`/${lang}${PATH}/${job.id}`);
      await detailReady(page);
      await page.getByTestId('scheduler-next-runs').waitFor();
      await shot(page, name('detail'));
      await expectNoSeriousViolations(page, name('detail'));
      await page.getByRole('tab', { name: lang === 'en' ? 'Runs' : 'Ejecuciones' }).click();
      await page.locator('[data-testid^="scheduler-run-open-"]').first().waitFor();
      await shot(page, name('runs'));
      await expectNoSeriousViolations(page, name('runs'));
      await page.locator('[data-testid^="scheduler-run-open-"]').first().click();
      await page.getByTestId('scheduler-run-log').waitFor();
      await shot(page, name('run-log'));
      await expectNoSeriousViolations(page, name('run-log'), { within: '.ant-drawer' });
    });
  }, 600_000);
});
