/**
 * How many e2e test files run at once (E2E_WORKERS, default 2): each has its own Chromium and its
 * own server and database. Two workers keep both cores of the CI machine busy while one waits on
 * the other's browser or server; see docs/decisions/008 for the figures.
 */
export const DEFAULT_E2E_WORKERS = 2;

export function e2eWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.E2E_WORKERS ?? DEFAULT_E2E_WORKERS);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_E2E_WORKERS;
}
