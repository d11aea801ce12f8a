/**
 * What the dashboard asks for and in which zone: the person's report areas (the API's rule) and
 * the browser's time zone. Kept free of zod and the report catalogue: the app's entry uses it to
 * start the dashboard's request before the screen's code has arrived (use-dashboard.ts).
 */
import { isAllowed, type Acl, type RoleRef } from '@backoffice/core/acl';
import { DASHBOARD_MONEY_RESOURCES, DASHBOARD_SECTIONS, type DashboardSection } from '@backoffice/core/dashboard';
import { isValidTimeZone } from '@backoffice/core/time-zones';

export interface Person {
  roles: readonly RoleRef[];
  acl: Acl;
}

/** Report areas that give the dashboard its figures (the API's rule, core DASHBOARD_MONEY_RESOURCES included). */
export function hasReportArea(person: Person | null): boolean {
  return ['/v1/reports', '/v1/graphs', ...DASHBOARD_MONEY_RESOURCES].some((resource) => isAllowed(person, { resource }));
}

export function hasMoneyArea(person: Person | null): boolean {
  return DASHBOARD_MONEY_RESOURCES.some((resource) => isAllowed(person, { resource }));
}

/** The sections to ask for: figures only for people with a report area. */
export function sectionsFor(person: Person | null): DashboardSection[] {
  return hasReportArea(person) ? [...DASHBOARD_SECTIONS] : ['waiting'];
}

/** The person's time zone (the browser's), UTC when the browser does not say or says nonsense. */
export function browserTimeZone(): string {
  try {
    const tz = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isValidTimeZone(tz) ? tz : 'UTC';
  } catch {
    return 'UTC';
  }
}
