/**
 * The dashboard's one request (GET /v1/dashboard with the sections the person needs), refreshed
 * every few minutes while the page is open, and the time zone it is asked in (the browser's by
 * default; a choice is remembered on this computer).
 *
 * The request may start before the screen is rendered (`startDashboardRequest`): from the app's
 * entry when the first URL is the home, so it runs while the shell's and the screen's code
 * arrive, or when the screen's code is evaluated. The first query takes that answer instead of
 * asking again. This module stays free of zod and the report catalogue for the entry's sake.
 */
import type { DashboardSection } from '@backoffice/core/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';
import { apiQueryKey } from '../../lib/query.ts';
import { isTokenExpired, useSession } from '../../lib/session-store.ts';
import { chosenTimeZone } from '../../lib/time-zone-choice.ts';
import { sectionsFor } from './dashboard-access.ts';
import type { DashboardAnswer } from './dashboard-model.ts';

/** Figures move by the hour; a refresh every 5 minutes picks up a new hour soon enough. */
export const DASHBOARD_REFRESH_MS = 5 * 60_000;
/** An early answer older than this is not used (asked again instead). */
const EARLY_MAX_AGE_MS = 15_000;

function dashboardQuery(timezone: string, sections: readonly DashboardSection[]) {
  return { query: { timezone, sections: [...sections] } };
}

let early: { key: string; token: string; at: number; answer: Promise<DashboardAnswer> } | null = null;

const isFresh = (e: NonNullable<typeof early>, key: string) =>
  e.key === key && Date.now() - e.at <= EARLY_MAX_AGE_MS && e.token === useSession.getState().user?.token;

/**
 * Starts the request for the signed-in person now (no-op when signed out, when the token has
 * expired, or when the same request is already on its way).
 */
export function startDashboardRequest(): void {
  const { user } = useSession.getState();
  if (!user || isTokenExpired(user)) return;
  const input = dashboardQuery(chosenTimeZone(), sectionsFor(user));
  const key = JSON.stringify(apiQueryKey('dashboard', input));
  if (early && isFresh(early, key)) return;
  const answer = api.request<DashboardAnswer>('dashboard', input);
  // Errors are seen by the query that takes it (or by nobody, when it is too old).
  answer.catch(() => undefined);
  early = { key, token: user.token, at: Date.now(), answer };
}

function takeEarly(key: string): Promise<DashboardAnswer> | null {
  const e = early;
  early = null;
  if (!e || !isFresh(e, key)) return null;
  return e.answer;
}

export function useDashboard(timezone: string, sections: readonly DashboardSection[]) {
  const input = dashboardQuery(timezone, sections);
  const queryKey = apiQueryKey('dashboard', input);
  return useQuery<DashboardAnswer, FetchError>({
    queryKey,
    queryFn: ({ signal }) => takeEarly(JSON.stringify(queryKey)) ?? api.request<DashboardAnswer>('dashboard', { ...input, signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

