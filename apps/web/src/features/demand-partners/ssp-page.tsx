/** Demand partners of the SSP side (`/partners/demandpartners_ssp`, `/{network}`); New opens the registration. */
import { demandPartners } from '@backoffice/core/resources/demand-partners';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PartnerScreen } from './partner-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(demandPartners, { side: 'ssp' });

export default function SspPartnersPage() {
  return <PartnerScreen side="ssp" />;
}
