/**
 * The dashboard's sections and limits, shared by the API and the web app. Free of zod and of the
 * report catalogue, so that the web app's entry can start the dashboard's request early.
 */
import { isAllowed, type Acl, type RoleRef } from './acl.ts';

export const DASHBOARD_SECTIONS = ['tiles', 'series', 'top', 'waiting'] as const;
export type DashboardSection = (typeof DASHBOARD_SECTIONS)[number];
export const DASHBOARD_SERIES_DAYS = 30;
export const DASHBOARD_TOP_DAYS = 7;
export const DASHBOARD_TOP_N = 5;
/** Firewall entries expiring within this many minutes are "waiting for you". */
export const DASHBOARD_FIREWALL_EXPIRY_MINUTES = 60;

/** Who may see money on the dashboard: the reports permission or a finance/billing one. */
export const DASHBOARD_MONEY_RESOURCES = ['/v1/reports', '/v1/finance-reports', '/v1/finances', '/v1/billing'] as const;

/** Whoever the dashboard is for: a caller (API) or the session's person (web). */
export interface DashboardViewer {
  roles: readonly RoleRef[];
  acl: Acl;
}

/** Report areas give the dashboard its figures: reports, graphs, or a money area. */
export function hasReportArea(who: DashboardViewer | null | undefined): boolean {
  return ['/v1/reports', '/v1/graphs', ...DASHBOARD_MONEY_RESOURCES].some((resource) => isAllowed(who, { resource }));
}

/** Money figures need the reports permission or a finance/billing one. */
export function hasMoneyArea(who: DashboardViewer | null | undefined): boolean {
  return DASHBOARD_MONEY_RESOURCES.some((resource) => isAllowed(who, { resource }));
}
