/** ADMIN simulation (spec sections 2, 4 and 5): a role, a user, the way back, and its absence for others. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { apiLogin, chooseSimulatedRole, currentPath, DEMO, signIn, storedSession, toast, waitForShell, withPage } from '../support/shell.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The status of an API call made from the page with a given token. */
async function statusWith(page: Page, token: string, path: string): Promise<number> {
  return page.evaluate(
    async ([t, p]) => (await fetch(p!, { headers: { authorization: `Bearer ${t}` } })).status,
    [token, path] as const,
  );
}

async function openSimulator(page: Page) {
  await page.getByTestId('simulator-open').click();
  const form = page.getByTestId('simulator-form');
  await form.waitFor();
  return form;
}

describe('simulation', () => {
  it('is not offered to other roles', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.finance, { via: 'api' });
      await expect.poll(() => page.getByTestId('simulator-open').count()).toBe(0);
    });
  });

  it('keeps role and user mutually exclusive, the user id at 5 digits, and Simulate disabled with nothing chosen', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const form = await openSimulator(page);
      const submit = form.getByTestId('simulate-submit');
      await expect.poll(() => submit.isDisabled()).toBe(true);
      const userId = form.getByTestId('simulate-user');
      await expect.poll(() => userId.getAttribute('maxlength')).toBe('5');
      await userId.pressSequentially('12a34567');
      await expect.poll(() => userId.inputValue()).toBe('12345');
      await expect.poll(() => submit.isDisabled()).toBe(false);
      // A typed user id disables the role choice.
      await expect.poll(() => form.locator('.ant-select-disabled').count()).toBe(1);
      await userId.fill('');
      await expect.poll(() => submit.isDisabled()).toBe(true);
      await chooseSimulatedRole(page, 'FINANCE');
      await expect.poll(() => userId.isDisabled()).toBe(true);
      await expect.poll(() => submit.isDisabled()).toBe(false);
    });
  });

  it('goes to the root before the role applies, also on a slow machine (not to not_allowed)', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: '/utils/scheduler' });
      const form = await openSimulator(page);
      await chooseSimulatedRole(page, 'FINANCE');
      // A CPU eight times slower: the root's render was still pending when FINANCE's permissions
      // arrived, and the guard sent the scheduler to not_allowed (4 times in 4 before the fix).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
      await form.getByTestId('simulate-submit').click();
      await page.getByTestId('simulation-banner').getByText('Simulating role FINANCE').waitFor();
      await page.getByTestId('dashboard').waitFor();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      expect(currentPath(page)).toBe('/en');
    });
  });

  it('simulates a role: its ACL applies, the state is visible, and the way back restores the admin', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api', path: '/utils/scheduler' });
      const form = await openSimulator(page);
      await chooseSimulatedRole(page, 'FINANCE');
      await form.getByTestId('simulate-submit').click();
      await page.waitForURL(/\/en$/);
      const banner = page.getByTestId('simulation-banner');
      await banner.getByText('Simulating role FINANCE').waitFor();
      await toast(page, 'Simulation started').waitFor();
      const saved = await storedSession(page);
      expect(saved?.state.user?.roles.map((r) => r.name)).toEqual(['FINANCE']);
      expect(saved?.state.simulation?.kind).toBe('role');
      // The API enforces the role too: the simulated session may read reports, not the QPS graphs.
      const simToken = saved!.state.user!.token;
      expect(simToken).not.toBe(saved?.state.original?.user.token);
      expect(await statusWith(page, simToken, '/v1/reports/catalog')).toBe(200);
      expect(await statusWith(page, simToken, '/v1/graphs/qps/demand?metrics=qps&ids=1')).toBe(403);
      // FINANCE may not open the scheduler; ADMIN could.
      await page.goto('/en/utils/scheduler');
      await page.waitForURL(/\/en\/not_allowed$/);
      // The simulation survives a reload.
      await page.reload();
      await banner.waitFor();
      await banner.getByRole('button', { name: 'Back to my session' }).click();
      await page.waitForURL(/\/en$/);
      await banner.waitFor({ state: 'detached' });
      expect((await storedSession(page))?.state.user?.roles[0]?.name).toBe('ADMIN');
      // The simulated session ended on the server; the admin's goes on.
      await expect.poll(() => statusWith(page, simToken, '/v1/reports/catalog')).toBe(401);
      expect(await statusWith(page, (await storedSession(page))!.state.user!.token, '/v1/admin/role')).toBe(200);
      await page.goto('/en/utils/scheduler');
      await page.getByRole('heading', { name: 'Scheduler', level: 1 }).waitFor();
    });
  });

  it('simulates a user by id: signs in as that user, and comes back', async () => {
    const finance = await apiLogin(DEMO.finance);
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const form = await openSimulator(page);
      await form.getByTestId('simulate-user').fill(String(finance.id));
      await form.getByTestId('simulate-submit').click();
      await page.getByTestId('simulation-banner').getByText(`Simulating user ${DEMO.finance}`).waitFor();
      expect(currentPath(page)).toBe('/en');
      await waitForShell(page);
      const saved = await storedSession(page);
      expect(saved?.state.user?.mail).toBe(DEMO.finance);
      expect(saved?.state.user?.simulated_by?.mail).toBe(DEMO.admin);
      await page.getByTestId('profile-open').click();
      await page.locator('.bo-profile__mail').getByText(DEMO.finance).waitFor();
      await page.keyboard.press('Escape');
      // The real admin keeps the simulator while simulating.
      await page.getByTestId('simulator-open').waitFor();
      await page.getByTestId('simulation-stop').click();
      await page.getByTestId('simulation-banner').waitFor({ state: 'detached' });
      expect((await storedSession(page))?.state.user?.mail).toBe(DEMO.admin);
    });
  });

  it('shows the error of an unknown user id as a toast', async () => {
    await withPage(browser, {}, async (page) => {
      await signIn(page, DEMO.admin, { via: 'api' });
      const form = await openSimulator(page);
      await form.getByTestId('simulate-user').fill('99999');
      await form.getByTestId('simulate-submit').click();
      await toast(page, 'User not found').waitFor();
      await expect.poll(() => page.getByTestId('simulation-banner').count()).toBe(0);
    });
  });
});
