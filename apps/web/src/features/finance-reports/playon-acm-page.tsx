/** `/finance_reports` screen `playon_acm` (docs/decisions/030-finance-reports.md). */
import { FinanceReport } from './finance-report.tsx';

export default function PlayonAcmPage() {
  return <FinanceReport screen="playon_acm" />;
}
