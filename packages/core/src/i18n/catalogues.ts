/**
 * The i18n catalogues (en, es), merged from one file per area. Keys are flat and dotted
 * (`login.mail.required`). Each area file is owned by the feature that uses it.
 */
import { api as enApi } from './en/api.ts';
import { billing as enBilling } from './en/billing.ts';
import { billingAccounts as enBillingAccounts } from './en/billing-accounts.ts';
import { budgets as enBudgets } from './en/budgets.ts';
import { common as enCommon } from './en/common.ts';
import { dashboard as enDashboard } from './en/dashboard.ts';
import { dataviewer as enDataviewer } from './en/dataviewer.ts';
import { deals as enDeals } from './en/deals.ts';
import { discrepancy as enDiscrepancy } from './en/discrepancy.ts';
import { financeReports as enFinanceReports } from './en/finance-reports.ts';
import { finances as enFinances } from './en/finances.ts';
import { floors as enFloors } from './en/floors.ts';
import { floorsPrebid as enFloorsPrebid } from './en/floors-prebid.ts';
import { impressionLogs as enImpressionLogs } from './en/impression-logs.ts';
import { inputs as enInputs } from './en/inputs.ts';
import { invoiceDocument as enInvoiceDocument } from './en/invoice-document.ts';
import { invoices as enInvoices } from './en/invoices.ts';
import { menu as enMenu } from './en/menu.ts';
import { partners as enPartners } from './en/partners.ts';
import { partnerStats as enPartnerStats } from './en/partner-stats.ts';
import { payouts as enPayouts } from './en/payouts.ts';
import { performanceReport as enPerformanceReport } from './en/performance-report.ts';
import { precreation as enPrecreation } from './en/precreation.ts';
import { prepayments as enPrepayments } from './en/prepayments.ts';
import { sspLogs as enSspLogs } from './en/ssp-logs.ts';
import { publishers as enPublishers } from './en/publishers.ts';
import { qps as enQps } from './en/qps.ts';
import { reports as enReports } from './en/reports.ts';
import { resources as enResources } from './en/resources.ts';
import { schedules as enSchedules } from './en/schedules.ts';
import { scheduler as enScheduler } from './en/scheduler.ts';
import { shell as enShell } from './en/shell.ts';
import { api as esApi } from './es/api.ts';
import { billing as esBilling } from './es/billing.ts';
import { billingAccounts as esBillingAccounts } from './es/billing-accounts.ts';
import { budgets as esBudgets } from './es/budgets.ts';
import { common as esCommon } from './es/common.ts';
import { dashboard as esDashboard } from './es/dashboard.ts';
import { dataviewer as esDataviewer } from './es/dataviewer.ts';
import { deals as esDeals } from './es/deals.ts';
import { discrepancy as esDiscrepancy } from './es/discrepancy.ts';
import { financeReports as esFinanceReports } from './es/finance-reports.ts';
import { finances as esFinances } from './es/finances.ts';
import { floors as esFloors } from './es/floors.ts';
import { floorsPrebid as esFloorsPrebid } from './es/floors-prebid.ts';
import { impressionLogs as esImpressionLogs } from './es/impression-logs.ts';
import { inputs as esInputs } from './es/inputs.ts';
import { invoiceDocument as esInvoiceDocument } from './es/invoice-document.ts';
import { invoices as esInvoices } from './es/invoices.ts';
import { menu as esMenu } from './es/menu.ts';
import { partners as esPartners } from './es/partners.ts';
import { partnerStats as esPartnerStats } from './es/partner-stats.ts';
import { payouts as esPayouts } from './es/payouts.ts';
import { performanceReport as esPerformanceReport } from './es/performance-report.ts';
import { precreation as esPrecreation } from './es/precreation.ts';
import { prepayments as esPrepayments } from './es/prepayments.ts';
import { sspLogs as esSspLogs } from './es/ssp-logs.ts';
import { publishers as esPublishers } from './es/publishers.ts';
import { qps as esQps } from './es/qps.ts';
import { reports as esReports } from './es/reports.ts';
import { resources as esResources } from './es/resources.ts';
import { schedules as esSchedules } from './es/schedules.ts';
import { scheduler as esScheduler } from './es/scheduler.ts';
import { shell as esShell } from './es/shell.ts';

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const en = { ...enCommon, ...enMenu, ...enShell, ...enApi, ...enInputs, ...enReports, ...enDataviewer, ...enQps, ...enDashboard, ...enSchedules, ...enResources, ...enPartners, ...enPublishers, ...enPrecreation, ...enBudgets, ...enPerformanceReport, ...enFloors, ...enFloorsPrebid, ...enDeals, ...enBilling, ...enBillingAccounts, ...enInvoiceDocument, ...enInvoices, ...enPayouts, ...enFinanceReports, ...enPrepayments, ...enFinances, ...enDiscrepancy, ...enPartnerStats, ...enImpressionLogs, ...enSspLogs, ...enScheduler } as const;
export type MessageKey = keyof typeof en;
export const es: Record<MessageKey, string> = { ...esCommon, ...esMenu, ...esShell, ...esApi, ...esInputs, ...esReports, ...esDataviewer, ...esQps, ...esDashboard, ...esSchedules, ...esResources, ...esPartners, ...esPublishers, ...esPrecreation, ...esBudgets, ...esPerformanceReport, ...esFloors, ...esFloorsPrebid, ...esDeals, ...esBilling, ...esBillingAccounts, ...esInvoiceDocument, ...esInvoices, ...esPayouts, ...esFinanceReports, ...esPrepayments, ...esFinances, ...esDiscrepancy, ...esPartnerStats, ...esImpressionLogs, ...esSspLogs, ...esScheduler };

export const catalogues: Record<Locale, Record<string, string>> = { en, es };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Translates a key with `{name}` interpolation; unknown keys come back unchanged. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const text = catalogues[locale][key] ?? catalogues.en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** Picks a locale from an Accept-Language header (es or en; default en). */
export function localeFromAcceptLanguage(header: string | undefined | null): Locale {
  if (!header) return DEFAULT_LOCALE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
    if (isLocale(tag)) return tag;
  }
  return DEFAULT_LOCALE;
}
