/** `/finance_reports` screen `revenue_margin_report` (docs/decisions/030-finance-reports.md). */
import { FinanceReport } from './finance-report.tsx';

export default function RevenueMarginPage() {
  return <FinanceReport screen="revenue_margin_report" />;
}
