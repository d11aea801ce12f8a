/** `/billing_performance/publishers_reports`: Publisher pending payout (issue 23). */
import { PayoutsPage } from './payouts-page.tsx';

export default function PublisherPendingPage() {
  return <PayoutsPage side="performance" mode="pending" menuId="bp_publisher_pending_payout" />;
}
