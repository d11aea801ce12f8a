/** Billing accounts of the SSP side (`/billing_ssp/advertiser`): its demand partners. */
import { useTranslation } from 'react-i18next';
import { AccountsScreen } from './accounts-screen.tsx';

export default function SspAccountsPage() {
  const { t } = useTranslation();
  return <AccountsScreen side="ssp" title={`${t('menu.bs_advertiser')} · ${t('menu.group.billing_ssp')}`} />;
}
