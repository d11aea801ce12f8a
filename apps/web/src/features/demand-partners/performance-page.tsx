/** Demand partners of the performance side (`/partners/demandpartners_performance`, `/new`, `/{network}`). */
import { demandPartners } from '@backoffice/core/resources/demand-partners';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PartnerScreen } from './partner-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(demandPartners, { side: 'performance' });

export default function PerformancePartnersPage() {
  return <PartnerScreen side="performance" />;
}
