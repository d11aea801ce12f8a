/** `/billing_performance/advertiser-billing`: what the performance side's advertisers owe us (issue 21). */
import { BillingRowsPage } from './billing-rows-page.tsx';

export default function PerformanceAdvertiserBillingPage() {
  return <BillingRowsPage side="performance" kind="advertiser" menuId="bp_advertiser_billing" />;
}
