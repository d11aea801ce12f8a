/**
 * What the dashboard asks for and in which zone: the sections for the person's report areas
 * (core's rule, the API's too) and the browser's time zone. Kept free of zod and the report
 * catalogue: the app's entry uses it to start the dashboard's request before the screen's code
 * has arrived (use-dashboard.ts).
 */
import { DASHBOARD_SECTIONS, hasReportArea, type DashboardSection, type DashboardViewer } from '@backoffice/core/dashboard';

/** The sections to ask for: figures only for people with a report area. */
export function sectionsFor(person: DashboardViewer | null): DashboardSection[] {
  return hasReportArea(person) ? [...DASHBOARD_SECTIONS] : ['waiting'];
}

