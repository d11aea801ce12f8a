/**
 * Screen loaders by screen id (core/routes.ts `AppRoute.screen`). A feature that is built
 * registers its page here; every other route shows the translated "being built" state inside
 * the shell, with its real path, guard and menu entry.
 */
import type { ComponentType } from 'react';
import type { ListPrefetcher } from '../resources/resource-api.ts';

/**
 * A screen module: the page, and for a resource screen `prefetchList`, which asks for the first
 * page of its list as the navigation starts (routes.tsx).
 */
export type ScreenLoader = () => Promise<{ default: ComponentType; prefetchList?: ListPrefetcher }>;

export const beingBuilt: ScreenLoader = () => import('../features/being-built/being-built-page.tsx');

export const SCREENS: Readonly<Record<string, ScreenLoader>> = {
  not_allowed: () => import('../shell/forbidden-page.tsx'),
  dashboard: () => import('../features/dashboard/dashboard-page.tsx'),
  dataviewers: () => import('../features/dataviewer/dataviewer-page.tsx'),
  qps: () => import('../features/qps/qps-page.tsx'),
  list_companies: () => import('../features/companies/companies-page.tsx'),
  agencies: () => import('../features/agencies/agencies-page.tsx'),
  ip_firewall: () => import('../features/firewall/firewall-page.tsx'),
  impressions_log: () => import('../features/impression-logs/impression-logs-page.tsx'),
  endpoints_management: () => import('../features/endpoints/endpoints-page.tsx'),
  dp_ssp: () => import('../features/demand-partners/ssp-page.tsx'),
  dp_performance: () => import('../features/demand-partners/performance-page.tsx'),
  dp_ssp_register: () => import('../features/demand-partners/register-page.tsx'),
  dp_ssp_overview: () => import('../features/demand-partners/overview-page.tsx'),
  publishers_ssp: () => import('../features/publishers/ssp-page.tsx'),
  publishers_performance: () => import('../features/publishers/performance-page.tsx'),
  precreation_perf: () => import('../features/precreation/perf-page.tsx'),
  precreation_ssp: () => import('../features/precreation/ssp-page.tsx'),
  perf_budgets: () => import('../features/budgets/budgets-page.tsx'),
  deals: () => import('../features/deals/deals-page.tsx'),
  floors: () => import('../features/floors/floors-page.tsx'),
  performance_report: () => import('../features/performance-report/performance-report-page.tsx'),
  bs_advertiser_billing: () => import('../features/billing/ssp-advertiser-billing-page.tsx'),
  bp_advertiser_billing: () => import('../features/billing/performance-advertiser-billing-page.tsx'),
  bp_supply_billing: () => import('../features/billing/performance-supply-billing-page.tsx'),
  bp_performance: () => import('../features/billing/performance-overview-page.tsx'),
  bs_advertiser: () => import('../features/billing-accounts/ssp-page.tsx'),
  bp_advertiser: () => import('../features/billing-accounts/performance-page.tsx'),
  bs_invoice_precreation: () => import('../features/invoices/invoice-precreation-page.tsx'),
  billing_team: () => import('../features/invoices/invoices-preview-page.tsx'),
  bp_publisher_pending_payout: () => import('../features/payouts/publisher-pending-page.tsx'),
  bs_supply_pending_payout: () => import('../features/payouts/supply-pending-page.tsx'),
  bp_publisher_payouts: () => import('../features/payouts/publisher-payouts-page.tsx'),
  bp_prepayments: () => import('../features/prepayments/prepayments-page.tsx'),
  stats_manual: () => import('../features/partner-stats/stats-manual-page.tsx'),
  amazon_csv: () => import('../features/partner-stats/amazon-csv-page.tsx'),
  ssp_logs_tool: () => import('../features/ssp-logs/ssp-logs-page.tsx'),
  logs_parametrization: () => import('../features/ssp-logs/parametrization-page.tsx'),
  discrepancy: () => import('../features/discrepancy/discrepancy-page.tsx'),
  finances_supply: () => import('../features/finances/supply-page.tsx'),
  finances_demand: () => import('../features/finances/demand-page.tsx'),
  report_networks: () => import('../features/finance-reports/report-networks-page.tsx'),
  report_ac_monetization: () => import('../features/finance-reports/report-ac-monetization-page.tsx'),
  revenue_margin_report: () => import('../features/finance-reports/revenue-margin-page.tsx'),
  playon_acm: () => import('../features/finance-reports/playon-acm-page.tsx'),
  playon_networks: () => import('../features/finance-reports/playon-networks-page.tsx'),
  scheduler: () => import('../features/scheduler/scheduler-page.tsx'),
  premium_offers: () => import('../features/campaigns/offers-page.tsx'),
  campaigns: () => import('../features/campaigns/campaigns-page.tsx'),
  info_creative_sizes: () => import('../features/creatives/sizes-page.tsx'),
  creatives_resize_tool: () => import('../features/creatives/resize-page.tsx'),
  jstagbuilder: () => import('../features/jstag-builder/jstag-builder-page.tsx'),
  playon_builders: () => import('../features/playon-builder/playon-builder-page.tsx'),
  vastbuilder: () => import('../features/vast-builder/vast-builder-page.tsx'),
  jsonbuilder: () => import('../features/json-builder/json-builder-page.tsx'),
  adunit_generator: () => import('../features/adunit-generator/adunit-generator-page.tsx'),
  sdk_builder: () => import('../features/sdk-builder/sdk-builder-page.tsx'),
  app_tracking_manager: () => import('../features/app-tracking/app-tracking-page.tsx'),
  resources_manager: () => import('../features/resources-manager/resources-manager-page.tsx'),
  signature_manager: () => import('../features/signature-manager/signature-manager-page.tsx'),
  legal_tool: () => import('../features/legal-tool/legal-tool-page.tsx'),
};

export function screenLoader(screen: string): ScreenLoader {
  return SCREENS[screen] ?? beingBuilt;
}
