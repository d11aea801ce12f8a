/**
 * The route table of spec section 2 and the menu it seeds (spec section 3, Menu entry).
 * The API seeds the menu from MENU_GROUPS + MENU_ROUTES; the web app builds its router from
 * APP_ROUTES. Titles are i18n keys (`menu.<id>`), permissions are ACL resources.
 */

export interface MenuGroup {
  id: string;
  /** antd icon component name */
  icon: string;
}

export interface MenuRoute {
  /** Stable id; the title is the i18n key `menu.<id>`. */
  id: string;
  /** Menu group id, or null for a top-level entry (Dashboard). */
  group: string | null;
  /** Path prefix, starting with '/', for example '/reports'. */
  prefix: string;
  /** Last segment(s); '' for the home entry. */
  slug: string;
  icon: string;
  /** ACL resource needed to see the entry and open its routes; '' needs nothing. */
  permission: string;
  hidden?: boolean;
}

export const MENU_GROUPS: readonly MenuGroup[] = [
  { id: 'reports', icon: 'BarChartOutlined' },
  { id: 'graph', icon: 'LineChartOutlined' },
  { id: 'billing_performance', icon: 'EuroCircleOutlined' },
  { id: 'billing_ssp', icon: 'AccountBookOutlined' },
  { id: 'finances', icon: 'BankOutlined' },
  { id: 'demand_partners', icon: 'ApiOutlined' },
  { id: 'publishers', icon: 'GlobalOutlined' },
  { id: 'tech', icon: 'ToolOutlined' },
  { id: 'settings', icon: 'SettingOutlined' },
  { id: 'builders', icon: 'BuildOutlined' },
  { id: 'marketing', icon: 'PictureOutlined' },
  { id: 'legal', icon: 'SafetyCertificateOutlined' },
  { id: 'offers', icon: 'RocketOutlined' },
];

export const MENU_ROUTES: readonly MenuRoute[] = [
  { id: 'dashboard', group: null, prefix: '', slug: '', icon: 'DashboardOutlined', permission: '' },
  // Reports
  { id: 'dataviewers', group: 'reports', prefix: '/reports', slug: 'dataviewer', icon: 'TableOutlined', permission: '/v1/reports' },
  { id: 'report_networks', group: 'reports', prefix: '/finance_reports', slug: 'reportNetworks', icon: 'FundOutlined', permission: '/v1/finance-reports' },
  { id: 'report_ac_monetization', group: 'reports', prefix: '/finance_reports', slug: 'reportACMonetization', icon: 'FundOutlined', permission: '/v1/finance-reports' },
  { id: 'revenue_margin_report', group: 'reports', prefix: '/finance_reports', slug: 'revenue_margin_report', icon: 'RiseOutlined', permission: '/v1/finance-reports' },
  { id: 'playon_acm', group: 'reports', prefix: '/finance_reports', slug: 'playon/acm', icon: 'PlayCircleOutlined', permission: '/v1/finance-reports' },
  { id: 'playon_networks', group: 'reports', prefix: '/finance_reports', slug: 'playon/networks', icon: 'PlayCircleOutlined', permission: '/v1/finance-reports' },
  { id: 'performance_report', group: 'reports', prefix: '/partners', slug: 'performance_report', icon: 'FileSearchOutlined', permission: '/v1/reports/performance' },
  // Graph
  { id: 'qps_demand', group: 'graph', prefix: '/graphs/qps', slug: 'demand', icon: 'AreaChartOutlined', permission: '/v1/graphs' },
  { id: 'qps_supply', group: 'graph', prefix: '/graphs/qps', slug: 'supply', icon: 'AreaChartOutlined', permission: '/v1/graphs' },
  // Billing performance
  { id: 'bp_advertiser', group: 'billing_performance', prefix: '/billing_performance', slug: 'advertiser', icon: 'ShopOutlined', permission: '/v1/billing/performance' },
  { id: 'bp_advertiser_billing', group: 'billing_performance', prefix: '/billing_performance', slug: 'advertiser-billing', icon: 'FileTextOutlined', permission: '/v1/billing/performance' },
  { id: 'bp_supply_billing', group: 'billing_performance', prefix: '/billing_performance', slug: 'supply-billing', icon: 'FileTextOutlined', permission: '/v1/billing/performance' },
  { id: 'bp_performance', group: 'billing_performance', prefix: '/billing_performance', slug: 'performance', icon: 'FileDoneOutlined', permission: '/v1/billing/performance' },
  { id: 'bp_publisher_payouts', group: 'billing_performance', prefix: '/billing_performance', slug: 'performance-publisher-monthly-report', icon: 'WalletOutlined', permission: '/v1/payouts' },
  { id: 'bp_publisher_pending_payout', group: 'billing_performance', prefix: '/billing_performance', slug: 'publishers_reports', icon: 'ClockCircleOutlined', permission: '/v1/payouts' },
  { id: 'bp_prepayments', group: 'billing_performance', prefix: '/billing_performance', slug: 'prepayments', icon: 'CreditCardOutlined', permission: '/v1/prepayments' },
  { id: 'invoices_preview_performance', group: 'billing_performance', prefix: '/billing', slug: 'performance', icon: 'ProfileOutlined', permission: '/v1/invoices' },
  // Billing SSP
  { id: 'bs_advertiser_billing', group: 'billing_ssp', prefix: '/billing_ssp', slug: 'advertiser-billing', icon: 'FileTextOutlined', permission: '/v1/billing/ssp' },
  { id: 'bs_supply_pending_payout', group: 'billing_ssp', prefix: '/billing_ssp', slug: 'supply-billing', icon: 'ClockCircleOutlined', permission: '/v1/billing/ssp' },
  { id: 'bs_advertiser', group: 'billing_ssp', prefix: '/billing_ssp', slug: 'advertiser', icon: 'ShopOutlined', permission: '/v1/billing/ssp' },
  { id: 'bs_invoice_precreation', group: 'billing_ssp', prefix: '/billing_ssp', slug: 'invoice-precreation', icon: 'FileAddOutlined', permission: '/v1/invoices' },
  { id: 'invoices_preview_ssp', group: 'billing_ssp', prefix: '/billing', slug: 'ssp', icon: 'ProfileOutlined', permission: '/v1/invoices' },
  // Finances
  { id: 'finances_supply', group: 'finances', prefix: '/finances', slug: 'supply', icon: 'FallOutlined', permission: '/v1/finances' },
  { id: 'finances_demand', group: 'finances', prefix: '/finances', slug: 'demand', icon: 'RiseOutlined', permission: '/v1/finances' },
  // Demand partners
  { id: 'dp_ssp_overview', group: 'demand_partners', prefix: '/partners', slug: 'demand-partners/ssp/overview', icon: 'DashboardOutlined', permission: '/v1/partners/demand' },
  { id: 'dp_ssp', group: 'demand_partners', prefix: '/partners', slug: 'demandpartners_ssp', icon: 'ClusterOutlined', permission: '/v1/partners/demand' },
  { id: 'dp_ssp_register', group: 'demand_partners', prefix: '/partners', slug: 'demandpartners_ssp_register', icon: 'PlusCircleOutlined', permission: '/v1/partners/demand' },
  { id: 'dp_performance', group: 'demand_partners', prefix: '/partners', slug: 'demandpartners_performance', icon: 'ClusterOutlined', permission: '/v1/partners/demand' },
  { id: 'perf_budgets', group: 'demand_partners', prefix: '/partners', slug: 'perf-budgets-companies', icon: 'PieChartOutlined', permission: '/v1/budgets' },
  { id: 'floors', group: 'demand_partners', prefix: '/partners', slug: 'floors', icon: 'VerticalAlignBottomOutlined', permission: '/v1/floors' },
  { id: 'deals', group: 'demand_partners', prefix: '/partners', slug: 'deals', icon: 'TagsOutlined', permission: '/v1/deals' },
  { id: 'agencies', group: 'demand_partners', prefix: '/partners', slug: 'agencies', icon: 'TeamOutlined', permission: '/v1/agencies' },
  { id: 'precreation_ssp', group: 'demand_partners', prefix: '/partners', slug: 'precreation_ssp', icon: 'FormOutlined', permission: '/v1/precreation' },
  // Publishers
  { id: 'publishers_ssp', group: 'publishers', prefix: '/partners', slug: 'publishers_ssp', icon: 'GlobalOutlined', permission: '/v1/partners/publishers' },
  { id: 'publishers_performance', group: 'publishers', prefix: '/partners', slug: 'publishers_performance', icon: 'GlobalOutlined', permission: '/v1/partners/publishers' },
  { id: 'precreation_perf', group: 'publishers', prefix: '/partners', slug: 'precreation_perf', icon: 'FormOutlined', permission: '/v1/precreation' },
  // Tech / operations
  { id: 'discrepancy', group: 'tech', prefix: '/process', slug: 'discrepancy', icon: 'DiffOutlined', permission: '/v1/discrepancy' },
  { id: 'impressions_log', group: 'tech', prefix: '/process', slug: 'impressions-log', icon: 'FileSearchOutlined', permission: '/v1/impressions-log' },
  { id: 'ssp_logs_tool', group: 'tech', prefix: '/process', slug: 'ssp-logs-tool', icon: 'CodeOutlined', permission: '/v1/ssp-logs' },
  { id: 'logs_parametrization', group: 'tech', prefix: '/utils/ssp', slug: 'logs-data/parametrization', icon: 'ControlOutlined', permission: '/v1/ssp-logs/parametrization', hidden: true },
  { id: 'stats_manual', group: 'tech', prefix: '/utils/ssp', slug: 'stats-manual', icon: 'EditOutlined', permission: '/v1/stats-manual' },
  { id: 'endpoints_management', group: 'tech', prefix: '/utils', slug: 'endpoints_management', icon: 'NodeIndexOutlined', permission: '/v1/endpoints' },
  { id: 'list_companies', group: 'tech', prefix: '/utils', slug: 'list_companies', icon: 'BankOutlined', permission: '/v1/companies' },
  // Settings
  { id: 'scheduler', group: 'settings', prefix: '/utils', slug: 'scheduler', icon: 'ScheduleOutlined', permission: '/v1/scheduler-api' },
  { id: 'ip_firewall', group: 'settings', prefix: '/utils', slug: 'ip', icon: 'SafetyOutlined', permission: '/v1/firewall' },
  // Builders
  { id: 'jsonbuilder', group: 'builders', prefix: '/utils', slug: 'jsonbuilder', icon: 'CodeOutlined', permission: '/v1/builders' },
  { id: 'jstagbuilder', group: 'builders', prefix: '/utils', slug: 'jstagbuilder', icon: 'CodeOutlined', permission: '/v1/builders' },
  { id: 'playon_builders', group: 'builders', prefix: '/utils', slug: 'playon-builders', icon: 'PlaySquareOutlined', permission: '/v1/builders' },
  { id: 'vastbuilder', group: 'builders', prefix: '/utils', slug: 'vastbuilder', icon: 'VideoCameraOutlined', permission: '/v1/builders' },
  { id: 'adunit_generator', group: 'builders', prefix: '/utils', slug: 'adunit_generator', icon: 'AppstoreAddOutlined', permission: '/v1/builders' },
  { id: 'amazon_csv', group: 'builders', prefix: '/utils', slug: 'amazon_csv', icon: 'UploadOutlined', permission: '/v1/amazon' },
  { id: 'sdk_builder', group: 'builders', prefix: '/utils', slug: 'sdk-builder', icon: 'MobileOutlined', permission: '/v1/sdk' },
  { id: 'app_tracking_manager', group: 'builders', prefix: '/utils', slug: 'app-tracking-manager', icon: 'AimOutlined', permission: '/v1/sdk' },
  // Marketing
  { id: 'info_creative_sizes', group: 'marketing', prefix: '/utils', slug: 'info_creative_sizes', icon: 'ColumnWidthOutlined', permission: '/v1/creatives' },
  { id: 'creatives_resize_tool', group: 'marketing', prefix: '/utils', slug: 'creatives_resize_tool', icon: 'ExpandOutlined', permission: '/v1/creatives' },
  { id: 'resources_manager', group: 'marketing', prefix: '/utils', slug: 'resources_manager2', icon: 'FolderOpenOutlined', permission: 'resources_manager' },
  { id: 'signature_manager', group: 'marketing', prefix: '/utils', slug: 'signature_manager', icon: 'SignatureOutlined', permission: '/v1/signatures' },
  // Legal
  { id: 'legal_tool', group: 'legal', prefix: '/utils', slug: 'legal_tool', icon: 'AuditOutlined', permission: '/v1/legal' },
  // Offers (performance tools)
  { id: 'premium_offers', group: 'offers', prefix: '/performanceTools', slug: 'premium_offers_list', icon: 'CrownOutlined', permission: '/v1/offers' },
  { id: 'campaigns', group: 'offers', prefix: '/performanceTools', slug: 'campaign_list', icon: 'NotificationOutlined', permission: '/v1/campaigns' },
];

/**
 * Every app route pattern of spec section 2 under /{lang} (without the locale segment), with the
 * menu route whose permission guards it. Sub-pages (new, {id}, clone) share their list's entry.
 */
export interface AppRoute {
  pattern: string;
  /** Id of the menu route that guards it; null for routes always allowed. */
  menuId: string | null;
  /** Screen id for the web app's lazy loader (several patterns may share one screen). */
  screen: string;
}

function r(pattern: string, menuId: string | null, screen?: string): AppRoute {
  return { pattern, menuId, screen: screen ?? menuId ?? pattern };
}

export const APP_ROUTES: readonly AppRoute[] = [
  r('/', 'dashboard'),
  r('/reports/dataviewer', 'dataviewers'),
  r('/reports/dataviewer/:id', 'dataviewers'),
  r('/process/discrepancy', 'discrepancy'),
  r('/process/impressions-log', 'impressions_log'),
  r('/process/ssp-logs-tool', 'ssp_logs_tool'),
  r('/utils/ip', 'ip_firewall'),
  r('/utils/ip/:id', 'ip_firewall'),
  r('/utils/scheduler', 'scheduler'),
  r('/utils/scheduler/new', 'scheduler'),
  r('/utils/scheduler/:id', 'scheduler'),
  r('/utils/jsonbuilder', 'jsonbuilder'),
  r('/utils/list_companies', 'list_companies'),
  r('/utils/list_companies/new', 'list_companies'),
  r('/utils/list_companies/:id', 'list_companies'),
  r('/graphs/qps/:graph', 'qps_demand', 'qps'),
  r('/billing/:team', 'invoices_preview_ssp', 'billing_team'),
  r('/billing_performance/advertiser', 'bp_advertiser'),
  r('/billing_performance/advertiser-billing', 'bp_advertiser_billing'),
  r('/billing_performance/supply-billing', 'bp_supply_billing'),
  r('/billing_performance/performance', 'bp_performance'),
  r('/billing_performance/performance-publisher-monthly-report', 'bp_publisher_payouts'),
  r('/billing_performance/publishers_reports', 'bp_publisher_pending_payout'),
  r('/billing_performance/prepayments', 'bp_prepayments'),
  r('/billing_ssp/advertiser-billing', 'bs_advertiser_billing'),
  r('/billing_ssp/supply-billing', 'bs_supply_pending_payout'),
  r('/billing_ssp/advertiser', 'bs_advertiser'),
  r('/billing_ssp/invoice-precreation', 'bs_invoice_precreation'),
  r('/finances/supply', 'finances_supply'),
  r('/finances/demand', 'finances_demand'),
  r('/partners/demandpartners_performance', 'dp_performance'),
  r('/partners/demandpartners_performance/:network', 'dp_performance'),
  r('/partners/perf-budgets-companies', 'perf_budgets'),
  r('/partners/perf-budgets-companies/new', 'perf_budgets'),
  r('/partners/perf-budgets-companies/:id', 'perf_budgets'),
  r('/partners/demand-partners/ssp/overview', 'dp_ssp_overview'),
  r('/partners/demandpartners_ssp', 'dp_ssp'),
  r('/partners/demandpartners_ssp/:network', 'dp_ssp'),
  r('/partners/demandpartners_ssp_register', 'dp_ssp_register'),
  r('/partners/precreation_perf', 'precreation_perf'),
  r('/partners/precreation_perf/new', 'precreation_perf'),
  r('/partners/precreation_perf/:id', 'precreation_perf'),
  r('/partners/precreation_perf/clone/:id', 'precreation_perf'),
  r('/partners/precreation_ssp', 'precreation_ssp'),
  r('/partners/precreation_ssp/new', 'precreation_ssp'),
  r('/partners/precreation_ssp/:id', 'precreation_ssp'),
  r('/partners/performance_report', 'performance_report'),
  r('/partners/publishers_ssp', 'publishers_ssp'),
  r('/partners/publishers_ssp/:publisherId', 'publishers_ssp'),
  r('/partners/publishers_performance', 'publishers_performance'),
  r('/partners/publishers_performance/new', 'publishers_performance'),
  r('/partners/publishers_performance/:publisherId', 'publishers_performance'),
  r('/partners/floors', 'floors'),
  r('/partners/deals', 'deals'),
  r('/partners/deals/new', 'deals'),
  r('/partners/deals/:id', 'deals'),
  r('/partners/agencies', 'agencies'),
  r('/partners/agencies/new', 'agencies'),
  r('/partners/agencies/:id', 'agencies'),
  r('/finance_reports/reportNetworks', 'report_networks'),
  r('/finance_reports/reportACMonetization', 'report_ac_monetization'),
  r('/finance_reports/revenue_margin_report', 'revenue_margin_report'),
  r('/finance_reports/playon/acm', 'playon_acm'),
  r('/finance_reports/playon/networks', 'playon_networks'),
  r('/performanceTools/premium_offers_list', 'premium_offers'),
  r('/performanceTools/premium_offers_list/new', 'premium_offers'),
  r('/performanceTools/premium_offers_list/:idOffer', 'premium_offers'),
  r('/performanceTools/campaign_list', 'campaigns'),
  r('/performanceTools/campaign_list/new', 'campaigns'),
  r('/performanceTools/campaign_list/:idCampaign', 'campaigns'),
  r('/performanceTools/campaign_list/:idCampaign/events/:idEvent', 'campaigns'),
  r('/utils/jstagbuilder', 'jstagbuilder'),
  r('/utils/playon-builders', 'playon_builders'),
  r('/utils/vastbuilder', 'vastbuilder'),
  r('/utils/resources_manager2', 'resources_manager'),
  r('/utils/endpoints_management', 'endpoints_management'),
  r('/utils/endpoints_management/new', 'endpoints_management'),
  r('/utils/endpoints_management/:id', 'endpoints_management'),
  r('/utils/adunit_generator', 'adunit_generator'),
  r('/utils/amazon_csv', 'amazon_csv'),
  r('/utils/info_creative_sizes', 'info_creative_sizes'),
  r('/utils/legal_tool', 'legal_tool'),
  r('/utils/legal_tool/new', 'legal_tool'),
  r('/utils/legal_tool/:id', 'legal_tool'),
  r('/utils/legal_tool/documents/:id', 'legal_tool'),
  r('/utils/creatives_resize_tool', 'creatives_resize_tool'),
  r('/utils/signature_manager', 'signature_manager'),
  r('/utils/sdk-builder', 'sdk_builder'),
  r('/utils/app-tracking-manager', 'app_tracking_manager'),
  r('/utils/ssp/stats-manual', 'stats_manual'),
  r('/utils/ssp/logs-data/parametrization', 'logs_parametrization'),
  r('/not_allowed', null, 'not_allowed'),
];

/** Full path of a menu route: prefix + '/' + slug ('/' for home). */
export function menuRoutePath(route: Pick<MenuRoute, 'prefix' | 'slug'>): string {
  const p = [route.prefix, route.slug].filter(Boolean).join('/');
  return p === '' ? '/' : p.startsWith('/') ? p : `/${p}`;
}
