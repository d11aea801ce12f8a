/** Supply finances (`/finances/supply`): the supply team's manual finance entries (publishers). */
import { FinancesScreen } from './finances-screen.tsx';

export default function SupplyFinancesPage() {
  return <FinancesScreen team="supply" />;
}
