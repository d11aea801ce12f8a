/** `/billing_ssp/supply-billing`: Supply pending payout (issue 23). */
import { PayoutsPage } from './payouts-page.tsx';

export default function SupplyPendingPage() {
  return <PayoutsPage side="ssp" mode="pending" menuId="bs_supply_pending_payout" />;
}
