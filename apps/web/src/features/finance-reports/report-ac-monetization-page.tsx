/** `/finance_reports` screen `report_ac_monetization` (docs/decisions/030-finance-reports.md). */
import { FinanceReport } from './finance-report.tsx';

export default function ReportAcMonetizationPage() {
  return <FinanceReport screen="report_ac_monetization" />;
}
