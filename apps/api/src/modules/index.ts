/** Every API module, registered in this order by buildApp. Add new modules here. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { adminRoutes } from './admin/routes.ts';
import { agencyRoutes } from './agencies/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { billingAccountRoutes } from './billing-accounts/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { payoutRoutes } from './payouts/routes.ts';
import { budgetRoutes } from './budgets/routes.ts';
import { companyRoutes } from './companies/routes.ts';
import { endpointRoutes } from './endpoints/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { demandPartnerRoutes } from './demand-partners/routes.ts';
import { discrepancyRoutes } from './discrepancy/routes.ts';
import { dataviewerScheduleRoutes } from './dataviewer-schedules/routes.ts';
import { dataviewerRoutes } from './dataviewers/routes.ts';
import { dealRoutes } from './deals/routes.ts';
import { financeReportRoutes } from './finance-reports/routes.ts';
import { sspLogRoutes } from './ssp-logs/routes.ts';
import { floorRoutes } from './floors/routes.ts';
import { firewallRoutes } from './firewall/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { impressionLogRoutes } from './impression-logs/routes.ts';
import { performanceReportRoutes } from './performance-report/routes.ts';
import { precreationRoutes } from './precreation/routes.ts';
import { prepaymentRoutes } from './prepayments/routes.ts';
import { financeRoutes } from './finances/routes.ts';
import { publisherRoutes } from './publishers/routes.ts';
import { qpsRoutes } from './qps/routes.ts';
import { reportsRoutes } from './reports/routes.ts';
import { staffRoutes } from './staff/routes.ts';
import { schedulerRoutes } from './scheduler/routes.ts';
import { partnerStatsRoutes } from './partner-stats/routes.ts';

export type ModuleRoutes = (app: FastifyInstance, ctx: AppContext) => Promise<void>;

export const modules: ModuleRoutes[] = [healthRoutes, authRoutes, adminRoutes, staffRoutes, firewallRoutes, reportsRoutes, dataviewerRoutes, dataviewerScheduleRoutes, qpsRoutes, dashboardRoutes, companyRoutes, agencyRoutes, endpointRoutes, demandPartnerRoutes, publisherRoutes, precreationRoutes, performanceReportRoutes, budgetRoutes, floorRoutes, dealRoutes, billingRoutes, billingAccountRoutes, invoiceRoutes, payoutRoutes, prepaymentRoutes, financeRoutes, financeReportRoutes, impressionLogRoutes, partnerStatsRoutes, discrepancyRoutes, schedulerRoutes, sspLogRoutes];
