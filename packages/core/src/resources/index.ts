/** Every resource declared in core, by name (references between them, the web app's reference inputs). */
import { agencies } from './agencies.ts';
import { companies } from './companies.ts';
import type { ResourceDef } from './define.ts';
import { endpoints } from './endpoints.ts';
import { firewallEntries } from './firewall-entries.ts';

export const RESOURCES: Readonly<Record<string, ResourceDef>> = { companies, agencies, endpoints, firewall_entries: firewallEntries };
