/** `/finance_reports` screen `playon_networks` (docs/decisions/030-finance-reports.md). */
import { FinanceReport } from './finance-report.tsx';

export default function PlayonNetworksPage() {
  return <FinanceReport screen="playon_networks" />;
}
