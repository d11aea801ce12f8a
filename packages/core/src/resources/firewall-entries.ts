/**
 * The IP firewall's allow-list (`/utils/ip`) on the resource layer: its reads (list, filters,
 * one entry, history, export) come from the layer; its changes are the firewall's own commands
 * (POST /v1/firewall/ip to allow an address, disable, enable, retry), because each one must also
 * rebuild the enforcement point's allow-list. Admins see everyone's entries, others their own.
 */
import { z } from 'zod';
import { FIREWALL_DISABLED_REASONS, FIREWALL_RESOURCE, FIREWALL_STATUSES, FIREWALL_TYPES, firewallIpSchema, firewallTypeSchema } from '../firewall.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';

export const firewallEntries = defineResource({
  name: 'firewall_entries',
  entity: 'firewall_entry',
  path: '/v1/firewall/entries',
  acl: FIREWALL_RESOURCE,
  schema: z.strictObject({ ip: firewallIpSchema, type: firewallTypeSchema }),
  fields: {
    id: COMMON_FIELDS.id,
    ip: { label: 'firewall.field.ip', type: 'text', list: true, sort: true, filter: 'contains' },
    owner_id: { label: 'firewall.field.owner', type: 'ref', ref: 'users', list: true },
    type: { label: 'firewall.field.type', type: 'enum', options: FIREWALL_TYPES, list: true, filter: 'in' },
    status: { label: 'firewall.field.status', type: 'enum', options: FIREWALL_STATUSES, list: true, sort: true, filter: 'in' },
    error: { label: 'firewall.field.error', type: 'message' },
    disabled_reason: { label: 'firewall.field.disabled_reason', type: 'enum', options: FIREWALL_DISABLED_REASONS },
    expires_at: { label: 'firewall.field.expires_at', type: 'datetime', list: true, sort: true, filter: 'range' },
    created_at: { ...COMMON_FIELDS.created_at, list: true },
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'ip',
  defaultSort: '-created_at',
  exportName: 'firewall_entries',
  writes: [],
});
