/** Publishers of the SSP side (`/partners/publishers_ssp`, `/{publisherId}`). */
import { publishers } from '@backoffice/core/resources/publishers';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PublisherScreen } from './publisher-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(publishers, { side: 'ssp' });

export default function PublishersSspPage() {
  return <PublisherScreen side="ssp" />;
}
