/**
 * QPS graph (/graphs/qps/{graph}): the demo story (Nimbus Exchange's cap cut to ~3,600 QPS by
 * Priya on the data's last full day) drawn with its cap line and listed as a change; the rules'
 * messages in English and Spanish; an unknown graph.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { DEMO, signIn, withPage, type Lang } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const option = (page: Page, text: RegExp) =>
  page.locator('.ant-select-item-option').filter({ hasText: text });

/** A wall time in UTC `YYYY-MM-DDTHH:mm`, `hours` from now. */
const utcWall = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16);

describe('QPS graph', () => {
  it('draws Nimbus Exchange with its cap line and lists the cap cut; the link keeps the graph', async () => {
    await withPage(browser, { viewport: { width: 1440, height: 1000 } }, async (page) => {
      await signIn(page, DEMO.demandLead, { via: 'api', path: '/graphs/qps/demand' });
      await page.getByRole('heading', { name: 'QPS by demand partner' }).waitFor();
      await page.getByTestId('qps-empty').waitFor();

      // Pick the partner through the autocomplete, the last 3 days, hourly.
      await page.locator('#qps-ids').pressSequentially('Nimb');
      await option(page, /^Nimbus Exchange$/).click();
      await page.locator('#qps-quick').click();
      await option(page, /^Last 3 days$/).click();
      await page.locator('#qps-interval').click();
      await option(page, /^1 h$/).click();
      await page.getByTestId('qps-show').click();

      const chart = page.getByTestId('qps-chart');
      await chart.locator('svg').waitFor();
      // The legend names the cap line; the cap is drawn dashed.
      await chart.locator('svg text', { hasText: 'Nimbus Exchange · QPS cap' }).first().waitFor();
      await chart.locator('svg text', { hasText: 'Nimbus Exchange · Outgoing QPS' }).first().waitFor();
      await expect.poll(() => chart.locator('svg path[stroke-dasharray]').count()).toBeGreaterThan(0);

      // The change, listed under the chart: who cut the cap from 21,000 to about 3,600.
      const change = page.getByTestId('qps-change').filter({ hasText: 'Nimbus Exchange' });
      const text = (await change.first().textContent()) ?? '';
      const m = /QPS cap ([\d,]+) → ([\d,]+) by Priya Natarajan/.exec(text);
      expect(m, text).not.toBeNull();
      const [from, to] = [m![1]!, m![2]!].map((n) => Number(n.replace(/,/g, '')));
      expect(from).toBeGreaterThan(15_000);
      expect(to).toBeGreaterThan(3000);
      expect(to).toBeLessThan(4500);
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} 13:58/);
      // The summary: the cap now is the new one, and outgoing QPS spent time flat on it.
      await expect.poll(() => page.getByTestId('qps-cap-1').textContent()).toBe(m![2]);
      const atCap = (await page.getByTestId('qps-at-cap-1').textContent()) ?? '';
      expect(atCap).toMatch(/^\d+ %$/);
      expect(parseInt(atCap, 10)).toBeGreaterThan(0);

      // The choice is in the URL: a reload draws the same graph.
      expect(new URL(page.url()).searchParams.get('ids')).toBe('1');
      expect(new URL(page.url()).searchParams.get('interval')).toBe('60');
      // A readable, shareable link.
      expect(page.url()).toContain('&tz=Europe/Madrid&interval=60');
      const dataviewer = await page.getByTestId('qps-dataviewer').getAttribute('href');
      expect(dataviewer).toMatch(
        /^\/en\/reports\/dataviewer\?start=\d{4}-\d{2}-\d{2}&end=\d{4}-\d{2}-\d{2}&tz=Europe\/Madrid&dims=hour,demand_partner&.*f=demand_partner:include:1&run=1$/,
      );
      await page.reload();
      await page
        .getByTestId('qps-chart')
        .locator('svg text', { hasText: 'Nimbus Exchange · QPS cap' })
        .first()
        .waitFor();
      await page.getByTestId('qps-change').filter({ hasText: 'Priya Natarajan' }).first().waitFor();
    });
  });

  const MESSAGES: Record<Lang, { metric: string; filter: string; end: string }> = {
    en: {
      metric: 'Choose at least one metric',
      filter: 'Choose at least one partner or endpoint (at most 10)',
      end: 'The end date cannot be later than now',
    },
    es: {
      metric: 'Elige al menos una métrica',
      filter: 'Elige al menos un socio o endpoint (máximo 10)',
      end: 'La fecha de fin no puede ser posterior a ahora',
    },
  };

  it.each<Lang>(['en', 'es'])(
    'shows the rules in %s: no metric, no partner, an end beyond the limit',
    async (lang) => {
      await withPage(browser, { viewport: { width: 1024, height: 900 } }, async (page) => {
        await signIn(page, DEMO.tech, { via: 'api', lang, path: '/graphs/qps/demand' });
        const form = page.getByTestId('qps-form');
        await form.waitFor();
        // No partner chosen and the metrics unticked.
        const checked = form.getByTestId('qps-metrics').locator('input[type="checkbox"]:checked');
        while ((await checked.count()) > 0) await checked.first().click();
        await page.getByTestId('qps-show').click();
        await expect.poll(() => page.getByTestId('qps-error-metrics').textContent()).toBe(MESSAGES[lang].metric);
        await expect.poll(() => page.getByTestId('qps-error-ids').textContent()).toBe(MESSAGES[lang].filter);
        await expect.poll(() => page.getByTestId('qps-chart').count()).toBe(0);

        // A link whose end is two hours ahead: the end-date limit.
        await page.goto(
          `/${lang}/graphs/qps/demand?ids=1&metrics=qps&start=${utcWall(-6)}&end=${utcWall(2)}&tz=UTC&interval=15`,
        );
        await page.getByTestId('qps-error-end').waitFor();
        await expect.poll(() => page.getByTestId('qps-error-end').textContent()).toBe(MESSAGES[lang].end);
        await expect.poll(() => page.getByTestId('qps-chart').count()).toBe(0);
      });
    },
  );

  it('answers an unknown graph with a not-found state that leads to both graphs', async () => {
    await withPage(browser, {}, async (page) => {
      // An ADMIN opens any route (others get the shell's forbidden panel: no menu entry matches).
      await signIn(page, DEMO.admin, { via: 'api', path: '/graphs/qps/publishers' });
      const panel = page.getByTestId('qps-not-found');
      await panel.getByText('There is no such graph').waitFor();
      expect(
        await panel.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
      ).toEqual(['/en/graphs/qps/demand', '/en/graphs/qps/supply']);
    });
  });
});
