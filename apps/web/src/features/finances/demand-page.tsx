/** Demand finances (`/finances/demand`): the demand team's manual finance entries (advertisers). */
import { FinancesScreen } from './finances-screen.tsx';

export default function DemandFinancesPage() {
  return <FinancesScreen team="demand" />;
}
