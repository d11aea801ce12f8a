/** `/billing_performance/supply-billing`: what we owe the performance side's publishers (issue 21). */
import { BillingRowsPage } from './billing-rows-page.tsx';

export default function PerformanceSupplyBillingPage() {
  return <BillingRowsPage side="performance" kind="supply" menuId="bp_supply_billing" />;
}
