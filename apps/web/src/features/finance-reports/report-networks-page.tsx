/** `/finance_reports` screen `report_networks` (docs/decisions/030-finance-reports.md). */
import { FinanceReport } from './finance-report.tsx';

export default function ReportNetworksPage() {
  return <FinanceReport screen="report_networks" />;
}
