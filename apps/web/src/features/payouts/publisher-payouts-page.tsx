/** `/billing_performance/performance-publisher-monthly-report`: Publisher payouts (issue 23). */
import { PayoutsPage } from './payouts-page.tsx';

export default function PublisherPayoutsPage() {
  return <PayoutsPage side="performance" mode="monthly" menuId="bp_publisher_payouts" />;
}
