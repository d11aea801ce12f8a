/** Precreation of the performance side (`/partners/precreation_perf`, `/new`, `/{id}`, `/clone/{id}`). */
import { precreation } from '@backoffice/core/resources/precreation';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PrecreationScreen } from './precreation-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(precreation, { side: 'performance' });

export default function PrecreationPerfPage() {
  return <PrecreationScreen side="performance" />;
}
