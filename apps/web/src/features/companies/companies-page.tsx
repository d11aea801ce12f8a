/** Companies (`/utils/list_companies`, `/new`, `/{id}`): the resource layer's screens for the declaration in core. */
import { companies } from '@backoffice/core/resources/companies';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { ResourcePage } from '../../resources/resource-page.tsx';

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(companies);

export default function CompaniesPage() {
  return <ResourcePage def={companies} basePath="/utils/list_companies" titleKey="company.title" newTitleKey="company.new_title" />;
}
