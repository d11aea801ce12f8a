/** `/billing_ssp/advertiser-billing`: what the SSP's demand partners owe us (issue 21). */
import { BillingRowsPage } from './billing-rows-page.tsx';

export default function SspAdvertiserBillingPage() {
  return <BillingRowsPage side="ssp" kind="advertiser" menuId="bs_advertiser_billing" />;
}
