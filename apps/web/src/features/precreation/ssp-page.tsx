/** Precreation of the ssp side (`/partners/precreation_ssp`, `/new`, `/{id}`). */
import { precreation } from '@backoffice/core/resources/precreation';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PrecreationScreen } from './precreation-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(precreation, { side: 'ssp' });

export default function PrecreationSspPage() {
  return <PrecreationScreen side="ssp" />;
}
