/** Publishers of the performance side (`/partners/publishers_performance`, `/{publisherId}`). */
import { publishers } from '@backoffice/core/resources/publishers';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { PublisherScreen } from './publisher-screen.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(publishers, { side: 'performance' });

export default function PublishersPerformancePage() {
  return <PublisherScreen side="performance" />;
}
