/** Billing accounts of the performance side (`/billing_performance/advertiser`): its advertisers. */
import { useTranslation } from 'react-i18next';
import { AccountsScreen } from './accounts-screen.tsx';

export default function PerformanceAccountsPage() {
  const { t } = useTranslation();
  return <AccountsScreen side="performance" title={`${t('menu.bp_advertiser')} · ${t('menu.group.billing_performance')}`} />;
}
