/** Every resource declared in core, by name (references between them, the web app's reference inputs). */
import { agencies } from './agencies.ts';
import { budgets } from './budgets.ts';
import { campaignEvents } from './campaign-events.ts';
import { campaigns } from './campaigns.ts';
import { companies } from './companies.ts';
import { deals } from './deals.ts';
import type { ResourceDef } from './define.ts';
import { demandPartners } from './demand-partners.ts';
import { endpoints } from './endpoints.ts';
import { firewallEntries } from './firewall-entries.ts';
import { premiumOffers } from './offers.ts';
import { precreation } from './precreation.ts';
import { publishers } from './publishers.ts';
import { savedDataviewers } from './saved-dataviewers.ts';
import { scheduledJobs } from './scheduled-jobs.ts';
import { legalDocuments, legalTemplates } from '../legal.ts';

export const RESOURCES: Readonly<Record<string, ResourceDef>> = {
  companies,
  agencies,
  endpoints,
  demand_partners: demandPartners,
  publishers,
  precreation,
  firewall_entries: firewallEntries,
  saved_dataviewers: savedDataviewers,
  budgets,
  deals,
  scheduled_jobs: scheduledJobs,
  premium_offers: premiumOffers,
  campaigns,
  campaign_events: campaignEvents,
  legal_templates: legalTemplates,
  legal_documents: legalDocuments,
};
